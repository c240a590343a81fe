/**
 * CSV import of leads (issue 16), on both engines: the customer import's flow for leads —
 * suggested mapping, preview counts without writing, row errors naming row, line, column and
 * field; the lead source for every row (required unless a column holds it, and one the importer's
 * role may see), the recommender for every row; the leads on top of New Leads in file order; the
 * source's mails; open leads as likely duplicates; the blacklist refusing people in the lead and
 * the customer import; who may import.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES } from '../../src/schema/permissions.ts';
import { ADMIN, CONSULTANT, createTestApp, type TestApp } from './harness.ts';
import { multipart } from './multipart.ts';

const BACKOFFICE = 'backoffice@demo.gscrm.ch';
const CALLCENTER = 'callcenter@demo.gscrm.ch';

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
interface Preview {
  fields: string[];
  suggested_mapping: Record<string, string | null>;
  total_rows: number;
  valid_rows: number;
  invalid_rows: number;
  row_errors: RowError[];
  preview: Array<{ row: number; values: Row; valid: boolean }>;
  duplicate_rows: number;
  duplicates: Array<{
    row: number;
    matches: Array<{ id: number; reasons: string[] }>;
    file_rows: Array<{ row: number; reasons: string[] }>;
  }>;
}

let t: TestApp;
const unique = Math.random().toString(36).slice(2, 8);
const users: Record<string, number> = {};
let open: Row; // visible to every role
let office: Row; // ADMIN and BACKOFFICE only
let mailing: Row; // mails every new lead, notifies the assignee

async function send(
  url: string,
  file: string,
  options: Row = {},
  extra: { as?: string; accept?: string } = {},
) {
  const body = multipart([
    ['options', JSON.stringify(options)],
    { name: 'file', filename: 'leads.csv', content: file, contentType: 'text/csv' },
  ]);
  return t.request({
    method: 'POST',
    url,
    payload: body.payload,
    headers: { ...body.headers, ...(extra.accept ? { accept: extra.accept } : {}) },
    as: extra.as ?? ADMIN,
  });
}
const preview = (file: string, options: Row = {}, as?: string) =>
  send('/api/leads/import/preview', file, options, { as });
const importFile = (file: string, options: Row = {}, as?: string) =>
  send('/api/leads/import', file, options, { as });

function ok<T = Row>(response: LightMyRequestResponse): T {
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as T;
}

/** The error keys of a refusal by field. */
function refusal(response: LightMyRequestResponse, status = 422): Record<string, string[]> {
  expect(response.statusCode, response.body).toBe(status);
  const answer = response.json() as { error_keys?: Record<string, Array<{ message: string }>> };
  return Object.fromEntries(
    Object.entries(answer.error_keys ?? {}).map(([field, keys]) => [
      field,
      keys.map((key) => key.message),
    ]),
  );
}

async function created(url: string, payload: Row, as = ADMIN): Promise<Row> {
  const response = await t.request({ method: 'POST', url, payload, as });
  expect(response.statusCode, response.body).toBe(201);
  return (response.json() as { data: Row }).data;
}

const leadsNamed = (lastName: string) =>
  t.database.db
    .selectFrom('leads')
    .selectAll()
    .where('last_name', 'like', `${lastName}%`)
    .orderBy('id')
    .execute();

const csv = (...lines: string[]) => `${lines.join('\n')}\n`;

beforeAll(async () => {
  t = await createTestApp();
  for (const user of await t.database.db.selectFrom('users').select(['id', 'email']).execute())
    users[String(user.email)] = Number(user.id);
  open = await created('/api/lead-sources', {
    name_de: `Messe ${unique}`,
    group: 'internal',
    visible_roles: [...ROLES],
  });
  office = await created('/api/lead-sources', {
    name_de: `Partnerliste ${unique}`,
    group: 'special',
    visible_roles: ['ADMIN', 'BACKOFFICE'],
  });
  mailing = await created('/api/lead-sources', {
    name_de: `Portal ${unique}`,
    group: 'other',
    visible_roles: [...ROLES],
    assigned_notify: true,
    email_to: {
      enabled: true,
      email: `portal.${unique}@example.ch`,
      bcc: `kopie.${unique}@example.ch`,
      subject: `Import ${unique}`,
    },
  });
});

afterAll(async () => {
  await t?.close();
});

