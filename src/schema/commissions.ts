/**
 * The commission model's pure parts, shared by the engine (server/commissions/), the rules
 * screen's tester and the tests (issue 17; DOMAIN.md §2; docs/ARCHITECTURE.md "Commissions"):
 * statuses, specificity of a rule, the courtage of a rule for a case, legal caps, rounding.
 * Money is integer centimes throughout; CHF only at the edges.
 */

/** A ledger line's life (DOMAIN.md §2, spec §4's 'ready_present' is the default filter). */
export const LINE_STATUSES = ['pending', 'ready_present', 'in_payout', 'paid', 'reversed'] as const;
export type LineStatus = (typeof LINE_STATUSES)[number];

/** Lines that belong to a person (paid out; rounded to 0.05), as opposed to courtage and sub-brokers. */
export const PEOPLE_KINDS = [
  'consultant',
  'team_lead',
  'call_centre',
  'mandate',
  'bonus',
  'advance',
  'correction',
] as const;
export const LINE_KINDS = ['courtage', 'sub_broker', ...PEOPLE_KINDS] as const;
export type LineKind = (typeof LINE_KINDS)[number];

export type CommissionType = 'acquisition' | 'portfolio';
export type CalculationBasis = 'monthly_premium' | 'annual_premium' | 'production_sum' | 'flat';

/**
 * The legal caps on what insurers pay brokers (DOMAIN.md §2: since 1 September 2024, for 2025
 * premiums onwards), one dated table: KVG basic at most CHF 70 per insured person, VVG
 * supplementary at most 16 monthly premiums per product sold. Product ids are the catalogue's
 * (server/migrations/0003_product_catalogue.sql): 1 basic (KVG), 2 supplementary (VVG), 3 both.
 */
export const LEGAL_CAPS = [
  {
    validFrom: '2024-09-01',
    kvgPerPerson: 7_000,
    vvgMonthlyPremiums: 16,
    kvgProducts: [1, 3],
    vvgProducts: [2, 3],
  },
] as const;

/** The caps in force on a signing date; none before the first one. */
export function capsOn(signingDate: string) {
  let found: (typeof LEGAL_CAPS)[number] | undefined;
  for (const caps of LEGAL_CAPS) if (caps.validFrom <= signingDate) found = caps;
  return found;
}

/** Rounds half away from zero to a multiple of `step` centimes (1: a centime, 5: CHF 0.05). */
export function roundTo(centimes: number, step = 1): number {
  const sign = centimes < 0 ? -1 : 1;
  return sign * Math.round(Math.abs(centimes) / step) * step || 0;
}

/** CHF (a number from the wire) as centimes. */
export const toCentimes = (chf: number | null | undefined): number =>
  roundTo(Math.round((chf ?? 0) * 1000) / 10);
/** Centimes as CHF (for texts and the wire). */
export const toChf = (centimes: number): number => Math.round(centimes) / 100;

/** A rule as far as matching goes (camelCase, as the schema). */
export interface RuleMatch {
  id: number;
  name: string;
  version: number;
  isActive: boolean;
  availableFrom: string;
  availableTill: string | null;
  contractType: string | null;
  clientAgeFrom: number | null;
  clientAgeTo: number | null;
  companyId: number | null;
  productIds: number[];
  subProductIds: number[];
  subProductVariantIds: number[];
  commissionType: CommissionType;
  calculationBasis: CalculationBasis;
  premiumAmount: number | null;
  flatRate: number | null;
  liabilityMonths: number;
  stars: number;
  teamLeadStars: number;
}

/** A case a rule may match: a closure's facts at signing. */
export interface RuleCase {
  signingDate: string;
  category?: string | null;
  clientAge?: number | null;
  companyId?: number | null;
  productId: number;
  subProductIds?: number[];
  subProductVariantIds?: number[];
}

/**
 * How specific a rule is (DOMAIN.md §2): variant > sub-product > product > any, then a company
 * beats none. The level is what the rule names at its narrowest.
 */
