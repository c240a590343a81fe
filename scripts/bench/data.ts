/**
 * The benchmark's book of customers: N generated Swiss customers (deterministic, so every run and
 * both engines get the same rows), loaded into a migrated database that has the demo users.
 *
 * What the rows look like: common Swiss first and last names with "Müller" for about a quarter of
 * the people (so `search=müller` hits ~25 %), 8 % companies, real zip/city pairs of the four
 * language regions (correspondence language to match), phone numbers in E.164, e-mail addresses
 * from the names, birth dates 1940–2005, `created_at` spread over the last years (newest last),
 * owners split 40 % consultant@, 40 % consultant2@, 20 % unassigned — a consultant sees ~40 %.
 *
 * Loading is fast on both engines: rows go in as one JSON document per 10,000 rows
 * (`jsonb_to_recordset`, one statement, no per-row round trip), with the table's secondary indexes
 * dropped during the load and rebuilt after (whatever indexes the migrations made, read from the
 * catalogue), and the history trigger skipped (`session_replication_role = replica`; the list
 * never reads `audit_log`). Then `vacuum analyze`, as autovacuum would have done on a real book.
 */
import { DEMO_USERS, seedDemo } from '../../server/demo/index.ts';
import type { Database } from '../../server/db/index.ts';
import { migrate } from '../../server/db/migrate.ts';

const FIRST_NAMES = [
  'Hans',
  'Peter',
  'Daniel',
  'Thomas',
  'Martin',
  'Christian',
  'Marco',
  'Andreas',
  'Stefan',
  'Michael',
  'Reto',
  'Urs',
  'Beat',
  'Luca',
  'Simon',
  'Lukas',
  'Jean',
  'Pierre',
  'Nicolas',
  'Laurent',
  'Alessandro',
  'Giovanni',
  'Matteo',
  'Noah',
  'Liam',
  'Anna',
  'Maria',
  'Sandra',
  'Ursula',
  'Ruth',
  'Monika',
  'Nicole',
  'Barbara',
  'Claudia',
  'Sarah',
  'Laura',
  'Lea',
  'Mia',
  'Emma',
  'Julia',
  'Marie',
  'Sophie',
  'Isabelle',
  'Céline',
  'Chiara',
  'Francesca',
  'Giulia',
  'Élodie',
  'Zoë',
  'Jürg',
];

/** Last names besides Müller (which LAST_NAME_MULLER_SHARE of the people carry). */
const LAST_NAMES = [
  'Meier',
  'Schmid',
  'Keller',
  'Weber',
  'Huber',
  'Schneider',
  'Meyer',
  'Steiner',
  'Fischer',
  'Gerber',
  'Brunner',
  'Baumann',
  'Frei',
  'Zimmermann',
  'Moser',
  'Widmer',
  'Wyss',
  'Graf',
  'Roth',
  'Suter',
  'Baumgartner',
  'Bachmann',
  'Studer',
  'Bühler',
  'Kälin',
  'Lüthi',
  'Hofer',
  'Favre',
  'Rochat',
  'Bonvin',
  'Dubois',
  'Perret',
  'Girard',
  'Rossi',
  'Bernasconi',
  'Fontana',
  'Ferrari',
  'Bianchi',
  'Crivelli',
  'Caflisch',
];
const LAST_NAME_MULLER_SHARE = 0.25;

const COMPANY_WORDS = ['Treuhand', 'Immobilien', 'Bau', 'Garage', 'Consulting', 'Transport'];
const COMPANY_FORMS = ['AG', 'GmbH', 'SA', 'Sàrl'];