describe('preview', () => {
  it('suggests the mapping, counts the rows and writes nothing', async () => {
    const file = csv(
      'Vorname;Nachname;E-Mail;Natel;PLZ;Ort;Sprache;Bemerkung;Betreuer',
      `Anna;Vorschau${unique};anna.${unique}@example.ch;079 111 22 33;3011;Bern;Französisch;Ruft abends zurück;${CONSULTANT}`,
      `Beat;Vorschau${unique}-B;beat.${unique}@example.ch;;8001;Zürich;de;;`,
    );
    const answer = ok<Preview>(await preview(file, { import_lead_source: open.id }));
    expect(answer.suggested_mapping).toEqual({
      Vorname: 'firstName',
      Nachname: 'lastName',
      'E-Mail': 'email',
      Natel: 'phoneNumber',
      PLZ: 'zip',
      Ort: 'city',
      Sprache: 'language',
      Bemerkung: 'notes',
      Betreuer: 'assignedTo',
    });
    // The fields a column may fill: never the board's (status, position, call attempts …).
    expect(answer.fields).toEqual(expect.arrayContaining(['lastName', 'leadSource', 'assignedTo']));
    for (const field of ['status', 'position', 'closeStatus', 'callAttempts', 'attemptCount'])
      expect(answer.fields).not.toContain(field);
    expect(answer).toMatchObject({ total_rows: 2, valid_rows: 2, invalid_rows: 0, row_errors: [] });
    expect(answer.preview[0].values).toMatchObject({
      first_name: 'Anna',
      phone_number: '+41791112233',
      language: 'fr',
      assigned_to: users[CONSULTANT],
      lead_source: open.id,
      status: 'new',
    });
    expect(await leadsNamed(`Vorschau${unique}`)).toEqual([]);
  });

  it('names row, line, column and field of every problem', async () => {
    const file = csv(
      'Vorname;Nachname;Firma;E-Mail;Sprache;Lead-Quelle;Kundennummer',
      `Carla;Fehler${unique};;carla@@example;de;Messe ${unique};`,
      `Dora;;;dora.${unique}@example.ch;de;Messe ${unique};`,
      `Emil;Fehler${unique}-E;;;klingonisch;Messe ${unique};`,
      `Fritz;Fehler${unique}-F;;;de;Partnerliste ${unique};`,
      `Gina;Fehler${unique}-G;;;de;Messe ${unique};999999999`,
    );
    // The call centre may not see the office's source: that row is refused, the others checked.
    const answer = ok<Preview>(await preview(file, {}, CALLCENTER));
    expect(answer).toMatchObject({ total_rows: 5, valid_rows: 0, invalid_rows: 5 });
    const at = (row: number) =>
      answer.row_errors
        .filter((error) => error.row === row)
        .map(({ line, column, field, key }) => ({ line, column, field, key }));
    expect(at(1)).toEqual([{ line: 2, column: 'E-Mail', field: 'email', key: 'app.errors.email' }]);
    expect(at(2)).toEqual([
      { line: 3, column: 'Nachname', field: 'last_name', key: 'app.errors.leadNoPerson' },
    ]);
    expect(at(3)).toEqual([
      { line: 4, column: 'Sprache', field: 'language', key: 'app.errors.unknownValue' },
    ]);
    expect(at(4)).toEqual([
      { line: 5, column: 'Lead-Quelle', field: 'lead_source', key: 'app.errors.leadSourceHidden' },
    ]);
    expect(at(5)).toEqual([
      {
        line: 6,
        column: 'Kundennummer',
        field: 'customer_id',
        key: 'app.errors.unknownReference',
      },
    ]);
    // The back office sees that source: row 4 passes there.
    const back = ok<Preview>(await preview(file, {}, BACKOFFICE));
    expect(back.row_errors.some((error) => error.row === 4)).toBe(false);
  });

  it('refuses an assignee whose role may not see the source, and one of the wrong role', async () => {
    const file = csv(
      'Nachname;Betreuer',
      `Zuweisung${unique};${CONSULTANT}`,
      `Zuweisung${unique}-B;${ADMIN}`,
    );
    const answer = ok<Preview>(await preview(file, { import_lead_source: office.id }));
    expect(answer.row_errors.map(({ row, field, key }) => ({ row, field, key }))).toEqual([
      { row: 1, field: 'assigned_to', key: 'app.errors.assigneeCannotSeeSource' },
      // An ADMIN account works no leads (the field's x-reference-filter).
      { row: 2, field: 'assigned_to', key: 'app.errors.unsuitableReference' },
    ]);
    const option = refusal(
      await preview(csv('Nachname', `Zuweisung${unique}-C`), {
        import_lead_source: office.id,
        assigned_to: users[CONSULTANT],
      }),
    );
    expect(option.assigned_to).toEqual(['app.errors.assigneeCannotSeeSource']);
  });
});

