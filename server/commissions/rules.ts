/**
 * Commission rules (issue 17): their rules when saved, loading them for matching, and the "which
 * rule applies?" tester. Matching, specificity and the courtage are src/schema/commissions.ts.
 *
 * Refused when saved (422 naming the field): availableTill before availableFrom, clientAgeTo
 * below clientAgeFrom, products the rule's company does not offer (`notOffered` on product_ids),
 * sub-products not of the rule's products and variants not of its sub-products (`notOfProduct`),
 * and an
 * active rule equally specific as another active one for an overlapping case
 * (`commissionRuleOverlap` on available_from, naming the other rule).
 */
import { sql } from 'kysely';
import { type CommissionType, type RuleMatch, rulesClash } from '../../src/schema/commissions.ts';
import type { ResourceHooks, WriteContext } from '../crud/hooks.ts';
import type { DB } from '../db/index.ts';
import type { ResourceRow } from '../db/resource.ts';
import { addError, type FieldErrors, issue } from '../http/errors.ts';
import { dateText as dateOf, merged } from '../customers/rules.ts';
import { jsonValue } from '../contracts/rules.ts';

const ids = (value: unknown): number[] => {
  const list = jsonValue(value);
  return Array.isArray(list) ? list.map(Number).filter(Number.isFinite) : [];
};
const num = (value: unknown): number | null =>
  value === null || value === undefined || value === '' ? null : Number(value);
const dateText = (value: unknown): string | null => dateOf(value) ?? null;

/** A stored (or merged) rule row as the matcher sees it. */
export function ruleOf(row: ResourceRow): RuleMatch {
  return {
    id: Number(row.id ?? 0),
    name: String(row.name ?? ''),
    version: Number(row.version ?? 1),
    isActive: row.is_active !== false,
    availableFrom: dateText(row.available_from) ?? '0000-01-01',
    availableTill: dateText(row.available_till),
    contractType: (row.contract_type as string | null) ?? null,
    clientAgeFrom: num(row.client_age_from),
    clientAgeTo: num(row.client_age_to),
    companyId: num(row.company_id),
    productIds: ids(row.product_ids),
    subProductIds: ids(row.sub_product_ids),
    subProductVariantIds: ids(row.sub_product_variant_ids),
    commissionType: (row.commission_type as CommissionType) ?? 'acquisition',
    calculationBasis: (row.calculation_basis as RuleMatch['calculationBasis']) ?? 'flat',
    premiumAmount: num(row.premium_amount),
    flatRate: num(row.flat_rate),
    liabilityMonths: Number(row.liability_months ?? 0),
    stars: Number(row.stars ?? 0),
    teamLeadStars: Number(row.team_lead_stars ?? 0),
  };
}

/** Every rule (a few hundred at most: read whole, matched in memory). */
export async function loadRules(db: DB): Promise<RuleMatch[]> {
  const rows = await db.selectFrom('commission_rules').selectAll().orderBy('id').execute();
  return rows.map((row) => ruleOf(row as unknown as ResourceRow));
}

async function validateRule(body: ResourceRow, context: WriteContext): Promise<FieldErrors> {
  const { db, existing } = context;
  await lockRules(db);
  const record = merged(existing, body);
  const errors: FieldErrors = {};
  const rule = ruleOf({ ...record, id: existing?.id ?? 0 });
  if (rule.availableTill && rule.availableTill < rule.availableFrom)
    addError(errors, 'available_till', issue('notBeforeFrom'));
  if (
    rule.clientAgeFrom !== null &&
    rule.clientAgeTo !== null &&
    rule.clientAgeTo < rule.clientAgeFrom
  )
    addError(errors, 'client_age_to', issue('notBelowFrom'));

  // The catalogue: products the company offers, sub-products of the products, variants of the
  // sub-products.
  if (rule.companyId && rule.productIds.length > 0) {
    const company = await db
      .selectFrom('companies')
      .select('products')
      .where('id', '=', rule.companyId)
      .executeTakeFirst();
    const offered = ids(company?.products);
    if (company && rule.productIds.some((id) => !offered.includes(id)))
      addError(errors, 'product_ids', issue('notOffered'));
  }
  if (rule.subProductIds.length > 0) {
    const rows = await db
      .selectFrom('sub_products')
      .select(['id', 'product_id'])
      .where('id', 'in', rule.subProductIds)
      .execute();
    const bundle = rule.productIds.includes(3) ? [1, 2] : [];
    if (
      rule.productIds.length > 0 &&
      rows.some(
        (row) => !rule.productIds.includes(row.product_id) && !bundle.includes(row.product_id),
      )
    )
      addError(errors, 'sub_product_ids', issue('notOfProduct'));
  }
  if (rule.subProductVariantIds.length > 0 && rule.subProductIds.length > 0) {
    const rows = await db
      .selectFrom('sub_product_variants')
      .select(['id', 'sub_product_id'])
      .where('id', 'in', rule.subProductVariantIds)
      .execute();
    if (rows.some((row) => !rule.subProductIds.includes(row.sub_product_id)))
      addError(errors, 'sub_product_variant_ids', issue('notOfProduct'));
  }

  // Two active rules equally specific for an overlapping case: the engine could not choose.
  if (Object.keys(errors).length === 0 && rule.isActive) {
    const others = (await loadRules(db)).filter((other) => other.id !== rule.id);
    const clash = others.find((other) => rulesClash(rule, other));
    if (clash)
      addError(
        errors,
        'available_from',
        issue('commissionRuleOverlap', { rule: clash.name, id: clash.id }),
      );
  }
  return errors;
}

export const commissionRuleHooks: ResourceHooks = {
  validate: validateRule,
};

/** Serialises rule writes, so two clashing rules saved at once cannot both pass the check. */
export async function lockRules(db: DB): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext('commission_rules'))`.execute(db);
}
