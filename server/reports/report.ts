/**
 * A report as the API answers it and the exports write it: the database's cells (./figures.ts,
 * one per lead source and month) rolled up by lead source, by month and in total — small arrays,
 * never the records themselves — with the lead sources' names in the user's language.
 */
import {
  type DateBasis,
  REPORT_MEASURES,
  type ReportKind,
  type ReportMeasure,
} from '../../src/schema/reports.ts';
import type { Language } from '../customers/labels.ts';
import type { DB } from '../db/index.ts';
import { type Cell, type ReportFilter, reportCells } from './figures.ts';

/** A lead source of the report (id null: records without one). */
export interface ReportSource {
  id: number | null;
  name: string | null;
}

export interface Report {
  kind: ReportKind;
  basis: DateBasis;
  from: string | null;
  until: string | null;
  measures: readonly ReportMeasure[];
  /** Every month of the range (of the data's span when the range is open or very long). */
  months: string[];
  /** The lead sources that have records, by name (none last). */
  sources: ReportSource[];
  cells: Cell[];
  bySource: Array<{ leadSource: number | null; values: Record<ReportMeasure, number> }>;
  byMonth: Array<{ month: string; values: Record<ReportMeasure, number> }>;
  totals: Record<ReportMeasure, number>;
}

/** A range longer than this many months shows only the months that have records. */
const MAX_FILLED_MONTHS = 120;

const monthIndex = (month: string) =>
  Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1;
const monthOf = (index: number) =>
  `${String(Math.floor(index / 12)).padStart(4, '0')}-${String((index % 12) + 1).padStart(2, '0')}`;

/** The months from `first` to `last` ('YYYY-MM'), each once. */
export function monthsBetween(first: string, last: string): string[] {
  const out: string[] = [];
  for (let index = monthIndex(first); index <= monthIndex(last); index++) out.push(monthOf(index));
  return out;
}

function reportMonths(cells: Cell[], from?: string, until?: string): string[] {
  const found = cells.map((cell) => cell.month).sort();
  const first = from?.slice(0, 7) ?? found[0];
  const last = until?.slice(0, 7) ?? found[found.length - 1];
  if (first && last && monthIndex(last) - monthIndex(first) < MAX_FILLED_MONTHS)
    return monthsBetween(first, last);
  if (found.length === 0) return [];
  return monthsBetween(found[0], found[found.length - 1]);
}

const zero = (measures: readonly ReportMeasure[]) =>
  Object.fromEntries(measures.map((measure) => [measure, 0])) as Record<ReportMeasure, number>;

function add(
  into: Record<ReportMeasure, number>,
  values: Record<ReportMeasure, number>,
  measures: readonly ReportMeasure[],
) {
  for (const measure of measures) into[measure] += values[measure];
}

/** Sums of CHF amounts to the centime (floating sums of many amounts drift). */
function roundAmounts(values: Record<ReportMeasure, number>) {
  if ('closurePremium' in values)
    values.closurePremium = Math.round(values.closurePremium * 100) / 100;
}

/** The lead sources' names in a language (German when that one is empty). */
export async function leadSourceNames(db: DB, language: Language): Promise<Map<number, string>> {
  const rows = await db
    .selectFrom('lead_sources')
    .select(['id', 'name_de', 'name_fr', 'name_it', 'name_en'])
    .execute();
  return new Map(rows.map((row) => [Number(row.id), row[`name_${language}`] || row.name_de]));
}

export async function buildReport(
  db: DB,
  filter: ReportFilter,
  language: Language,
): Promise<Report> {
  const measures = REPORT_MEASURES[filter.kind] as readonly ReportMeasure[];
  const cells = await reportCells(db, filter);
  const names = await leadSourceNames(db, language);

  const bySource = new Map<number | null, Record<ReportMeasure, number>>();
  const byMonth = new Map<string, Record<ReportMeasure, number>>();
  const totals = zero(measures);
  for (const cell of cells) {
    roundAmounts(cell.values);
    if (!bySource.has(cell.leadSource)) bySource.set(cell.leadSource, zero(measures));
    if (!byMonth.has(cell.month)) byMonth.set(cell.month, zero(measures));
    add(bySource.get(cell.leadSource)!, cell.values, measures);
    add(byMonth.get(cell.month)!, cell.values, measures);
    add(totals, cell.values, measures);
  }
  for (const values of [...bySource.values(), ...byMonth.values(), totals]) roundAmounts(values);

  const collator = new Intl.Collator(language);
  const sources: ReportSource[] = [...bySource.keys()]
    .map((id) => ({ id, name: id === null ? null : (names.get(id) ?? String(id)) }))
    .sort((a, b) =>
      a.name === null ? 1 : b.name === null ? -1 : collator.compare(a.name, b.name),
    );
  const order = new Map(sources.map((source, at) => [source.id, at]));
  const months = reportMonths(cells, filter.from, filter.until);
  cells.sort(
    (a, b) => order.get(a.leadSource)! - order.get(b.leadSource)! || a.month.localeCompare(b.month),
  );
  return {
    kind: filter.kind,
    basis: filter.basis,
    from: filter.from ?? null,
    until: filter.until ?? null,
    measures,
    months,
    sources,
    cells,
    bySource: sources.map((source) => ({
      leadSource: source.id,
      values: bySource.get(source.id)!,
    })),
    byMonth: months.map((month) => ({ month, values: byMonth.get(month) ?? zero(measures) })),
    totals,
  };
}
