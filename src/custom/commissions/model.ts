/**
 * What the commission screens share and can test without a browser (issue 17; DOMAIN.md §2;
 * docs/ARCHITECTURE.md "Commissions"): the ledger's kinds and statuses, amounts in centimes as CHF,
 * months ('YYYY-MM'), the list filters as the API reads them (period_from / period_until,
 * repeatable status), the summary's query, an explain step's figures made readable for its text,
 * and the body of the "which rule applies?" tester.
 */
import dayjs from 'dayjs';
import { type FilterPayload } from 'react-admin';
import { listQuery } from '../../dataProvider/index.ts';
import { displayLocaleOf, formatDate, formatNumber } from '../../i18n/format.ts';
import type { ApiRecord } from '../../resources/records.ts';
import { enumKey } from '../../schema/labels.ts';

export type CommissionLine = ApiRecord<'commission-lines'>;
export type CommissionRule = ApiRecord<'commission-rules'>;
export type SinglePayment = ApiRecord<'assigned-single-payments'>;
export type LineKind = CommissionLine['kind'];
export type LineStatus = CommissionLine['status'];
export type CalculationBasis = CommissionRule['calculationBasis'];

/** The ledger's kinds and statuses, as the server has them (src/schema/commissions.ts). */
export { LINE_KINDS, LINE_STATUSES } from '../../schema/commissions.ts';

/** My commissions open on the lines ready to be paid out (SPEC §4). */
export const MY_COMMISSIONS_DEFAULT_STATUS: LineStatus = 'ready_present';

/** Chip colours of the statuses (MUI palette names). */
export const STATUS_COLORS: Record<
  LineStatus,
  'default' | 'info' | 'success' | 'warning' | 'primary'
> = {
  pending: 'default',
  ready_present: 'info',
  in_payout: 'warning',
  paid: 'success',
  reversed: 'default',
};

// ---------------------------------------------------------------------------------------------
// Money

/** Centimes (the ledger's integers) as CHF; null when there is no amount. */
export function centimesToChf(centimes: unknown): number | null {
  if (typeof centimes !== 'number' || !Number.isFinite(centimes)) return null;
  return centimes / 100;
}

/** Centimes as "CHF 1'234.50" (negative "CHF -12.05"); '' when there is no amount. */
export function formatCentimes(centimes: unknown): string {
  const chf = centimesToChf(centimes);
  return chf === null ? '' : `CHF ${formatNumber(chf, { decimals: 2 })}`;
}

// ---------------------------------------------------------------------------------------------
// Months

export const MONTH_PATTERN = /^\d{4}-(0[1-9]|1[0-2])$/;

export const isMonth = (value: unknown): value is string =>
  typeof value === 'string' && MONTH_PATTERN.test(value);

/** A month 'YYYY-MM' as the user reads it: 'Nov 2026', 'Nov. 2026' (de), 'nov 2026' (it). */
export function formatMonth(month: unknown, language: string): string {
  if (!isMonth(month)) return '';
  return dayjs(`${month}-01`).locale(displayLocaleOf(language)).format('MMM YYYY');
}

/** The month of a day ('YYYY-MM-DD' or a date) as 'YYYY-MM'. */
export const monthOf = (day: string): string => day.slice(0, 7);

// ---------------------------------------------------------------------------------------------
// Filters of the line lists

/** What the line lists filter by (react-admin's filter values, camelCase). */
export interface LineFilters {
  /** First and last month, 'YYYY-MM' (the API's period_from / period_until). */
  periodFrom?: string;
  periodUntil?: string;
  status?: LineStatus[] | LineStatus;
  kind?: LineKind;
  userId?: number;
  productId?: number;
  companyId?: number;
}

const blank = (value: unknown) =>
  value === undefined ||
  value === null ||
  value === '' ||
  (Array.isArray(value) && value.length === 0);

/**
 * The filter the API gets: blanks dropped, a month that is not whole yet left out (the picker
 * shows it as unfinished), one status or several (status=a&status=b).
 */
export function apiLineFilter(filters: FilterPayload): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(filters)) {
    if (blank(value)) continue;
    if ((key === 'periodFrom' || key === 'periodUntil') && !isMonth(value)) continue;
    out[key] = value;
  }
  return out;
}

/** The summary's query string: the same filters as the list (no paging, no sort). */
export const summaryQuery = (filters: FilterPayload): string =>
  listQuery({ filter: apiLineFilter(filters) }).toString();

