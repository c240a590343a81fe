/**
 * The figures of the reports (issue 16), aggregated by the database: one grouped query per report,
 * one row per lead source and month, so nothing but those rows comes to the server whatever the
 * number of records. Months and days are Swiss (Europe/Zurich): `from`/`until` are whole Swiss
 * days, a timestamp falls in the month its Swiss local time shows. Plain SQL that PGlite and
 * PostgreSQL both run; every range is on an indexed column (created_at, date_start, signing_date).
 *
 * The definitions (also in the page's help text and docs/ARCHITECTURE.md, "Reports"):
 * - clients: customers created in the range, by their lead source;
 * - contracts: by their date — the signing date, or the day the contract was entered when it has
 *   none (`signing`, the default) — or by the day entered (`created`); by the customer's lead
 *   source; closures and non-closures by `contract_type`, the premium is the closures' annual one;
 * - appointments: created in the range (`created`) or starting in it (`appointment`); lead source
 *   of the lead it was booked from (`appointments.lead_id`), else of the client;
 * - leads: created in the range, by their lead source; a lead "got an appointment" when it names
 *   one (`leads.appointment_id`) or one was booked from it (`appointments.lead_id`), whatever
 *   became of it; it "led to a closure" when, besides, a closure (`contract_type` 'closure') of its
 *   customer (`leads.customer_id` or the appointment's client) is dated (as above) on or after the
 *   Swiss day the lead was created — up to today, not only within the range.
 */
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import {
  CANCELLED_STATUSES,
  type DateBasis,
  REPORT_MEASURES,
  type ReportKind,
  type ReportMeasure,
  TOOK_PLACE_STATUSES,
} from '../../src/schema/reports.ts';
import { SWISS_TIME_ZONE } from '../../src/schema/swiss-time.ts';
import { startOfDay } from '../customers/export.ts';
import type { DB } from '../db/index.ts';

export interface ReportFilter {
  kind: ReportKind;
  basis: DateBasis;
  from?: string;
  until?: string;
  /** Only these lead sources (ids); null: every source in `visible`, and records without one. */
  sources: number[] | null;
  /** The lead sources the user may see; null: all of them. */
  visible: number[] | null;
}

/** Figures of one lead source (null: none) in one month ('YYYY-MM'). */
export interface Cell {
  leadSource: number | null;
  month: string;
  values: Record<ReportMeasure, number>;
}

const ZONE = sql.lit(SWISS_TIME_ZONE);

/** The Swiss month of a timestamp, 'YYYY-MM'. */
const monthOfInstant = (column: RawBuilder<unknown>) =>
  sql<string>`to_char(${column} at time zone ${ZONE}, 'YYYY-MM')`;
/** The Swiss day of a timestamp. */
const dayOfInstant = (column: RawBuilder<unknown>) =>
  sql<string>`(${column} at time zone ${ZONE})::date`;

/** `column` (a timestamp) within the Swiss days from..until. */
function instantIn(
  column: RawBuilder<unknown>,
  from?: string,
  until?: string,
): RawBuilder<SqlBool>[] {
  const out: RawBuilder<SqlBool>[] = [];
  if (from) out.push(sql<SqlBool>`${column} >= ${startOfDay(from)}`);
  if (until) out.push(sql<SqlBool>`${column} < ${startOfDay(until, 1)}`);
  return out;
}

/** `column` (a date) within from..until. */
function dayIn(column: RawBuilder<unknown>, from?: string, until?: string): RawBuilder<SqlBool>[] {
  const out: RawBuilder<SqlBool>[] = [];
  if (from) out.push(sql<SqlBool>`${column} >= ${from}::date`);
  if (until) out.push(sql<SqlBool>`${column} <= ${until}::date`);
  return out;
}

const all = (conditions: RawBuilder<SqlBool>[]): RawBuilder<SqlBool> =>
  conditions.length === 0
    ? sql<SqlBool>`true`
    : sql<SqlBool>`(${sql.join(conditions, sql` and `)})`;

/** A contract's date: its signing date, else the Swiss day it was entered. */
const contractDay = (alias: string) =>
  sql`coalesce(${sql.ref(`${alias}.signing_date`)}, ${dayOfInstant(sql.ref(`${alias}.created_at`))})`;

interface Plan {
  /** The tables (from … joins). */
  from: RawBuilder<unknown>;
  leadSource: RawBuilder<unknown>;
  month: RawBuilder<string>;
  range: RawBuilder<SqlBool>;
  /** Each measure's aggregate. */
  measures: Record<string, RawBuilder<unknown>>;
}

const count = sql`count(*)`;
const countWhere = (condition: RawBuilder<SqlBool>) => sql`count(*) filter (where ${condition})`;
const inList = (values: readonly number[]) => sql.join(values.map((value) => sql.lit(value)));