/** zip, city, language of correspondence. */
const PLACES: Array<[string, string, 'de' | 'fr' | 'it']> = [
  ['8001', 'Zürich', 'de'],
  ['8004', 'Zürich', 'de'],
  ['8050', 'Zürich', 'de'],
  ['8400', 'Winterthur', 'de'],
  ['8200', 'Schaffhausen', 'de'],
  ['3011', 'Bern', 'de'],
  ['3600', 'Thun', 'de'],
  ['2502', 'Biel/Bienne', 'de'],
  ['4051', 'Basel', 'de'],
  ['4600', 'Olten', 'de'],
  ['5000', 'Aarau', 'de'],
  ['6003', 'Luzern', 'de'],
  ['6300', 'Zug', 'de'],
  ['9000', 'St. Gallen', 'de'],
  ['7000', 'Chur', 'de'],
  ['1003', 'Lausanne', 'fr'],
  ['1201', 'Genève', 'fr'],
  ['1700', 'Fribourg', 'fr'],
  ['1950', 'Sion', 'fr'],
  ['2000', 'Neuchâtel', 'fr'],
  ['6900', 'Lugano', 'it'],
  ['6500', 'Bellinzona', 'it'],
];
const STREETS = [
  'Bahnhofstrasse',
  'Hauptstrasse',
  'Dorfstrasse',
  'Seestrasse',
  'Kirchweg',
  'Gartenstrasse',
  'Rue de la Gare',
  'Avenue de la Paix',
  'Via Nassa',
  'Via San Gottardo',
  'Schulhausstrasse',
];

/** Deterministic pseudo-random numbers (mulberry32). */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** ASCII for e-mail addresses: ü → ue, é → e. */
const ascii = (text: string) =>
  text
    .replace(/ä/g, 'ae')
    .replace(/ö/g, 'oe')
    .replace(/ü/g, 'ue')
    .normalize('NFD')
    .replace(/[^a-zA-Z0-9]/g, '')
    .toLowerCase();

export interface CustomerRow {
  is_company: boolean;
  organization: string | null;
  first_name: string;
  last_name: string;
  gender: 'male' | 'female';
  date_of_birth: string | null;
  street: string;
  address_number: string;
  zip: string;
  city: string;
  country: 'CH';
  email: string;
  phone_number: string;
  correspondence_languages: string[];
  languages: string[];
  lead_source: number;
  assigned_to: number | null;
  created_at: string;
}

/** The rows `from` … `from + count - 1` of a book of `total` customers. */
export function customerRows(
  from: number,
  count: number,
  total: number,
  owners: { consultant: number; consultant2: number },
  leadSources: number[],
): CustomerRow[] {
  const rows: CustomerRow[] = [];
  // The newest customer was created an hour ago; one new customer every ~10 minutes before that.
  const newest = Date.UTC(2026, 10, 22, 12, 0, 0);
  for (let n = from; n < from + count; n++) {
    const next = random(n * 2654435761 + 17);
    const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];
    const firstIndex = Math.floor(next() * FIRST_NAMES.length);
    const first = FIRST_NAMES[firstIndex];
    const last = next() < LAST_NAME_MULLER_SHARE ? 'Müller' : pick(LAST_NAMES);
    const company = next() < 0.08;
    const [zip, city, language] = pick(PLACES);
    const owner = next();
    const year = 1940 + Math.floor(next() * 66);
    const month = 1 + Math.floor(next() * 12);
    const day = 1 + Math.floor(next() * 28);
    const mobile = next() < 0.7;
    const subscriber = String(Math.floor(next() * 10_000_000)).padStart(7, '0');
    const prefix = mobile ? pick(['76', '77', '78', '79']) : pick(['21', '22', '31', '44', '61']);
    rows.push({
      is_company: company,
      organization: company ? `${last} ${pick(COMPANY_WORDS)} ${pick(COMPANY_FORMS)}` : null,
      first_name: first,
      last_name: last,
      gender: firstIndex < 25 ? 'male' : 'female',
      date_of_birth: company
        ? null
        : `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`,
      street: pick(STREETS),
      address_number: String(1 + Math.floor(next() * 120)),
      zip,
      city,
      country: 'CH',
      email: `${ascii(first)}.${ascii(last)}${n}@example.ch`,
      phone_number: `+41${prefix}${subscriber}`,
      correspondence_languages: [language],
      languages: next() < 0.2 ? [language, 'en'] : [language],
      lead_source: pick(leadSources),
      assigned_to: owner < 0.4 ? owners.consultant : owner < 0.8 ? owners.consultant2 : null,
      created_at: new Date(
        newest - (total - n) * 600_000 + Math.floor(next() * 300_000),
      ).toISOString(),
    });
  }
  return rows;
}

