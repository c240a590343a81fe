/**
 * The ledger's totals (commission_sums, kept by a trigger) checked against the lines themselves:
 * after a test file's writes, reversals and payouts, every owner's summary read from the sums
 * equals the lines' own sums, by status and kind, before and after the sums are compacted.
 */
import { sql } from 'kysely';
import { expect } from 'vitest';
import { compactCommissionSums } from '../../server/commissions/sums.ts';
import type { TestApp } from './harness.ts';

interface Group {
  owner: number;
  broker: number;
  period: string;
  status: string;
  kind: string;
  count: number;
  amount: number;
  stars: number;
}

const key = (group: Group) =>
  [group.owner, group.broker, group.period, group.status, group.kind].join('|');

async function groups(t: TestApp, table: 'commission_lines' | 'commission_sums') {
  const query =
    table === 'commission_lines'
      ? sql<Record<string, unknown>>`select coalesce(user_id, 0) as owner,
          coalesce(sub_broker_id, 0) as broker, period, status, kind, count(*) as count,
          sum(amount) as amount, coalesce(sum(stars), 0) as stars
          from commission_lines group by 1, 2, 3, 4, 5`
      : sql<Record<string, unknown>>`select user_id as owner, sub_broker_id as broker, period,
          status, kind, sum(line_count) as count, sum(amount) as amount, sum(stars) as stars
          from commission_sums group by 1, 2, 3, 4, 5 having sum(line_count) <> 0`;
  const { rows } = await query.execute(t.database.db);
  const out = new Map<string, Group>();
  for (const row of rows) {
    const group: Group = {
      owner: Number(row.owner),
      broker: Number(row.broker),
      period: String(row.period),
      status: String(row.status),
      kind: String(row.kind),
      count: Number(row.count),
      amount: Number(row.amount),
      stars: Math.round(Number(row.stars) * 100) / 100,
    };
    out.set(key(group), group);
  }
  return out;
}

/** The sums equal the lines, group by group; then again once compacted (and compacted once). */
export async function expectSumsMatchLines(t: TestApp, atLeast = 1): Promise<void> {
  const lines = await groups(t, 'commission_lines');
  expect(lines.size).toBeGreaterThanOrEqual(atLeast);
  expect(Object.fromEntries(await groups(t, 'commission_sums'))).toEqual(Object.fromEntries(lines));
  await compactCommissionSums(t.database.db);
  expect(Object.fromEntries(await groups(t, 'commission_sums'))).toEqual(Object.fromEntries(lines));
  const { rows } = await sql<{ groups: string; rows: string }>`select
      count(distinct (user_id, sub_broker_id, period, status, kind)) as groups, count(*) as rows
      from commission_sums`.execute(t.database.db);
  expect(Number(rows[0]!.rows)).toBe(Number(rows[0]!.groups));
}
