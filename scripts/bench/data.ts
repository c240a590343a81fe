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
  contractsPerCustomer = 0,
  appointments = 0,
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
    if (contractsPerCustomer > 0) {
      const contractsStarted = performance.now();
      await loadContracts(exec, contractsPerCustomer);
      progress(
        `  ${rows * contractsPerCustomer} contracts in ${((performance.now() - contractsStarted) / 1000).toFixed(1)} s`,
      );
    }
    if (appointments > 0) {
      const appointmentsStarted = performance.now();
      await loadAppointments(exec, appointments);
      progress(
        `  ${appointments} appointments (and a reminder for every ${REMINDERS_EVERY}th with a consultant) in ${((performance.now() - appointmentsStarted) / 1000).toFixed(1)} s`,
      );
    }
    await exec('reset session_replication_role').catch(() => {});
    await exec('reset maintenance_work_mem').catch(() => {});
    await exec('vacuum analyze customers');
    if (contractsPerCustomer > 0) await exec('vacuum analyze contracts');
    if (appointments > 0) {
      await exec('vacuum analyze appointments');
      await exec('vacuum analyze reminders');
    }
  });
  return { seconds: (performance.now() - started) / 1000, rows, users };
}

/**
 * `perCustomer` contracts for every generated customer, made by the database in one statement per
 * slice of customers (no rows cross the wire): a product mix close to a brokerage's book
 * (health basic 30 %, supplementary 15 %, pillar 3a 10 %, car 10 %, personal liability 10 %,
 * household contents 10 %, mortgage 5 %, broker mandate 5 %, non-closures 5 %), insurers of the
 * demo, the customer's consultant, start dates over eleven years, figures as the server computes
 * them (server/contracts/figures.ts: monthly premiums × 12; the mortgage's amount as production
 * sum), the customer's names as the database keeps them (migration 0023; its triggers are off
 * during the load). The secondary indexes are dropped for the load and built again afterwards.
 */
async function loadContracts(
  exec: (sql: string) => Promise<unknown>,
  perCustomer: number,
): Promise<void> {
  const indexes = (await exec(
    `select indexname, indexdef from pg_indexes
     where schemaname = current_schema() and tablename = 'contracts'
       and indexname not in (select conname from pg_constraint where conrelid = 'contracts'::regclass)`,
  )) as Array<{ indexname: string; indexdef: string }>;
  for (const index of indexes) await exec(`drop index "${index.indexname}"`);
  const [{ min, max }] = (await exec(
    'select min(id)::integer as min, max(id)::integer as max from customers',
  )) as Array<{ min: number; max: number }>;
  const slice = Math.max(1, Math.floor(BENCH_ROWS_BATCH / perCustomer) * 5);
  for (let from = min; from <= max; from += slice) {
    await exec(`
      insert into contracts (contract_type, customer_id, customer_name, product_id, product_group, company_id,
        contract_number, status, consultant_id, payment_cycle, signing_date, start_date, end_date,
        insurance, coverage, annual_premium, production_sum, total_commission, protocol_missing,
        reason, created_at, updated_at)
      select
        case when k.p >= 95 then 'non-closure' else 'closure' end,
        k.id, k.customer_name, k.product, k.grp, k.company,
        'B-' || k.id || '-' || k.g,
        case when k.p >= 95 then null when k.p % 17 = 0 then 'terminated' else 'active' end,
        k.assigned_to, 'monthly',
        k.start - 20, k.start, case when k.p % 17 = 0 then k.start + 730 else null end,
        jsonb_build_object('premium', k.premium),
        case when k.product = 24 then jsonb_build_object('amount', 600000, 'interestRate', 1.8)
             else '{}'::jsonb end,
        k.premium * 12,
        case when k.product = 24 then 600000 else k.premium * 12 end,
        0,
        k.grp = 'health' and k.p < 95 and k.p % 3 = 0,
        case when k.p >= 95 then 'price' else null end,
        now(), now()
      from (
        select c.id, c.assigned_to, g.g, x.p,
          nullif(concat_ws(' ', c.organization, c.first_name, c.last_name), '') as customer_name,
          case when x.p < 30 then 1 when x.p < 45 then 2 when x.p < 55 then 4 when x.p < 65 then 7
               when x.p < 75 then 10 when x.p < 85 then 13 when x.p < 90 then 24 when x.p < 95 then 28
               else 1 end as product,
          case when x.p < 45 or x.p >= 95 then 'health' when x.p < 55 then 'life'
               when x.p < 85 then 'property_casualty' when x.p < 90 then 'finance' else 'other' end as grp,
          ins.ids[1 + (c.id * 7 + g.g) % array_length(ins.ids, 1)] as company,
          date '2015-01-01' + ((c.id * 31 + g.g * 17) % 4000) as start,
          round((40 + ((c.id * 13 + g.g * 7) % 500))::numeric, 2)::double precision as premium
        from customers c
        cross join (select array_agg(id order by id) as ids from companies) ins
        cross join generate_series(1, ${perCustomer}) as g(g)
        cross join lateral (select ((c.id * 2654435761::bigint + g.g * 40503) % 100)::integer as p) x
        where c.id between ${from} and ${from + slice - 1}
      ) k`);
  }
  for (const index of indexes) await exec(index.indexdef);
}