const COLUMNS: Array<[keyof CustomerRow, string]> = [
  ['is_company', 'boolean'],
  ['organization', 'text'],
  ['first_name', 'text'],
  ['last_name', 'text'],
  ['gender', 'text'],
  ['date_of_birth', 'date'],
  ['street', 'text'],
  ['address_number', 'text'],
  ['zip', 'text'],
  ['city', 'text'],
  ['country', 'text'],
  ['email', 'text'],
  ['phone_number', 'text'],
  ['correspondence_languages', 'jsonb'],
  ['languages', 'jsonb'],
  ['lead_source', 'bigint'],
  ['assigned_to', 'bigint'],
  ['created_at', 'timestamptz'],
];

/** One insert of many rows: the rows as a JSON literal, read back by jsonb_to_recordset. */
function insertStatement(rows: CustomerRow[]): string {
  const json = JSON.stringify(rows);
  if (json.includes('$rows$')) throw new Error('unexpected text in the generated rows');
  const names = COLUMNS.map(([name]) => name).join(', ');
  const record = COLUMNS.map(([name, type]) => `${name} ${type}`).join(', ');
  return (
    `insert into customers (${names}, updated_at) ` +
    `select ${names}, created_at from jsonb_to_recordset($rows$${json}$rows$::jsonb) as r(${record})`
  );
}

export const BENCH_ROWS_BATCH = 10_000;

export interface LoadResult {
  seconds: number;
  rows: number;
  /** Ids of the demo users the cases sign in as. */
  users: Record<string, number>;
}

/**
 * Migrates `database`, seeds the demo (users, insurers, lead sources, the demo customers) with
 * `password`, and adds `rows` generated customers. Answers how long the customers took.
 */
export async function loadBook(
  database: Database,
  rows: number,
  password: string,
  progress: (text: string) => void = () => {},
): Promise<LoadResult> {
  await migrate(database);
  await seedDemo(database.db, { password });
  const users = Object.fromEntries(
    (await database.db.selectFrom('users').select(['id', 'email']).execute()).map((user) => [
      user.email,
      Number(user.id),
    ]),
  );
  for (const user of DEMO_USERS)
    if (!users[user.email]) throw new Error(`demo user ${user.email} missing`);
  const owners = {
    consultant: users['consultant@demo.gscrm.ch'],
    consultant2: users['consultant2@demo.gscrm.ch'],
  };
  const leadSources = (await database.db.selectFrom('lead_sources').select('id').execute()).map(
    (row) => Number(row.id),
  );
  const started = performance.now();
  await database.exclusive(async (exec) => {
    // Skips the history trigger (superuser only; without it the load is just slower).
    await exec('set session_replication_role = replica').catch(() =>
      progress('  (history trigger stays on: not a superuser)'),
    );
    await exec(`set maintenance_work_mem = '256MB'`).catch(() => {});
    const indexes = (await exec(
      `select indexname, indexdef from pg_indexes
       where schemaname = current_schema() and tablename = 'customers'
         and indexname not in (select conname from pg_constraint where conrelid = 'customers'::regclass)`,
    )) as Array<{ indexname: string; indexdef: string }>;
    for (const index of indexes) await exec(`drop index "${index.indexname}"`);
    for (let from = 0; from < rows; from += BENCH_ROWS_BATCH) {
      const count = Math.min(BENCH_ROWS_BATCH, rows - from);
      await exec(insertStatement(customerRows(from, count, rows, owners, leadSources)));
      if ((from / BENCH_ROWS_BATCH) % 10 === 9)
        progress(`  ${from + count} rows, ${((performance.now() - started) / 1000).toFixed(0)} s`);
    }
    const indexStarted = performance.now();
    for (const index of indexes) await exec(index.indexdef);
    progress(
      `  ${indexes.length} indexes rebuilt in ${((performance.now() - indexStarted) / 1000).toFixed(1)} s`,
    );
    await exec('reset session_replication_role').catch(() => {});
    await exec('reset maintenance_work_mem').catch(() => {});
    await exec('vacuum analyze customers');
  });
  return { seconds: (performance.now() - started) / 1000, rows, users };
}
