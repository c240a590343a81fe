/**
 * What the household coverage view (./coverage.ts) shows and flags, as data: the columns (product
 * groups and products that matter for a private household), the termination deadlines of
 * DOMAIN.md §1 and the gap rules. Pure: no database, no request.
 *
 * Columns (catalogue ids of server/migrations/0003_product_catalogue.sql):
 * - health basic (KVG: basic, basic + supplementary), health supplementary (VVG: supplementary,
 *   basic + supplementary), pillar 3a, pillar 3b (and savings plans), liability (personal
 *   liability, household and liability), household contents (household contents, household and
 *   liability), car (car, motorcycle), legal protection — always shown;
 * - building (building, construction, earthquake) and finance (vested benefits, loan, mortgage,
 *   bank savings) — shown when somebody in the household has one (the CRM does not know who owns
 *   a home; a mortgage or a building insurance says so);
 * - other — every other product except the broker mandate, shown when there is one.
 * The broker mandate (product 28) is answered once for the household, not as a column.
 */
import { BROKER_MANDATE_PRODUCT_ID } from './catalogue.ts';

/** A termination deadline rule: a fixed day each year, or months before the contract's end. */
export type DeadlineRule =
  { kind: 'yearly'; month: number; day: number } | { kind: 'beforeEnd'; months: number };

export interface CoverageColumn {
  key: string;
  products: number[];
  /** Shown only when somebody in the household has a contract of it. */
  optional?: boolean;
  deadline?: DeadlineRule;
}

/**
 * DOMAIN.md §1 (2026): KVG basic — change for 1 January by 30 November; VVG supplementary —
 * usually end of September for the year's end; car — usually 3 months before the end.
 */
export const COVERAGE_COLUMNS: CoverageColumn[] = [
  { key: 'health_basic', products: [1, 3], deadline: { kind: 'yearly', month: 11, day: 30 } },
  {
    key: 'health_supplementary',
    products: [2, 3],
    deadline: { kind: 'yearly', month: 9, day: 30 },
  },
  { key: 'pillar_3a', products: [4] },
  { key: 'pillar_3b', products: [5, 6] },
  { key: 'liability', products: [10, 11] },
  { key: 'household_contents', products: [11, 13] },
  { key: 'car', products: [7, 8], deadline: { kind: 'beforeEnd', months: 3 } },
  { key: 'legal', products: [9] },
  { key: 'building', products: [17, 18, 19], optional: true },
  { key: 'finance', products: [22, 23, 24, 25], optional: true },
];

const LISTED = new Set(COVERAGE_COLUMNS.flatMap((column) => column.products));

/** The column of every other product (the broker mandate aside). */
export const OTHER_COLUMN: CoverageColumn = { key: 'other', products: [], optional: true };

/** The columns a product appears in (a combined product in several). */
export function columnsOf(productId: number): CoverageColumn[] {
  if (productId === BROKER_MANDATE_PRODUCT_ID) return [];
  const found = COVERAGE_COLUMNS.filter((column) => column.products.includes(productId));
  return found.length > 0 || LISTED.has(productId) ? found : [OTHER_COLUMN];
}

/**
 * Gap rules: `person` — each person it applies to must have a contract in the column; `household`
 * — somebody in the household must. Ages are whole years on the day of the view; a person without
 * a birth date is taken as an adult of working age.
 */
export interface GapRule {
  key: string;
  column: string;
  scope: 'person' | 'household';
  ages?: { from: number; to: number };
}

export const GAP_RULES: GapRule[] = [
  // KVG basic insurance is compulsory for everybody living in Switzerland.
  { key: 'no_health_basic', column: 'health_basic', scope: 'person' },
  { key: 'no_liability', column: 'liability', scope: 'household' },
  { key: 'no_household_contents', column: 'household_contents', scope: 'household' },
  // Pillar 3a needs an income: adults of working age (18–64).
  { key: 'no_pillar_3a', column: 'pillar_3a', scope: 'person', ages: { from: 18, to: 64 } },
];

/** A contract counts as cover while active or applied for and not ended. */
export const COVERING_STATUSES = ['active', 'application'] as const;

const pad = (n: number) => String(n).padStart(2, '0');

/** Whole years between a birth date and a day (both YYYY-MM-DD). */
export function ageOn(birth: string | null | undefined, today: string): number | null {
  if (!birth) return null;
  const [by, bm, bd] = birth.split('-').map(Number);
  const [ty, tm, td] = today.split('-').map(Number);
  return ty - by - (tm < bm || (tm === bm && td < bd) ? 1 : 0);
}

/** The next termination deadline on or after today, or null when the rule gives none. */
export function nextDeadline(
  rule: DeadlineRule | undefined,
  today: string,
  endDate: string | null | undefined,
): string | null {
  if (!rule) return null;
  if (rule.kind === 'yearly') {
    const year = Number(today.slice(0, 4));
    const thisYear = `${year}-${pad(rule.month)}-${pad(rule.day)}`;
    const deadline =
      thisYear >= today ? thisYear : `${year + 1}-${pad(rule.month)}-${pad(rule.day)}`;
    return endDate && deadline > endDate ? null : deadline;
  }
  if (!endDate) return null;
  const [y, m, d] = endDate.split('-').map(Number);
  const month = m - rule.months;
  const year = y + Math.floor((month - 1) / 12);
  const normalized = ((((month - 1) % 12) + 12) % 12) + 1;
  const last = new Date(Date.UTC(year, normalized, 0)).getUTCDate();
  const deadline = `${year}-${pad(normalized)}-${pad(Math.min(d, last))}`;
  return deadline >= today ? deadline : null;
}

export interface CoveredPerson {
  key: string;
  age: number | null;
  columns: Set<string>;
}

export interface Gap {
  rule: string;
  column: string;
  /** The person lacking it; none: the household. */
  person?: string;
}

/** The gaps of a household, in rule order. */
export function coverageGaps(people: CoveredPerson[]): Gap[] {
  const gaps: Gap[] = [];
  for (const rule of GAP_RULES) {
    if (rule.scope === 'household') {
      if (!people.some((person) => person.columns.has(rule.column))) {
        gaps.push({ rule: rule.key, column: rule.column });
      }
      continue;
    }
    for (const person of people) {
      const age = person.age ?? 30;
      if (rule.ages && (age < rule.ages.from || age > rule.ages.to)) continue;
      if (!person.columns.has(rule.column)) {
        gaps.push({ rule: rule.key, column: rule.column, person: person.key });
      }
    }
  }
  return gaps;
}
