/**
 * Rules of a contract that its schema cannot say (issue 14), checked by the write hooks
 * (./hooks.ts) on the record as it will be stored: the stored record (locked) merged with the body.
 * Every refusal names its field by its wire path (`supplementary_insurances.0.sub_product_id`, as
 * ajv's errors do: server/http/errors.ts) with a code of src/schema/errors.ts.
 *
 * - dates: the end not before the start (`notBeforeStart`), the signing not in the future
 *   (`notInFuture`, Swiss today);
 * - catalogue: the sub-products (`insurance.sub_product_id`, `supplementary_insurances.<i>.
 *   sub_product_id`) must be of the chosen product (`notOfProduct`) — for the health product
 *   "basic + supplementary" (product 3) the sub-products of "basic" (1) and "supplementary" (2)
 *   count as well, since it bundles the two; a variant must be of its line's sub-product
 *   (`notOfSubProduct`, also when the line names no sub-product); unknown ids `unknownReference`;
 * - the insurer: a closure needs one (`required`); it must offer the product (`companies.products`,
 *   `notOffered`), checked when the company or the product is chosen or changed (a contract whose
 *   insurer later dropped the product stays editable);
 * - a non-closure needs its reason (`required`);
 * - `coverage.interest_rate` only for finance products (`onlyForFinance`; the schema bounds it to
 *   0–25 % and every premium and sum to non-negative amounts);
 * - `insurance.premium` plausible: at most CHF 1,000,000 a year for its payment cycle (CHF 83,333.33
 *   a month), a single premium at most CHF 5,000,000 (`maximum {limit}`);
 * - `household_member_id`: a member of the contract's customer (`notOfCustomer`);
 * - `previous_insurance.previous_companies`: known companies (`unknownReference`).
 * Visibility of the customer and the household member is the generic x-owner-via check
 * (server/access/visibility.ts: 422 "refers to unknown customers", as for an id that does not exist).
 */
import { type ErrorIssue, type FieldErrors, addError, issue } from '../http/errors.ts';
import type { DB } from '../db/index.ts';
import type { ResourceRow } from '../db/resource.ts';
import { dateText, swissToday } from '../customers/rules.ts';
import { PAYMENTS_PER_YEAR } from '../../src/schema/figures.ts';
import type { ProductGroup } from './catalogue.ts';

/**
 * Plausibility bounds of a contract's premium (CHF): at most MAX_ANNUAL_PREMIUM a year (per
 * payment: that divided by the payments a year), a single premium at most MAX_SINGLE_PREMIUM.
 * Above them the premium is refused as a typing error (422 `maximum` on insurance.premium).
 */
export const MAX_ANNUAL_PREMIUM = 1_000_000;
export const MAX_SINGLE_PREMIUM = 5_000_000;

/** Health "basic + supplementary": its lines may name sub-products of basic (1) and supplementary (2). */
export const HEALTH_BUNDLE_PRODUCT_ID = 3;
export const HEALTH_BUNDLE_PARTS = [1, 2] as const;

/** The products whose sub-products a contract of `productId` may name. */
export function subProductOwners(productId: number): number[] {
  return productId === HEALTH_BUNDLE_PRODUCT_ID ? [productId, ...HEALTH_BUNDLE_PARTS] : [productId];
}

export type Json = Record<string, unknown>;

/** A jsonb value as an object: the wire and the database give objects, column values JSON text. */
export function jsonValue(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

export const objectOf = (value: unknown): Json => {
  const parsed = jsonValue(value);
  return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Json) : {};
};

export const listOf = (value: unknown): Json[] => {
  const parsed = jsonValue(value);
  return Array.isArray(parsed)
    ? parsed.filter((item): item is Json => Boolean(item) && typeof item === 'object')
    : [];
};

