/**
 * A Global check's rules and figures (issue 19), for the hooks (./index.ts) and the routes
 * (./routes.ts): the rules across its fields (`checkErrors`, wire keys), the customer's own cover
 * from their active contracts (`ownCoverOf`) and the engine's input (`engineInput`) for
 * src/schema/pension/gap.ts `computeGlobalCheck`. Rows and bodies are wire rows (snake_case).
 *
 * Own cover (calculationType with_contracts; legal counts none): the customer's own active
 * closures (status active, the customer insured — not a household member —, started by the day
 * of the check and not ended before it):
 * - a coverage line whose text names disability (Invalidität, Erwerbsunfähigkeit, invalidité,
 *   incapacité de gain, invalidità, incapacità di guadagno, disability) → disability cover; one
 *   that names death (Tod, Todesfall, Hinterlassene, décès, survivants, decesso, morte, death,
 *   survivor) → life cover (the death scenarios). A line whose text says it is a pension (Rente,
 *   rente, rendita, pension) holds a yearly pension: its sum / 12; any other line a capital,
 *   counted as the life-long pension it buys at the BVG conversion rate of the figures (6.8 % a
 *   year) / 12. A premium waiver (Prämienbefreiung, libération/exonération, esonero, waiver) is
 *   no money and is skipped;
 * - a life product (4 pillar 3a, 5 pillar 3b, 6 payment plan) without such lines → retirement
 *   cover from its savings: the yearly premium paid in for its term (else until the reference
 *   age of the check's person), converted the same way (no interest: an estimate like the
 *   BVG's). A life product with death or disability lines counts those lines and its savings.
 */
import { issue, type FieldErrors } from '../../src/schema/errors.ts';
import { PAYMENTS_PER_YEAR, type PaymentCycle } from '../../src/schema/figures.ts';
import { figuresFor } from '../../src/schema/pension/figures.ts';
import type {
  CivilStatus,
  EmploymentStatus,
  GlobalCheckInput,
  GlobalCheckResult,
  OwnCover,
} from '../../src/schema/pension/gap.ts';
import { computeGlobalCheck } from '../../src/schema/pension/gap.ts';
import { referenceAge } from '../../src/schema/pension/rules.ts';
import { dateText } from '../customers/rules.ts';
import type { DB } from '../db/index.ts';
import type { ResourceRow } from '../db/resource.ts';
import { addError } from '../http/errors.ts';

/** The products of the catalogue (migration 0003) whose savings count as retirement cover. */
export const LIFE_PRODUCTS = [4, 5, 6] as const;

const DISABILITY_WORDS = /invalid|erwerbsunf|erwerbsausfall|disabilit|incapacit|arbeitsunf/i;
const DEATH_WORDS =
  /\btod|todesfall|hinterlass|d[ée]c[èe]s|survivant|decesso|\bmorte|death|survivor/i;
const PENSION_WORDS = /rente|rendita|pension/i;
const WAIVER_WORDS = /pr[äa]mienbefreiung|lib[ée]ration|exon[ée]ration|esonero|waiver/i;

/** A line of ownCover (wire keys). */
export interface OwnCoverLine {
  contract_id: number;
  product_id?: number;
  company_id?: number;
  kind: OwnCover['kind'];
  monthly: number;
  basis: 'pension' | 'capital' | 'savings';
  capital?: number;
  coverage?: string;
}

const round2 = (value: number) => Math.round(value * 100) / 100;
const json = (value: unknown): unknown => (typeof value === 'string' ? JSON.parse(value) : value);
const num = (value: unknown): number | null =>
  value === null || value === undefined || value === '' || !Number.isFinite(Number(value))
    ? null
    : Number(value);

/** The day `years` after a date (29 February → 28 February when the year has none). */
export function yearsAfter(date: string, years: number): string {
  const year = Number(date.slice(0, 4)) + years;
  const rest = date.slice(4);
  const candidate = `${String(year).padStart(4, '0')}${rest}`;
  const parsed = new Date(`${candidate}T00:00:00Z`);
  return parsed.toISOString().slice(0, 10) === candidate
    ? candidate
    : `${String(year).padStart(4, '0')}-02-28`;
}

