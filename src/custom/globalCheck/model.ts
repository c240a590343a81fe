/**
 * The Global check's screens (issue 19): the inputs as the API takes them (resource
 * `global-checks`, camelCased by the API client), the engine's answer (src/schema/pension/gap.ts,
 * sent snake_cased and camelCased back), and the pure helpers of the page — what a form sends,
 * the gaps of two checks side by side, the labels of benefit lines.
 */
import type { BenefitNote, ScenarioKind } from '../../schema/pension/gap.ts';
import { SCENARIOS } from '../../schema/pension/gap.ts';
import { snakeToCamel } from '../../schema/case.ts';
import { formatDate, formatDateTime, formatNumber } from '../../i18n/format.ts';

export { SCENARIOS };
export type { ScenarioKind };

export const RESOURCE = 'global-checks';
/** Wait after the last keystroke before asking for a preview (ms). */
export const PREVIEW_DELAY = 400;

export const TOPICS = ['retirement', 'disability', 'death'] as const;
export const SEXES = ['male', 'female'] as const;
export const CIVIL_STATUSES = [
  'single',
  'married',
  'registered_partnership',
  'divorced',
  'widowed',
] as const;
export const EMPLOYMENT_STATUSES = ['employed', 'self_employed', 'not_employed'] as const;
export const CALCULATION_TYPES = ['with_contracts', 'legal'] as const;
export const NEED_SHARE = { min: 50, max: 100, default: 80 } as const;
export const DISABILITY_DEGREE = { min: 40, max: 100, default: 100 } as const;
export const GAP_YEARS = { min: 0, max: 44 } as const;
export const GROSS_INCOME = { min: 0, max: 1_000_000 } as const;

export interface Partner {
  birthDate?: string | null;
  sex?: string | null;
  grossIncome?: number | null;
  marriedSince?: string | null;
}

export interface Child {
  firstName?: string | null;
  birthDate?: string | null;
  inEducation?: boolean | null;
}

/** The inputs of a check (what the form edits and the API takes). */
export interface CheckInputs {
  topics?: string[];
  birthDate?: string | null;
  sex?: string | null;
  civilStatus?: string | null;
  employmentStatus?: string | null;
  employmentDate?: string | null;
  hasPensionMissingYears?: boolean | null;
  gapYears?: number | null;
  grossIncome?: number | null;
  calculationType?: string | null;
  needShare?: number | null;
  disabilityDegree?: number | null;
  bvgSavings?: number | null;
  partner?: Partner | null;
  children?: Child[];
  note?: string | null;
}

export interface BenefitLine {
  source: string;
  kind: string;
  beneficiary?: string;
  child?: number;
  monthly: number;
  notes?: string[];
  contractId?: number | string | null;
}

export interface WaitingPeriod {
  source: string | null;
  fromDay: number;
  days: number | null;
  benefits: BenefitLine[];
  cover: number;
  gap: number;
}

export interface ScenarioAnswer {
  scenario?: string;
  need: number;
  benefits: BenefitLine[];
  remainingEarnings: number;
  cover: number;
  gap: number;
  waitingPeriod?: WaitingPeriod | null;
}

export interface CheckResults {
  year?: number;
  figuresYear?: number;
  asOf?: string;
  referenceAge?: { years: number; months: number };
  retirementStart?: string;
  scenarios: Partial<Record<ScenarioKind, ScenarioAnswer>>;
}

/** A contract of the customer counted as own cover. */
export interface OwnCoverLine {
  kind?: string;
  monthly?: number;
  contractId?: number | string | null;
  [key: string]: unknown;
}

export interface SavedCheck extends CheckInputs {
  id: number;
  customerId: number;
  checkDate: string;
  createdAt?: string;
  results?: CheckResults | null;
  ownCover?: OwnCoverLine[] | null;
}

export interface Preview {
  results: CheckResults;
  ownCover?: OwnCoverLine[] | null;
}