const idOf = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isInteger(value) ? value : undefined;

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The product's group, or undefined for an unknown product. */
/**
 * Whether the insurer offers the product (`companies.products`); an unknown company counts as
 * offering it: the generic reference check names that one (422 on company_id). Contracts and
 * offers (server/offers/hooks.ts) both ask.
 */
export async function companyOffers(
  db: DB,
  companyId: number,
  productId: number,
): Promise<boolean> {
  const company = await db
    .selectFrom('companies')
    .select('products')
    .where('id', '=', companyId)
    .executeTakeFirst();
  const products = jsonValue(company?.products);
  return !company || (Array.isArray(products) && products.includes(productId));
}

export async function productGroupOf(
  db: DB,
  productId: unknown,
): Promise<ProductGroup | undefined> {
  const id = idOf(productId);
  if (id === undefined) return undefined;
  const row = await db
    .selectFrom('products')
    .select('group')
    .where('id', '=', id)
    .executeTakeFirst();
  return (row?.group ?? undefined) as ProductGroup | undefined;
}

interface CatalogueLine {
  path: string;
  subProductId?: number;
  variantId?: number;
}

/** Sub-products and variants of the lines: their owners, read in two queries. */
async function catalogueErrors(
  db: DB,
  productId: number,
  lines: CatalogueLine[],
  errors: FieldErrors,
): Promise<void> {
  const subIds = [...new Set(lines.flatMap((line) => line.subProductId ?? []))];
  const variantIds = [...new Set(lines.flatMap((line) => line.variantId ?? []))];
  const subs = new Map(
    subIds.length === 0
      ? []
      : (
          await db
            .selectFrom('sub_products')
            .select(['id', 'product_id'])
            .where('id', 'in', subIds)
            .execute()
        ).map((row) => [row.id, row.product_id] as const),
  );
  const variants = new Map(
    variantIds.length === 0
      ? []
      : (
          await db
            .selectFrom('sub_product_variants')
            .select(['id', 'sub_product_id'])
            .where('id', 'in', variantIds)
            .execute()
        ).map((row) => [row.id, row.sub_product_id] as const),
  );
  const owners = subProductOwners(productId);
  for (const line of lines) {
    if (line.subProductId !== undefined) {
      const owner = subs.get(line.subProductId);
      if (owner === undefined)
        addError(
          errors,
          `${line.path}.sub_product_id`,
          issue('unknownReference', { resource: 'sub-products', ids: String(line.subProductId) }),
        );
      else if (!owners.includes(owner))
        addError(errors, `${line.path}.sub_product_id`, issue('notOfProduct'));
    }
    if (line.variantId !== undefined) {
      const owner = variants.get(line.variantId);
      if (owner === undefined)
        addError(
          errors,
          `${line.path}.sub_product_variant_id`,
          issue('unknownReference', {
            resource: 'sub-product-variants',
            ids: String(line.variantId),
          }),
        );
      else if (owner !== line.subProductId)
        addError(errors, `${line.path}.sub_product_variant_id`, issue('notOfSubProduct'));
    }
  }
}

/** Unknown ids of a table, in the order given. */
async function unknownIds(
  db: DB,
  table: 'users' | 'companies',
  ids: number[],
): Promise<{ missing: number[]; rows: Map<number, boolean> }> {
  if (ids.length === 0) return { missing: [], rows: new Map() };
  const rows =
    table === 'users'
      ? await db.selectFrom('users').select(['id', 'is_active']).where('id', 'in', ids).execute()
      : (await db.selectFrom('companies').select('id').where('id', 'in', ids).execute()).map(
          (row) => ({ id: row.id, is_active: true }),
        );
  const found = new Map(rows.map((row) => [row.id, row.is_active !== false] as const));
  return { missing: ids.filter((id) => !found.has(id)), rows: found };
}

/**
 * The errors of a contract as it will be stored (wire keys; `record` is the stored record merged
 * with the body, `existing` the stored one on update).
 */
