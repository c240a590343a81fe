/**
 * The contract schema as the screens use it: the kinds of list (closures, non-closures, broker
 * contracts) and their fixed filters, the sections, and the catalogue facts the form follows
 * (which sub-products a product offers, the KVG deductibles). The server checks the same rules
 * (server/contracts/); the browser only offers what fits.
 */
import { isRuleMet } from '../../auth/authProvider.ts';
import { getStoredUser } from '../../auth/session.ts';
import type { ApiRecord } from '../../resources/records.ts';
import { getModel } from '../../resources/registry.ts';
import { BROKER_MANDATE_PRODUCT_ID, type ProductGroup } from '../../schema/catalogue.ts';
import type { FieldModel } from '../../schema/model.ts';
import type { ContractType } from '../../shell/paths.ts';

export type Contract = ApiRecord<'contracts'>;
export const contractModel = () => getModel('contracts');

export const fieldOf = (name: string): FieldModel => {
  const field = contractModel().fields.find((candidate) => candidate.name === name);
  if (!field) throw new Error(`contracts has no field ${name}`);
  return field;
};

/** The three lists of contracts: each a fixed filter the user cannot remove (SPEC §9). */
export type ContractListKind = 'closures' | 'non-closures' | 'broker-contracts';
export const FIXED_FILTERS: Record<ContractListKind, Record<string, unknown>> = {
  closures: { contractType: 'closure' },
  'non-closures': { contractType: 'non-closure' },
  'broker-contracts': { contractType: 'closure', productId: BROKER_MANDATE_PRODUCT_ID },
};
export const typeOfList = (kind: ContractListKind): ContractType =>
  kind === 'non-closures' ? 'non-closure' : 'closure';

export const contractTypeOf = (record: Pick<Contract, 'contractType'> | undefined): ContractType =>
  record?.contractType === 'non-closure' ? 'non-closure' : 'closure';

/** Health products of the catalogue (server/migrations/0003_product_catalogue.sql). */
export const BASIC_PRODUCT_ID = 1;
export const SUPPLEMENTARY_PRODUCT_ID = 2;
export const BASIC_AND_SUPPLEMENTARY_PRODUCT_ID = 3;

/**
 * Whose sub-products are the main insurance's models (health basic: standard, family doctor, HMO,
 * telmed): the basic product's for "basic + supplementary", else the product's own.
 */
export const mainSubProductSource = (productId: number | undefined): number | undefined =>
  productId === BASIC_AND_SUPPLEMENTARY_PRODUCT_ID ? BASIC_PRODUCT_ID : productId;

/**
 * Whose sub-products are offered as supplementary insurances of a health contract: the
 * supplementary product's for "basic + supplementary", none for basic alone, else the product's own.
 */
export function supplementarySource(productId: number | undefined): number | undefined {
  if (productId === undefined || productId === BASIC_PRODUCT_ID) return undefined;
  if (productId === BASIC_AND_SUPPLEMENTARY_PRODUCT_ID) return SUPPLEMENTARY_PRODUCT_ID;
  return productId;
}

/** Whether the main insurance of a health product is KVG basic (model and deductible). */
export const hasBasicInsurance = (productId: number | undefined): boolean =>
  productId === BASIC_PRODUCT_ID || productId === BASIC_AND_SUPPLEMENTARY_PRODUCT_ID;

/**
 * KVG basic insurance deductibles in CHF (DOMAIN.md §1), with the year they are valid for: adults
 * 300–2500, children (under 19) 0–600 in steps of 100.
 */
export const KVG_DEDUCTIBLES = {
  year: 2025,
  adults: [300, 500, 1000, 1500, 2000, 2500],
  children: [0, 100, 200, 300, 400, 500, 600],
  /** KVG: a child is insured as one until the end of the year it turns 18. */
  childUntilAge: 18,
} as const;