describe('the lead source and the recommender for every row', () => {
  const file = csv('Vorname;Nachname', `Hans;Quelle${unique}`, `Ines;Quelle${unique}-B`);

  it('needs the lead source: a column or import_lead_source', async () => {
    expect(refusal(await preview(file)).import_lead_source).toEqual(['app.errors.required']);
    expect(refusal(await importFile(file)).import_lead_source).toEqual(['app.errors.required']);
    // A source the importer's role may not see is refused for the whole file.
    expect(
      refusal(await preview(file, { import_lead_source: office.id }, CALLCENTER))
        .import_lead_source,
    ).toEqual(['app.errors.leadSourceHidden']);
    expect(refusal(await preview(file, { import_lead_source: 999999 })).import_lead_source).toEqual(
      ['app.errors.unknownReference'],
    );
    expect(await leadsNamed(`Quelle${unique}`)).toEqual([]);
  });

  it('applies import_lead_source and import_recommended_by to every row', async () => {
    const summary = ok(
      await importFile(
        file,
        { import_lead_source: open.id, import_recommended_by: 'Messe Bern 2026' },
        CALLCENTER,
      ),
    );
    expect(summary).toMatchObject({ total_rows: 2, imported: 2, skipped: 0 });
    const rows = await leadsNamed(`Quelle${unique}`);
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row).toMatchObject({
        lead_source: open.id,
        recommended_by: 'Messe Bern 2026',
        status: 'new',
        close_status: null,
        assigned_to: null,
      });
    }
    // The import is in the history.
    const event = await t.database.db
      .selectFrom('audit_log')
      .select(['details'])
      .where('event', '=', 'leads.imported')
      .executeTakeFirst();
    expect(event?.details).toMatchObject({ imported: 2, mode: 'all_or_nothing' });
  });

  it('takes the lead source from a column when one is mapped', async () => {
    const summary = ok(
      await importFile(
        csv(
          'Nachname;Quelle',
          `Spalte${unique};${String(open.id)}`,
          `Spalte${unique}-B;Messe ${unique}`,
        ),
      ),
    );
    expect(summary).toMatchObject({ imported: 2 });
    expect((await leadsNamed(`Spalte${unique}`)).map((row) => row.lead_source)).toEqual([
      open.id,
      open.id,
    ]);
  });
});

describe('the board and what a new lead sets off', () => {
  it('puts the imported leads on top of New Leads, in file order', async () => {
    const earlier = await created('/api/leads', {
      last_name: `Vorher${unique}`,
      lead_source: open.id,
      status: 'new',
    });
    const summary = ok(
      await importFile(csv('Nachname', `Oben${unique}-1`, `Oben${unique}-2`, `Oben${unique}-3`), {
        import_lead_source: open.id,
      }),
    );
    expect(summary).toMatchObject({ imported: 3 });
    const response = await t.request({
      method: 'GET',
      url: `/api/leads?status=new&sort=position&order=asc&per_page=200`,
      as: ADMIN,
    });
    const column = ok<{ data: Row[] }>(response).data.map((row) => String(row.last_name));
    expect(column.slice(0, 4)).toEqual([
      `Oben${unique}-1`,
      `Oben${unique}-2`,
      `Oben${unique}-3`,
      String(earlier.last_name),
    ]);
  });

  it("mails the source's address for each lead and notifies the assignee", async () => {
    const outbox = () =>
      t.database.db
        .selectFrom('outbox')
        .select(['to_address', 'body'])
        .where('subject', '=', `Import ${unique}`)
        .orderBy('id')
        .execute();
    expect(await outbox()).toEqual([]);
    const summary = ok(
      await importFile(
        csv(
          'Vorname;Nachname;Telefon;Betreuer',
          `Jana;Post${unique};044 123 45 67;${CONSULTANT}`,
          `Kurt;Post${unique}-B;;`,
        ),
        { import_lead_source: mailing.id },
        BACKOFFICE,
      ),
    );
    expect(summary).toMatchObject({ imported: 2 });
    const mails = await outbox();
    // Each lead to the source's address and its copy.
    expect(mails.map((mail) => mail.to_address).sort()).toEqual([
      `kopie.${unique}@example.ch`,
      `kopie.${unique}@example.ch`,
      `portal.${unique}@example.ch`,
      `portal.${unique}@example.ch`,
    ]);
    expect(mails.some((mail) => String(mail.body).includes(`Jana Post${unique}`))).toBe(true);
    const notices = await t.database.db
      .selectFrom('notifications')
      .select('title')
      .where('user_id', '=', users[CONSULTANT])
      .where('title', 'like', `%Post${unique}%`)
      .execute();
    expect(notices).toHaveLength(1);
  });
});