export async function contractErrors(
  db: DB,
  record: ResourceRow,
  existing?: ResourceRow,
  today = swissToday(),
): Promise<FieldErrors> {
  const errors: FieldErrors = {};
  const add = (field: string, found: ErrorIssue) => addError(errors, field, found);
  const changed = (column: string) => !existing || !same(existing[column], record[column]);

  // Dates.
  const start = dateText(record.start_date);
  const end = dateText(record.end_date);
  const signing = dateText(record.signing_date);
  if (start && end && end < start) add('end_date', issue('notBeforeStart'));
  if (signing && signing > today) add('signing_date', issue('notInFuture'));

  const productId = idOf(record.product_id);
  const group = await productGroupOf(db, productId);
  const closure = (record.contract_type ?? 'closure') === 'closure';

  // The catalogue: sub-products of the product, variants of the sub-products.
  if (productId !== undefined && group !== undefined) {
    const insurance = objectOf(record.insurance);
    const lines: CatalogueLine[] = [
      {
        path: 'insurance',
        subProductId: idOf(insurance.sub_product_id),
        variantId: idOf(insurance.sub_product_variant_id),
      },
      ...listOf(record.supplementary_insurances).map((line, index) => ({
        path: `supplementary_insurances.${index}`,
        subProductId: idOf(line.sub_product_id),
        variantId: idOf(line.sub_product_variant_id),
      })),
    ];
    await catalogueErrors(db, productId, lines, errors);
  }

  // The insurer.
  const companyId = idOf(record.company_id);
  if (closure && companyId === undefined) add('company_id', issue('required'));
  if (
    companyId !== undefined &&
    productId !== undefined &&
    group !== undefined &&
    (changed('company_id') || changed('product_id'))
  ) {
    if (!(await companyOffers(db, companyId, productId))) add('company_id', issue('notOffered'));
  }

  if (!closure && (record.reason === null || record.reason === undefined))
    add('reason', issue('required'));

  // A premium beyond what a private or SME customer pays is a typing error (an extra zero, the
  // annual figure in a monthly contract): refused with the highest plausible amount per payment.
  const premium = objectOf(record.insurance).premium;
  if (typeof premium === 'number') {
    const cycle = String(record.payment_cycle ?? 'monthly');
    // A single premium (0 payments a year) or an unknown cycle (the schema's to refuse).
    const perYear = (PAYMENTS_PER_YEAR as Record<string, number | undefined>)[cycle] ?? 0;
    const limit =
      perYear === 0 ? MAX_SINGLE_PREMIUM : Math.floor((MAX_ANNUAL_PREMIUM / perYear) * 100) / 100;
    if (premium > limit) add('insurance.premium', issue('maximum', { limit }));
  }

  const coverage = objectOf(record.coverage);
  if (
    group !== undefined &&
    group !== 'finance' &&
    coverage.interest_rate !== null &&
    coverage.interest_rate !== undefined
  )
    add('coverage.interest_rate', issue('onlyForFinance'));

  // The insured household member belongs to the contract's customer.
  const memberId = idOf(record.household_member_id);
  const customerId = idOf(record.customer_id);
  if (memberId !== undefined && customerId !== undefined) {
    const member = await db
      .selectFrom('household_members')
      .select('customer_id')
      .where('id', '=', memberId)
      .executeTakeFirst();
    // An unknown member is the generic reference check's.
    if (member && member.customer_id !== customerId)
      add('household_member_id', issue('notOfCustomer'));
  }

  // Previous insurers.
  const previous = objectOf(record.previous_insurance);
  const previousIds = (
    Array.isArray(previous.previous_companies) ? previous.previous_companies : []
  ).flatMap((id) => idOf(id) ?? []);
  const companies = await unknownIds(db, 'companies', previousIds);
  if (companies.missing.length > 0)
    add(
      'previous_insurance.previous_companies',
      issue('unknownReference', { resource: 'companies', ids: companies.missing.join(', ') }),
    );
  return errors;
}
