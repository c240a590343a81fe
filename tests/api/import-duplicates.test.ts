/**
 * Likely duplicates in the customer CSV import (issue 12), on both engines: the check flags a row
 * that looks like an existing customer (its id and the create form's reasons) and a row repeating
 * an earlier row of the file; the run skips, imports or merges as chosen, writes nothing for a
 * flagged row without a choice, and refuses a choice that cannot apply (422 naming the row).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN, createTestApp, type TestApp } from './harness.ts';
import { multipart } from './multipart.ts';

type Row = Record<string, unknown>;
interface Flagged {
  row: number;
  line: number;
  values: Row;
  matches: Array<Row & { id: number; reasons: string[] }>;
  file_rows: Array<{ row: number; reasons: string[] }>;
}
interface PreviewAnswer {
  valid_rows: number;
  duplicate_rows: number;
  duplicates: Flagged[];
}

let t: TestApp;
let existingId: number;
/** A different person in every test, so earlier tests' imports do not match later files. */
let suffix = 0;

async function send(url: string, file: string, options: Row = {}, accept?: string) {
  const body = multipart([
    ['options', JSON.stringify(options)],
    { name: 'file', filename: 'kunden.csv', content: file, contentType: 'text/csv' },
  ]);
  return t.request({
    method: 'POST',
    url,
    payload: body.payload,
    headers: { ...body.headers, ...(accept ? { accept } : {}) },
    as: ADMIN,
  });
}
const preview = (file: string, options: Row = {}) =>
  send('/api/customers/import/preview', file, options);
const importFile = (file: string, options: Row = {}, accept?: string) =>
  send('/api/customers/import', file, options, accept);

async function customersNamed(lastName: string) {
  return t.database.db
    .selectFrom('customers')
    .selectAll()
    .where('last_name', '=', lastName)
    .orderBy('id')
    .execute();
}

