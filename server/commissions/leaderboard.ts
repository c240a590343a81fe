/**
 * The leaderboard (issue 17; spec §9: the current month, insurance overall, section leaderboard,
 * status active):
 *
 *   GET /api/leaderboard?range=week|month|quarter|year|custom&from&until
 *       &insurance=overall|<product group>&status=active|all&section=leaderboard|charts
 *   leaderboard → {data: {from, until, rows: [{rank, user_id, name, stars, closures, production,
 *                  chf, me}]}}
 *   charts      → {data: {from, until, bucket, buckets, series: [{user_id, name, rank, me,
 *                  stars: [per bucket], closures: [per bucket]}]}} (the first ten and the viewer)
 *
 * Period: the ISO week, month, quarter or year containing `from` (default today, Swiss), or with
 * `custom` the days from..until (both required; until before from is 422 on until). The charts'
 * buckets are ISO weeks for up to a quarter, else months (./leaderboard-range.ts).
 *
 * Figures, from the ledger after reversals: a closure counts for the period its contract is dated
 * in (the signing date, else the Swiss day it was entered — as the reports date contracts). Per
 * user and contract the consultant lines are summed (a reversal takes back what its line gave):
 * `stars` their stars, a `closure` when what is left is positive (stars or CHF), `production` the
 * contract's production sum for each closure, `chf` the user's consultant and team-lead lines in
 * CHF. `insurance` keeps the contracts of one product group. Ranked by stars, then closures, then
 * production; equal figures share a rank (1, 1, 3).
 * Who is listed: users shown on the leaderboard (`show_on_leaderboard`; with status active only
 * active accounts) that earned something in the period, and every such consultant (with zeros).
 * Everyone signed in may look; `chf` is null except on the viewer's own row, unless the viewer
 * holds manage-commissions.
 *
 * Cost: one grouped statement over the period's contracts (the signing date's index, then each
 * contract's lines by the contract's index), aggregated by the database per user (and bucket); the
 * ranking of those few rows here. Measured with 300,000 contracts over three years (345,000 lines,
 * 40 consultants; a loaded 2-CPU machine): a month 65 ms on PGlite / 48 ms on PostgreSQL, a week or
 * one product group's month 27 / 14 ms, a quarter 186 / 101 ms, a year 0.68 / 0.38 s.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import { swissToday, SWISS_TIME_ZONE } from '../../src/schema/swiss-time.ts';
import { startOfDay } from '../customers/export.ts';
import { languageOf } from '../customers/labels.ts';
import type { DB } from '../db/index.ts';
import { addError, ApiError, type FieldErrors, issue } from '../http/errors.ts';
import { dataSchema } from '../http/lists.ts';
import {
  bucketKindOf,
  bucketsOf,
  type DayRange,
  LEADERBOARD_RANGES,
  type LeaderboardRange,
  periodOf,
} from './leaderboard-range.ts';
import { mayManageCommissions } from './payout-lines.ts';

export const INSURANCES = [
  'overall',
  'health',
  'life',
  'property_casualty',
  'finance',
  'other',
] as const;
type Insurance = (typeof INSURANCES)[number];

interface LeaderboardQuery {
  range: LeaderboardRange;
  from?: string;
  until?: string;
  insurance: Insurance;
  status: 'active' | 'all';
  section: 'leaderboard' | 'charts';
}

/** How many users the charts follow (and the viewer besides). */
const CHART_USERS = 10;

const querySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    range: { type: 'string', enum: [...LEADERBOARD_RANGES], default: 'month' },
    from: {
      type: 'string',
      format: 'date',
      description:
        'custom: the first day. Otherwise a day of the week, month, quarter or year wanted (default today).',
    },
    until: { type: 'string', format: 'date', description: 'custom: the last day (inclusive).' },
    insurance: { type: 'string', enum: [...INSURANCES], default: 'overall' },
    status: { type: 'string', enum: ['active', 'all'], default: 'active' },
    section: { type: 'string', enum: ['leaderboard', 'charts'], default: 'leaderboard' },
  },
} as const;

