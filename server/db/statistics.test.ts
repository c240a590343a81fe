/**
 * refreshStatistics on PGlite (no autovacuum): a table that grew is analysed once, then left
 * alone until it grows by a fifth again; small tables are left alone.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openPglite } from './index.ts';
import { refreshStatistics } from './statistics.ts';

let database: Database;

beforeAll(async () => {
  database = await openPglite(undefined);
  await sql`create table grown (id int primary key, note text)`.execute(database.db);
  await sql`create table small (id int primary key)`.execute(database.db);
  await sql`insert into small select g from generate_series(1, 10) g`.execute(database.db);
}, 60_000);

afterAll(async () => {
  await database.close();
});

const fill = (from: number, to: number) =>
  sql`insert into grown select g, repeat('x', 100) from generate_series(${from}::int, ${to}::int) g`.execute(
    database.db,
  );

const planned = async () => {
  const { rows } = await sql<{ reltuples: number }>`select reltuples from pg_class
    where relname = 'grown'`.execute(database.db);
  return Number(rows[0]!.reltuples);
};

describe('refreshStatistics', () => {
  it('analyses a table that grew, once, and again after it grew by a fifth', async () => {
    await fill(1, 20_000);
    expect(await planned()).toBeLessThan(0);
    expect(await refreshStatistics(database.db)).toEqual(['grown']);
    expect(await planned()).toBe(20_000);
    expect(await refreshStatistics(database.db)).toEqual([]);
    await fill(20_001, 22_000);
    expect(await refreshStatistics(database.db)).toEqual([]);
    await fill(22_001, 30_000);
    expect(await refreshStatistics(database.db)).toEqual(['grown']);
    expect(await planned()).toBe(30_000);
  });
});