/** Whether the period's end lies before its start (both whole months). */
export const periodReversed = (filters: FilterPayload): boolean =>
  isMonth(filters.periodFrom) &&
  isMonth(filters.periodUntil) &&
  filters.periodFrom > filters.periodUntil;

/** GET /api/commission-lines/summary. */
export interface LineSummary {
  count: number;
  /** Centimes. */
  total: number;
  /** Centimes by status and by kind (the values as the API spells them: ready_present). */
  byStatus: Partial<Record<LineStatus, number>>;
  byKind: Partial<Record<LineKind, number>>;
  stars: number | null;
}

const numberOr = (value: unknown, fallback: number | null) =>
  typeof value === 'number' && Number.isFinite(value) ? value : fallback;

const amountsOf = (value: unknown): Record<string, number> =>
  value && typeof value === 'object'
    ? Object.fromEntries(
        Object.entries(value).filter((entry): entry is [string, number] =>
          Number.isFinite(entry[1]),
        ),
      )
    : {};

/**
 * The summary from its answer as sent (`raw`: the keys of by_status and by_kind are enum values,
 * which camelCasing would turn into readyPresent).
 */
export function summaryOf(answer: unknown): LineSummary {
  const data = ((answer as { data?: unknown } | null)?.data ?? {}) as Record<string, unknown>;
  return {
    count: numberOr(data.count, 0) ?? 0,
    total: numberOr(data.total, 0) ?? 0,
    byStatus: amountsOf(data.by_status),
    byKind: amountsOf(data.by_kind),
    stars: numberOr(data.stars, null),
  };
}

// ---------------------------------------------------------------------------------------------
// Explain: the arithmetic, step by step

export interface ExplainStep {
  key: string;
  params?: Record<string, unknown> | null;
}

/** Parameters that are amounts in CHF (not centimes): written with two decimals. */
const CHF_PARAMS = new Set(['amount', 'basis', 'cap', 'premium', 'result', 'rate']);
/** Parameters that name a value of an enum: shown by its name in the user's language. */
const ENUM_PARAMS: Record<string, string> = {
  cycle: 'paymentCycle',
  group: 'productGroup',
  kind: 'commissionLineKind',
};
const DATE_PARAMS = new Set(['from', 'until']);

type Translate = (key: string, options?: Record<string, unknown>) => string;

/**
 * An explain step's figures as its text shows them: numbers Swiss (1'234.50 for CHF, 16, 0.25),
 * enum values by their name, days as 'MMM D, YYYY' and months as 'MMM YYYY'; names and reasons
 * as they are.
 */
export function explainParams(
  params: ExplainStep['params'],
  translate: Translate,
  language: string,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(params ?? {})) {
    if (value === null || value === undefined) continue;
    if (typeof value === 'number') {
      out[name] = CHF_PARAMS.has(name)
        ? formatNumber(value, { decimals: 2 })
        : formatNumber(value, { decimals: Number.isInteger(value) ? 0 : undefined });
    } else if (typeof value === 'string' && ENUM_PARAMS[name]) {
      out[name] = translate(enumKey(ENUM_PARAMS[name], value), { _: value });
    } else if (typeof value === 'string' && DATE_PARAMS.has(name)) {
      // A month ('YYYY-MM': a line booked in a later period) or a day.
      out[name] = isMonth(value)
        ? formatMonth(value, language)
        : formatDate(value, language) || value;
    } else {
      out[name] = String(value);
    }
  }
  return out;
}

/** One step as a sentence in the user's language. */
export const explainText = (step: ExplainStep, translate: Translate, language: string): string =>
  translate(step.key, { ...explainParams(step.params, translate, language), _: step.key });

// ---------------------------------------------------------------------------------------------
// The rule form

/** How premiumAmount reads for a basis: the label and help keys; none for a flat rate. */
export function premiumAmountKeys(basis: unknown): { label: string; help: string } | undefined {
  switch (basis) {
    case 'monthly_premium':
      return {
        label: 'app.commissionRules.factor.monthly',
        help: 'app.commissionRules.factor.monthlyHelp',
      };
    case 'annual_premium':
      return {
        label: 'app.commissionRules.factor.annual',
        help: 'app.commissionRules.factor.annualHelp',
      };
    case 'production_sum':
      return {
        label: 'app.commissionRules.factor.production',
        help: 'app.commissionRules.factor.productionHelp',
      };
    case 'flat':
      return undefined;
    default:
      return {
        label: 'resources.commission-rules.fields.premiumAmount',
        help: 'app.commissionRules.factor.chooseBasis',
      };
  }
}

