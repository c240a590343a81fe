/**
 * The history of every change (issue 11): every kind of mutating route writes its audit rows in
 * its own transaction, carrying the user and the request id it answered (so a route that writes
 * outside writeTransaction fails here); the log is append-only, secrets are redacted, the
 * timeline API shows a record's history with its children's and answers 404 for a record the
 * caller may not read; purgeAudit removes only what is older than the retention.
 */
import { sql } from 'kysely';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditRetentionDays, purgeAudit } from '../../server/audit/retention.ts';
import { syncTranslations } from '../../server/i18n/sync.ts';
import { loadResourceModels } from '../../server/schemas.ts';
import { ADMIN, CONSULTANT, createTestApp, DEMO_PASSWORD, type TestApp } from './harness.ts';
import { multipart, PDF, PNG } from './multipart.ts';

const CONSULTANT2 = 'consultant2@demo.gscrm.ch';

type Row = Record<string, unknown>;
interface Entry {
  id: number;
  event: string;
  action: string | null;
  resource: string | null;
  record_id: string | null;
  parent_resource: string | null;
  user_id: number | null;
  request_id: string | null;
  changes: Record<string, { old: unknown; new: unknown }> | null;
}

let t: TestApp;
let adminId: number;
/** Audit rows written per mutation kind over this file (reported by the last test). */
const counts = new Map<string, number>();

beforeAll(async () => {
  t = await createTestApp();
  await syncTranslations(t.database.db, { models: loadResourceModels() });
  const me = await t.request({ method: 'GET', url: '/api/auth/me', as: ADMIN });
  adminId = (me.json() as { data: { id: number } }).data.id;
});
afterAll(async () => {
  await t?.close();
});

const send = (
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'GET',
  url: string,
  payload?: Row,
  as = ADMIN,
) => t.request({ method, url, payload, as });

/** The audit rows a response's request wrote (by its X-Request-Id). */
async function rowsOf(response: LightMyRequestResponse) {
  const requestId = String(response.headers['x-request-id']);
  expect(requestId).toBeTruthy();
  return t.database.db
    .selectFrom('audit_log')
    .selectAll()
    .where('request_id', '=', requestId)
    .orderBy('id')
    .execute();
}

/** Asserts the mutation succeeded and wrote audit rows with its request id and user. */
async function expectAudited(
  kind: string,
  response: LightMyRequestResponse,
  status: number,
  userId: number | null = adminId,
) {
  expect(response.statusCode, response.body).toBe(status);
  const rows = await rowsOf(response);
  expect(rows.length, `${kind} wrote no audit row with its request id`).toBeGreaterThan(0);
  for (const row of rows) expect(row.user_id).toBe(userId);
  for (const row of rows)
    counts.set(`${kind} ${row.event}`, (counts.get(`${kind} ${row.event}`) ?? 0) + 1);
  return rows;
}

async function createCustomer(lastName: string, as = ADMIN): Promise<Row> {
  const response = await send(
    'POST',
    '/api/customers',
    { first_name: 'Audit', last_name: lastName },
    as,
  );
  expect(response.statusCode, response.body).toBe(201);
  return (response.json() as { data: Row }).data;
}

