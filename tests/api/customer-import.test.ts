/**
 * CSV import of customers (issue 6), on both engines: preview without writing, column mapping,
 * per-row errors naming row, line, column and field, all-or-nothing and skip-invalid, encodings,
 * import-wide lead source and recommender, wrong files, progress lines.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, CONSULTANT, createTestApp, type TestApp } from './harness.ts';
import { multipart, PDF } from './multipart.ts';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');
const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, name));
const BACKOFFICE = 'backoffice@demo.gscrm.ch';

type Row = Record<string, unknown>;
interface RowError {
  row: number;
  line: number;
  column: string | null;
  field: string | null;
  message: string;
  key: string;
  args?: Record<string, string | number>;
}
let t: TestApp;

async function send(
  url: string,
  file: Buffer | string,
  options: Row = {},
  extra: { as?: string; accept?: string; filename?: string } = {},
) {
  const body = multipart([
    ['options', JSON.stringify(options)],
    {
      name: 'file',
      filename: extra.filename ?? 'kunden.csv',
      content: file,
      contentType: 'text/csv',
    },
  ]);
  return t.request({
    method: 'POST',
    url,
    payload: body.payload,
    headers: { ...body.headers, ...(extra.accept ? { accept: extra.accept } : {}) },
    as: extra.as ?? ADMIN,
  });
}
const preview = (file: Buffer | string, options: Row = {}, extra = {}) =>
  send('/api/customers/import/preview', file, options, extra);
const importFile = (file: Buffer | string, options: Row = {}, extra = {}) =>
  send('/api/customers/import', file, options, extra);

async function count(): Promise<number> {
  const row = await t.database.db
    .selectFrom('customers')
    .select((eb) => eb.fn.countAll().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
async function leadSourceId(name: string): Promise<number> {
  const row = await t.database.db
    .selectFrom('lead_sources')
    .select('id')
    .where('name_de', '=', name)
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('preview', () => {
  it('suggests the mapping from German, French and English column names and writes nothing', async () => {
    const before = await count();
    const response = await preview(fixture('customers-good.csv'));
    expect(response.statusCode, response.body).toBe(200);
    const answer = response.json() as Row & { preview: Array<{ values: Row; valid: boolean }> };
    expect(answer).toMatchObject({
      delimiter: ';',
      encoding: 'utf-8',
      total_rows: 4,
      valid_rows: 4,
      invalid_rows: 0,
      row_errors: [],
    });
    expect(answer.suggested_mapping).toMatchObject({
      Vorname: 'firstName',
      Nachname: 'lastName',
      Geburtsdatum: 'dateOfBirth',
      PLZ: 'zip',
      Ort: 'city',
      'E-Mail': 'email',
      Telefon: 'phoneNumber',
      Zivilstand: 'maritalStatus',
      Nationalität: 'nationality',
      'Lead-Quelle': 'leadSource',
      Firma: 'isCompany',
      Firmenname: 'organization',
      'Nr.': 'addressNumber',
    });
    const [ursula, marco, jeanLuc, company] = answer.preview.map((row) => row.values);
    expect(ursula).toMatchObject({
      first_name: 'Ursula',
      last_name: 'Bühler',
      date_of_birth: '1961-03-12',
      gender: 'female',
      marital_status: 'married',
      nationality: 'CH',
      lead_source: await leadSourceId('Empfehlung'),
      is_company: false,
      country: 'CH',
    });
    expect(marco).toMatchObject({ gender: 'male', nationality: 'IT', marital_status: 'single' });
    expect(jeanLuc).toMatchObject({ street: 'Rue du Lac; 2e étage', marital_status: 'married' });
    expect(company).toMatchObject({ is_company: true, organization: 'Beispiel AG' });
    expect(await count()).toBe(before);
  });

  it('names row, line, column and field of every problem', async () => {
    const response = await preview(fixture('customers-mixed.csv'));
    expect(response.statusCode, response.body).toBe(200);
    const answer = response.json() as {
      row_errors: RowError[];
      valid_rows: number;
      invalid_rows: number;
    };
    expect(answer.valid_rows).toBe(3);
    expect(answer.invalid_rows).toBe(2);
    expect(answer.row_errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ row: 2, line: 3, column: 'email', field: 'email' }),
        expect.objectContaining({
          row: 4,
          line: 5,
          column: 'date_of_birth',
          field: 'date_of_birth',
        }),
        expect.objectContaining({ row: 4, line: 5, column: 'zip', field: 'zip' }),
      ]),
    );
    expect(answer.row_errors).toHaveLength(3);
  });

  it('reports wrong values of every kind', async () => {
    const answer = (await preview(fixture('customers-bad.csv'))).json() as {
      row_errors: RowError[];
      valid_rows: number;
    };
    expect(answer.valid_rows).toBe(0);
    const messages = answer.row_errors.map(
      (error) => `${error.row}:${error.field}:${error.message}`,
    );
    expect(messages).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^1:date_of_birth:"31.02.1980" is not a date/),
        '2:last_name:is required for a person',
        expect.stringMatching(/^3:lead_source:"Zeitungsinserat" is not a known lead source/),
        expect.stringMatching(/^3:is_company:"vielleicht" is not yes or no/),
      ]),
    );
    // Beside each English sentence, its translation key and arguments (the screen shows those).
    expect(answer.row_errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          row: 3,
          field: 'lead_source',
          key: 'app.errors.unknownLeadSource',
          args: { value: 'Zeitungsinserat' },
        }),
        expect.objectContaining({ row: 2, field: 'last_name', key: 'app.errors.personName' }),
      ]),
    );
  });
});

describe('import', () => {
  it('all or nothing: a file with a bad row writes nothing (422 with the row errors)', async () => {
    const before = await count();
    const response = await importFile(fixture('customers-mixed.csv'), { mode: 'all_or_nothing' });
    expect(response.statusCode, response.body).toBe(422);
    const answer = response.json() as { message: string; errors: Row; row_errors: RowError[] };
    expect(answer.message).toContain('nothing was imported');
    expect(Object.keys(answer.errors)).toContain('file');
    expect(answer.row_errors).toHaveLength(3);
    expect(await count()).toBe(before);
  });

  it('skip invalid: writes the valid rows and reports the others', async () => {
    const before = await count();
    const response = await importFile(fixture('customers-mixed.csv'), { mode: 'skip_invalid' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      total_rows: 5,
      imported: 3,
      skipped: 2,
      mode: 'skip_invalid',
    });
    expect(await count()).toBe(before + 3);
    const names = await t.database.db
      .selectFrom('customers')
      .select('last_name')
      .where('email', 'in', ['peter.keller@gmx.ch', 'sandra.frei@', 'laura.moser@bluewin.ch'])
      .execute();
    expect(names.map((row) => row.last_name)).toEqual(['Keller']);
  });

  it('applies the import-wide lead source and recommender, and the default consultant', async () => {
    const portal = await leadSourceId('Vergleichsportal');
    const users = await t.database.db.selectFrom('users').select(['id', 'email']).execute();
    const consultant = Number(users.find((user) => user.email === CONSULTANT)?.id);
    const response = await importFile(fixture('customers-good.csv'), {
      import_lead_source: portal,
      import_recommended_by: 'Messe Zürich 2026',
      assigned_to: consultant,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ imported: 4, skipped: 0 });
    const rows = await t.database.db
      .selectFrom('customers')
      .select(['lead_source', 'recommended_by', 'assigned_to', 'date_of_birth'])
      .where('recommended_by', '=', 'Messe Zürich 2026')
      .execute();
    expect(rows).toHaveLength(4);
    for (const row of rows) {
      expect(row.lead_source).toBe(portal);
      expect(row.assigned_to).toBe(consultant);
    }
    // The consultant now sees them.
    const list = await t.request({
      method: 'GET',
      url: '/api/customers?search=Bernasconi',
      as: CONSULTANT,
    });
    expect((list.json() as { meta: { total: number } }).meta.total).toBeGreaterThan(0);
  });

  it('uses the mapping chosen by the user (a column left out is ignored)', async () => {
    const response = await preview(fixture('customers-mixed.csv'), {
      mapping: {
        first_name: 'firstName',
        last_name: 'lastName',
        city: 'city',
        zip: null,
        email: null,
        date_of_birth: null,
        phone_number: null,
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ valid_rows: 5, invalid_rows: 0 });
  });

  it('streams progress lines and the summary on request', async () => {
    // The same rows were imported before: imported again on purpose (likely duplicates).
    const response = await importFile(
      fixture('customers-mixed.csv'),
      { mode: 'skip_invalid', duplicates: { all: 'import' } },
      {
        accept: 'application/x-ndjson',
      },
    );
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('application/x-ndjson');
    const lines = response.body
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Row);
    expect(lines[0]).toMatchObject({ type: 'progress', phase: 'checked', done: 5, total: 5 });
    expect(lines.some((line) => line.phase === 'importing' && line.done === 3)).toBe(true);
    expect(lines.at(-1)).toMatchObject({ type: 'summary', imported: 3, skipped: 2 });
    const failed = await importFile(
      fixture('customers-mixed.csv'),
      {},
      { accept: 'application/x-ndjson' },
    );
    const last = JSON.parse(failed.body.trim().split('\n').at(-1) ?? '{}') as Row;
    expect(last).toMatchObject({ type: 'error', status: 422 });
    expect(last.row_errors).toHaveLength(3);
  });
});

describe('wrong files and options', () => {
  it('names the line of a file that is not UTF-8, and reads it as Windows-1252 when asked', async () => {
    const file = fixture('customers-windows1252.csv');
    const wrong = await preview(file);
    expect(wrong.statusCode).toBe(422);
    const answer = wrong.json() as { message: string; errors: Record<string, string[]> };
    expect(answer.errors.file.join(' ')).toContain('not valid UTF-8 (line 2)');
    const right = await preview(file, { encoding: 'windows-1252' });
    expect(right.statusCode, right.body).toBe(200);
    const values = (right.json() as { preview: Array<{ values: Row }> }).preview.map(
      (row) => row.values,
    );
    expect(values[0]).toMatchObject({ first_name: 'Jürg', last_name: 'Müller', city: 'Zürich' });
    expect(values[1]).toMatchObject({ first_name: 'Françoise', city: 'Neuchâtel' });
  });

  it('refuses files without the needed columns, with duplicate columns, or not CSV at all', async () => {
    const missing = await preview('Kundennummer;Wohnort\n1;Bern\n');
    expect(missing.statusCode).toBe(422);
    expect(
      (missing.json() as { errors: Record<string, string[]> }).errors.mapping.join(' '),
    ).toContain('lastName');
    const unknownColumn = await preview(fixture('customers-mixed.csv'), {
      mapping: { Nachname: 'lastName', first_name: 'firstName' },
    });
    expect(unknownColumn.statusCode).toBe(422);
    expect(Object.keys((unknownColumn.json() as { errors: Row }).errors)).toContain(
      'mapping.Nachname',
    );
    const twice = await preview(fixture('customers-mixed.csv'), {
      mapping: { first_name: 'lastName', last_name: 'lastName' },
    });
    expect(twice.statusCode).toBe(422);
    const duplicate = await preview('Vorname;Nachname;Vorname\nA;B;C\n');
    expect(duplicate.statusCode).toBe(422);
    expect(duplicate.json().message).toContain('both named "Vorname"');
    const pdf = await preview(PDF, {}, { filename: 'kunden.csv' });
    expect(pdf.statusCode).toBe(415);
    expect(pdf.json().message).toContain('PDF');
    const empty = await preview('');
    expect(empty.statusCode).toBe(422);
    const broken = await preview('Vorname;Nachname\n"Hans;Muster\n');
    expect(broken.statusCode).toBe(422);
    expect(broken.json().message).toContain('not valid CSV');
  });

  it('refuses bad options and a row with too many values', async () => {
    const badMode = await preview(fixture('customers-mixed.csv'), { mode: 'sometimes' });
    expect(badMode.statusCode).toBe(422);
    expect(Object.keys((badMode.json() as { errors: Row }).errors)).toContain('mode');
    const unknownSource = await preview(fixture('customers-mixed.csv'), {
      import_lead_source: 999999,
    });
    expect(unknownSource.statusCode).toBe(422);
    expect(Object.keys((unknownSource.json() as { errors: Row }).errors)).toContain(
      'import_lead_source',
    );
    const ragged = (await preview('Vorname;Nachname\nHans;Muster;zu viel\n')).json() as {
      row_errors: RowError[];
    };
    expect(ragged.row_errors[0]).toMatchObject({ row: 1, line: 2, field: null });
    expect(ragged.row_errors[0].message).toContain('3 values');
  });

  it('is for the back office: consultants get 403, back office may import', async () => {
    expect((await preview(fixture('customers-mixed.csv'), {}, { as: CONSULTANT })).statusCode).toBe(
      403,
    );
    expect(
      (await importFile(fixture('customers-mixed.csv'), {}, { as: CONSULTANT })).statusCode,
    ).toBe(403);
    expect((await preview(fixture('customers-mixed.csv'), {}, { as: BACKOFFICE })).statusCode).toBe(
      200,
    );
  });
});
