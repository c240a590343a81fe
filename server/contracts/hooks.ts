/**
 * CRUD hooks of contracts (issue 14; registered by ./index.ts). Visibility is generic: a contract
 * follows its customer (`customerId` is `x-owner-via`), so a consultant sees, changes and creates
 * contracts of its own customers only. These hooks add:
 * - validate: the rules of ./rules.ts on the locked stored record merged with the body;
 * - prepare: what the server sets, never the client (the schema marks them readOnly) —
 *   productGroup from the product, annualPremium / productionSum / totalCommission from
 *   ./figures.ts, protocolMissing (a health closure without a signed document of type
 *   advice_protocol on it, signedOn set; kept up to date by the documents' hooks too:
 *   server/customers/hooks.ts), no status on a
 *   non-closure; on create the consultant defaults to the customer's and the client snapshot
 *   (nationality, occupation, permit type) to the insured person's (the household member, else the
 *   customer), field by field where the body leaves it empty;
 * - the list's own parameters: `assignment=all|me|unassigned` (the consultant is the principal /
 *   none), `work_location=switzerland|montreux|zurich` (the consultant's users.work_location), and
 *   a search word that also finds the contracts of customers (their search document) and insurers
 *   (their names) it matches.
 */
import { type Expression, type SqlBool, sql } from 'kysely';
import type { ResourceHooks, WriteContext } from '../crud/hooks.ts';
import type { DB } from '../db/index.ts';
import type { ResourceRow } from '../db/resource.ts';
import { merged } from '../customers/rules.ts';
import type { ProductGroup } from './catalogue.ts';
import { contractFigures, type PaymentCycle } from './figures.ts';
import { contractErrors, listOf, objectOf, productGroupOf } from './rules.ts';
import { isBlank } from '../db/values.ts';

export const ASSIGNMENTS = ['all', 'me', 'unassigned'] as const;
export const WORK_LOCATIONS = ['switzerland', 'montreux', 'zurich'] as const;
/** The document type that is the advice protocol a health closure needs. */
export const ADVICE_PROTOCOL = 'advice_protocol';

const num = (value: unknown): number | null => (typeof value === 'number' ? value : null);

/** The computed figures of a record (wire keys, jsonb as objects or JSON text). */
export function figuresOf(record: ResourceRow, group: ProductGroup) {
  const insurance = objectOf(record.insurance);
  const coverage = objectOf(record.coverage);
  return contractFigures({
    productGroup: group,
    paymentCycle: (record.payment_cycle as PaymentCycle | null | undefined) ?? null,
    insurance: { premium: num(insurance.premium), termYears: num(insurance.term_years) },
    supplementaryInsurances: listOf(record.supplementary_insurances).map((line) => ({
      premiumMonth: num(line.premium_month),
    })),
    coverage: {
      amount: num(coverage.amount),
      lines: listOf(coverage.lines).map((line) => ({ premium: num(line.premium) })),
    },
    commissions: listOf(record.commissions).map((line) => ({ comission: num(line.comission) })),
  });
}

/** Whether a stored contract has a signed advice protocol (signedOn set) among its documents. */
export async function hasAdviceProtocol(db: DB, contractId: number): Promise<boolean> {
  const row = await db
    .selectFrom('documents')
    .select('id')
    .where('contract_id', '=', contractId)
    .where('document_type', '=', ADVICE_PROTOCOL)
    .where('signed_on', 'is not', null)
    .limit(1)
    .executeTakeFirst();
  return Boolean(row);
}

/** protocolMissing of a contract: a health closure without a signed advice protocol. */
export const protocolMissing = (
  contractType: unknown,
  group: ProductGroup | null | undefined,
  hasProtocol: boolean,
): boolean => contractType !== 'non-closure' && group === 'health' && !hasProtocol;

/**
 * Recomputes protocolMissing of stored contracts (after a document of theirs changed), in the
 * caller's transaction. Writes only where the value changes.
 */
export async function refreshProtocolMissing(db: DB, contractIds: number[]): Promise<void> {
  const ids = [...new Set(contractIds)];
  if (ids.length === 0) return;
  const missing = sql`(contract_type is distinct from 'non-closure' and product_group = 'health'
    and not exists (select 1 from documents d
      where d.contract_id = contracts.id and d.document_type = ${ADVICE_PROTOCOL}
        and d.signed_on is not null))`;
  await sql`update contracts set protocol_missing = ${missing}
    where id in (${sql.join(ids)}) and protocol_missing is distinct from ${missing}`.execute(db);
}

