/**
 * The ledger's totals by owner, month, status and kind (table commission_sums, migration 0032):
 * a trigger on commission_lines adds a row per group each statement changed, so a total is the
 * sum of its group's rows and nobody waits on a row lock to keep it.
 *
 * - `sumsAnswer`: whether a summary's filters can be read from the sums (only owner, month, status
 *   and kind), and the totals then;
 * - `compactCommissionSums`: folds each group's rows into one (after a recompute, and nightly).
 */
import { type Expression, type SqlBool, sql } from 'kysely';
import type { DB } from '../db/index.ts';

/** The filters the sums know; any other (contract, product, company, payout) reads the lines. */
const SUMS_FILTERS = new Set([
  'user_id',
  'kind',
  'status',
  'statuses',
  'period',
  'period_from',
  'period_until',
]);

export const sumsCanAnswer = (query: Record<string, unknown>): boolean =>
  Object.entries(query).every(([key, value]) => value === undefined || SUMS_FILTERS.has(key));

export interface SumRow {
  status: string;
  kind: string;
  count: number;
  total: number;
  stars: number;
}

/**
 * The totals by status and kind of the lines the filters select (`sumsCanAnswer` must hold),
 * `userId` the owner the caller is limited to (undefined: everyone's).
 */
export async function sumsByStatusAndKind(
  db: DB,
  query: Record<string, unknown>,
  userId: number | undefined,
): Promise<SumRow[]> {
  const where: Expression<SqlBool>[] = [];
  const owner = userId ?? (query.user_id as number | undefined);
  if (owner !== undefined) where.push(sql<SqlBool>`user_id = ${owner}`);
  if (userId !== undefined && query.user_id !== undefined && query.user_id !== userId)
    where.push(sql<SqlBool>`false`);
  if (typeof query.kind === 'string') where.push(sql<SqlBool>`kind = ${query.kind}`);
  if (typeof query.status === 'string') where.push(sql<SqlBool>`status = ${query.status}`);
  if (typeof query.period === 'string') where.push(sql<SqlBool>`period = ${query.period}`);
  if (typeof query.period_from === 'string')
    where.push(sql<SqlBool>`period >= ${query.period_from}`);
  if (typeof query.period_until === 'string')
    where.push(sql<SqlBool>`period <= ${query.period_until}`);
  if (Array.isArray(query.statuses) && query.statuses.length > 0)
    where.push(sql<SqlBool>`status in (${sql.join(query.statuses as string[])})`);
  const condition = where.length > 0 ? sql`where ${sql.join(where, sql` and `)}` : sql``;
  const { rows } = await sql<{
    status: string;
    kind: string;
    count: string | number;
    total: string | number;
    stars: number | null;
  }>`select status, kind, sum(line_count) as count, sum(amount) as total, sum(stars) as stars
      from commission_sums ${condition}
      group by status, kind
      having sum(line_count) <> 0`.execute(db);
  return rows.map((row) => ({
    status: row.status,
    kind: row.kind,
    count: Number(row.count),
    total: Number(row.total),
    stars: Number(row.stars ?? 0),
  }));
}

/**
 * Folds each group's rows into one, dropping groups left empty. One statement: rows a writer adds
 * meanwhile are not in its snapshot, so they stay as they are and count on.
 */
export async function compactCommissionSums(db: DB): Promise<void> {
  await sql`with gone as (delete from commission_sums returning *)
    insert into commission_sums (user_id, sub_broker_id, period, status, kind, line_count, amount, stars)
    select user_id, sub_broker_id, period, status, kind, sum(line_count), sum(amount), sum(stars)
    from gone
    group by user_id, sub_broker_id, period, status, kind
    having sum(line_count) <> 0 or sum(amount) <> 0`.execute(db);
}
