/**
 * Times the list API on N generated rows (default 100,000 companies-sized rows), on PGlite and,
 * with --postgres URL, on PostgreSQL. Reports p50/p95 per query. Run on demand:
 *   npm run bench:list -- --rows 100000 [--postgres postgres://postgres@127.0.0.1:5432/test] [--runs 40]
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { buildApp } from '../server/app.ts';
import { type Database, openPglite, openPostgres } from '../server/db/index.ts';
import { migrate } from '../server/db/migrate.ts';
import { loadResourceModels } from '../server/schemas.ts';
import { seedDemo } from './seed-demo.ts';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '100000' },
    runs: { type: 'string', default: '40' },
    postgres: { type: 'string' },
  },
});
const ROWS = Number(values.rows);
const RUNS = Number(values.runs);
const PASSWORD = 'Bench-Passw0rd!';

const CITIES = [
  'Zürich',
  'Genève',
  'Basel',
  'Lausanne',
  'Bern',
  'Winterthur',
  'Luzern',
  'St. Gallen',
  'Lugano',
  'Biel/Bienne',
];
const WORDS = [
  'Assurance',
  'Versicherung',
  'Vorsorge',
  'Leben',
  'Schutz',
  'Garantie',
  'Mutuelle',
  'Helvetia',
  'Alpina',
  'Rhein',
];

async function fill(database: Database): Promise<void> {
  const batch = 2000;
  for (let offset = 0; offset < ROWS; offset += batch) {
    const rows = Array.from({ length: Math.min(batch, ROWS - offset) }, (_, index) => {
      const n = offset + index;
      const name = `${WORDS[n % WORDS.length]} ${CITIES[(n * 7) % CITIES.length]} ${n}`;
      return {
        name_de: name,
        name_fr: name,
        email: `kontakt${n}@example.ch`,
        is_partner: n % 3 === 0,
        insurance_types: JSON.stringify([
          ['health', 'life', 'property_casualty', 'finance', 'other'][n % 5],
        ]),
        products: JSON.stringify([(n % 29) + 1]),
      };
    });
    await database.db.insertInto('companies').values(rows).execute();
  }
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function bench(label: string, database: Database): Promise<void> {
  await migrate(database);
  await seedDemo(database.db, { password: PASSWORD });
  let started = performance.now();
  await fill(database);
  console.log(
    `\n${label}: inserted ${ROWS} rows in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  const app = await buildApp({ database, models: loadResourceModels() });
  const login = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: 'admin@demo.gscrm.ch', password: PASSWORD },
  });
  const headers = { authorization: `Bearer ${login.json().token}` };
  const queries: Record<string, string> = {
    'default order, page 1': '/api/companies',
    'default order, page 200': '/api/companies?page=200',
    'search "versicherung zür"': '/api/companies?search=versicherung%20z%C3%BCr',
    'filter is_partner=true': '/api/companies?is_partner=true',
    'filter insurance_types=life, sort email desc':
      '/api/companies?insurance_types=life&sort=email&order=desc',
  };
  for (const [name, url] of Object.entries(queries)) {
    const times: number[] = [];
    for (let run = 0; run < RUNS + 3; run++) {
      started = performance.now();
      const response = await app.inject({ url, headers });
      if (response.statusCode !== 200)
        throw new Error(`${url}: ${response.statusCode} ${response.body}`);
      if (run >= 3) times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    console.log(
      `  ${name.padEnd(46)} p50 ${percentile(times, 50).toFixed(1).padStart(7)} ms   p95 ${percentile(times, 95).toFixed(1).padStart(7)} ms`,
    );
  }
  await app.close();
  await database.close();
}

await bench('PGlite (in memory)', await openPglite(undefined));
if (values.postgres) {
  const name = `gscrm_bench_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: values.postgres });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(values.postgres);
  url.pathname = `/${name}`;
  try {
    await bench('PostgreSQL', await openPostgres(url.toString()));
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}