const NUMBER_OR_NULL = { type: ['number', 'null'] };
const rowSchema = {
  type: 'object',
  properties: {
    rank: { type: 'integer' },
    user_id: { type: 'integer' },
    name: { type: 'string' },
    stars: { type: 'number' },
    closures: { type: 'integer' },
    production: { type: 'number' },
    chf: NUMBER_OR_NULL,
    me: { type: 'boolean' },
  },
};
const answerSchema = {
  type: 'object',
  properties: {
    from: { type: 'string' },
    until: { type: 'string' },
    rows: { type: 'array', items: rowSchema },
    bucket: { type: 'string', enum: ['week', 'month'] },
    buckets: { type: 'array', items: { type: 'string' } },
    series: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          user_id: { type: 'integer' },
          name: { type: 'string' },
          rank: { type: 'integer' },
          me: { type: 'boolean' },
          stars: { type: 'array', items: { type: 'number' } },
          closures: { type: 'array', items: { type: 'integer' } },
        },
      },
    },
  },
};

/** The period asked for, or 422 naming what does not fit. */
function periodOfQuery(query: LeaderboardQuery): DayRange {
  if (query.range !== 'custom') return periodOf(query.range, query.from ?? swissToday());
  const errors: FieldErrors = {};
  if (!query.from) addError(errors, 'from', issue('required'));
  if (!query.until) addError(errors, 'until', issue('required'));
  if (query.from && query.until && query.until < query.from)
    addError(errors, 'until', issue('notBeforeFrom'));
  if (Object.keys(errors).length > 0)
    throw new ApiError(
      422,
      issue('invalidQuery', { fields: Object.keys(errors).join(', ') }),
      errors,
    );
  return { from: query.from as string, until: query.until as string };
}

/** A contract's day: its signing date, else the Swiss day it was entered. */
const CONTRACT_DAY = sql`coalesce(c.signing_date, (c.created_at at time zone ${sql.lit(SWISS_TIME_ZONE)})::date)`;

/** Contracts dated within the days (written so that each branch can use its index). */
const contractIn = (range: DayRange): RawBuilder<SqlBool> =>
  sql<SqlBool>`(c.signing_date between ${range.from}::date and ${range.until}::date
    or (c.signing_date is null and c.created_at >= ${startOfDay(range.from)}
      and c.created_at < ${startOfDay(range.until, 1)}))`;

interface Figures {
  userId: number;
  bucket: string;
  stars: number;
  closures: number;
  production: number;
  /** Centimes. */
  chf: number;
}

/** Figures per user (and bucket, when the charts ask), aggregated by the database in one pass. */
async function figuresOf(
  db: DB,
  range: DayRange,
  insurance: Insurance,
  bucket?: 'week' | 'month',
): Promise<Figures[]> {
  const bucketOf =
    bucket === 'week'
      ? sql`to_char(${CONTRACT_DAY}, 'IYYY-"W"IW')`
      : bucket === 'month'
        ? sql`to_char(${CONTRACT_DAY}, 'YYYY-MM')`
        : sql`''`;
  // `(…) is true`: a test no index can answer, so that no plan ANDs the kind or product-group
  // index (half a table) into each contract's probe (PGlite keeps no statistics, and did).
  const group = insurance === 'overall' ? sql`` : sql`and (c.product_group = ${insurance}) is true`;
  const consultant = sql`l.kind = 'consultant'`;
  // Each contract of the period, then its lines by the contract's index (lateral: one probe per
  // contract, whatever the planner would guess of the range without statistics).
  const query = sql<{
    user_id: number;
    bucket: string;
    stars: number | string | null;
    closures: number | string;
    production: number | string | null;
    chf: number | string | null;
  }>`
    select user_id, bucket, round(sum(stars)::numeric, 2) as stars,
      count(*) filter (where closing) as closures,
      coalesce(sum(production) filter (where closing), 0) as production,
      sum(chf) as chf
    from (
      select x.user_id, ${bucketOf} as bucket, x.stars, x.closing, x.chf,
        c.production_sum as production
      from contracts c
      cross join lateral (
        select l.user_id,
          coalesce(sum(l.stars) filter (where ${consultant}), 0) as stars,
          (coalesce(sum(l.stars) filter (where ${consultant}), 0) > 0
            or coalesce(sum(l.amount) filter (where ${consultant}), 0) > 0) as closing,
          sum(l.amount) as chf
        from commission_lines l
        where l.contract_id = c.id
          and (l.kind in ('consultant', 'team_lead') and l.user_id is not null) is true
        group by l.user_id
      ) x
      where ${contractIn(range)} ${group}
    ) per_contract
    group by user_id, bucket`;
  // As the reports: PostgreSQL's JIT would cost more than this query (`set local`: this one only).
  const { rows } = await db.transaction().execute(async (trx) => {
    await sql`set local jit = off`.execute(trx);
    return query.execute(trx);
  });
  return rows.map((row) => ({
    userId: Number(row.user_id),
    bucket: String(row.bucket),
    stars: Number(row.stars ?? 0),
    closures: Number(row.closures),
    production: Number(row.production ?? 0),
    chf: Number(row.chf ?? 0),
  }));
}

