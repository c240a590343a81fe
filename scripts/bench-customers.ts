/**
 * Times the customer list API on N generated customers (default 100,000) — the default order
 * 'newest', searches and filters, as the back office and as a consultant (owner scope) — on PGlite
 * and, with --postgres URL, on PostgreSQL. Reports p50/p95 per query, and the time and memory of
 * the streamed CSV export of the whole book. Run on demand:
 *   npx tsx scripts/bench-customers.ts [--rows 100000] [--runs 40] [--postgres postgres://postgres@127.0.0.1:5432/test]
 */
import { buildApp } from '../server/app.ts';
import { type Database, openPglite, openPostgres } from '../server/db/index.ts';
import { migrate } from '../server/db/migrate.ts';
import { loadResourceModels } from '../server/schemas.ts';
import {
  BENCH_PASSWORD,
  benchOptions,
  signIn,
  timeQueries,
  withTemporaryDatabase,
} from './bench/common.ts';
import { seedDemo } from '../server/demo/index.ts';

const { rows: ROWS, runs: RUNS, postgres } = benchOptions();

const FIRST = [
  'Hans',
  'Anna',
  'Peter',
  'Sandra',
  'Marco',
  'Chiara',
  'Jean',
  'Marie',
  'Reto',
  'Lea',
];
const LAST = [
  'Müller',
  'Meier',
  'Schmid',
  'Keller',
  'Weber',
  'Huber',
  'Favre',
  'Rossi',
  'Gerber',
  'Brunner',
  'Steiner',
  'Bonvin',
];
const PLACES = [
  ['8001', 'Zürich'],
  ['3011', 'Bern'],
  ['4051', 'Basel'],
  ['1003', 'Lausanne'],
  ['1201', 'Genève'],
  ['6900', 'Lugano'],
  ['6003', 'Luzern'],
  ['9000', 'St. Gallen'],
  ['8400', 'Winterthur'],
  ['1700', 'Fribourg'],
];

async function fill(database: Database): Promise<{ consultant: number; leadSource: number }> {
  const db = database.db;
  const users = await db.selectFrom('users').select(['id', 'email']).execute();
  const consultant = Number(users.find((user) => user.email === 'consultant@demo.gscrm.ch')?.id);
  const consultant2 = Number(users.find((user) => user.email === 'consultant2@demo.gscrm.ch')?.id);
  const sources = (await db.selectFrom('lead_sources').select('id').execute()).map((row) =>
    Number(row.id),
  );
  const owners = [consultant, consultant2, null, consultant, consultant2];
  const start = Date.now() - ROWS * 60_000;
  const batch = 2000;
  for (let offset = 0; offset < ROWS; offset += batch) {
    const rows = Array.from({ length: Math.min(batch, ROWS - offset) }, (_, index) => {
      const n = offset + index;
      const [zip, city] = PLACES[(n * 7) % PLACES.length];
      const first = FIRST[n % FIRST.length];
      const last = LAST[(n * 3) % LAST.length];
      const company = n % 13 === 0;
      return {
        is_company: company,
        organization: company ? `${last} ${city} AG ${n}` : null,
        first_name: first,
        last_name: `${last}${n % 97 === 0 ? '' : ` ${n}`}`,
        date_of_birth: `${1940 + (n % 60)}-${String((n % 12) + 1).padStart(2, '0')}-${String((n % 28) + 1).padStart(2, '0')}`,
        street: 'Bahnhofstrasse',
        address_number: String((n % 150) + 1),
        zip,
        city,
        country: 'CH',
        email: `${first}.${n}@example.ch`.toLowerCase(),
        phone_number: `079 ${String(100 + (n % 900))} ${String(10 + (n % 90))} ${String(10 + ((n * 7) % 90))}`,
        lead_source: sources[n % sources.length],
        assigned_to: owners[n % owners.length],
        correspondence_languages: '["de"]',
        languages: '["de"]',
        created_at: new Date(start + n * 60_000),
      };
    });
    await db.insertInto('customers').values(rows).execute();
  }
  await database.exclusive((exec) => exec('analyze customers'));
  return { consultant, leadSource: sources[0] };
}

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
  await migrate(database);
  await seedDemo(database.db, { password: BENCH_PASSWORD });
  let started = performance.now();
  const { consultant, leadSource } = await fill(database);
  console.log(
    `\n${label}: inserted ${ROWS} customers in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
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
    ['search email "anna.5"', '/api/customers?search=anna.5', admin],
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
  started = performance.now();
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