/** The rules across fields of a check (the merged record), wire keys. */
export function checkErrors(record: ResourceRow, today: string): FieldErrors {
  const errors: FieldErrors = {};
  const birth = dateText(record.birth_date);
  if (birth && birth > today) addError(errors, 'birth_date', issue('notInFuture'));
  if (birth && birth < '1900-01-01') addError(errors, 'birth_date', issue('notBefore1900'));
  const flagged = record.has_pension_missing_years === true;
  const gap = num(record.gap_years);
  if (flagged && gap === null) addError(errors, 'gap_years', issue('required'));
  if (!flagged && gap !== null && gap > 0)
    addError(errors, 'gap_years', issue('gapYearsWithoutFlag'));
  const income = num(record.gross_income);
  if (income !== null && income <= 0 && record.employment_status !== 'not_employed')
    addError(errors, 'gross_income', issue('incomeRequired'));
  const employed = dateText(record.employment_date);
  if (employed) {
    if (employed > today) addError(errors, 'employment_date', issue('notInFuture'));
    else if (birth && employed < yearsAfter(birth, 15))
      addError(
        errors,
        'employment_date',
        issue('employmentBefore15', { date: yearsAfter(birth, 15) }),
      );
  }
  const children = (json(record.children) as Array<Record<string, unknown>> | null) ?? [];
  children.forEach((child, index) => {
    const born = dateText(child?.birth_date);
    if (!born) return;
    if (born > today) addError(errors, `children.${index}.birth_date`, issue('notInFuture'));
    else if (birth && born < yearsAfter(birth, 12))
      addError(
        errors,
        `children.${index}.birth_date`,
        issue('childTooEarly', { date: yearsAfter(birth, 12) }),
      );
  });
  const partner = (json(record.partner) as Record<string, unknown> | null) ?? {};
  const partnerBirth = dateText(partner.birth_date);
  if (partnerBirth && partnerBirth > today)
    addError(errors, 'partner.birth_date', issue('notInFuture'));
  const since = dateText(partner.married_since);
  if (since && since > today) addError(errors, 'partner.married_since', issue('notInFuture'));
  return errors;
}

const ENGINE_EMPLOYMENT: Record<string, EmploymentStatus> = {
  employed: 'employed',
  self_employed: 'selfEmployed',
  not_employed: 'notEmployed',
};
const ENGINE_CIVIL: Record<string, CivilStatus> = {
  single: 'single',
  married: 'married',
  registered_partnership: 'registeredPartnership',
  divorced: 'divorced',
  widowed: 'widowed',
};

/** The engine's input from a check (wire row), its own cover and its day. */
export function engineInput(
  record: ResourceRow,
  ownCover: readonly OwnCoverLine[],
  asOf: string,
): GlobalCheckInput {
  const partner = (json(record.partner) as Record<string, unknown> | null) ?? {};
  const children = (json(record.children) as Array<Record<string, unknown>> | null) ?? [];
  const sex = partner.sex === 'male' || partner.sex === 'female' ? partner.sex : null;
  return {
    asOf,
    birthDate: dateText(record.birth_date) ?? asOf,
    sex: record.sex === 'female' ? 'female' : 'male',
    civilStatus: ENGINE_CIVIL[String(record.civil_status)] ?? 'single',
    partner: {
      birthDate: dateText(partner.birth_date) ?? null,
      sex,
      marriedSince: dateText(partner.married_since) ?? null,
      grossIncome: num(partner.gross_income),
    },
    children: children
      .filter((child) => dateText(child?.birth_date))
      .map((child) => ({
        birthDate: dateText(child.birth_date) as string,
        inEducation: child.in_education === true,
      })),
    grossIncome: num(record.gross_income) ?? 0,
    employmentStatus: ENGINE_EMPLOYMENT[String(record.employment_status)] ?? 'employed',
    employmentDate: dateText(record.employment_date) ?? null,
    hasPensionMissingYears: record.has_pension_missing_years === true,
    gapYears: num(record.gap_years),
    bvgSavings: num(record.bvg_savings),
    disabilityDegree: num(record.disability_degree) ?? 100,
    needShare: (num(record.need_share) ?? 80) / 100,
    ownCover: ownCover.map((line) => ({
      kind: line.kind,
      monthly: line.monthly,
      contractId: line.contract_id,
    })),
  };
}

