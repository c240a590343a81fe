/**
 * Times the customer list API in process on N generated customers (default 100,000, the book of
 * scripts/bench/data.ts; the load over HTTP is `npm run bench`) — the default order
 * 'newest', searches and filters, as the back office and as a consultant (owner scope) — on PGlite
 * and, with --postgres URL, on PostgreSQL. Reports p50/p95 per query, and the time and memory of
 * the streamed CSV export of the whole book. Run on demand:
 *   npx tsx scripts/bench-customers.ts [--rows 100000] [--runs 40] [--postgres postgres://postgres@127.0.0.1:5432/test]
 */
import { buildApp } from '../server/app.ts';
import { type Database, openPglite, openPostgres } from '../server/db/index.ts';
import { loadResourceModels } from '../server/schemas.ts';
import {
  BENCH_PASSWORD,
  benchOptions,
  signIn,
  timeQueries,
  withTemporaryDatabase,
} from './bench/common.ts';
import { loadBook } from './bench/data.ts';

const { rows: ROWS, runs: RUNS, postgres } = benchOptions();

/**
 * `reopen` (PostgreSQL): a fresh pool after loading, as after a restart, so every connection has
 * the database settings the migrations made (random_page_cost, see migration 0011).
 */
async function bench(
  label: string,
  first: Database,
  reopen?: () => Promise<Database>,
): Promise<void> {
  let database = first;
  const loaded = await loadBook(database, ROWS, BENCH_PASSWORD);
  const consultant = loaded.users['consultant@demo.gscrm.ch'];
  const leadSource = Number(
    (
      await database.db
        .selectFrom('lead_sources')
        .select('id')
        .orderBy('id')
        .executeTakeFirstOrThrow()
    ).id,
  );
  console.log(`\n${label}: inserted ${ROWS} customers in ${loaded.seconds.toFixed(1)} s`);
  if (reopen) {
    await database.close();
    database = await reopen();
  }
  const app = await buildApp({ database, models: loadResourceModels() });
  const admin = await signIn(app, 'admin@demo.gscrm.ch');
  const own = await signIn(app, 'consultant@demo.gscrm.ch');
  const queries: Array<[string, string, Record<string, string>]> = [
    ["default order 'newest', page 1", '/api/customers', admin],
    ["default order 'newest', page 100", '/api/customers?page=100', admin],
    ["consultant: own customers, 'newest'", '/api/customers', own],
    ['search "müller 4711"', '/api/customers?search=m%C3%BCller%204711', admin],
    ['search email "anna.m"', '/api/customers?search=anna.m', admin],
    ['consultant: search "keller"', '/api/customers?search=keller', own],
    [`filter assigned_to=${consultant}`, `/api/customers?assigned_to=${consultant}`, admin],
    ['filter unassigned (assigned_to_null)', '/api/customers?assigned_to_null=true', admin],
    [
      'filter lead_source + is_company=false',
      `/api/customers?lead_source=${leadSource}&is_company=false`,
      admin,
    ],
    ['filter city=Bern + zip=3011', '/api/customers?city=Bern&zip=3011', admin],
  ];
  await timeQueries(app, queries, RUNS);
  // The export streams: memory stays flat while the whole book goes out.
  global.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  const started = performance.now();
  const response = await app.inject({
    url: '/api/customers/export',
    headers: admin,
    payloadAsStream: true,
  });
  let bytes = 0;
  let lines = 0;
  for await (const chunk of response.stream()) {
    bytes += (chunk as Buffer).length;
    for (const byte of chunk as Buffer) if (byte === 0x0a) lines++;
  }
  clearInterval(timer);
  console.log(
    `  export CSV of all ${lines - 1} customers: ${((performance.now() - started) / 1000).toFixed(1)} s, ${(bytes / 1024 / 1024).toFixed(1)} MB, RSS ${(before / 1024 / 1024).toFixed(0)} → peak ${(peak / 1024 / 1024).toFixed(0)} MB`,
  );
  await app.close();
  await database.close();
}

await bench('PGlite (in memory)', await openPglite(undefined));
if (postgres) {
  await withTemporaryDatabase(postgres, async (url) =>
    bench('PostgreSQL', await openPostgres(url), () => openPostgres(url)),
  );
}
