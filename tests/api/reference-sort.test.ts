/**
 * Lists sorted by a reference column (server/crud/reference-sort.ts) answer exactly the order of
 * the plain definition — every row labelled by the record it names, `order by label, column, id`
 * in the user's collation, rows without a reference last ascending and first descending — on
 * every page, both ways, with conditions and in a consultant's scope: whether the rows with a
 * reference are few (sorted directly) or many (read group by group from the referenced records
 * in label order), and across the boundary to the rows without one.
 */
import { type Expression, type SqlBool, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FEW_REFERENCING } from '../../server/crud/reference-sort.ts';
import { hasLabelCollation, referencedLabelSql, sortKey } from '../../server/crud/references.ts';
import { searchCondition } from '../../server/crud/search.ts';
import { type ResourceExpressionBuilder, resourceDb } from '../../server/db/resource.ts';
import { ADMIN, CONSULTANT, createTestApp, type TestApp } from './harness.ts';

let t: TestApp;
const tag = `Refsort${Math.random().toString(36).slice(2, 8)}`;
/** More rows with a consultant than are sorted directly: the group-by-group reading. */
const ROWS = FEW_REFERENCING + 300;
const PER_PAGE = 100;
let consultantId: number;

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const users = await db.selectFrom('users').select('id').orderBy('id').execute();
  consultantId = (
    await db
      .selectFrom('users')
      .select('id')
      .where('email', '=', CONSULTANT)
      .executeTakeFirstOrThrow()
  ).id;
  await sql`
    insert into lead_sources (name_de, name_fr, name_it, name_en, "group")
    values ('Empfehlung', 'Recommandation', 'Raccomandazione', 'Referral', 'other'),
           ('Ärztenetz', 'Réseau', 'Rete', 'Network', 'other'),
           ('Zeitung', '', '', 'Newspaper', 'other')`.execute(db);
  const sources = await db.selectFrom('lead_sources').select('id').orderBy('id').execute();
  const userIds = users.map((user) => user.id);
  const sourceIds = sources.map((source) => source.id);
  // Every 7th row without a consultant, every 5th without a lead source; labels with umlauts and
  // ties (same last names), so the collation and the id tie-break both count.
  await sql`
    insert into customers (first_name, last_name, assigned_to, lead_source, created_at)
    select
      (array['Anna', 'Ölfa', 'Zoe', 'émile'])[1 + g % 4],
      ${tag} || ' ' || (array['Müller', 'Muster', 'Ober', 'Zürcher'])[1 + g % 4],
      case when g % 7 = 0 then null else (${sql.val(userIds)}::int[])[1 + g % ${userIds.length}] end,
      case when g % 5 = 0 then null else (${sql.val(sourceIds)}::int[])[1 + g % ${sourceIds.length}] end,
      now() - g * interval '1 minute'
    from generate_series(1, ${ROWS}) as g`.execute(db);
  // A few recommendations: the rows with a reference are few (sorted directly).
  await sql`
    update customers as c set recommended_by_customer_id = c.id % 3 + (
      select min(id) from customers where last_name like ${`${tag}%`})
    where c.last_name like ${`${tag}%`} and c.id % 40 = 0`.execute(db);
  await t.database.exclusive((exec) => exec('analyze customers'));
}, 300_000);
afterAll(async () => {
  await t?.close();
});

/** The ids in the plain definition's order (the oracle), with the list's own conditions. */
async function expectedIds(
  column: 'assigned_to' | 'lead_source' | 'recommended_by_customer_id',
  direction: 'asc' | 'desc',
  condition?: (eb: ResourceExpressionBuilder) => Expression<SqlBool>,
): Promise<number[]> {
  const models = t.app.models;
  const model = models.find((candidate) => candidate.name === 'customers')!;
  const field = model.fields.find((candidate) => candidate.column === column)!;
  const target = models.find((candidate) => candidate.name === field.reference)!;
  const label = sortKey(
    referencedLabelSql(model, field, target, 'de')!,
    await hasLabelCollation(t.database.db),
  );
  let query = resourceDb(t.database.db).selectFrom('customers').select('customers.id');
  if (condition) query = query.where(condition);
  const rows = await query
    .orderBy(label, direction)
    .orderBy(sql.ref(`customers.${column}`), direction)
    .orderBy(sql.ref('customers.id'), direction)
    .execute();
  return rows.map((row) => Number(row.id));
}

/** Every page of the list, one after the other, as ids. */
async function listedIds(query: string, as = ADMIN): Promise<number[]> {
  const ids: number[] = [];
  for (let page = 1; ; page++) {
    const response = await t.request({
      method: 'GET',
      url: `/api/customers?per_page=${PER_PAGE}&page=${page}&${query}`,
      as,
    });
    expect(response.statusCode, response.body).toBe(200);
    const { data, meta } = response.json() as {
      data: { id: number }[];
      meta: { has_next_page: boolean };
    };
    ids.push(...data.map((row) => row.id));
    if (!meta.has_next_page) return ids;
  }
}

describe('lists sorted by a reference column', () => {
  for (const direction of ['asc', 'desc'] as const) {
    it(`by consultant (${direction}): many rows with one, read group by group`, async () => {
      const expected = await expectedIds('assigned_to', direction);
      expect(expected.length).toBeGreaterThan(ROWS);
      expect(await listedIds(`sort=assigned_to&order=${direction}`)).toEqual(expected);
    });

    it(`by lead source (${direction}): a localized label`, async () => {
      expect(await listedIds(`sort=lead_source&order=${direction}`)).toEqual(
        await expectedIds('lead_source', direction),
      );
    });

    it(`by recommending customer (${direction}): few rows with one, sorted directly`, async () => {
      const expected = await expectedIds('recommended_by_customer_id', direction);
      expect(await listedIds(`sort=recommended_by_customer_id&order=${direction}`)).toEqual(
        expected,
      );
    });
  }

  it('keeps the list’s conditions (a search) and the consultant’s scope', async () => {
    const customers = t.app.models.find((model) => model.name === 'customers')!;
    const search = `${tag} muller`;
    const searched = await expectedIds('assigned_to', 'desc', (eb) =>
      searchCondition(eb, customers, search)!,
    );
    expect(searched.length).toBeGreaterThan(PER_PAGE);
    expect(
      await listedIds(`sort=assigned_to&order=desc&search=${encodeURIComponent(search)}`),
    ).toEqual(searched);

    const own = await expectedIds('lead_source', 'asc', (eb) =>
      eb('customers.assigned_to', '=', consultantId),
    );
    expect(own.length).toBeGreaterThan(PER_PAGE);
    expect(await listedIds('sort=lead_source&order=asc', CONSULTANT)).toEqual(own);
  });

  it('starts a page beyond the rows with a reference where the plain order does', async () => {
    const expected = await expectedIds('assigned_to', 'asc');
    const withConsultant = (
      await t.database.db
        .selectFrom('customers')
        .select(sql<number>`count(*)`.as('n'))
        .where('assigned_to', 'is not', null)
        .executeTakeFirstOrThrow()
    ).n;
    // The first page wholly among the rows without a consultant, jumped to directly.
    const page = Math.floor(Number(withConsultant) / 25) + 2;
    const response = await t.request({
      method: 'GET',
      url: `/api/customers?per_page=25&page=${page}&sort=assigned_to&order=asc`,
      as: ADMIN,
    });
    expect(response.statusCode).toBe(200);
    const ids = (response.json() as { data: { id: number }[] }).data.map((row) => row.id);
    expect(ids.length).toBeGreaterThan(0);
    expect(ids).toEqual(expected.slice((page - 1) * 25, page * 25));
  });
});
