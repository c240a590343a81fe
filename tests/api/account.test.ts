/**
 * The account flows of issue 3: registration and approval, forgot / reset password through the
 * outbox, password change, settings, offer credentials (encrypted at rest, never answered in clear),
 * user administration without escalation, external users, sub-brokers, the mail queue, and the
 * audit log of every auth event.
 */
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decrypt, offerKey, readOfferCredentials } from '../../server/account/secrets.ts';
import { hashPassword } from '../../server/auth/password.ts';
import { Mailer, transportFromEnv } from '../../server/mail/mailer.ts';
import { ADMIN, CONSULTANT, createTestApp, DEMO_PASSWORD, type TestApp } from './harness.ts';

type Row = Record<string, unknown>;
const CONSULTANT2 = 'consultant2@demo.gscrm.ch';
const BACKOFFICE = 'backoffice@demo.gscrm.ch';
const NEW_PASSWORD = 'Neu-Passwort#2026';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

let address = 0;
/** A request from its own client address, so the per-address throttles of one test stay apart. */
const anonymous = (options: InjectOptions, remoteAddress = `10.0.0.${++address}`) =>
  t.app.inject({ ...options, remoteAddress });
const call = (as: string, method: string, url: string, payload?: unknown) =>
  t.request({ method: method as 'GET', url, payload: payload as never, as });
const withToken = (token: string, method: string, url: string, payload?: unknown) =>
  t.app.inject({
    method: method as 'GET',
    url,
    payload: payload as never,
    headers: { authorization: `Bearer ${token}` },
  });
const data = <T = Row>(response: LightMyRequestResponse) => (response.json() as { data: T }).data;
const login = (email: string, password: string) =>
  anonymous({ method: 'POST', url: '/api/auth/login', payload: { email, password } });

async function mailsTo(email: string, kind?: string): Promise<Row[]> {
  let query = t.database.db
    .selectFrom('outbox')
    .selectAll()
    .where(sql`lower(to_address)`, '=', email.toLowerCase());
  if (kind) query = query.where('kind', '=', kind);
  return query.orderBy('id').execute();
}

async function auditOf(event: string, userId?: number): Promise<Row[]> {
  let query = t.database.db.selectFrom('audit_log').selectAll().where('event', '=', event);
  if (userId !== undefined) query = query.where('user_id', '=', userId);
  return query.orderBy('id').execute();
}

const tokenIn = (mail: Row): string => {
  const match = /\/change-password\?token=([A-Za-z0-9_-]+)/.exec(String(mail.body));
  if (!match) throw new Error(`no link in ${String(mail.body)}`);
  return decodeURIComponent(match[1]);
};

async function userRow(email: string): Promise<Row> {
  return t.database.db
    .selectFrom('users')
    .selectAll()
    .where(sql`lower(email)`, '=', email.toLowerCase())
    .executeTakeFirstOrThrow();
}