export function specificityOf(
  rule: Pick<RuleMatch, 'companyId' | 'productIds' | 'subProductIds' | 'subProductVariantIds'>,
): number {
  const level =
    rule.subProductVariantIds.length > 0
      ? 3
      : rule.subProductIds.length > 0
        ? 2
        : rule.productIds.length > 0
          ? 1
          : 0;
  return level * 2 + (rule.companyId ? 1 : 0);
}

const intersects = (a: readonly number[], b: readonly number[] = []) =>
  a.some((value) => b.includes(value));

/** Whether a rule applies to a case (the rule's own activity and type aside). */
export function ruleMatches(rule: RuleMatch, at: RuleCase): boolean {
  if (rule.availableFrom > at.signingDate) return false;
  if (rule.availableTill && rule.availableTill < at.signingDate) return false;
  if (rule.contractType && at.category && rule.contractType !== at.category) return false;
  if (rule.contractType && !at.category) return false;
  if (rule.clientAgeFrom !== null || rule.clientAgeTo !== null) {
    if (at.clientAge === null || at.clientAge === undefined) return false;
    if (rule.clientAgeFrom !== null && at.clientAge < rule.clientAgeFrom) return false;
    if (rule.clientAgeTo !== null && at.clientAge > rule.clientAgeTo) return false;
  }
  if (rule.companyId && rule.companyId !== at.companyId) return false;
  if (rule.productIds.length > 0 && !rule.productIds.includes(at.productId)) return false;
  if (rule.subProductIds.length > 0 && !intersects(rule.subProductIds, at.subProductIds))
    return false;
  if (
    rule.subProductVariantIds.length > 0 &&
    !intersects(rule.subProductVariantIds, at.subProductVariantIds)
  )
    return false;
  return true;
}

/**
 * The rule that applies to a case for a commission type: the most specific active matching rule;
 * equally specific ones (which saving refuses for overlapping cases) fall to the later
 * availableFrom, then the lower id, so the choice never depends on the order rows come in.
 */
export function chooseRule(
  rules: readonly RuleMatch[],
  at: RuleCase,
  type: CommissionType,
): { rule: RuleMatch | null; candidates: Array<{ rule: RuleMatch; specificity: number }> } {
  const candidates = rules
    .filter((rule) => rule.isActive && rule.commissionType === type && ruleMatches(rule, at))
    .map((rule) => ({ rule, specificity: specificityOf(rule) }))
    .sort(
      (a, b) =>
        b.specificity - a.specificity ||
        b.rule.availableFrom.localeCompare(a.rule.availableFrom) ||
        a.rule.id - b.rule.id,
    );
  return { rule: candidates[0]?.rule ?? null, candidates };
}

/** Whether two ranges [from, till] (null: open) overlap. */
function rangesOverlap<T extends string | number>(
  fromA: T | null,
  tillA: T | null,
  fromB: T | null,
  tillB: T | null,
): boolean {
  if (tillA !== null && fromB !== null && tillA < fromB) return false;
  if (tillB !== null && fromA !== null && tillB < fromA) return false;
  return true;
}

/**
 * Whether two rules are equally specific for some case both match (DOMAIN.md §2: refused when
 * saved): both active, same commission type, same specificity, overlapping signing dates and ages,
 * compatible categories, the same company, and the lists at their level sharing a value.
 */
export function rulesClash(a: RuleMatch, b: RuleMatch): boolean {
  if (!a.isActive || !b.isActive || a.commissionType !== b.commissionType) return false;
  if (specificityOf(a) !== specificityOf(b)) return false;
  if ((a.companyId ?? null) !== (b.companyId ?? null)) return false;
  if (a.contractType && b.contractType && a.contractType !== b.contractType) return false;
  if (!rangesOverlap(a.availableFrom, a.availableTill, b.availableFrom, b.availableTill))
    return false;
  if (!rangesOverlap(a.clientAgeFrom, a.clientAgeTo, b.clientAgeFrom, b.clientAgeTo)) return false;
  // The product lists narrow further at every level: disjoint products never meet.
  if (a.productIds.length > 0 && b.productIds.length > 0 && !intersects(a.productIds, b.productIds))
    return false;
  if (
    a.subProductIds.length > 0 &&
    b.subProductIds.length > 0 &&
    !intersects(a.subProductIds, b.subProductIds)
  )
    return false;
  if (
    a.subProductVariantIds.length > 0 &&
    b.subProductVariantIds.length > 0 &&
    !intersects(a.subProductVariantIds, b.subProductVariantIds)
  )
    return false;
  return true;
}