describe('likely duplicates', () => {
  it('flags a row like an open lead (e-mail without regard to case, phone in any spelling) or an earlier row; skip or import, no merge', async () => {
    const email = `Doppelt.${unique}@Example.ch`;
    const existing = await created('/api/leads', {
      last_name: `Doppelt${unique}`,
      email,
      phone_number: '+41 31 555 66 77',
      lead_source: open.id,
      status: 'new',
    });
    // A closed lead is no duplicate.
    await created('/api/leads', {
      last_name: `Zu${unique}`,
      email: `zu.${unique}@example.ch`,
      lead_source: open.id,
      status: 'closed',
      close_status: 'not_interested',
    });
    const file = csv(
      'Nachname;E-Mail;Telefon',
      `Doppelt${unique}-1;${email.toLowerCase()};`,
      `Doppelt${unique}-2;;031 555 66 77`,
      `Doppelt${unique}-3;zu.${unique}@example.ch;`,
      `Doppelt${unique}-4;zu.${unique}@example.ch;`,
    );
    const options = { import_lead_source: open.id };
    const answer = ok<Preview>(await preview(file, options));
    expect(answer.duplicate_rows).toBe(3);
    expect(answer.duplicates).toEqual([
      expect.objectContaining({
        row: 1,
        matches: [expect.objectContaining({ id: existing.id, reasons: ['email'] })],
        file_rows: [],
      }),
      expect.objectContaining({
        row: 2,
        matches: [expect.objectContaining({ id: existing.id, reasons: ['phone'] })],
      }),
      expect.objectContaining({ row: 4, matches: [], file_rows: [{ row: 3, reasons: ['email'] }] }),
    ]);
    const merge = await importFile(file, {
      ...options,
      duplicates: { rows: { '1': { action: 'merge', into: existing.id } } },
    });
    expect(Object.keys(refusal(merge))).toEqual(['duplicates.rows.1.action']);
    const summary = ok(
      await importFile(file, {
        ...options,
        duplicates: { rows: { '1': { action: 'skip' }, '2': { action: 'import' } } },
      }),
    );
    expect(summary).toMatchObject({
      imported: 2,
      skipped_duplicates: 1,
      unresolved_duplicates: 1,
      skipped: 2,
    });
    expect((await leadsNamed(`Doppelt${unique}-`)).map((row) => row.last_name)).toEqual([
      `Doppelt${unique}-2`,
      `Doppelt${unique}-3`,
    ]);
  });
});