/** Health "basic + supplementary" (product 3) takes the sub-products of basic (1) and supplementary (2). */
const HEALTH_BUNDLE = { id: 3, parts: [1, 2] } as const;

/** The products whose sub-products a rule naming `productIds` may name. */
export function subProductOwners(productIds: readonly number[]): number[] {
  const owners = new Set(productIds);
  if (owners.has(HEALTH_BUNDLE.id)) for (const part of HEALTH_BUNDLE.parts) owners.add(part);
  return [...owners];
}

/**
 * What the form sends: the amount the basis does not use is emptied (a flat rule has no factor,
 * the others no flat rate), and empty lists are lists.
 */
export function ruleBody(values: Record<string, unknown>): Record<string, unknown> {
  const body = { ...values };
  if (body.calculationBasis === 'flat') body.premiumAmount = null;
  else body.flatRate = null;
  for (const name of ['productIds', 'subProductIds', 'subProductVariantIds'])
    if (!Array.isArray(body[name])) body[name] = [];
  return body;
}

// ---------------------------------------------------------------------------------------------
// The tester: "which rule applies?"

export type TesterMode = 'contract' | 'case';

/** The tester's form values (camelCase; the API client snake-cases the body). */
export interface TesterValues {
  contractId?: number | null;
  signingDate?: string | null;
  category?: string | null;
  clientAge?: number | null;
  companyId?: number | null;
  productId?: number | null;
  subProductId?: number | null;
  subProductVariantId?: number | null;
  /** CHF per payment, with its payment cycle … */
  premium?: number | null;
  paymentCycle?: string | null;
  /** … or CHF a year. */
  annualPremium?: number | null;
  productionSum?: number | null;
}

const CASE_FIELDS = [
  'signingDate',
  'category',
  'clientAge',
  'companyId',
  'productId',
  'subProductId',
  'subProductVariantId',
  'premium',
  'paymentCycle',
  'annualPremium',
  'productionSum',
] as const;

/**
 * The body of POST /api/commission-rules/test: the contract alone, or the case's filled fields
 * (a payment cycle only beside a premium).
 */
export function testerBody(mode: TesterMode, values: TesterValues): Record<string, unknown> {
  if (mode === 'contract') return { contractId: values.contractId ?? null };
  const body: Record<string, unknown> = {};
  for (const name of CASE_FIELDS) {
    const value = values[name];
    if (!blank(value)) body[name] = value;
  }
  if (body.premium === undefined) delete body.paymentCycle;
  return body;
}

/** The tester's answer (camelCased). */
export interface TesterAnswer {
  /** The acquisition rule chosen. */
  rule: { id: number; name: string; version?: number | null } | null;
  /** Every matching rule of either type, most specific first. */
  candidates: {
    id: number;
    name: string;
    commissionType?: string | null;
    specificity: number;
  }[];
  courtage: {
    /** Centimes. */
    amount: number;
    explain: ExplainStep[];
    capExceeded: boolean;
    /** Centimes, when a cap applies. */
    capAmount?: number | null;
  } | null;
  /** The portfolio rule for the later contract years, if one matches. */
  portfolio?: {
    rule: { id: number; name: string; version?: number | null } | null;
    /** Centimes a year. */
    amount: number;
  } | null;
  lines?: {
    kind: LineKind;
    userId: number | null;
    subBrokerId?: number | null;
    /** Centimes. */
    amount: number;
    stars?: number | null;
    period?: string | null;
    explain: ExplainStep[];
  }[];
}

/**
 * A rule's specificity (src/schema/commissions.ts specificityOf: level × 2 + 1 with an insurer;
 * levels any product 0, product 1, sub-product 2, variant 3) as the keys that name it.
 */
export function specificityKeys(specificity: number): { level: string; withCompany: boolean } {
  const level = Math.max(0, Math.min(3, Math.floor(specificity / 2)));
  const names = ['any', 'product', 'subProduct', 'variant'] as const;
  return {
    level: `app.commissionRules.tester.level.${names[level]}`,
    withCompany: specificity % 2 === 1,
  };
}