/** Empty strings and unfinished values as the API wants them: absent (null). */
const orNull = <T>(value: T | undefined | ''): T | null =>
  value === undefined || value === '' ? null : value;

/** What the form sends (create and preview): the inputs only, gapYears only with missing years. */
export function inputsOf(values: CheckInputs): CheckInputs {
  const partner = values.partner ?? null;
  const married =
    values.civilStatus === 'married' || values.civilStatus === 'registered_partnership';
  return {
    topics: values.topics ?? [],
    birthDate: orNull(values.birthDate),
    sex: orNull(values.sex),
    civilStatus: orNull(values.civilStatus),
    employmentStatus: orNull(values.employmentStatus),
    employmentDate: orNull(values.employmentDate),
    hasPensionMissingYears: values.hasPensionMissingYears ?? false,
    gapYears: values.hasPensionMissingYears ? orNull(values.gapYears) : null,
    grossIncome: orNull(values.grossIncome),
    calculationType: values.calculationType ?? 'with_contracts',
    needShare: values.needShare ?? NEED_SHARE.default,
    disabilityDegree: values.disabilityDegree ?? DISABILITY_DEGREE.default,
    bvgSavings: orNull(values.bvgSavings),
    partner:
      married && partner
        ? {
            birthDate: orNull(partner.birthDate),
            sex: orNull(partner.sex),
            grossIncome: orNull(partner.grossIncome),
            marriedSince: orNull(partner.marriedSince),
          }
        : null,
    children: (values.children ?? []).map((child) => ({
      firstName: orNull(child.firstName),
      birthDate: orNull(child.birthDate),
      inEducation: child.inEducation ?? false,
    })),
    note: orNull(values.note),
  };
}

/** The inputs of a saved check or of the defaults' answer (read-only fields left out). */
export function valuesOf(record: Partial<SavedCheck> | null | undefined): CheckInputs {
  if (!record) return { topics: [...TOPICS], children: [] };
  const {
    id: _id,
    customerId: _customerId,
    checkDate: _checkDate,
    createdAt: _createdAt,
    results: _results,
    ownCover: _ownCover,
    ...rest
  } = record as SavedCheck & Record<string, unknown>;
  const inputs = rest as CheckInputs & Record<string, unknown>;
  delete inputs.updatedAt;
  delete inputs.version;
  delete inputs.createdBy;
  return {
    ...inputs,
    topics: inputs.topics ?? [...TOPICS],
    children: inputs.children ?? [],
    needShare: inputs.needShare ?? NEED_SHARE.default,
    disabilityDegree: inputs.disabilityDegree ?? DISABILITY_DEGREE.default,
    calculationType: inputs.calculationType ?? 'with_contracts',
  };
}