/** Drops a table's secondary indexes, runs the load, builds them again. */
async function withoutIndexes(
  exec: (sql: string) => Promise<unknown>,
  table: string,
  load: () => Promise<void>,
): Promise<void> {
  const indexes = (await exec(
    `select indexname, indexdef from pg_indexes
     where schemaname = current_schema() and tablename = '${table}'
       and indexname not in (select conname from pg_constraint where conrelid = '${table}'::regclass)`,
  )) as Array<{ indexname: string; indexdef: string }>;
  for (const index of indexes) await exec(`drop index "${index.indexname}"`);
  await load();
  for (const index of indexes) await exec(index.indexdef);
}

/** One reminder per this many appointments (the tasks' "reminders due"). */
export const REMINDERS_EVERY = 10;

/** Appointments made per statement. */
const APPOINTMENTS_SLICE = 50_000;

/**
 * `count` appointments (issue 15), made by the database in one statement per slice: customers
 * picked evenly over the book, the customer's consultant (`assigned_to`; none for the unassigned
 * fifth: the call centre's "unassigned"), one to two hours between 08:00 and 18:00 Swiss time on
 * days spread over two years around today, at the customer's address. Past ones: 80 % with
 * feedback given (2, 10, 7), 8 % cancelled (half of them to rebook), 12 % still planned (missing
 * feedback); future ones: 90 % planned (1, 3), 10 % cancelled. Plus one reminder per
 * REMINDERS_EVERY appointments for the appointment's consultant (open, resolved, cancelled; due
 * over the same two years). The history trigger and the client-name trigger are off during the
 * load (the name is written as the database would keep it).
 */
async function loadAppointments(
  exec: (sql: string) => Promise<unknown>,
  count: number,
): Promise<void> {
  const [{ min, max }] = (await exec(
    'select min(id)::integer as min, max(id)::integer as max from customers',
  )) as Array<{ min: number; max: number }>;
  const span = max - min + 1;
  await withoutIndexes(exec, 'appointments', async () => {
    for (let from = 1; from <= count; from += APPOINTMENTS_SLICE) {
      const to = Math.min(count, from + APPOINTMENTS_SLICE - 1);
      await exec(`
        insert into appointments (client_id, client_name, consultant_id, appointment_type, status,
          date_start, date_end, date, start_time, end_time, street, number, zip, city, comment,
          cancel_status, created_at, updated_at)
        select a.client_id, a.client_name, a.consultant_id,
          (array['first', 'follow_up', 'signing', 'service', 'phone'])[1 + a.n % 5],
          a.status, a.starts, a.starts + a.length,
          (a.starts at time zone 'Europe/Zurich')::date,
          (a.starts at time zone 'Europe/Zurich')::time,
          ((a.starts + a.length) at time zone 'Europe/Zurich')::time,
          a.street, a.address_number, a.zip, a.city, null,
          case when a.status in (5, 6) then (array['to_rebook', 'rebooked', 'closed', 'to_rebook'])[1 + a.n % 4] end,
          now(), now()
        from (
          select s.n, c.id as client_id, c.assigned_to as consultant_id, c.street, c.address_number,
            c.zip, c.city,
            nullif(concat_ws(' ', c.organization, c.first_name, c.last_name), '') as client_name,
            d.starts, d.length,
            case
              when d.starts < now() then
                case when s.n % 100 < 80 then (array[2, 10, 7, 2])[1 + s.n % 4]
                     when s.n % 100 < 88 then 5 + s.n % 2
                     else 1 + 2 * (s.n % 2) end
              else case when s.n % 10 = 0 then 5 + s.n % 2 else 1 + 2 * (s.n % 2) end
            end as status
          from generate_series(${from}, ${to}) as s(n)
          join customers c on c.id = ${min} + ((s.n::bigint * 2654435761) % ${span})::integer
          cross join lateral (
            select (date_trunc('day', now() at time zone 'Europe/Zurich') - interval '365 days'
                + ((s.n * 7919) % 730) * interval '1 day'
                + (8 + (s.n * 31) % 9) * interval '1 hour' + ((s.n % 4) * 15) * interval '1 minute')
                at time zone 'Europe/Zurich' as starts,
              (60 + (s.n % 2) * 60) * interval '1 minute' as length
          ) d
        ) a`);
    }
  });
  await withoutIndexes(exec, 'reminders', async () => {
    await exec(`
      insert into reminders (subject, status, due_date, date, category, user_id, assigner_id,
        client_id, appointment_id, resolved_at, created_at, updated_at)
      select 'Nachfassen ' || coalesce(a.client_name, ''),
        case when a.id % 3 = 0 then 'open' when a.id % 3 = 1 then 'resolved' else 'cancelled' end,
        (a.date_start at time zone 'Europe/Zurich')::date + 14,
        (a.date_start at time zone 'Europe/Zurich')::date,
        (array['call', 'email', 'meeting', 'documents', 'offer', 'follow_up'])[1 + a.id % 6],
        a.consultant_id, a.consultant_id, a.client_id, a.id,
        case when a.id % 3 <> 0 then a.date_end + interval '15 days' end,
        now(), now()
      from appointments a
      where a.id % ${REMINDERS_EVERY} = 0 and a.consultant_id is not null`);
  });
}