/** A stored customer with an email, a phone and a birth date, and no city or street. */
async function createExisting(lastName: string, email: string, phone: string): Promise<number> {
  const response = await t.request({
    method: 'POST',
    url: '/api/customers',
    as: ADMIN,
    payload: {
      first_name: 'Anna',
      last_name: lastName,
      date_of_birth: '1975-03-12',
      email,
      phone_number: phone,
      zip: '3000',
      notes: 'Bestandeskundin',
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  return Number((response.json() as { data: { id: number } }).data.id);
}

/**
 * Row 1 repeats the existing customer (email in capitals, phone in another spelling, same birth
 * date), adds a city and street and has another zip; rows 2 and 3 are one new person twice.
 */
function fileFor(lastName: string, email: string, phone: string): string {
  return [
    'Vorname;Nachname;Geburtsdatum;E-Mail;Telefon;PLZ;Ort;Strasse',
    `Anna;${lastName};12.03.1975;${email.toUpperCase()};${phone};3011;Bern;Marktgasse`,
    `Neu;${lastName}-Zwei;01.01.1990;neu.${lastName.toLowerCase()}@example.ch;;8000;Zürich;`,
    `Neu;${lastName}-Zwei;01.01.1990;;;;;Bahnhofstrasse`,
    '',
  ].join('\n');
}

let lastName: string;
let email: string;
let file: string;
/** The phone of this test's customer, as the file spells it (stored as +41 …). */
let phone: string;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  suffix++;
  lastName = `Duplikat${String.fromCharCode(64 + suffix)}`;
  email = `anna.duplikat${suffix}@example.ch`;
  phone = `079 555 12 ${10 + suffix}`;
  existingId = await createExisting(lastName, email, `+41 79 555 12 ${10 + suffix}`);
  file = fileFor(lastName, email, phone);
});

describe('check', () => {
  it('flags a row like an existing customer (id and reasons) and a row repeating an earlier one', async () => {
    const response = await preview(file);
    expect(response.statusCode, response.body).toBe(200);
    const answer = response.json() as PreviewAnswer;
    expect(answer.valid_rows).toBe(3);
    expect(answer.duplicate_rows).toBe(2);
    const [existing, inFile] = answer.duplicates;
    expect(existing).toMatchObject({ row: 1, line: 2, file_rows: [] });
    expect(existing.values).toMatchObject({ last_name: lastName, date_of_birth: '1975-03-12' });
    expect(existing.matches).toHaveLength(1);
    expect(existing.matches[0]).toMatchObject({
      id: existingId,
      last_name: lastName,
      reasons: ['name_and_birth_date', 'email', 'phone'],
    });
    expect(inFile).toMatchObject({
      row: 3,
      matches: [],
      file_rows: [{ row: 2, reasons: ['name_and_birth_date'] }],
    });
    // The create form's check says the same of the existing customer.
    const check = await t.request({
      method: 'GET',
      url: `/api/customers/duplicates?first_name=anna&last_name=${lastName}&date_of_birth=1975-03-12&email=${email.toUpperCase()}&phone_number=${encodeURIComponent(phone)}`,
      as: ADMIN,
    });
    expect(check.json()).toMatchObject({
      data: [{ id: existingId, reasons: ['name_and_birth_date', 'email', 'phone'] }],
    });
  });
});

describe('run', () => {
  it('writes nothing for flagged rows without a choice, and says so', async () => {
    const response = await importFile(file);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      imported: 1,
      merged: 0,
      unresolved_duplicates: 2,
      skipped_duplicates: 0,
    });
    expect(await customersNamed(lastName)).toHaveLength(1);
    expect(await customersNamed(`${lastName}-Zwei`)).toHaveLength(1);
  });

  it('skip: the flagged rows are not imported', async () => {
    const response = await importFile(file, { duplicates: { all: 'skip' } });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ imported: 1, skipped_duplicates: 2, skipped: 2 });
    const stored = await customersNamed(lastName);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ id: existingId, city: null, zip: '3000' });
  });

  it('import anyway: creates the row as a new customer', async () => {
    const response = await importFile(file, {
      duplicates: { rows: { '1': { action: 'import' }, '3': { action: 'skip' } } },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ imported: 2, merged: 0, skipped_duplicates: 1 });
    const stored = await customersNamed(lastName);
    expect(stored.map((row) => row.id)).toContain(existingId);
    expect(stored).toHaveLength(2);
    expect(await customersNamed(`${lastName}-Zwei`)).toHaveLength(1);
  });

  it('merge: fills the existing customer’s empty fields, keeps its other values and creates none', async () => {
    const response = await importFile(file, {
      duplicates: { rows: { '1': { action: 'merge', into: existingId } }, all: 'import' },
    });
    expect(response.statusCode, response.body).toBe(200);
    const summary = response.json() as Row & {
      merges: Array<{ row: number; customer_id: number; filled: string[]; conflicts: Row[] }>;
    };
    expect(summary).toMatchObject({ imported: 2, merged: 1, unresolved_duplicates: 0 });
    expect(summary.merges).toEqual([
      {
        row: 1,
        customer_id: existingId,
        filled: expect.arrayContaining(['city', 'street']),
        conflicts: [{ field: 'zip', kept: '3000', file: '3011' }],
      },
    ]);
    const stored = await customersNamed(lastName);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      id: existingId,
      city: 'Bern',
      street: 'Marktgasse',
      zip: '3000',
      email,
      notes: 'Bestandeskundin',
    });
    // Row 3 was imported anyway: the same new person twice.
    expect(await customersNamed(`${lastName}-Zwei`)).toHaveLength(2);
  });

  it('merge for all flagged rows merges where a customer matches; a row repeating the file stays undecided', async () => {
    const response = await importFile(
      file,
      { duplicates: { all: 'merge' } },
      'application/x-ndjson',
    );
    expect(response.statusCode).toBe(200);
    const lines = response.body
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Row);
    expect(lines.some((line) => line.phase === 'merging' && line.done === 1)).toBe(true);
    expect(lines.at(-1)).toMatchObject({
      type: 'summary',
      imported: 1,
      merged: 1,
      unresolved_duplicates: 1,
    });
    expect(await customersNamed(lastName)).toHaveLength(1);
  });

  it('refuses a choice that cannot apply, naming the row, and writes nothing', async () => {
    const other = await createExisting(`${lastName}-Andere`, `andere.${email}`, '+41 31 111 22 33');
    const cases: Array<[Row, string]> = [
      [{ rows: { '1': { action: 'merge', into: other } } }, 'duplicates.rows.1.into'],
      [{ rows: { '2': { action: 'merge' } } }, 'duplicates.rows.2.action'],
      [{ rows: { '9': { action: 'skip' } } }, 'duplicates.rows.9'],
      [{ rows: { '1': { action: 'delete' } } }, 'duplicates.rows.1.action'],
      [{ all: 'sometimes' }, 'duplicates.all'],
    ];
    for (const [duplicates, field] of cases) {
      const response = await importFile(file, { duplicates });
      expect(response.statusCode, response.body).toBe(422);
      const answer = response.json() as { errors: Record<string, string[]> };
      expect(Object.keys(answer.errors), response.body).toContain(field);
    }
    expect(await customersNamed(lastName)).toHaveLength(1);
    expect(await customersNamed(`${lastName}-Zwei`)).toHaveLength(0);
  });
});