/** One step of a line's explanation: a translation key (app.commissions.explain.*) and figures. */
export interface ExplainStep {
  key: string;
  params?: Record<string, string | number>;
}
export const explainKey = (step: string) => `app.commissions.explain.${step}`;

/** The figures of a case the courtage is computed from (centimes). */
export interface CourtageInput {
  annualPremium: number;
  productionSum: number;
}

/**
 * The courtage of a rule for a case (centimes, to the centime) and its explanation:
 * monthly_premium — premiumAmount monthly premiums (the annual premium / 12); annual_premium and
 * production_sum — premiumAmount percent of it; flat — flatRate.
 */
export function courtageOf(
  rule: Pick<RuleMatch, 'calculationBasis' | 'premiumAmount' | 'flatRate'>,
  input: CourtageInput,
): { amount: number; explain: ExplainStep[] } {
  const factor = rule.premiumAmount ?? 0;
  switch (rule.calculationBasis) {
    case 'monthly_premium': {
      const monthly = input.annualPremium / 12;
      const amount = roundTo(monthly * factor);
      return {
        amount,
        explain: [
          {
            key: explainKey('monthlyPremium'),
            params: { basis: toChf(roundTo(monthly)), factor, amount: toChf(amount) },
          },
        ],
      };
    }
    case 'annual_premium':
    case 'production_sum': {
      const basis =
        rule.calculationBasis === 'annual_premium' ? input.annualPremium : input.productionSum;
      const amount = roundTo((basis * factor) / 100);
      return {
        amount,
        explain: [
          {
            key: explainKey(
              rule.calculationBasis === 'annual_premium' ? 'annualPremium' : 'productionSum',
            ),
            params: { basis: toChf(basis), percent: factor, amount: toChf(amount) },
          },
        ],
      };
    }
    default: {
      const amount = toCentimes(rule.flatRate);
      return { amount, explain: [{ key: explainKey('flat'), params: { amount: toChf(amount) } }] };
    }
  }
}

/**
 * The legal cap of a closure's courtage (centimes), when one applies: KVG CHF 70 per insured
 * person, VVG 16 monthly premiums (of the supplementary part), both for a combined product.
 */
export function capOf(at: {
  signingDate: string;
  productId: number;
  persons?: number;
  annualPremium: number;
  supplementaryMonthly?: number;
}): number | null {
  const caps = capsOn(at.signingDate);
  if (!caps) return null;
  let cap = 0;
  let applies = false;
  if ((caps.kvgProducts as readonly number[]).includes(at.productId)) {
    cap += caps.kvgPerPerson * Math.max(1, at.persons ?? 1);
    applies = true;
  }
  if ((caps.vvgProducts as readonly number[]).includes(at.productId)) {
    const monthly = at.productId === 2 ? at.annualPremium / 12 : (at.supplementaryMonthly ?? 0);
    cap += roundTo(monthly * caps.vvgMonthlyPremiums);
    applies = true;
  }
  return applies ? cap : null;
}

/** YYYY-MM of a date (YYYY-MM-DD). */
export const monthOf = (date: string): string => date.slice(0, 7);

/** The month after a YYYY-MM. */
export function nextMonth(period: string): string {
  const [year, month] = period.split('-').map(Number) as [number, number];
  return month === 12 ? `${year + 1}-01` : `${year}-${String(month + 1).padStart(2, '0')}`;
}

/** Whole months from one date to another (YYYY-MM-DD), 0 when the second is not later. */
export function monthsBetween(from: string, until: string): number {
  const [y1, m1, d1] = from.split('-').map(Number) as [number, number, number];
  const [y2, m2, d2] = until.split('-').map(Number) as [number, number, number];
  const months = (y2 - y1) * 12 + (m2 - m1) - (d2 < d1 ? 1 : 0);
  return Math.max(0, months);
}

/** Age in whole years on a date (YYYY-MM-DD). */
export function ageOn(birth: string, date: string): number {
  return Math.floor(monthsBetween(birth, date) / 12);
}
