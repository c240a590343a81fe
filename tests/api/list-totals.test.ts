/**
 * Totals of the generic lists at any size (server/http/lists.ts pageAnswer, server/crud): exact
 * while cheap (up to COUNT_CAP rows, TEXT_COUNT_CAP for a search), else "about" the planner's
 * estimate for a whole table or "more than" the cap, always with has_next_page and
 * has_previous_page; deep pages (a deferred join) in the same order as the first ones.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COUNT_CAP, TEXT_COUNT_CAP } from '../../server/http/lists.ts';
import { ADMIN, CONSULTANT, createTestApp, type TestApp } from './harness.ts';

interface Meta {
  current_page: number;
  per_page: number;
  total: number;
  last_page: number;
  total_exact: boolean;
  total_estimate?: string;
  has_next_page: boolean;
  has_previous_page: boolean;
}
type Row = Record<string, unknown>;

let t: TestApp;
const tag = `Bulk${Math.random().toString(36).slice(2, 8)}`;
/** More than the cap, all of them the consultant's. */
const ROWS = COUNT_CAP + 150;
let table: number;

async function list(query: string, as = ADMIN): Promise<{ data: Row[]; meta: Meta }> {
  const response = await t.request({ method: 'GET', url: `/api/customers?${query}`, as });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { data: Row[]; meta: Meta };
}

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const consultant = await db
    .selectFrom('users')
    .select('id')
    .where('email', '=', CONSULTANT)
    .executeTakeFirstOrThrow();
  // Straight into the table: 10,000 customers through the API would take minutes.
  await sql`
    insert into customers (first_name, last_name, assigned_to, created_at)
    select 'Anna', ${tag} || ' ' || lpad(g::text, 5, '0'), ${consultant.id},
      now() - g * interval '1 minute'
    from generate_series(1, ${ROWS}) as g`.execute(db);
  await t.database.exclusive((exec) => exec('analyze customers'));
  const counted = await db
    .selectFrom('customers')
    .select(sql<number>`count(*)`.as('n'))
    .executeTakeFirstOrThrow();
  table = Number(counted.n);
}, 300_000);
afterAll(async () => {
  await t?.close();
});

describe('list totals beyond the cap', () => {
  it('answers the planner’s estimate for a whole table, with the next page', async () => {
    const { data, meta } = await list('per_page=25');
    expect(data).toHaveLength(25);
    expect(meta).toMatchObject({
      current_page: 1,
      per_page: 25,
      total_exact: false,
      total_estimate: 'about',
      has_next_page: true,
      has_previous_page: false,
    });
    // Two significant digits of an estimate close to the count.
    expect(Math.abs(meta.total - table)).toBeLessThanOrEqual(table * 0.05);
    expect(meta.last_page).toBe(Math.ceil(meta.total / 25));
  });

  it('answers "more than" the cap in a restricted scope, exact within it', async () => {
    const own = await list('per_page=25', CONSULTANT);
    expect(own.meta).toMatchObject({
      total: COUNT_CAP,
      total_exact: false,
      total_estimate: 'more_than',
      has_next_page: true,
    });
    const filtered = await list(`is_company=true&per_page=25`);
    expect(filtered.meta.total_exact).toBe(true);
  });

  it('counts a search no further than the text cap', async () => {
    const { meta } = await list(`search=${tag}&per_page=10`);
    expect(meta).toMatchObject({
      total: TEXT_COUNT_CAP,
      total_exact: false,
      total_estimate: 'more_than',
      has_next_page: true,
      has_previous_page: false,
    });
    const one = await list(`search=${encodeURIComponent(`${tag} 00007`)}`);
    expect(one.meta).toMatchObject({ total: 1, total_exact: true, has_next_page: false });
    expect(one.data.map((row) => row.last_name)).toEqual([`${tag} 00007`]);
  });

  it('a page beyond the cap says there are more than the rows before it', async () => {
    const { data, meta } = await list(`search=${tag}&per_page=25&page=100&sort=last_name`);
    expect(data.map((row) => row.last_name)).toEqual(
      Array.from({ length: 25 }, (_, index) => `${tag} ${String(2476 + index).padStart(5, '0')}`),
    );
    expect(meta).toMatchObject({
      total: 2500,
      total_exact: false,
      has_next_page: true,
      has_previous_page: true,
      last_page: 101,
    });
  });

  it('knows the total exactly on the last page, without a count', async () => {
    const last = Math.ceil(ROWS / 25);
    const { data, meta } = await list(`search=${tag}&per_page=25&page=${last}&sort=last_name`);
    expect(data).toHaveLength(ROWS - 25 * (last - 1));
    expect(meta).toMatchObject({
      total: ROWS,
      total_exact: true,
      last_page: last,
      has_next_page: false,
      has_previous_page: true,
    });
    const beyond = await list(`search=${tag}&per_page=25&page=${last + 1}`);
    expect(beyond.data).toEqual([]);
    expect(beyond.meta).toMatchObject({ has_next_page: false, total_exact: false });
  });

  it('deep pages (a deferred join) follow the order of the first ones, ties by id', async () => {
    // 20 customers with the same first name: the order among equal keys is the id's.
    const first = await list(`search=${tag}&per_page=500&page=1&sort=first_name&order=desc`);
    const deep = await list(`search=${tag}&per_page=25&page=20&sort=first_name&order=desc`);
    expect(deep.data.map((row) => row.id)).toEqual(first.data.slice(475, 500).map((row) => row.id));
    const ids = first.data.map((row) => Number(row.id));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const oldest = await list(`search=${tag}&per_page=25&page=${Math.ceil(ROWS / 25)}`);
    expect(oldest.data).toHaveLength(ROWS % 25 || 25);
    expect(oldest.data.at(-1)?.last_name).toBe(`${tag} ${String(ROWS).padStart(5, '0')}`);
  });

  it('the next deep page and the same one again (keyset from their first record) match OFFSET', async () => {
    const all = await list(`search=${tag}&per_page=500&page=1`);
    const slice = (page: number) => all.data.slice((page - 1) * 25, page * 25).map((row) => row.id);
    const pageIds = async (page: number) =>
      (await list(`search=${tag}&per_page=25&page=${page}`)).data.map((row) => row.id);
    // Page 10 by the deferred join; page 11 and page 10 again from their first records.
    expect(await pageIds(10)).toEqual(slice(10));
    expect(await pageIds(11)).toEqual(slice(11));
    expect(await pageIds(10)).toEqual(slice(10));
    expect(await pageIds(12)).toEqual(slice(12));
    const ids = all.data.map((row) => Number(row.id));
    // Newest first; created a minute apart, so the id follows (the last rows are the oldest).
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });
});
