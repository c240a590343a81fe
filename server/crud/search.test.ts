/**
 * Search normalisation in the database (migrations 0014, 0016) against its isomorphic twin
 * (src/schema/search.ts, src/schema/phone.ts), on the embedded engine: `gscrm_fold` folds every
 * mapped letter and a set of samples exactly like `foldSearchText`, the folded indexes are used,
 * and phone numbers stored before the migration become E.164.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toE164 } from '../../src/schema/phone.ts';
import { FOLD_FROM, FOLD_PAIRS, foldSearchText } from '../../src/schema/search.ts';
import { type Database, openPglite } from '../db/index.ts';
import { MIGRATIONS_DIR, migrate, readMigrations } from '../db/migrate.ts';

const SAMPLES = [
  'Müller',
  'MÜLLER',
  'Zürich',
  'Genève',
  'Neuchâtel',
  'Graubünden',
  'Straße',
  'STRAẞE',
  'Æbeltoft Œuvre',
  'Dvořák Łódź Şişli',
  'İstanbul',
  'Ærø, Smørrebrød & Co. AG',
  'anna.müller+1@example.ch',
  '8050 Zürich-Oerlikon',
  "O'Brien-Žižek",
  '+41793225035',
  'Ελλάδα ΟΔΥΣΣΕΥΣ',
  '',
  FOLD_FROM,
  ...FOLD_PAIRS.map(([from]) => from),
];

/** Phone numbers as the former patterns let them in, and what the migration makes of them. */
const STORED_PHONES = [
  '079 322 50 35',
  '0793225035',
  '+41 79 322 50 35',
  '0041 79 322 50 35',
  '+41 (0)79 322 50 35',
  '079/322.50.35',
  '+49 30 1234567',
  '+423 234 56 78',
  '044-123-45-67',
  'call me',
];

let database: Database;
let folder: string;

beforeAll(async () => {
  database = await openPglite(undefined);
  // The migrations before 0014, rows written then, then 0014 itself.
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'gscrm-search-'));
  for (const migration of readMigrations().filter((m) => m.version < '0014')) {
    fs.copyFileSync(
      path.join(MIGRATIONS_DIR, `${migration.version}_${migration.name}.sql`),
      path.join(folder, `${migration.version}_${migration.name}.sql`),
    );
  }
  await migrate(database, folder);
  await database.db
    .insertInto('customers')
    .values(
      STORED_PHONES.map((phone, index) => ({
        first_name: 'Phone',
        last_name: `Row ${index}`,
        phone_number: phone,
      })),
    )
    .execute();
  await migrate(database);
}, 60_000);

afterAll(async () => {
  await database?.close();
  if (folder) fs.rmSync(folder, { recursive: true, force: true });
});

describe('gscrm_fold (SQL) and foldSearchText (TypeScript)', () => {
  it('fold every sample the same way', async () => {
    for (const sample of SAMPLES) {
      const { rows } = await sql<{
        folded: string;
      }>`select gscrm_fold(${sample}) as folded`.execute(database.db);
      expect(rows[0].folded, sample).toBe(foldSearchText(sample));
    }
    const none = await sql<{ folded: string | null }>`select gscrm_fold(null) as folded`.execute(
      database.db,
    );
    expect(none.rows[0].folded).toBeNull();
    expect(foldSearchText('Müller')).toBe('muller');
    expect(foldSearchText('STRAẞE')).toBe('strasse');
  });

  it('lets the planner use the folded trigram indexes of the customers', async () => {
    const plan = await database.exclusive((exec) =>
      exec(
        // Only bitmap scans left (the sort index on last_name, id would serve a full scan).
        "set enable_seqscan = off; set enable_indexscan = off; set enable_indexonlyscan = off; explain select id from customers where gscrm_fold(last_name) ilike '%muller%'",
      ),
    );
    expect(JSON.stringify(plan)).toContain('customers_last_name_fold_trgm_idx');
  });
});

describe('migration 0014: stored phone numbers', () => {
  it('become E.164 where the text rules make them valid, others stay for a person to correct', async () => {
    const rows = await database.db
      .selectFrom('customers')
      .select(['last_name', 'phone_number'])
      .where('first_name', '=', 'Phone')
      .execute();
    const stored = new Map(rows.map((row) => [row.last_name, row.phone_number]));
    STORED_PHONES.forEach((phone, index) => {
      const expected = phone === 'call me' ? phone : toE164(phone);
      expect(stored.get(`Row ${index}`), phone).toBe(expected);
    });
  });
});
