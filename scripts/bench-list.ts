/**
 * Times the list API on N generated rows (default 100,000 companies-sized rows), on PGlite and,
 * with --postgres URL, on PostgreSQL. Reports p50/p95 per query. Run on demand:
 *   npm run bench:list -- --rows 100000 [--postgres postgres://postgres@127.0.0.1:5432/test] [--runs 40]
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

async function bench(label: string, database: Database): Promise<void> {
  await migrate(database);
  await seedDemo(database.db, { password: BENCH_PASSWORD });
  const started = performance.now();
  await fill(database);
  console.log(
    `\n${label}: inserted ${ROWS} rows in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  const app = await buildApp({ database, models: loadResourceModels() });
  const headers = await signIn(app, 'admin@demo.gscrm.ch');
  const queries: Record<string, string> = {
    'default order, page 1': '/api/companies',
    'default order, page 200': '/api/companies?page=200',
    'search "versicherung zür"': '/api/companies?search=versicherung%20z%C3%BCr',
    'filter is_partner=true': '/api/companies?is_partner=true',
    'filter insurance_types=life, sort email desc':
      '/api/companies?insurance_types=life&sort=email&order=desc',
  };
  await timeQueries(
    app,
    Object.entries(queries).map(([name, url]) => [name, url, headers]),
    RUNS,
  );
  await app.close();
  await database.close();
}

await bench('PGlite (in memory)', await openPglite(undefined));
if (postgres) {
  await withTemporaryDatabase(postgres, async (url) =>
    bench('PostgreSQL', await openPostgres(url)),
  );
}