describe('the blacklist', () => {
  const blocked = `Gesperrt.${unique}@Example.ch`;
  beforeAll(async () => {
    await created('/api/blacklist-entries', { email: blocked, reason: 'will nicht' });
    await created('/api/blacklist-entries', { phone_number: '+41 44 777 88 99' });
  });

  it('refuses a blacklisted person in a lead import, by e-mail and by phone', async () => {
    const file = csv(
      'Nachname;E-Mail;Telefon',
      `Sperre${unique}-1;${blocked.toUpperCase()};`,
      `Sperre${unique}-2;;0041 44 777 88 99`,
      `Sperre${unique}-3;frei.${unique}@example.ch;`,
    );
    const options = { import_lead_source: open.id };
    const answer = ok<Preview>(await preview(file, options));
    expect(answer).toMatchObject({ valid_rows: 1, invalid_rows: 2 });
    expect(answer.row_errors).toEqual([
      expect.objectContaining({
        row: 1,
        line: 2,
        column: 'E-Mail',
        field: 'email',
        key: 'app.errors.blacklisted',
        args: { value: blocked.toLowerCase() },
      }),
      expect.objectContaining({
        row: 2,
        line: 3,
        column: 'Telefon',
        field: 'phone_number',
        key: 'app.errors.blacklisted',
        args: { value: '+41447778899' },
      }),
    ]);
    // All or nothing refuses the file; skipping invalid rows leaves the two out.
    const refused = await importFile(file, options);
    expect(refused.statusCode).toBe(422);
    expect((refused.json() as { row_errors: RowError[] }).row_errors).toHaveLength(2);
    expect(await leadsNamed(`Sperre${unique}`)).toEqual([]);
    const summary = ok(await importFile(file, { ...options, mode: 'skip_invalid' }));
    expect(summary).toMatchObject({ imported: 1, skipped: 2 });
    expect((await leadsNamed(`Sperre${unique}`)).map((row) => row.last_name)).toEqual([
      `Sperre${unique}-3`,
    ]);
  });

  it('refuses a blacklisted customer in a lead import by the customer', async () => {
    const customer = await created('/api/customers', {
      first_name: 'Gesperrter',
      last_name: `Kunde${unique}`,
    });
    await created('/api/blacklist-entries', { customer_id: customer.id });
    const answer = ok<Preview>(
      await preview(csv('Kundennummer;Nachname', `${String(customer.id)};Kunde${unique}`), {
        import_lead_source: open.id,
      }),
    );
    expect(answer.row_errors).toEqual([
      expect.objectContaining({
        row: 1,
        column: 'Kundennummer',
        field: 'customer_id',
        key: 'app.errors.blacklisted',
      }),
    ]);
  });

  it('refuses a blacklisted person in a customer import, by e-mail and by phone', async () => {
    const file = csv(
      'Vorname;Nachname;E-Mail;Telefon',
      `Karl;Sperrkunde${unique};${blocked};`,
      `Lena;Sperrkunde${unique}-B;;044 777 88 99`,
      `Mia;Sperrkunde${unique}-C;mia.${unique}@example.ch;`,
    );
    const send = (url: string, options: Row = {}) =>
      t.request({
        method: 'POST',
        url,
        ...(() => {
          const body = multipart([
            ['options', JSON.stringify(options)],
            { name: 'file', filename: 'kunden.csv', content: file, contentType: 'text/csv' },
          ]);
          return { payload: body.payload, headers: body.headers };
        })(),
        as: ADMIN,
      });
    const answer = ok<Preview>(await send('/api/customers/import/preview'));
    expect(answer).toMatchObject({ valid_rows: 1, invalid_rows: 2 });
    expect(
      answer.row_errors.map(({ row, column, field, key }) => ({ row, column, field, key })),
    ).toEqual([
      { row: 1, column: 'E-Mail', field: 'email', key: 'app.errors.blacklisted' },
      { row: 2, column: 'Telefon', field: 'phone_number', key: 'app.errors.blacklisted' },
    ]);
    const customers = () =>
      t.database.db
        .selectFrom('customers')
        .select('last_name')
        .where('last_name', 'like', `Sperrkunde${unique}%`)
        .execute();
    expect((await send('/api/customers/import')).statusCode).toBe(422);
    expect(await customers()).toEqual([]);
    expect(ok(await send('/api/customers/import', { mode: 'skip_invalid' }))).toMatchObject({
      imported: 1,
      skipped: 2,
    });
    expect((await customers()).map((row) => row.last_name)).toEqual([`Sperrkunde${unique}-C`]);
  });
});

describe('who may import leads', () => {
  const file = csv('Nachname', `Rolle${unique}`);

  it('refuses consultants (403) and lets the back office and the call centre import', async () => {
    const options = { import_lead_source: open.id };
    expect((await preview(file, options, CONSULTANT)).statusCode).toBe(403);
    expect((await importFile(file, options, CONSULTANT)).statusCode).toBe(403);
    expect(await leadsNamed(`Rolle${unique}`)).toEqual([]);
    ok(await preview(file, options, BACKOFFICE));
    ok(await preview(file, options, CALLCENTER));
  });

  it('streams progress lines and the summary on request', async () => {
    const response = await send(
      '/api/leads/import',
      csv('Nachname', `Strom${unique}-1`, `Strom${unique}-2`),
      { import_lead_source: open.id },
      { accept: 'application/x-ndjson' },
    );
    expect(response.statusCode).toBe(200);
    const lines = response.body
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Row);
    expect(lines[0]).toMatchObject({ type: 'progress', phase: 'checked', done: 2, total: 2 });
    expect(lines.some((line) => line.phase === 'importing' && line.done === 2)).toBe(true);
    expect(lines.at(-1)).toMatchObject({ type: 'summary', imported: 2 });
  });
});