/** Whether someone born on `dateOfBirth` is insured as a child on `onDate` (KVG: through the year of 18). */
export function isKvgChild(dateOfBirth: string | null | undefined, onDate = new Date()): boolean {
  if (!dateOfBirth) return false;
  const born = Number(dateOfBirth.slice(0, 4));
  return Number.isFinite(born) && onDate.getFullYear() - born <= KVG_DEDUCTIBLES.childUntilAge;
}

/** What the form shows for a product group (the sections beside the common ones). */
export interface GroupSections {
  /** Model / sub-product of the main insurance, variant, deductible (health basic). */
  basic: boolean;
  supplementary: boolean;
  /** Premium per payment cycle. */
  premium: boolean;
  term: boolean;
  coverageLines: boolean;
  finance: boolean;
}

export function sectionsOf(group: ProductGroup | undefined, productId?: number): GroupSections {
  return {
    basic: group === 'health' && hasBasicInsurance(productId),
    supplementary: group === 'health' && supplementarySource(productId) !== undefined,
    premium: group !== 'finance',
    term: group === 'life',
    coverageLines: group === 'property_casualty',
    finance: group === 'finance',
  };
}

/**
 * The values of a saved contract that its product group does not use are left out, so a product
 * changed to another group sends nothing the server would refuse (e.g. a health sub-product on a
 * car insurance). Sub-products and variants are kept only where the group shows them.
 */
export function cleanForGroup(
  values: Record<string, unknown>,
  group: ProductGroup | undefined,
): Record<string, unknown> {
  const sections = sectionsOf(group, values.productId as number | undefined);
  const insurance = { ...((values.insurance as Record<string, unknown> | null) ?? {}) };
  const coverage = { ...((values.coverage as Record<string, unknown> | null) ?? {}) };
  if (group !== 'health') {
    delete insurance.subProductVariantId;
    delete insurance.deductible;
  }
  if (!sections.basic && group === 'health') {
    delete insurance.subProductId;
    delete insurance.subProductVariantId;
    delete insurance.deductible;
  }
  if (!sections.premium) delete insurance.premium;
  if (!sections.term) delete insurance.termYears;
  if (!sections.finance) {
    delete coverage.amount;
    delete coverage.interestRate;
  }
  if (!sections.coverageLines) {
    delete coverage.lines;
    delete coverage.totalBasicPremium;
  }
  const { productGroup: _group, ...rest } = values;
  return {
    ...rest,
    insurance: withoutEmpty(insurance),
    coverage: withoutEmpty(coverage),
    supplementaryInsurances: sections.supplementary ? (values.supplementaryInsurances ?? []) : [],
  };
}

/** An object without its null, undefined and '' values (the schema's objects forbid null). */
export function withoutEmpty(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(value).filter(([, item]) => item !== null && item !== undefined && item !== ''),
  );
}

/**
 * Whether the signed-in user may delete contracts: the schema's rule for delete (x-permissions:
 * `delete-contracts`, ADMIN and BACKOFFICE), as the server enforces it.
 */
export const canDelete = (): boolean =>
  isRuleMet(contractModel().permissions.delete, getStoredUser());

/**
 * Whether the signed-in user may change contracts (the schema's rule for update; which contracts is
 * the server's: a consultant's own customers'). Those who may not delete end a contract instead.
 */
export const canUpdate = (): boolean =>
  isRuleMet(contractModel().permissions.update, getStoredUser());

/** The statuses that end a closure (the schema's contractStatus): by notice, or withdrawn. */
export const ENDING_STATUSES = ['terminated', 'cancelled'] as const;

/**
 * Whether a contract can still be cancelled: a closure that is not ended (terminated, cancelled)
 * nor rejected by the insurer. A non-closure never became a contract and has no status.
 */
export const isCancellable = (record: {
  contractType?: Contract['contractType'] | null;
  status?: Contract['status'] | null;
}): boolean =>
  record.contractType !== 'non-closure' &&
  !['terminated', 'cancelled', 'rejected'].includes(record.status ?? '');

/** Today in the browser's calendar, `YYYY-MM-DD` (the server's date format). */
export function localToday(now = new Date()): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