describe('every mutating route writes audit rows in its transaction', () => {
  it('generic CRUD: create, update, delete with old and new values of the changed fields', async () => {
    const created = await send('POST', '/api/customers', { first_name: 'Eva', last_name: 'Alt' });
    const [create] = await expectAudited('crud create', created, 201);
    const id = (created.json() as { data: Row }).data.id;
    expect(create).toMatchObject({
      action: 'create',
      resource: 'customers',
      record_id: String(id),
    });
    expect(create.changes).toMatchObject({ last_name: { old: null, new: 'Alt' } });

    const updated = await send('PATCH', `/api/customers/${id}`, { last_name: 'Neu' });
    const [update] = await expectAudited('crud update', updated, 200);
    expect(update.action).toBe('update');
    // Only what changed: not the untouched first name, nor the timestamps and version.
    expect(update.changes).toEqual({ last_name: { old: 'Alt', new: 'Neu' } });
    expect(update.user_agent === null || typeof update.user_agent === 'string').toBe(true);

    const deleted = await send('DELETE', `/api/customers/${id}`);
    const [remove] = await expectAudited('crud delete', deleted, 200);
    expect(remove).toMatchObject({ action: 'delete', record_id: String(id) });
    expect(remove.changes).toMatchObject({ last_name: { old: 'Neu', new: null } });
  });

  it('a refused write leaves no audit row (same transaction)', async () => {
    const before = await t.database.db
      .selectFrom('audit_log')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    const refused = await send('POST', '/api/customers', { first_name: 'Only' });
    expect(refused.statusCode).toBe(422);
    expect(await rowsOf(refused)).toEqual([]);
    const after = await t.database.db
      .selectFrom('audit_log')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('customer documents, picture, household, merge and import', async () => {
    const customer = await createCustomer('Dokumente');
    const pdf = multipart([{ name: 'file', filename: 'vertrag.pdf', content: PDF }]);
    const uploaded = await t.request({
      method: 'POST',
      url: `/api/customers/${customer.id}/documents`,
      payload: pdf.payload,
      headers: pdf.headers,
      as: ADMIN,
    });
    const [document] = await expectAudited('document upload', uploaded, 201);
    expect(document).toMatchObject({
      resource: 'documents',
      parent_resource: 'customers',
      parent_id: String(customer.id),
    });

    const png = multipart([{ name: 'file', filename: 'me.png', content: PNG }]);
    const avatar = await t.request({
      method: 'POST',
      url: `/api/customers/${customer.id}/avatar`,
      payload: png.payload,
      headers: png.headers,
      as: ADMIN,
    });
    await expectAudited('avatar', avatar, 200);
    await expectAudited(
      'avatar delete',
      await send('DELETE', `/api/customers/${customer.id}/avatar`),
      200,
    );

    const member = await send('POST', '/api/household-members', {
      customer_id: customer.id,
      first_name: 'Kim',
      last_name: 'Dokumente',
      relation: 'child',
    });
    await expectAudited('household member', member, 201);
    const memberId = (member.json() as { data: Row }).data.id;
    const converted = await send('POST', `/api/household-members/${memberId}/convert`, {});
    const conversion = await expectAudited('household conversion', converted, 201);
    expect(conversion.map((row) => `${row.resource} ${row.action}`)).toEqual(
      expect.arrayContaining(['customers create', 'household_members update']),
    );

    const duplicate = await createCustomer('Dokumente');
    const merged = await send('POST', `/api/customers/${customer.id}/merge`, {
      duplicate_id: duplicate.id,
    });
    const merge = await expectAudited('merge', merged, 200);
    expect(merge.map((row) => row.event)).toEqual(
      expect.arrayContaining(['record.delete', 'customer.merged']),
    );

    const csv = multipart([
      ['options', JSON.stringify({ mode: 'skip_invalid' })],
      {
        name: 'file',
        filename: 'kunden.csv',
        content: 'first_name,last_name\nIma,Port\nEx,Port\n',
        contentType: 'text/csv',
      },
    ]);
    const imported = await t.request({
      method: 'POST',
      url: '/api/customers/import',
      payload: csv.payload,
      headers: csv.headers,
      as: ADMIN,
    });
    const rows = await expectAudited('import', imported, 200);
    expect(rows.filter((row) => row.action === 'create')).toHaveLength(2);
  });

  it('account flows and translations; passwords and offer credentials redacted', async () => {
    const consultant = Number(
      (
        await t.database.db
          .selectFrom('users')
          .select('id')
          .where('email', '=', CONSULTANT)
          .executeTakeFirstOrThrow()
      ).id,
    );
    await expectAudited(
      'settings',
      await send('PUT', '/api/account/settings', { language: 'fr' }, CONSULTANT),
      200,
      consultant,
    );
    const secret = 'Sehr-Geheim-42';
    // The demo gives every staff user the comparison stand-in's credentials: start from none.
    await t.database.db.deleteFrom('offer_credentials').where('user_id', '=', consultant).execute();
    const offer = await send(
      'PUT',
      '/api/account/offer-credentials',
      { offer_username: 'kim', offer_password: secret },
      CONSULTANT,
    );
    const offerRows = await expectAudited('offer credentials', offer, 200, consultant);
    const stored = offerRows.find((row) => row.resource === 'offer_credentials');
    expect(stored?.changes).toMatchObject({
      password_encrypted: { old: null, new: '[redacted]' },
      username_encrypted: { old: null, new: '[redacted]' },
    });

    const newPassword = 'Ganz-Neues-Passwort-2026!';
    const changed = await send(
      'POST',
      '/api/account/password',
      { old_password: DEMO_PASSWORD, new_password: newPassword, confirm_password: newPassword },
      CONSULTANT,
    );
    const passwordRows = await expectAudited('password change', changed, 200, consultant);
    const credentials = passwordRows.find((row) => row.resource === 'user_credentials');
    expect(credentials?.changes).toMatchObject({
      password_hash: { old: '[redacted]', new: '[redacted]' },
    });
    const log = JSON.stringify(await t.database.db.selectFrom('audit_log').selectAll().execute());
    expect(log).not.toContain(secret);
    expect(log).not.toContain('$argon2');
    expect(log).not.toContain('$scrypt');

    const all = await send('GET', '/api/localizations/translations/all?search=app.login.subtitle');
    const entry = (
      all.json() as { data: Array<{ id: number; translation_key: string }> }
    ).data.find((candidate) => candidate.translation_key === 'app.login.subtitle');
    const edited = await send('PUT', `/api/localizations/translations/${entry?.id}`, {
      translation_key: 'app.login.subtitle',
      translations: [{ language_id: 1, text: 'Bitte anmelden (Audit)' }],
    });
    const translationRows = await expectAudited('translation', edited, 200);
    expect(translationRows.some((row) => row.resource === 'translations')).toBe(true);
  });
});

describe('append-only', () => {
  it('refuses to update, delete or truncate audit rows', async () => {
    const db = t.database.db;
    await expect(sql`update audit_log set event = 'forged'`.execute(db)).rejects.toThrow(
      /append-only/,
    );
    await expect(sql`delete from audit_log`.execute(db)).rejects.toThrow(/append-only/);
    await expect(sql`truncate audit_log`.execute(db)).rejects.toThrow(/append-only/);
    const forged = await db
      .selectFrom('audit_log')
      .select('id')
      .where('event', '=', 'forged')
      .execute();
    expect(forged).toEqual([]);
  });

  it('offers no route that changes or removes history', async () => {
    await t.app.ready();
    const writes = t.app.routeTable.filter(
      (route) =>
        route.url.startsWith('/api/audit') && route.method !== 'GET' && route.method !== 'HEAD',
    );
    expect(writes).toEqual([]);
  });
});

describe('GET /api/audit', () => {
  it("answers a customer's history with its documents and household members", async () => {
    const customer = await createCustomer('Verlauf');
    await send('PATCH', `/api/customers/${customer.id}`, { city: 'Bern' });
    await send('POST', '/api/household-members', {
      customer_id: customer.id,
      first_name: 'Lou',
      last_name: 'Verlauf',
      relation: 'partner',
    });
    const response = await send('GET', `/api/audit?resource=customers&record_id=${customer.id}`);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json() as { data: Entry[]; meta: { total: number } };
    expect(body.meta.total).toBe(3);
    // Newest first; resources by their API names.
    expect(body.data.map((entry) => `${entry.resource} ${entry.action}`)).toEqual([
      'household-members create',
      'customers update',
      'customers create',
    ]);
    expect(body.data[1].changes).toEqual({ city: { old: null, new: 'Bern' } });
    expect(body.data[1].user_id).toBe(adminId);
  });

  it('answers 404 for the history of a record the caller may not read, 403 for the whole log', async () => {
    // Another consultant's customer: consultants see their own customers only.
    const hidden = await createCustomer('Versteckt', CONSULTANT2);
    const refused = await send(
      'GET',
      `/api/audit?resource=customers&record_id=${hidden.id}`,
      undefined,
      CONSULTANT,
    );
    expect(refused.statusCode).toBe(404);
    const unknown = await send(
      'GET',
      '/api/audit?resource=customers&record_id=2000000000',
      undefined,
      CONSULTANT,
    );
    expect(unknown.statusCode).toBe(404);
    expect(
      (await send('GET', '/api/audit?resource=nothing&record_id=1', undefined, CONSULTANT))
        .statusCode,
    ).toBe(404);
    expect((await send('GET', '/api/audit', undefined, CONSULTANT)).statusCode).toBe(403);
    // A consultant's own customer: its history.
    const own = await createCustomer('Eigen', CONSULTANT);
    const mine = await send(
      'GET',
      `/api/audit?resource=customers&record_id=${own.id}`,
      undefined,
      CONSULTANT,
    );
    expect(mine.statusCode, mine.body).toBe(200);
    expect((mine.json() as { data: Entry[] }).data.length).toBeGreaterThan(0);
  });

  it('filters the whole log by user, resource, action and date for admins', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const response = await send(
      'GET',
      `/api/audit?user_id=${adminId}&resource=customers&action=update&from=${today}&until=${today}&per_page=200`,
    );
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json() as { data: Entry[]; meta: { total: number } };
    expect(body.data.length).toBeGreaterThan(0);
    for (const entry of body.data) {
      expect(entry).toMatchObject({ user_id: adminId, resource: 'customers', action: 'update' });
    }
    const yesterday = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
    const old = await send('GET', `/api/audit?until=${yesterday}&user_id=${adminId}`);
    expect((old.json() as { meta: { total: number } }).meta.total).toBe(0);
  });
});

describe('retention', () => {
  it('purgeAudit removes rows older than the retention only', async () => {
    const db = t.database.db;
    await db
      .insertInto('audit_log')
      .values([
        { event: 'test.ancient', at: sql`now() - interval '401 days'` },
        { event: 'test.recent', at: sql`now() - interval '399 days'` },
      ])
      .execute();
    const removed = await purgeAudit(db, 400);
    expect(removed).toBe(1);
    const left = await db
      .selectFrom('audit_log')
      .select('event')
      .where('event', 'in', ['test.ancient', 'test.recent'])
      .execute();
    expect(left.map((row) => row.event)).toEqual(['test.recent']);
    // The purge's permission ended with its transaction.
    await expect(sql`delete from audit_log`.execute(db)).rejects.toThrow(/append-only/);
  });

  it('reads AUDIT_RETENTION_DAYS: 400 by default, never under a year', () => {
    expect(auditRetentionDays(undefined)).toBe(400);
    expect(auditRetentionDays('730')).toBe(730);
    expect(() => auditRetentionDays('30')).toThrow(/at least 366/);
    expect(() => auditRetentionDays('abc')).toThrow();
  });

  it('reports the audit rows per mutation kind written by this file', () => {
    const report = [...counts.entries()].sort(([a], [b]) => a.localeCompare(b));
    console.log(
      `audit rows per mutation kind:\n${report.map(([k, n]) => `  ${k}: ${n}`).join('\n')}`,
    );
    expect(report.length).toBeGreaterThan(10);
  });
});