function plan(filter: ReportFilter): Plan {
  const { from, until } = filter;
  switch (filter.kind) {
    case 'clients': {
      const created = sql.ref('c.created_at');
      return {
        from: sql`customers c`,
        leadSource: sql.ref('c.lead_source'),
        month: monthOfInstant(created),
        range: all(instantIn(created, from, until)),
        measures: { count, companies: countWhere(sql<SqlBool>`c.is_company`) },
      };
    }
    case 'contracts': {
      const created = sql.ref('k.created_at');
      const signing = sql.ref('k.signing_date');
      const closure = sql<SqlBool>`k.contract_type = 'closure'`;
      // By date: a signing date in the range, or none and entered in the range — each on its index.
      const range =
        filter.basis === 'created'
          ? all(instantIn(created, from, until))
          : from || until
            ? sql<SqlBool>`(${all(dayIn(signing, from, until))} or (${signing} is null and ${all(instantIn(created, from, until))}))`
            : sql<SqlBool>`true`;
      return {
        from: sql`contracts k join customers cu on cu.id = k.customer_id`,
        leadSource: sql.ref('cu.lead_source'),
        month:
          filter.basis === 'created'
            ? monthOfInstant(created)
            : sql<string>`to_char(${contractDay('k')}, 'YYYY-MM')`,
        range,
        measures: {
          count,
          closures: countWhere(closure),
          non_closures: countWhere(sql<SqlBool>`k.contract_type = 'non-closure'`),
          closure_premium: sql`coalesce(sum(k.annual_premium) filter (where ${closure}), 0)`,
        },
      };
    }
    case 'appointments': {
      const column = sql.ref(filter.basis === 'appointment' ? 'a.date_start' : 'a.created_at');
      return {
        from: sql`appointments a join customers cu on cu.id = a.client_id left join leads l on l.id = a.lead_id`,
        leadSource: sql`coalesce(l.lead_source, cu.lead_source)`,
        month: monthOfInstant(column),
        range: all(instantIn(column, from, until)),
        measures: {
          count,
          from_leads: countWhere(sql<SqlBool>`a.lead_id is not null`),
          took_place: countWhere(sql<SqlBool>`a.status in (${inList(TOOK_PLACE_STATUSES)})`),
          cancelled: countWhere(sql<SqlBool>`a.status in (${inList(CANCELLED_STATUSES)})`),
        },
      };
    }
    case 'leads': {
      const created = sql.ref('l.created_at');
      // The lead's appointment (named by the lead or booked from it; the first if several), and a
      // closure of its customer dated on or after the lead's day. Each a probe on an index: the
      // customer's contracts. The type test is written so that it cannot use the contract_type
      // index — without statistics (PGlite has no autovacuum) the planner ANDed that index, half
      // the table, into every probe (0.8 s instead of 0.16 s for 5,000 leads).
      return {
        from: sql`leads l
          left join lateral (
            select a.client_id from appointments a
            where a.id = l.appointment_id or a.lead_id = l.id
            order by a.date_start, a.id limit 1
          ) ap on true
          left join lateral (
            select 1 as found from contracts k
            where ap.client_id is not null
              and k.customer_id in (ap.client_id, l.customer_id)
              and (k.contract_type = 'closure') is true
              and ${contractDay('k')} >= ${dayOfInstant(created)}
            limit 1
          ) cl on true`,
        leadSource: sql.ref('l.lead_source'),
        month: monthOfInstant(created),
        range: all(instantIn(created, from, until)),
        measures: {
          count,
          with_appointment: countWhere(sql<SqlBool>`ap.client_id is not null`),
          with_closure: countWhere(sql<SqlBool>`cl.found is not null`),
        },
      };
    }
  }
}

/** The lead-source condition: the chosen sources, else those visible and records without one. */
function sourceCondition(leadSource: RawBuilder<unknown>, filter: ReportFilter) {
  if (filter.sources) {
    return filter.sources.length === 0
      ? sql<SqlBool>`false`
      : sql<SqlBool>`${leadSource} in (${inList(filter.sources)})`;
  }
  if (!filter.visible) return sql<SqlBool>`true`;
  return filter.visible.length === 0
    ? sql<SqlBool>`${leadSource} is null`
    : sql<SqlBool>`(${leadSource} is null or ${leadSource} in (${inList(filter.visible)}))`;
}

/** The snake_case wire name of a measure (`withAppointment` → `with_appointment`). */
export const wireMeasure = (measure: string): string =>
  measure.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** The report's cells: one per lead source and month that has any record. */
export async function reportCells(db: DB, filter: ReportFilter): Promise<Cell[]> {
  const p = plan(filter);
  const measures = REPORT_MEASURES[filter.kind] as readonly ReportMeasure[];
  const selected = measures.map(
    (measure) => sql`${p.measures[wireMeasure(measure)]} as ${sql.ref(wireMeasure(measure))}`,
  );
  const query = sql<Record<string, unknown>>`
    select ${p.leadSource} as lead_source, ${p.month} as month, ${sql.join(selected)}
    from ${p.from}
    where ${p.range} and ${sourceCondition(p.leadSource, filter)}
    group by 1, 2
    order by 2, 1`;
  // PostgreSQL would compile such a plan (its cost passes jit_above_cost): ≈ 0.2 s of JIT for a
  // query that runs in less. Off for this one statement (`set local`: the transaction's only).
  const { rows } = await db.transaction().execute(async (trx) => {
    await sql`set local jit = off`.execute(trx);
    return query.execute(trx);
  });
  return rows.map((row) => ({
    leadSource: row.lead_source === null ? null : Number(row.lead_source),
    month: String(row.month),
    values: Object.fromEntries(
      measures.map((measure) => [measure, Number(row[wireMeasure(measure)] ?? 0)]),
    ) as Record<ReportMeasure, number>,
  }));
}
