/**
 * The leaderboard's pure pieces (issue 17; spec §4, §9): its filters and their defaults (range the
 * current month, insurance 'overall', section 'leaderboard', status 'active'), how they live in
 * the page's address and go to GET /api/leaderboard, the answer (camelCased), medals, and how a
 * chart bucket (a month 'YYYY-MM' or an ISO week 'YYYY-Www') is named. No React.
 */
import dayjs from 'dayjs';
import { displayLocaleOf } from '../../i18n/format.ts';
import type { ProductGroup } from '../../schema/catalogue.ts';

export const RANGES = ['week', 'month', 'quarter', 'year', 'custom'] as const;
export type Range = (typeof RANGES)[number];

export const PRODUCT_GROUPS: readonly ProductGroup[] = [
  'health',
  'life',
  'property_casualty',
  'finance',
  'other',
];
export type Insurance = 'overall' | ProductGroup;
export const INSURANCES: readonly Insurance[] = ['overall', ...PRODUCT_GROUPS];

export const STATUSES = ['active', 'all'] as const;
export type UserStatus = (typeof STATUSES)[number];

export const SECTIONS = ['leaderboard', 'charts'] as const;
export type Section = (typeof SECTIONS)[number];

export interface LeaderboardFilters {
  range: Range;
  /**
   * Swiss days 'YYYY-MM-DD' ('' while not chosen). A custom range's first and last day; for the
   * other ranges `from` is a day of the week, month, quarter or year shown ('': the current one).
   */
  from: string;
  until: string;
  insurance: Insurance;
  status: UserStatus;
  section: Section;
}

/** Spec §9 (range, insurance, section) and §4 (status). */
export const DEFAULTS: LeaderboardFilters = {
  range: 'month',
  from: '',
  until: '',
  insurance: 'overall',
  status: 'active',
  section: 'leaderboard',
};

const oneOf = <T extends string>(values: readonly T[], value: string | null, fallback: T): T =>
  values.includes(value as T) ? (value as T) : fallback;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const day = (value: string | null) => (value && DAY.test(value) ? value : '');

/** The filters of the page's address (`?range=…`); what is missing or unknown is the default. */
export function filtersOf(search: URLSearchParams): LeaderboardFilters {
  const range = oneOf(RANGES, search.get('range'), DEFAULTS.range);
  return {
    range,
    from: day(search.get('from')),
    until: range === 'custom' ? day(search.get('until')) : '',
    insurance: oneOf(INSURANCES, search.get('insurance'), DEFAULTS.insurance),
    status: oneOf(STATUSES, search.get('status'), DEFAULTS.status),
    section: oneOf(SECTIONS, search.get('section'), DEFAULTS.section),
  };
}

/** The page's address for filters: only what differs from the defaults (the defaults: none). */
export function searchOf(filters: LeaderboardFilters): URLSearchParams {
  const search = new URLSearchParams();
  for (const key of ['range', 'insurance', 'status', 'section'] as const) {
    if (filters[key] !== DEFAULTS[key]) search.set(key, filters[key]);
  }
  if (filters.from) search.set('from', filters.from);
  if (filters.range === 'custom' && filters.until) search.set('until', filters.until);
  return search;
}

/** A custom range that cannot be asked for yet: a day missing, or the end before the start. */
export const customIncomplete = (filters: LeaderboardFilters): boolean =>
  filters.range === 'custom' && (!filters.from || !filters.until || filters.until < filters.from);

/** GET /api/leaderboard's query for filters (every parameter named, the defaults too). */
export function apiQuery(filters: LeaderboardFilters): URLSearchParams {
  const query = new URLSearchParams({ range: filters.range });
  if (filters.from) query.set('from', filters.from);
  if (filters.range === 'custom') query.set('until', filters.until);
  query.set('insurance', filters.insurance);
  query.set('status', filters.status);
  query.set('section', filters.section);
  return query;
}

const DAY_MS = 86_400_000;

/** The day `days` after (before, when negative) a day 'YYYY-MM-DD'. */
export const addDays = (value: string, days: number): string =>
  new Date(new Date(`${value}T00:00:00Z`).getTime() + days * DAY_MS).toISOString().slice(0, 10);

/**
 * The day that asks for the period before or after the one shown (`from`..`until` of the answer):
 * the day before it starts, or the day after it ends.
 */
export const neighbour = (shown: { from: string; until: string }, step: -1 | 1): string =>
  step < 0 ? addDays(shown.from, -1) : addDays(shown.until, 1);

/** A row of the ranking (camelCased). */
export interface RankingRow {
  rank: number;
  userId: number;
  name: string;
  stars: number;
  closures: number;
  /** CHF: the production of the closures. */
  production: number;
  /** CHF of the user's consultant and team lines: own row, or a viewer with manage-commissions. */
  chf: number | null;
  me: boolean;
}

export interface RankingAnswer {
  from: string;
  until: string;
  rows: RankingRow[];
}

export interface ChartSeries {
  userId: number;
  name: string;
  rank?: number;
  /** The viewer's own series. */
  me?: boolean;
  stars: number[];
  closures: number[];
}

export interface ChartsAnswer {
  from: string;
  until: string;
  bucket?: 'week' | 'month';
  /** Months 'YYYY-MM' or ISO weeks 'YYYY-Www'. */
  buckets: string[];
  series: ChartSeries[];
}

export type Medal = 'gold' | 'silver' | 'bronze';

/** The medal of a rank (the first three). */
export const medalOf = (rank: number): Medal | undefined =>
  rank === 1 ? 'gold' : rank === 2 ? 'silver' : rank === 3 ? 'bronze' : undefined;

const WEEK = /^(\d{4})-W(\d{2})$/;
const MONTH = /^(\d{4})-(\d{2})$/;

/**
 * A chart bucket as the axis names it: a month in the language of the app's dates ('Nov 26'), an
 * ISO week by its number (the `week` text: 'KW 47'), anything else as it came.
 */
export function bucketLabel(
  bucket: string,
  language: string,
  week: (number: number, year: number) => string,
): string {
  const weekMatch = WEEK.exec(bucket);
  if (weekMatch) return week(Number(weekMatch[2]), Number(weekMatch[1]));
  if (MONTH.test(bucket)) {
    return dayjs(`${bucket}-01`).locale(displayLocaleOf(language)).format('MMM YY');
  }
  return bucket;
}