/** A value inside the inputs by dotted path (`partner.birthDate`, `children.0.firstName`). */
export function valueAt(values: unknown, path: string): unknown {
  let current: unknown = values;
  for (const part of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

/** A copy of the inputs with one path set (objects and arrays copied on the way). */
export function withValue<T>(values: T, path: string, value: unknown): T {
  const [head, ...rest] = path.split('.');
  const container: unknown = values ?? {};
  const isArray = Array.isArray(container);
  const copy: Record<string, unknown> | unknown[] = isArray
    ? [...(container as unknown[])]
    : { ...(container as Record<string, unknown>) };
  const current = (copy as Record<string, unknown>)[head];
  (copy as Record<string, unknown>)[head] =
    rest.length === 0 ? value : withValue(current ?? {}, rest.join('.'), value);
  return copy as T;
}

/** A value of the engine camelCased (`child_disability` → `childDisability`). */
export const camel = (value: string): string => snakeToCamel(value);

/** The scenarios of an answer in the tabs' order (a missing one left out). */
export function scenariosOf(results: CheckResults | null | undefined): ScenarioKind[] {
  return SCENARIOS.filter((kind) => results?.scenarios?.[kind]);
}

export interface GapDifference {
  scenario: ScenarioKind;
  before: ScenarioAnswer | undefined;
  now: ScenarioAnswer | undefined;
  /** now.gap − before.gap (negative: the gap shrank); null when one side lacks the scenario. */
  gapChange: number | null;
  needChange: number | null;
  coverChange: number | null;
}

const change = (now: number | undefined, before: number | undefined): number | null =>
  now === undefined || before === undefined ? null : now - before;

/** The gaps of two checks side by side per scenario, with their differences. */
export function compareChecks(
  now: CheckResults | null | undefined,
  before: CheckResults | null | undefined,
): GapDifference[] {
  return SCENARIOS.map((scenario) => {
    const a = now?.scenarios?.[scenario];
    const b = before?.scenarios?.[scenario];
    return {
      scenario,
      now: a,
      before: b,
      gapChange: change(a?.gap, b?.gap),
      needChange: change(a?.need, b?.need),
      coverChange: change(a?.cover, b?.cover),
    };
  });
}

/** The chart's stacks: the cover by source (CHF a month), in a fixed order. */
export const SOURCES = ['ahv', 'iv', 'bvg', 'uvg', 'ktg', 'own', 'earnings'] as const;
export type ChartSource = (typeof SOURCES)[number];

export function coverBySource(answer: ScenarioAnswer): Record<ChartSource, number> {
  const out = Object.fromEntries(SOURCES.map((source) => [source, 0])) as Record<
    ChartSource,
    number
  >;
  for (const line of answer.benefits ?? []) {
    const source = (SOURCES as readonly string[]).includes(line.source)
      ? (line.source as ChartSource)
      : 'own';
    out[source] += line.monthly;
  }
  out.earnings += answer.remainingEarnings ?? 0;
  return out;
}

/** Note keys of the engine (src/schema/pension/gap.ts BenefitNote), camelCased. */
export const NOTES: readonly BenefitNote[] = [
  'thirteenth',
  'coupleCap',
  'complementary',
  'overinsurance',
  'fullOrphan',
  'partial',
];

/** Whether the civil status has a partner the survivors' pensions know. */
export const hasPartner = (civilStatus: string | null | undefined): boolean =>
  civilStatus === 'married' || civilStatus === 'registered_partnership';

/** The address of the page of a customer's check. */
export const checkPagePath = (
  area: string,
  customerId: number | string,
  params: { check?: number; compare?: number } = {},
): string => {
  const query = new URLSearchParams();
  if (params.check) query.set('check', String(params.check));
  if (params.compare) query.set('compare', String(params.compare));
  const search = query.toString();
  return `/${area}/customers/${customerId}/global-check${search ? `?${search}` : ''}`;
};

export const reportPdfPath = (id: number, language: string) =>
  `global-checks/${id}/report.pdf?language=${encodeURIComponent(language)}`;
export const reportPdfName = (id: number) => `global-check-${id}.pdf`;

/** Whole francs as the check computes them: `CHF 1'234` ('' when empty). */
export function francs(value: number | null | undefined): string {
  const text = formatNumber(value);
  return text === '' ? '' : `CHF ${text}`;
}

/** A difference with its sign: `+ CHF 120`, `− CHF 80`, `±0`. */
export function signedFrancs(value: number | null | undefined): string {
  if (value === null || value === undefined) return '–';
  if (value === 0) return '±0';
  return `${value > 0 ? '+' : '−'} ${francs(Math.abs(value))}`;
}

/** When a check was made, as the lists name it: its day, with the time when another check of the
 *  customer has the same day. */
export function checkWhen(
  check: Pick<SavedCheck, 'id' | 'checkDate' | 'createdAt'>,
  all: readonly Pick<SavedCheck, 'id' | 'checkDate'>[],
  language: string,
): string {
  const twin = all.some((other) => other.id !== check.id && other.checkDate === check.checkDate);
  return twin && check.createdAt
    ? formatDateTime(check.createdAt, language)
    : formatDate(check.checkDate, language);
}