/** On create: the client snapshot's empty fields from the insured person. */
async function clientSnapshot(db: DB, record: ResourceRow): Promise<ResourceRow | undefined> {
  const client = objectOf(record.client);
  if (!isBlank(client.nationality) && !isBlank(client.occupation) && !isBlank(client.permit_type))
    return undefined;
  const memberId = num(record.household_member_id);
  const person =
    memberId !== null
      ? await db
          .selectFrom('household_members')
          .select(['nationality', 'occupation', 'permit_type'])
          .where('id', '=', memberId)
          .executeTakeFirst()
      : await db
          .selectFrom('customers')
          .select(['nationality', 'permit_type'])
          .where('id', '=', Number(record.customer_id))
          .executeTakeFirst();
  if (!person) return undefined;
  const out: ResourceRow = { ...client };
  for (const [key, value] of Object.entries(person)) {
    if (isBlank(out[key]) && !isBlank(value)) out[key] = value;
  }
  return out;
}

async function prepareContract(values: ResourceRow, context: WriteContext): Promise<ResourceRow> {
  const { db, mode, existing } = context;
  const record = { ...(existing ?? {}), ...values };
  const group = (await productGroupOf(db, record.product_id)) ?? null;
  const out: ResourceRow = { ...values, product_group: group };
  const figures = figuresOf(record, group ?? 'other');
  out.annual_premium = figures.annualPremium;
  out.production_sum = figures.productionSum;
  out.total_commission = figures.totalCommission;
  if (record.contract_type === 'non-closure') out.status = null;
  const hasProtocol =
    mode === 'update' && existing ? await hasAdviceProtocol(db, Number(existing.id)) : false;
  out.protocol_missing = protocolMissing(record.contract_type, group, hasProtocol);
  if (mode === 'create') {
    if (isBlank(record.consultant_id)) {
      const customer = await db
        .selectFrom('customers')
        .select('assigned_to')
        .where('id', '=', Number(record.customer_id))
        .executeTakeFirst();
      if (customer?.assigned_to) out.consultant_id = customer.assigned_to;
    }
    const client = await clientSnapshot(db, record);
    if (client) out.client = JSON.stringify(client);
  }
  return out;
}

/**
 * A word's pattern against the insurers' names (a handful of rows). The customer's names need no
 * condition here: they are in the contracts' own search document (customer_name, kept by the
 * database: migration 0023).
 */
function searchAlso(pattern: string): Expression<SqlBool>[] {
  const like = sql`gscrm_fold(${pattern}::text)`;
  return [
    sql<SqlBool>`${sql.ref('contracts.company_id')} in (select co.id from companies co where gscrm_fold(co.name_de) like ${like} or gscrm_fold(co.name_fr) like ${like} or gscrm_fold(co.name_it) like ${like} or gscrm_fold(co.name_en) like ${like})`,
  ];
}

export const contractHooks: ResourceHooks = {
  async validate(body, { db, existing }) {
    const errors = await contractErrors(db, merged(existing, body), existing);
    return Object.keys(errors).length > 0 ? errors : undefined;
  },
  prepare: prepareContract,
  listParameters: {
    assignment: {
      type: 'string',
      enum: [...ASSIGNMENTS],
      description:
        "all; me: the principal is the contract's consultant; unassigned: no consultant.",
    },
    work_location: {
      type: 'string',
      enum: [...WORK_LOCATIONS],
      description: "Contracts whose consultant works at this location (the user's work_location).",
    },
  },
  listConditions(query, { principal }) {
    const conditions: NonNullable<ReturnType<NonNullable<ResourceHooks['listConditions']>>> = [];
    if (query.assignment === 'me')
      conditions.push((eb) => eb('consultant_id', '=', principal?.id ?? 0));
    if (query.assignment === 'unassigned') conditions.push((eb) => eb('consultant_id', 'is', null));
    const location = query.work_location;
    if (typeof location === 'string')
      conditions.push(
        () =>
          sql<SqlBool>`${sql.ref('contracts.consultant_id')} in (select u.id from users u where u.work_location = ${location})`,
      );
    return conditions;
  },
  searchAlso: (_eb, pattern) => searchAlso(pattern),
};