interface Ranked {
  rank: number;
  user_id: number;
  name: string;
  stars: number;
  closures: number;
  production: number;
  chf: number | null;
  me: boolean;
}

const round2 = (value: number) => Math.round(value * 100) / 100;

/** The listed users with their totals, ranked (equal figures share a rank). */
async function ranking(
  db: DB,
  request: FastifyRequest,
  query: LeaderboardQuery,
  figures: Figures[],
): Promise<Ranked[]> {
  const viewer = request.principal;
  const seesChf = mayManageCommissions(viewer);
  const totals = new Map<number, Omit<Figures, 'bucket' | 'userId'>>();
  for (const one of figures) {
    const sum = totals.get(one.userId) ?? { stars: 0, closures: 0, production: 0, chf: 0 };
    sum.stars += one.stars;
    sum.closures += one.closures;
    sum.production += one.production;
    sum.chf += one.chf;
    totals.set(one.userId, sum);
  }
  let users = db
    .selectFrom('users')
    .select(['id', 'first_name', 'last_name', 'role'])
    .where(sql<SqlBool>`coalesce(show_on_leaderboard, true)`);
  if (query.status === 'active') users = users.where(sql<SqlBool>`coalesce(is_active, true)`);
  const listed = (await users.execute()).filter(
    (user) => totals.has(Number(user.id)) || user.role === 'CONSULTANT',
  );
  const collator = new Intl.Collator(languageOf(viewer?.language));
  const rows = listed.map((user) => {
    const id = Number(user.id);
    const sum = totals.get(id) ?? { stars: 0, closures: 0, production: 0, chf: 0 };
    const me = viewer?.id === id;
    return {
      rank: 0,
      user_id: id,
      name: `${user.first_name} ${user.last_name}`.trim(),
      stars: round2(sum.stars),
      closures: sum.closures,
      production: round2(sum.production),
      chf: seesChf || me ? sum.chf / 100 : null,
      me,
    };
  });
  const better = (a: Ranked, b: Ranked) =>
    b.stars - a.stars || b.closures - a.closures || b.production - a.production;
  rows.sort((a, b) => better(a, b) || collator.compare(a.name, b.name) || a.user_id - b.user_id);
  rows.forEach((row, at) => {
    const before = rows[at - 1];
    row.rank = before && better(before, row) === 0 ? before.rank : at + 1;
  });
  return rows;
}

export async function leaderboardRoutes(app: FastifyInstance): Promise<void> {
  app.get<{ Querystring: LeaderboardQuery }>(
    '/api/leaderboard',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['leaderboard'],
        summary:
          'The leaderboard of a period (Swiss days): users ranked by stars, closures and production after reversals, or (section=charts) the first ten and the viewer per week or month. CHF only for the viewer or manage-commissions.',
        querystring: querySchema,
        response: { 200: dataSchema(answerSchema) },
      },
    },
    async (request) => {
      const query = request.query;
      const range = periodOfQuery(query);
      if (query.section === 'leaderboard') {
        const figures = await figuresOf(app.db, range, query.insurance);
        return { data: { ...range, rows: await ranking(app.db, request, query, figures) } };
      }
      const kind = bucketKindOf(range);
      const buckets = bucketsOf(range, kind);
      const figures = await figuresOf(app.db, range, query.insurance, kind);
      const rows = await ranking(app.db, request, query, figures);
      const followed = rows.filter((row, at) => at < CHART_USERS || row.me);
      const at = new Map(buckets.map((bucket, index) => [bucket, index]));
      const series = followed.map((row) => ({
        user_id: row.user_id,
        name: row.name,
        rank: row.rank,
        me: row.me,
        stars: buckets.map(() => 0),
        closures: buckets.map(() => 0),
      }));
      const byUser = new Map(series.map((one) => [one.user_id, one]));
      for (const one of figures) {
        const line = byUser.get(one.userId);
        const index = at.get(one.bucket);
        if (!line || index === undefined) continue;
        line.stars[index] = round2((line.stars[index] ?? 0) + one.stars);
        line.closures[index] = (line.closures[index] ?? 0) + one.closures;
      }
      return { data: { ...range, bucket: kind, buckets, series } };
    },
  );
}