/** The engine's result for a check: the figures of the year of its day. */
export function resultsOf(
  record: ResourceRow,
  ownCover: readonly OwnCoverLine[],
  asOf: string,
): GlobalCheckResult {
  return computeGlobalCheck(engineInput(record, ownCover, asOf), Number(asOf.slice(0, 4)));
}

interface ContractRow {
  id: number;
  product_id: number | null;
  company_id: number | null;
  payment_cycle: string | null;
  start_date: unknown;
  end_date: unknown;
  insurance: unknown;
  coverage: unknown;
}

/**
 * The customer's own cover on a day (see the head of this file): the lines of their active
 * contracts, CHF a month. `legal` counts none.
 */
export async function ownCoverOf(
  db: DB,
  record: ResourceRow,
  asOf: string,
): Promise<OwnCoverLine[]> {
  if (record.calculation_type === 'legal') return [];
  const customerId = num(record.customer_id);
  if (customerId === null) return [];
  const contracts = (await db
    .selectFrom('contracts')
    .select([
      'id',
      'product_id',
      'company_id',
      'payment_cycle',
      'start_date',
      'end_date',
      'insurance',
      'coverage',
    ])
    .where('customer_id', '=', customerId)
    .where('contract_type', '=', 'closure')
    .where('status', '=', 'active')
    .where('household_member_id', 'is', null)
    .orderBy('id')
    .execute()) as unknown as ContractRow[];
  const rate = figuresFor(Number(asOf.slice(0, 4))).bvg.conversionRate;
  const birth = dateText(record.birth_date);
  const sex = record.sex === 'female' ? 'female' : 'male';
  const lines: OwnCoverLine[] = [];
  for (const contract of contracts) {
    const start = dateText(contract.start_date);
    const end = dateText(contract.end_date);
    if ((start && start > asOf) || (end && end < asOf)) continue;
    const base = {
      contract_id: Number(contract.id),
      ...(contract.product_id ? { product_id: Number(contract.product_id) } : {}),
      ...(contract.company_id ? { company_id: Number(contract.company_id) } : {}),
    };
    const coverage = (json(contract.coverage) as {
      lines?: Array<{ coverage?: string; sum?: number | null }>;
    } | null) ?? { lines: [] };
    for (const line of coverage.lines ?? []) {
      const text = String(line.coverage ?? '');
      const sum = num(line.sum);
      if (!sum || sum <= 0 || WAIVER_WORDS.test(text)) continue;
      const kind: OwnCover['kind'] | null = DISABILITY_WORDS.test(text)
        ? 'disability'
        : DEATH_WORDS.test(text)
          ? 'life'
          : null;
      if (!kind) continue;
      const pension = PENSION_WORDS.test(text);
      lines.push({
        ...base,
        kind,
        basis: pension ? 'pension' : 'capital',
        monthly: round2(pension ? sum / 12 : (sum * rate) / 12),
        ...(pension ? {} : { capital: round2(sum) }),
        coverage: text.slice(0, 200),
      });
    }
    if (LIFE_PRODUCTS.includes(Number(contract.product_id) as 4 | 5 | 6)) {
      const insurance =
        (json(contract.insurance) as {
          premium?: number | null;
          term_years?: number | null;
        } | null) ?? {};
      const cycle = (contract.payment_cycle ?? 'monthly') as PaymentCycle;
      const premium = num(insurance.premium) ?? 0;
      const term = num(insurance.term_years);
      let years = term ?? 0;
      if (term === null && birth) {
        const reference = referenceAge(birth, sex);
        const startYear = Number((start ?? asOf).slice(0, 4));
        years = Math.max(0, Number(birth.slice(0, 4)) + reference.years - startYear);
      }
      const capital =
        cycle === 'single' ? premium : premium * (PAYMENTS_PER_YEAR[cycle] ?? 12) * years;
      if (capital > 0)
        lines.push({
          ...base,
          kind: 'pillar3a',
          basis: 'savings',
          monthly: round2((capital * rate) / 12),
          capital: round2(capital),
        });
    }
  }
  return lines;
}