/** A fresh account with the demo password, for tests that change passwords or end sessions. */
async function makeUser(email: string, values: Row = {}): Promise<number> {
  const row = await t.database.db
    .insertInto('users')
    .values({
      email,
      first_name: 'Test',
      last_name: email.split('@')[0],
      role: 'CONSULTANT',
      language: 'de',
      is_active: true,
      additional_permissions: '[]',
      ...values,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await t.database.db
    .insertInto('user_credentials')
    .values({ user_id: row.id, password_hash: await hashPassword(DEMO_PASSWORD) })
    .execute();
  return Number(row.id);
}

const reset = (token: string, password = NEW_PASSWORD, confirm = password) =>
  anonymous({
    method: 'POST',
    url: '/api/account/reset-password',
    payload: { token, new_password: password, confirm_password: confirm },
  });

describe('registration', () => {
  const email = 'new.person@example.ch';
  const register = (payload: Row) =>
    anonymous({ method: 'POST', url: '/api/account/register', payload });
  const valid = {
    first_name: 'Nina',
    last_name: 'Neu',
    email,
    language: 'fr',
    password: 'Gute-Idee1',
    confirm_password: 'Gute-Idee1',
  };

  it('applies the password rule and refuses unknown fields (422 naming them)', async () => {
    const cases: Array<[Row, string]> = [
      [{ ...valid, password: 'Ab-1', confirm_password: 'Ab-1' }, 'password'],
      [{ ...valid, password: 'alllower-1', confirm_password: 'alllower-1' }, 'password'],
      [{ ...valid, password: 'ALLUPPER-1', confirm_password: 'ALLUPPER-1' }, 'password'],
      [{ ...valid, password: 'NoSymbol12', confirm_password: 'NoSymbol12' }, 'password'],
      [{ ...valid, confirm_password: 'Gute-Idee2' }, 'confirm_password'],
      [{ ...valid, role: 'ADMIN' }, 'role'],
      [{ ...valid, email: 'not-an-email' }, 'email'],
    ];
    for (const [payload, field] of cases) {
      const response = await register(payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(422);
      expect(Object.keys((response.json() as { errors: Row }).errors)).toContain(field);
    }
    const weak = await register({ ...valid, password: 'abc', confirm_password: 'abc' });
    expect((weak.json() as { errors: Record<string, string[]> }).errors.password).toEqual([
      'must have at least 8 characters',
      'must contain an uppercase letter',
      'must contain a symbol (a character other than letters, digits and _)',
    ]);
    expect(await t.database.db.selectFrom('users').where('email', '=', email).execute()).toEqual(
      [],
    );
  });

  it('creates an account that waits for approval, and tells the registrant and the admins', async () => {
    const response = await register(valid);
    expect(response.statusCode, response.body).toBe(202);
    const user = await userRow(email);
    expect(user).toMatchObject({
      role: 'EMPLOYEE',
      is_active: false,
      registration_status: 'pending',
      language: 'fr',
      additional_permissions: [],
    });
    const [received] = await mailsTo(email, 'registration-received');
    expect(received.subject).toBe('GS CRM : inscription reçue');
    expect(received.status).toBe('stored');
    const waiting = await mailsTo(ADMIN, 'registration-waiting');
    expect(waiting.at(-1)?.body).toContain(email);
    expect(await auditOf('register', Number(user.id))).toHaveLength(1);
    // The right password is told that approval is pending; a wrong one gets the usual answer.
    const pending = await login(email, valid.password);
    expect(pending.statusCode).toBe(403);
    expect((pending.json() as { message: string }).message).toMatch(/waiting for approval/);
    expect((await login(email, 'Wrong-Passw0rd')).statusCode).toBe(401);
  });

  it('answers a second registration of the address the same way, creating nothing', async () => {
    const before = await t.database.db.selectFrom('users').select('id').execute();
    const again = await register({ ...valid, first_name: 'Other' });
    expect(again.statusCode).toBe(202);
    const first = await register({ ...valid, email: 'someone.else@example.ch' });
    expect(again.json()).toEqual(first.json());
    const after = await t.database.db.selectFrom('users').select('id').execute();
    expect(after.length).toBe(before.length + 1);
    expect(await mailsTo(email, 'registration-exists')).toHaveLength(1);
  });

  it('is approved by a user manager with a role, then the account signs in', async () => {
    const user = await userRow(email);
    const url = `/api/users/${user.id}/approve`;
    expect((await call(CONSULTANT, 'POST', url, { role: 'CONSULTANT' })).statusCode).toBe(403);
    const approved = await call(ADMIN, 'POST', url, { role: 'CONSULTANT' });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(data(approved)).toMatchObject({
      role: 'CONSULTANT',
      is_active: true,
      registration_status: 'approved',
    });
    expect((await call(ADMIN, 'POST', url, { role: 'CONSULTANT' })).statusCode).toBe(409);
    const signedIn = await login(email, valid.password);
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect((signedIn.json() as { user: Row }).user.route_set).toBe('consultant');
    expect(await mailsTo(email, 'registration-approved')).toHaveLength(1);
    expect(await auditOf('registration.approved')).toHaveLength(1);
  });

  it('is declined: the account cannot sign in and is told nothing more than a wrong password', async () => {
    const other = 'someone.else@example.ch';
    const user = await userRow(other);
    const rejected = await call(ADMIN, 'POST', `/api/users/${user.id}/reject`);
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(data(rejected)).toMatchObject({ registration_status: 'rejected', is_active: false });
    const refused = await login(other, valid.password);
    expect(refused.statusCode).toBe(401);
    expect(await mailsTo(other, 'registration-rejected')).toHaveLength(1);
  });

  it('throttles registrations per address (429)', async () => {
    const from = '10.9.9.9';
    const statuses: number[] = [];
    for (let index = 0; index < 11; index++) {
      const response = await anonymous(
        {
          method: 'POST',
          url: '/api/account/register',
          payload: { ...valid, email: `flood${index}@example.ch` },
        },
        from,
      );
      statuses.push(response.statusCode);
    }
    expect(statuses.slice(0, 10).every((status) => status === 202)).toBe(true);
    expect(statuses[10]).toBe(429);
  });
});

describe('forgot and reset password', () => {
  const RESET = 'elodie.reset@example.ch';
  beforeAll(async () => {
    await makeUser(RESET, { first_name: 'Élodie', last_name: 'Favre', language: 'fr' });
  });
  const forgot = (email: string, remoteAddress?: string) =>
    anonymous(
      { method: 'POST', url: '/api/account/forgot-password', payload: { email } },
      remoteAddress,
    );

  it('answers the same for a known and an unknown address, and mails only the known one', async () => {
    const known = await forgot(RESET);
    const unknown = await forgot('nobody@example.ch');
    expect(known.statusCode).toBe(202);
    expect(unknown.statusCode).toBe(202);
    expect(known.json()).toEqual(unknown.json());
    expect(await mailsTo('nobody@example.ch')).toEqual([]);
    const [mail] = await mailsTo(RESET, 'password-reset');
    expect(mail.subject).toBe('GS CRM : réinitialiser votre mot de passe');
    expect(mail.body).toMatch(/^Bonjour Élodie Favre/);
    const token = tokenIn(mail);
    const stored = await t.database.db
      .selectFrom('password_tokens')
      .selectAll()
      .where('user_id', '=', Number((await userRow(RESET)).id))
      .execute();
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(token);
    const lifetime =
      new Date(String(stored[0].expires_at)).getTime() -
      new Date(String(stored[0].created_at)).getTime();
    expect(Math.abs(lifetime - 3_600_000)).toBeLessThan(60_000);
  });

  it('sets the new password with the token once; old sessions and the old password stop', async () => {
    const session = await t.login(RESET);
    const [mail] = (await mailsTo(RESET, 'password-reset')).slice(-1);
    const token = tokenIn(mail);
    const weak = await reset(token, 'weakpassword');
    expect(weak.statusCode).toBe(422);
    expect(Object.keys((weak.json() as { errors: Row }).errors)).toEqual(['new_password']);
    const mismatch = await reset(token, NEW_PASSWORD, `${NEW_PASSWORD}x`);
    expect(Object.keys((mismatch.json() as { errors: Row }).errors)).toEqual(['confirm_password']);
    // A refused password does not use up the token.
    const done = await reset(token);
    expect(done.statusCode, done.body).toBe(200);
    const twice = await reset(token, 'Another-Passw0rd');
    expect(twice.statusCode).toBe(422);
    expect(Object.keys((twice.json() as { errors: Row }).errors)).toEqual(['token']);
    expect((await withToken(session, 'GET', '/api/auth/me')).statusCode).toBe(401);
    expect((await login(RESET, DEMO_PASSWORD)).statusCode).toBe(401);
    expect((await login(RESET, NEW_PASSWORD)).statusCode).toBe(200);
    expect(await auditOf('password.reset', Number((await userRow(RESET)).id))).toHaveLength(1);
  });

  it('refuses an expired token, and an older token once a newer one was sent', async () => {
    await forgot(RESET);
    const older = tokenIn((await mailsTo(RESET, 'password-reset')).at(-1)!);
    await forgot(RESET);
    const newer = tokenIn((await mailsTo(RESET, 'password-reset')).at(-1)!);
    expect((await reset(older)).statusCode).toBe(422);
    await t.database.db
      .updateTable('password_tokens')
      .set({ expires_at: sql`now() - interval '1 second'` })
      .where('used_at', 'is', null)
      .execute();
    expect((await reset(newer)).statusCode).toBe(422);
    expect((await reset('not-a-token-at-all')).statusCode).toBe(422);
  });

  it('mails a disabled account nothing, and at most 5 reset mails per account an hour', async () => {
    const employee = 'employee@demo.gscrm.ch';
    await t.database.db
      .updateTable('users')
      .set({ is_active: false })
      .where('email', '=', employee)
      .execute();
    expect((await forgot(employee)).statusCode).toBe(202);
    expect(await mailsTo(employee, 'password-reset')).toEqual([]);
    await t.database.db
      .updateTable('users')
      .set({ is_active: true })
      .where('email', '=', employee)
      .execute();
    for (let index = 0; index < 7; index++) expect((await forgot(employee)).statusCode).toBe(202);
    expect(await mailsTo(employee, 'password-reset')).toHaveLength(5);
  });

  it('throttles reset requests per address (429)', async () => {
    const statuses: number[] = [];
    for (let index = 0; index < 21; index++) {
      statuses.push((await forgot(`x${index}@example.ch`, '10.8.8.8')).statusCode);
    }
    expect(statuses.slice(0, 20).every((status) => status === 202)).toBe(true);
    expect(statuses[20]).toBe(429);
  });
});

describe('password change (settings)', () => {
  const change = (token: string, payload: Row) =>
    withToken(token, 'POST', '/api/account/password', payload);

  it('checks the old password and the rule, then ends the other sessions only', async () => {
    const CHANGER = 'change.me@example.ch';
    await makeUser(CHANGER);
    const current = await t.login(CHANGER);
    const other = await t.login(CHANGER);
    const wrong = await change(current, {
      old_password: 'Not-The-0ld',
      new_password: NEW_PASSWORD,
      confirm_password: NEW_PASSWORD,
    });
    expect(wrong.statusCode).toBe(422);
    expect(Object.keys((wrong.json() as { errors: Row }).errors)).toEqual(['old_password']);
    const weak = await change(current, {
      old_password: DEMO_PASSWORD,
      new_password: 'short',
      confirm_password: 'short',
    });
    expect(Object.keys((weak.json() as { errors: Row }).errors)).toEqual(['new_password']);
    const mismatch = await change(current, {
      old_password: DEMO_PASSWORD,
      new_password: NEW_PASSWORD,
      confirm_password: 'Other-Passw0rd!',
    });
    expect(Object.keys((mismatch.json() as { errors: Row }).errors)).toEqual(['confirm_password']);
    const done = await change(current, {
      old_password: DEMO_PASSWORD,
      new_password: NEW_PASSWORD,
      confirm_password: NEW_PASSWORD,
    });
    expect(done.statusCode, done.body).toBe(200);
    expect((await withToken(current, 'GET', '/api/auth/me')).statusCode).toBe(200);
    expect((await withToken(other, 'GET', '/api/auth/me')).statusCode).toBe(401);
    expect((await login(CHANGER, NEW_PASSWORD)).statusCode).toBe(200);
    expect(await mailsTo(CHANGER, 'password-changed')).toHaveLength(1);
    const id = Number((await userRow(CHANGER)).id);
    expect(await auditOf('password.changed', id)).toHaveLength(1);
    expect(await auditOf('password.change.failed', id)).toHaveLength(1);
  });

  it('throttles failed attempts per user (429 after 10 an hour)', async () => {
    const token = await t.login('callcenter@demo.gscrm.ch');
    const statuses: number[] = [];
    for (let index = 0; index < 11; index++) {
      const response = await change(token, {
        old_password: `Wrong-${index}!x`,
        new_password: NEW_PASSWORD,
        confirm_password: NEW_PASSWORD,
      });
      statuses.push(response.statusCode);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(422));
    expect(statuses[10]).toBe(429);
  });
});

describe('settings', () => {
  it('answers the defaults, stores changes field by field and shows them in /me', async () => {
    const initial = await call(CONSULTANT, 'GET', '/api/account/settings');
    expect(data(initial)).toEqual({
      language: 'de',
      page_sizes: { clients: 25, reminders: 25, calendar: 25, users: 25, contracts: 25 },
      appointments_filter_by_region: false,
      leads_view: 'kanban',
      appointments_view: 'calendar',
      contracts_filter_by_work_location: false,
      notification_emails: false,
    });
    const changed = await call(CONSULTANT, 'PUT', '/api/account/settings', {
      language: 'it',
      page_sizes: { clients: 50, contracts: 100 },
      leads_view: 'list',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const more = await call(CONSULTANT, 'PUT', '/api/account/settings', {
      appointments_filter_by_region: true,
      appointments_view: 'list',
      contracts_filter_by_work_location: true,
      page_sizes: { reminders: 10 },
    });
    expect(data(more)).toEqual({
      language: 'it',
      page_sizes: { clients: 50, reminders: 10, calendar: 25, users: 25, contracts: 100 },
      appointments_filter_by_region: true,
      leads_view: 'list',
      appointments_view: 'list',
      contracts_filter_by_work_location: true,
      notification_emails: false,
    });
    const me = data<Row>(await call(CONSULTANT, 'GET', '/api/auth/me'));
    expect(me.language).toBe('it');
    expect((me.preferences as Row).page_sizes).toEqual(data<Row>(more).page_sizes);
    // Another user's settings are untouched.
    expect(data<Row>(await call(CONSULTANT2, 'GET', '/api/account/settings')).page_sizes).toEqual(
      data<Row>(initial).page_sizes,
    );
  });

  it('refuses values outside the choices and any other field (422 naming it)', async () => {
    for (const [payload, field] of [
      [{ page_sizes: { clients: 33 } }, 'page_sizes.clients'],
      [{ page_sizes: { leads: 10 } }, 'page_sizes.leads'],
      [{ leads_view: 'table' }, 'leads_view'],
      [{ language: 'es' }, 'language'],
      [{ role: 'ADMIN' }, 'role'],
      [{ additional_permissions: ['manage-users'] }, 'additional_permissions'],
      [{ is_active: true }, 'is_active'],
    ] as const) {
      const response = await call(CONSULTANT2, 'PUT', '/api/account/settings', payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(422);
      expect(Object.keys((response.json() as { errors: Row }).errors)).toContain(field);
    }
  });
});

describe('offer credentials', () => {
  const secret = 'Offerten-Geheimnis$42';

  // The demo gives every staff user the comparison stand-in's credentials: these start from none.
  beforeAll(async () => {
    const ids = await t.database.db
      .selectFrom('users')
      .select('id')
      .where('email', 'in', [CONSULTANT, CONSULTANT2])
      .execute();
    await t.database.db
      .deleteFrom('offer_credentials')
      .where(
        'user_id',
        'in',
        ids.map((row) => row.id),
      )
      .execute();
  });

  it('stores them encrypted and never answers the password', async () => {
    expect(data(await call(CONSULTANT, 'GET', '/api/account/offer-credentials'))).toEqual({
      offer_username: null,
      has_password: false,
      updated_at: null,
    });
    const saved = await call(CONSULTANT, 'PUT', '/api/account/offer-credentials', {
      offer_username: 'dmueller',
      offer_password: secret,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(data(saved)).toMatchObject({ offer_username: 'dmueller', has_password: true });
    expect(saved.body).not.toContain(secret);
    const id = Number((await userRow(CONSULTANT)).id);
    const row = await t.database.db
      .selectFrom('offer_credentials')
      .selectAll()
      .where('user_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(secret);
    expect(JSON.stringify(row)).not.toContain('dmueller');
    expect(String(row.password_encrypted)).toMatch(/^v1:[^:]+:[^:]+:[^:]+$/);
    expect(await readOfferCredentials(t.database.db, id)).toEqual({
      username: 'dmueller',
      password: secret,
    });
    // Bound to its user: the same ciphertext does not decrypt as another user's.
    const key = await offerKey(t.database.db);
    expect(() =>
      decrypt(key, String(row.password_encrypted), `offer-password:${id + 1}`),
    ).toThrow();
    const audits = await auditOf('offer-credentials.changed', id);
    expect(audits).toHaveLength(1);
    expect(JSON.stringify(audits)).not.toContain(secret);
  });

  it('keeps the password when it is left out, removes it with null, and is per user', async () => {
    const renamed = await call(CONSULTANT, 'PUT', '/api/account/offer-credentials', {
      offer_username: 'd.mueller',
    });
    expect(data(renamed)).toMatchObject({ offer_username: 'd.mueller', has_password: true });
    expect(data(await call(CONSULTANT2, 'GET', '/api/account/offer-credentials'))).toMatchObject({
      has_password: false,
    });
    const removed = await call(CONSULTANT, 'PUT', '/api/account/offer-credentials', {
      offer_password: null,
    });
    expect(data(removed)).toMatchObject({ offer_username: 'd.mueller', has_password: false });
    const tooLong = await call(CONSULTANT, 'PUT', '/api/account/offer-credentials', {
      offer_password: 'x'.repeat(201),
    });
    expect(tooLong.statusCode).toBe(422);
  });
});

describe('user administration', () => {
  it('mails new staff an invitation whose link sets the password (valid 72 hours)', async () => {
    const created = await call(ADMIN, 'POST', '/api/users', {
      first_name: 'Ivo',
      last_name: 'Inviter',
      email: 'ivo.inviter@example.ch',
      role: 'CONSULTANT',
      language: 'it',
    });
    expect(created.statusCode, created.body).toBe(201);
    const [mail] = await mailsTo('ivo.inviter@example.ch', 'invitation');
    expect(mail.subject).toBe('GS CRM: il suo accesso');
    const [token] = await t.database.db
      .selectFrom('password_tokens')
      .selectAll()
      .where('user_id', '=', data(created).id as number)
      .execute();
    expect(token.purpose).toBe('invitation');
    const hours =
      (new Date(String(token.expires_at)).getTime() -
        new Date(String(token.created_at)).getTime()) /
      3_600_000;
    expect(Math.round(hours)).toBe(72);
    expect((await login('ivo.inviter@example.ch', NEW_PASSWORD)).statusCode).toBe(401);
    expect((await reset(tokenIn(mail))).statusCode).toBe(200);
    expect((await login('ivo.inviter@example.ch', NEW_PASSWORD)).statusCode).toBe(200);
    expect(await auditOf('user.created')).not.toHaveLength(0);
  });

  it('revokes a disabled user’s sessions at once; enabling does not revive them', async () => {
    const id = await makeUser('disable.me@example.ch');
    const token = await t.login('disable.me@example.ch');
    expect((await call(ADMIN, 'PATCH', `/api/users/${id}`, { is_active: false })).statusCode).toBe(
      200,
    );
    const sessions = await t.database.db
      .selectFrom('sessions')
      .select('revoked_at')
      .where('user_id', '=', id)
      .execute();
    expect(sessions.every((session) => session.revoked_at !== null)).toBe(true);
    expect((await call(ADMIN, 'PATCH', `/api/users/${id}`, { is_active: true })).statusCode).toBe(
      200,
    );
    expect((await withToken(token, 'GET', '/api/auth/me')).statusCode).toBe(401);
    expect(await auditOf('user.disabled')).toHaveLength(1);
    expect(await auditOf('user.enabled')).toHaveLength(1);
  });

  it('ends an account’s sessions on request, and refuses sign-in outside its active dates', async () => {
    const email = 'employee@demo.gscrm.ch';
    const id = Number((await userRow(email)).id);
    const token = await t.login(email);
    const revoke = await call(ADMIN, 'POST', `/api/users/${id}/revoke-sessions`);
    expect(revoke.statusCode).toBe(200);
    expect((await withToken(token, 'GET', '/api/auth/me')).statusCode).toBe(401);
    const fresh = await t.login(email);
    const ended = await call(ADMIN, 'PATCH', `/api/users/${id}`, {
      date_from: '2020-01-01',
      date_to: '2021-12-31',
    });
    expect(ended.statusCode, ended.body).toBe(200);
    expect((await withToken(fresh, 'GET', '/api/auth/me')).statusCode).toBe(401);
    expect((await login(email, DEMO_PASSWORD)).statusCode).toBe(401);
    const backwards = await call(ADMIN, 'PATCH', `/api/users/${id}`, {
      date_from: '2020-01-01',
      date_to: '2019-12-31',
    });
    expect(backwards.statusCode).toBe(422);
    expect(Object.keys((backwards.json() as { errors: Row }).errors)).toEqual(['date_to']);
    await call(ADMIN, 'PATCH', `/api/users/${id}`, { date_from: null, date_to: null });
    expect((await login(email, DEMO_PASSWORD)).statusCode).toBe(200);
  });

  it('records permission changes in the audit log', async () => {
    const id = Number((await userRow('partner@demo.gscrm.ch')).id);
    const grant = await call(ADMIN, 'PATCH', `/api/users/${id}`, {
      role: 'BACKOFFICE',
      additional_permissions: ['manage-users'],
    });
    expect(grant.statusCode, grant.body).toBe(200);
    const [entry] = await auditOf('permissions.changed');
    expect(entry.resource).toBe('users');
    expect(entry.record_id).toBe(String(id));
    expect(entry.details).toEqual({
      before: { role: 'PARTNER', additional_permissions: [] },
      after: { role: 'BACKOFFICE', additional_permissions: ['manage-users'] },
    });
  });

  describe('a user manager without all rights (back office + manage-users)', () => {
    const manager = 'partner@demo.gscrm.ch'; // made BACKOFFICE + manage-users above
    const adminId = async () => Number((await userRow(ADMIN)).id);

    it('cannot give roles or permissions beyond its own', async () => {
      const base = { first_name: 'E', last_name: 'S', language: 'de' };
      const asAdmin = await call(manager, 'POST', '/api/users', {
        ...base,
        email: 'esc1@example.ch',
        role: 'ADMIN',
      });
      expect(asAdmin.statusCode).toBe(422);
      expect(Object.keys((asAdmin.json() as { errors: Row }).errors)).toEqual(['role']);
      const extra = await call(manager, 'POST', '/api/users', {
        ...base,
        email: 'esc2@example.ch',
        role: 'CONSULTANT',
        additional_permissions: ['manage-translation-keys'],
      });
      expect(extra.statusCode).toBe(422);
      expect(Object.keys((extra.json() as { errors: Row }).errors)).toEqual([
        'additional_permissions',
      ]);
      const fine = await call(manager, 'POST', '/api/users', {
        ...base,
        email: 'esc3@example.ch',
        role: 'CONSULTANT',
        additional_permissions: ['manage-companies'],
      });
      expect(fine.statusCode, fine.body).toBe(201);
    });

    it('cannot change, disable or delete an account with more rights, nor itself', async () => {
      const admin = await adminId();
      expect(
        (await call(manager, 'PATCH', `/api/users/${admin}`, { email: 'mine@example.ch' }))
          .statusCode,
      ).toBe(403);
      expect(
        (await call(manager, 'PATCH', `/api/users/${admin}`, { is_active: false })).statusCode,
      ).toBe(403);
      expect((await call(manager, 'DELETE', `/api/users/${admin}`)).statusCode).toBe(403);
      expect(
        (await call(manager, 'POST', `/api/users/${admin}/send-password-link`)).statusCode,
      ).toBe(403);
      expect((await userRow(ADMIN)).email).toBe(ADMIN);
      const self = Number((await userRow(manager)).id);
      for (const [payload, field] of [
        [{ role: 'ADMIN' }, 'role'],
        [
          { additional_permissions: ['manage-users', 'manage-commissions'] },
          'additional_permissions',
        ],
        [{ is_active: false }, 'is_active'],
      ] as const) {
        const response = await call(manager, 'PATCH', `/api/users/${self}`, payload);
        expect(response.statusCode, JSON.stringify(payload)).toBe(422);
        expect(Object.keys((response.json() as { errors: Row }).errors)).toContain(field);
      }
      expect((await call(manager, 'DELETE', `/api/users/${self}`)).statusCode).toBe(409);
      expect((await userRow(manager)).role).toBe('BACKOFFICE');
    });
  });

  it('does not let an admin lock itself out', async () => {
    const id = Number((await userRow(ADMIN)).id);
    expect((await call(ADMIN, 'PATCH', `/api/users/${id}`, { is_active: false })).statusCode).toBe(
      422,
    );
    expect(
      (await call(ADMIN, 'PATCH', `/api/users/${id}`, { role: 'CONSULTANT' })).statusCode,
    ).toBe(422);
    expect((await call(ADMIN, 'DELETE', `/api/users/${id}`)).statusCode).toBe(409);
    expect((await call(ADMIN, 'PATCH', `/api/users/${id}`, { title: 'Dr.' })).statusCode).toBe(200);
  });
});

describe('external users and sub-brokers', () => {
  let subBroker: number;
  beforeAll(async () => {
    const [first] = data<Row[]>(await call(ADMIN, 'GET', '/api/sub-brokers?sort=id&order=asc'));
    subBroker = Number(first.id);
  });

  it('creates the login row with the role PARTNER, keeps it in step, and removes it', async () => {
    const created = await call(ADMIN, 'POST', '/api/external-users', {
      first_name: 'Xaver',
      last_name: 'Extern',
      email: 'xaver.extern@example.ch',
      sub_broker_id: subBroker,
      language: 'de',
    });
    expect(created.statusCode, created.body).toBe(201);
    const record = data(created);
    const login1 = await userRow('xaver.extern@example.ch');
    expect(login1).toMatchObject({ role: 'PARTNER', is_active: true, additional_permissions: [] });
    expect(record.user_id).toBe(login1.id);
    expect(await mailsTo('xaver.extern@example.ch', 'invitation')).toHaveLength(1);
    // Not a staff account.
    const staff = data<Row[]>(await call(ADMIN, 'GET', '/api/users?search=xaver'));
    expect(staff).toEqual([]);
    expect((await call(ADMIN, 'GET', `/api/users/${login1.id}`)).statusCode).toBe(404);
    const renamed = await call(ADMIN, 'PATCH', `/api/external-users/${record.id}`, {
      email: 'x.extern@example.ch',
      last_name: 'Extern-Meier',
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(await userRow('x.extern@example.ch')).toMatchObject({
      id: login1.id,
      last_name: 'Extern-Meier',
    });
    const clash = await call(ADMIN, 'PATCH', `/api/external-users/${record.id}`, {
      email: CONSULTANT.toUpperCase(),
    });
    expect(clash.statusCode).toBe(422);
    expect(Object.keys((clash.json() as { errors: Row }).errors)).toEqual(['email']);
    expect((await call(ADMIN, 'DELETE', `/api/external-users/${record.id}`)).statusCode).toBe(200);
    expect(
      await t.database.db.selectFrom('users').where('id', '=', Number(login1.id)).execute(),
    ).toEqual([]);
  });

  it('refuses a sub-broker parent cycle and a rule ending before it starts', async () => {
    const child = data(
      await call(ADMIN, 'POST', '/api/sub-brokers', { name: 'Kind AG', parent_id: subBroker }),
    );
    const grandchild = data(
      await call(ADMIN, 'POST', '/api/sub-brokers', { name: 'Enkel AG', parent_id: child.id }),
    );
    // The root or the child below its own grandchild would close a loop.
    for (const target of [subBroker, child.id]) {
      const cycle = await call(ADMIN, 'PATCH', `/api/sub-brokers/${target}`, {
        parent_id: grandchild.id,
      });
      expect(cycle.statusCode).toBe(422);
      expect(Object.keys((cycle.json() as { errors: Row }).errors)).toEqual(['parent_id']);
    }
    const sideways = await call(ADMIN, 'POST', '/api/sub-brokers', { name: 'Neben AG' });
    expect(
      (
        await call(ADMIN, 'PATCH', `/api/sub-brokers/${grandchild.id}`, {
          parent_id: data(sideways).id,
        })
      ).statusCode,
    ).toBe(200);
    const self = await call(ADMIN, 'PATCH', `/api/sub-brokers/${child.id}`, {
      parent_id: child.id,
    });
    expect(self.statusCode).toBe(422);
    const rule = await call(ADMIN, 'POST', '/api/sub-broker-rules', {
      organization_id: child.id,
      date_from: '2026-01-01',
      date_to: '2025-12-31',
      percentage_payout: 30,
    });
    expect(rule.statusCode).toBe(422);
    expect(Object.keys((rule.json() as { errors: Row }).errors)).toEqual(['date_to']);
    expect((await call(BACKOFFICE, 'GET', '/api/sub-broker-rules')).statusCode).toBe(200);
    expect((await call(CONSULTANT, 'GET', '/api/sub-broker-rules')).statusCode).toBe(403);
  });
});

describe('mail', () => {
  it('serves the outbox to user managers only, newest first', async () => {
    const list = await call(ADMIN, 'GET', `/api/mail/outbox?to=${encodeURIComponent(ADMIN)}`);
    expect(list.statusCode).toBe(200);
    const answer = list.json() as { data: Row[]; meta: Row };
    expect(answer.meta.transport).toBe('outbox');
    expect(answer.data.length).toBeGreaterThan(0);
    expect(answer.data.every((mail) => mail.to_address === ADMIN)).toBe(true);
    const one = await call(ADMIN, 'GET', `/api/mail/outbox/${answer.data[0].id}`);
    expect(data(one)).toEqual(answer.data[0]);
    expect((await call(CONSULTANT, 'GET', '/api/mail/outbox')).statusCode).toBe(403);
    expect((await call(ADMIN, 'GET', '/api/mail/outbox/2000000000')).statusCode).toBe(404);
  });

  it('delivers queued mail through a transport, drops the body once sent, retries failures', async () => {
    const sent: Row[] = [];
    let failing = false;
    const mailer = new Mailer(t.database.db, {
      from: 'GS CRM <test@gscrm.ch>',
      transport: {
        async send(mail) {
          if (failing) throw new Error('SMTP down');
          sent.push(mail);
        },
      },
    });
    const id = await mailer.enqueue(t.database.db, {
      kind: 'password-changed',
      to: 'queue@example.ch',
      subject: 'S',
      body: 'B',
    });
    expect(await mailer.deliver()).toBe(1);
    expect(sent).toEqual([
      { from: 'GS CRM <test@gscrm.ch>', to: 'queue@example.ch', subject: 'S', text: 'B' },
    ]);
    const row = await t.database.db
      .selectFrom('outbox')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'sent', body: null, attempts: 1 });
    failing = true;
    const second = await mailer.enqueue(t.database.db, {
      kind: 'password-changed',
      to: 'queue@example.ch',
      subject: 'S2',
      body: 'B2',
    });
    for (let attempt = 1; attempt <= 5; attempt++) expect(await mailer.deliver()).toBe(0);
    const failed = await t.database.db
      .selectFrom('outbox')
      .selectAll()
      .where('id', '=', second)
      .executeTakeFirstOrThrow();
    expect(failed).toMatchObject({ status: 'failed', attempts: 5, error: 'SMTP down', body: 'B2' });
    // Stored (demo) mails are never picked up for delivery.
    const stored = await t.database.db
      .selectFrom('outbox')
      .select(sql<number>`count(*)`.as('n'))
      .where('status', '=', 'stored')
      .executeTakeFirstOrThrow();
    expect(Number(stored.n)).toBeGreaterThan(0);
  });
});

describe('SMTP transport (nodemailer)', () => {
  it('is built from the environment only when SMTP is configured, and reports a refused server', async () => {
    expect(await transportFromEnv({})).toBeUndefined();
    expect(
      await transportFromEnv({ SMTP_HOST: 'localhost', MAIL_TRANSPORT: 'outbox' }),
    ).toBeUndefined();
    const transport = await transportFromEnv({ SMTP_HOST: '127.0.0.1', SMTP_PORT: '1' });
    expect(transport).toBeDefined();
    await expect(
      transport!.send({ from: 'a@example.ch', to: 'b@example.ch', subject: 'S', text: 'T' }),
    ).rejects.toThrow(/ECONNREFUSED/);
  });
});

describe('audit log', () => {
  it('records sign-in, failures and sign-out with the address', async () => {
    const email = 'consultant@demo.gscrm.ch';
    const id = Number((await userRow(email)).id);
    const before = (await auditOf('login', id)).length;
    await login(email, 'Wrong-Passw0rd!');
    const token = (await login(email, DEMO_PASSWORD)).json() as { token: string };
    await withToken(token.token, 'POST', '/api/auth/logout');
    expect((await auditOf('login', id)).length).toBe(before + 1);
    const [failed] = (await auditOf('login.failed', id)).slice(-1);
    expect(failed.ip).toMatch(/^10\.0\.0\.\d+$/);
    expect((await auditOf('logout', id)).length).toBeGreaterThan(0);
    // No password ever reaches the log.
    const log = JSON.stringify(await t.database.db.selectFrom('audit_log').selectAll().execute());
    for (const secret of [DEMO_PASSWORD, 'Wrong-Passw0rd!', NEW_PASSWORD]) {
      expect(log).not.toContain(secret);
    }
  });
});
