/**
 * The reports page's pure pieces: the answer of GET /api/reports/{kind} (camelCased), the query it
 * is asked with, the default period, the chart's series (the largest lead sources, the rest as one)
 * and how a month is named. No React, so unit tests run them directly.
 */
import {
  type DateBasis,
  REPORT_DATE_BASES,
  type ReportKind,
  type ReportMeasure,
} from '../../schema/reports.ts';

export type Figures = Partial<Record<ReportMeasure, number>>;

/** GET /api/reports/{kind} as the API client hands it over (keys camelCased). */
export interface ReportAnswer {
  kind: ReportKind;
  dateBasis: DateBasis;
  from: string | null;
  until: string | null;
  /** The figures' names: values, so still snake_case (measureOf gives the camelCase key). */
  measures: string[];
  months: string[];
  sources: Array<{ id: number | null; name: string | null }>;
  rows: Array<Figures & { leadSource: number | null; month: string }>;
  bySource: Array<Figures & { leadSource: number | null }>;
  byMonth: Array<Figures & { month: string }>;
  totals: Figures;
}

export interface ReportFilters {
  kind: ReportKind;
  from: string;
  until: string;
  basis: DateBasis;
  /** Chosen lead sources; none: all the user sees (and records without one). */
  sources: number[];
}

/** The query string of a report or its export (without `format`). */
export function reportQuery(filters: ReportFilters): URLSearchParams {
  const query = new URLSearchParams();
  if (filters.from) query.set('from', filters.from);
  if (filters.until) query.set('until', filters.until);
  if (REPORT_DATE_BASES[filters.kind].includes(filters.basis))
    query.set('date_basis', filters.basis);
  for (const id of filters.sources) query.append('lead_sources', String(id));
  return query;
}

/** The day `months` months before `day` ('YYYY-MM-DD'), on the first of its month. */
function firstOfMonthBefore(day: string, months: number): string {
  const year = Number(day.slice(0, 4));
  const month = Number(day.slice(5, 7)) - 1 - months;
  const date = new Date(Date.UTC(year, month, 1));
  return date.toISOString().slice(0, 10);
}

/** The default period: the last twelve months, this one included (from the 1st to today). */
export const defaultPeriod = (today: string): { from: string; until: string } => ({
  from: firstOfMonthBefore(today, 11),
  until: today,
});

/** A measure's camelCase name from the answer's snake_case list (`with_closure` → `withClosure`). */
export const measureOf = (wire: string): ReportMeasure =>
  wire.replace(/_([a-z])/g, (_match, letter: string) => letter.toUpperCase()) as ReportMeasure;

/** How many lead sources the chart shows on their own; the others are summed as one. */
export const CHART_SOURCES = 8;

export interface ChartSeries {
  /** A lead source's id, 'none' (records without one) or 'others'. */
  id: string;
  sourceIds: Array<number | null>;
  data: number[];
}

/**
 * The chart's series of a measure: one per lead source, the largest first (by the measure's
 * total), at most CHART_SOURCES of them; the rest summed into one series 'others'. `data` follows
 * `answer.months`.
 */
export function chartSeries(answer: ReportAnswer, measure: ReportMeasure): ChartSeries[] {
  const monthAt = new Map(answer.months.map((month, at) => [month, at]));
  const ranked = [...answer.bySource]
    .filter((row) => (row[measure] ?? 0) !== 0)
    .sort((a, b) => (b[measure] ?? 0) - (a[measure] ?? 0));
  const shown = ranked.length > CHART_SOURCES ? ranked.slice(0, CHART_SOURCES - 1) : ranked;
  const rest = ranked.slice(shown.length).map((row) => row.leadSource);
  const series: ChartSeries[] = shown.map((row) => ({
    id: row.leadSource === null ? 'none' : String(row.leadSource),
    sourceIds: [row.leadSource],
    data: answer.months.map(() => 0),
  }));
  if (rest.length > 0)
    series.push({ id: 'others', sourceIds: rest, data: answer.months.map(() => 0) });
  for (const row of answer.rows) {
    const at = monthAt.get(row.month);
    const target = series.find((candidate) => candidate.sourceIds.includes(row.leadSource));
    if (at !== undefined && target) target.data[at] += row[measure] ?? 0;
  }
  for (const entry of series) entry.data = entry.data.map((value) => Math.round(value * 100) / 100);
  return series;
}

/** A month 'YYYY-MM' as a short label in the user's language: 'Jan 26', 'janv. 26', 'gen 26'. */
export function monthLabel(month: string, locale: string): string {
  const date = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)) - 1, 15));
  return new Intl.DateTimeFormat(`${locale}-CH`, {
    month: 'short',
    year: '2-digit',
    timeZone: 'UTC',
  }).format(date);
}
