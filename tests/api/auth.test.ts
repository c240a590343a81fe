/**
 * Sign-in, sessions (tokens, logout, idle and absolute expiry, disabled users), the login
 * throttle, and the access hook every /api route goes through.
 */
import { createHash } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { loadResourceModels } from '../../server/schemas.ts';
import {
  ADMIN,
  CONSULTANT,
  createTestApp,
  DEMO_PASSWORD,
  ENGINE,
  type TestApp,
  type TestClient,
} from './harness.ts';

const BACKOFFICE = 'backoffice@demo.gscrm.ch';
const CALLCENTER = 'callcenter@demo.gscrm.ch';
const CONSULTANT2 = 'consultant2@demo.gscrm.ch';
const EMPLOYEE = 'employee@demo.gscrm.ch';
const PARTNER = 'partner@demo.gscrm.ch';
const BAD_LOGIN = 'Email or password is not correct.';

interface LoginAnswer {
  token: string;
  role: string;
  user: {
    id: number;
    email: string;
    first_name: string;
    last_name: string;
    role: string;
    language: string | null;
    permissions: string[];
    route_set: string | null;
  };
}
type Row = Record<string, unknown>;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const postLogin = (client: TestClient, email: string, password: string) =>
  client.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });

const withToken = (token: string, url = '/api/auth/me', method: 'GET' | 'POST' = 'GET') =>
  t.app.inject({ method, url, headers: { authorization: `Bearer ${token}` } });

function expect401(response: LightMyRequestResponse, message?: string): void {
  expect(response.statusCode, response.body).toBe(401);
  const answer = response.json() as { message: string };
  if (message) expect(answer.message).toBe(message);
  else expect(answer.message).toEqual(expect.any(String));
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

async function sessionOf(token: string): Promise<Row> {
  const row = await t.database.db
    .selectFrom('sessions')
    .selectAll()
    .where('token_hash', '=', sha256(token))
    .executeTakeFirst();
  if (!row) throw new Error('no session row for the token');
  return row as Row;
}

async function userId(email: string): Promise<number> {
  const row = await t.database.db
    .selectFrom('users')
    .select('id')
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

const setActive = (email: string, isActive: boolean) =>
  userId(email).then((id) =>
    t.request({
      method: 'PATCH',
      url: `/api/users/${id}`,
      payload: { is_active: isActive },
      as: ADMIN,
    }),
  );

describe('POST /api/auth/login', () => {
  it('answers a token, the role and the user', async () => {
    const response = await postLogin(t, ADMIN, DEMO_PASSWORD);
    expect(response.statusCode, response.body).toBe(200);
    const answer = response.json() as LoginAnswer;
    expect(answer.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(answer.role).toBe('ADMIN');
    expect(answer.user).toMatchObject({
      email: ADMIN,
      first_name: 'Andrea',
      last_name: 'Meier',
      role: 'ADMIN',
      language: 'de',
      route_set: 'admin',
    });
    expect(answer.user.permissions).toContain('manage-users');
    expect(response.body).not.toMatch(/password|hash/i);
    expect((await withToken(answer.token)).statusCode).toBe(200);
  });

  it('stores only a hash of the token, with the client and the absolute expiry', async () => {
    const before = Date.now();
    const token = await t.login(CALLCENTER);
    const session = await sessionOf(token);
    expect(JSON.stringify(session)).not.toContain(token);
    expect(session.user_id).toBe(await userId(CALLCENTER));
    expect(session.revoked_at).toBeNull();
    expect(session.ip).toBe('127.0.0.1');
    const expires = new Date(String(session.expires_at)).getTime();
    expect(expires).toBeGreaterThanOrEqual(before + 720 * 60_000 - 5_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 720 * 60_000 + 5_000);
  });

  it('accepts the email in any case and with spaces around it', async () => {
    const response = await postLogin(t, '  Admin@DEMO.gscrm.ch ', DEMO_PASSWORD);
    expect(response.statusCode, response.body).toBe(200);
    expect((response.json() as LoginAnswer).user.email).toBe(ADMIN);
  });

  it('gives a wrong password and an unknown email the same 401', async () => {
    const wrong = await postLogin(t, ADMIN, 'not-the-password');
    const unknown = await postLogin(t, 'nobody@demo.gscrm.ch', DEMO_PASSWORD);
    expect401(wrong, BAD_LOGIN);
    expect401(unknown, BAD_LOGIN);
    expect(unknown.body).toBe(wrong.body);
    expect(wrong.body).not.toContain('token');
  });

  it('refuses a user without a password (created through the API) with the same 401', async () => {
    const created = await t.request({
      method: 'POST',
      url: '/api/users',
      payload: {
        first_name: 'Ohne',
        last_name: 'Passwort',
        email: 'no-password@demo.gscrm.ch',
        role: 'ADMIN',
      },
      as: ADMIN,
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.body).not.toMatch(/password_hash/);
    expect401(await postLogin(t, 'no-password@demo.gscrm.ch', DEMO_PASSWORD), BAD_LOGIN);
  });

  it('validates the body (422 naming the field)', async () => {
    const missing = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: ADMIN },
    });
    expect(missing.statusCode).toBe(422);
    expect(Object.keys((missing.json() as { errors: Row }).errors)).toEqual(['password']);
    const extra = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: ADMIN, password: DEMO_PASSWORD, role: 'ADMIN' },
    });
    expect(extra.statusCode).toBe(422);
    expect(Object.keys((extra.json() as { errors: Row }).errors)).toEqual(['role']);
  });

  it('records attempts and audit events', async () => {
    await postLogin(t, BACKOFFICE, 'wrong password');
    const token = await t.login(BACKOFFICE);
    expect(token).toEqual(expect.any(String));
    const attempts = await t.database.db
      .selectFrom('login_attempts')
      .select(['success', 'ip'])
      .where('email', '=', BACKOFFICE)
      .orderBy('id')
      .execute();
    expect(attempts.map((row) => row.success)).toEqual([false, true]);
    const events = await t.database.db
      .selectFrom('audit_log')
      .select(['event', 'user_id'])
      .where('user_id', '=', await userId(BACKOFFICE))
      .orderBy('id')
      .execute();
    expect(events.map((row) => row.event)).toEqual(['login.failed', 'login']);
  });
});

describe('tokens', () => {
  it('refuses a request without a token (401)', async () => {
    expect401(await t.app.inject({ method: 'GET', url: '/api/auth/me' }), 'Please sign in.');
    expect401(await t.app.inject({ method: 'GET', url: '/api/companies' }), 'Please sign in.');
    const basic = await t.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: {
        authorization: `Basic ${Buffer.from(`${ADMIN}:${DEMO_PASSWORD}`).toString('base64')}`,
      },
    });
    expect401(basic, 'Please sign in.');
  });

  it('refuses a garbage token (401)', async () => {
    for (const token of ['garbage', 'x'.repeat(43), "' or 1=1 --", sha256('x')]) {
      expect401(await withToken(token), 'Your session has expired. Please sign in again.');
    }
  });

  it('GET /api/auth/me answers the signed-in user', async () => {
    const token = await t.login(CONSULTANT);
    const response = await withToken(token);
    expect(response.statusCode).toBe(200);
    expect((response.json() as { data: LoginAnswer['user'] }).data).toEqual({
      id: await userId(CONSULTANT),
      email: CONSULTANT,
      first_name: 'Daniel',
      last_name: 'Müller',
      role: 'CONSULTANT',
      language: 'de',
      permissions: [],
      route_set: 'consultant',
      sub_broker_id: null,
      // The reports the account may run (users.reports; a consultant none).
      reports: [],
      preferences: {
        page_sizes: { clients: 25, reminders: 25, calendar: 25, users: 25, contracts: 25 },
        appointments_filter_by_region: false,
        leads_view: 'kanban',
        appointments_view: 'calendar',
        contracts_filter_by_work_location: false,
        notification_emails: false,
      },
    });
  });

  it('logout revokes the token (then 401), and only that token', async () => {
    const token = await t.login(PARTNER);
    const other = await t.login(PARTNER);
    const logout = await withToken(token, '/api/auth/logout', 'POST');
    expect(logout.statusCode, logout.body).toBe(204);
    expect((await sessionOf(token)).revoked_at).not.toBeNull();
    expect401(await withToken(token));
    expect401(await withToken(token, '/api/auth/logout', 'POST'));
    expect((await withToken(other)).statusCode).toBe(200);
    expect401(await t.app.inject({ method: 'POST', url: '/api/auth/logout' }), 'Please sign in.');
  });

  it('refuses a token revoked in the database', async () => {
    const token = await t.login(PARTNER);
    expect((await withToken(token)).statusCode).toBe(200);
    await t.database.db
      .updateTable('sessions')
      .set({ revoked_at: sql`now()` })
      .where('token_hash', '=', sha256(token))
      .execute();
    expect401(await withToken(token));
  });

  it('refuses a disabled user at once, with its existing token, and lets it in again when enabled', async () => {
    const token = await t.login(CONSULTANT2);
    expect((await withToken(token)).statusCode).toBe(200);
    const disabled = await setActive(CONSULTANT2, false);
    expect(disabled.statusCode, disabled.body).toBe(200);
    expect401(await withToken(token));
    expect401(await withToken(token, '/api/companies'));
    expect401(await postLogin(t, CONSULTANT2, DEMO_PASSWORD), BAD_LOGIN);
    expect((await setActive(CONSULTANT2, true)).statusCode).toBe(200);
    const again = await postLogin(t, CONSULTANT2, DEMO_PASSWORD);
    expect(again.statusCode).toBe(200);
  });

  it('applies changed permissions to existing tokens at once', async () => {
    const token = await t.login(EMPLOYEE);
    const post = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/companies',
        payload: { name_de: 'Neue Versicherung' },
        headers: { authorization: `Bearer ${token}` },
      });
    expect((await post()).statusCode).toBe(403);
    const id = await userId(EMPLOYEE);
    const grant = await t.request({
      method: 'PATCH',
      url: `/api/users/${id}`,
      payload: { additional_permissions: ['manage-companies'] },
      as: ADMIN,
    });
    expect(grant.statusCode, grant.body).toBe(200);
    expect((await post()).statusCode).toBe(201);
    const me = (await withToken(token)).json() as { data: LoginAnswer['user'] };
    expect(me.data.permissions).toEqual(['manage-companies']);
    expect((await withToken(token, '/api/mail/outbox')).statusCode).toBe(403);
    await t.request({
      method: 'PATCH',
      url: `/api/users/${id}`,
      payload: { additional_permissions: [] },
      as: ADMIN,
    });
    expect((await post()).statusCode).toBe(403);
  });
});

describe('session expiry', () => {
  const minutesAgo = (minutes: number) => sql<Date>`now() - make_interval(mins => ${minutes})`;

  it('expires a session idle for longer than the policy (default 240 minutes)', async () => {
    const token = await t.login(CALLCENTER);
    await t.database.db
      .updateTable('sessions')
      .set({ last_seen_at: minutesAgo(241) })
      .where('token_hash', '=', sha256(token))
      .execute();
    expect401(await withToken(token), 'Your session has expired. Please sign in again.');
  });

  it('keeps a session used within the idle time, and records its use', async () => {
    const token = await t.login(CALLCENTER);
    await t.database.db
      .updateTable('sessions')
      .set({ last_seen_at: minutesAgo(200) })
      .where('token_hash', '=', sha256(token))
      .execute();
    const before = Date.now();
    expect((await withToken(token)).statusCode).toBe(200);
    const seen = new Date(String((await sessionOf(token)).last_seen_at)).getTime();
    expect(seen).toBeGreaterThan(before - 60_000);
  });

  it('expires a session after its absolute lifetime, even when in use', async () => {
    const token = await t.login(CALLCENTER);
    await t.database.db
      .updateTable('sessions')
      .set({ expires_at: minutesAgo(1) })
      .where('token_hash', '=', sha256(token))
      .execute();
    expect401(await withToken(token));
  });

  it('follows the configured policy: idleMinutes 0 ends a session at once', async () => {
    const strict = await t.variant({ sessionPolicy: { idleMinutes: 0, absoluteMinutes: 720 } });
    const token = await strict.login(CALLCENTER);
    expect401(
      await strict.app.inject({
        method: 'GET',
        url: '/api/auth/me',
        headers: { authorization: `Bearer ${token}` },
      }),
    );
  });

  it('follows the configured policy: absoluteMinutes 0 ends a session at once', async () => {
    const strict = await t.variant({ sessionPolicy: { idleMinutes: 240, absoluteMinutes: 0 } });
    const token = await strict.login(CALLCENTER);
    expect401(
      await strict.app.inject({
        method: 'GET',
        url: '/api/auth/me',
        headers: { authorization: `Bearer ${token}` },
      }),
    );
  });

  it('follows the configured policy: a short absolute lifetime sets expires_at', async () => {
    const short = await t.variant({ sessionPolicy: { idleMinutes: 30, absoluteMinutes: 60 } });
    const token = await short.login(CALLCENTER);
    const headers = { authorization: `Bearer ${token}` };
    expect(
      (await short.app.inject({ method: 'GET', url: '/api/auth/me', headers })).statusCode,
    ).toBe(200);
    const expires = new Date(String((await sessionOf(token)).expires_at)).getTime();
    expect(Math.abs(expires - (Date.now() + 60 * 60_000))).toBeLessThan(10_000);
    await t.database.db
      .updateTable('sessions')
      .set({ last_seen_at: minutesAgo(31) })
      .where('token_hash', '=', sha256(token))
      .execute();
    expect401(await short.app.inject({ method: 'GET', url: '/api/auth/me', headers }));
    // The same session is still within the default policy of the main app.
    expect((await withToken(token)).statusCode).toBe(200);
  });
});

describe('login throttle', () => {
  const attemptsFrom = async (ip: string) => {
    const row = await t.database.db
      .selectFrom('login_attempts')
      .select(sql<number>`count(*)::int`.as('count'))
      .where('ip', '=', ip)
      .where('success', '=', false)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  };

  it('answers 429 after the attempts allowed per account, even with the right password', async () => {
    const throttled = await t.variant({ throttle: { perAccount: 3, perAddress: 10_000 } });
    const account = 'throttled-nobody@demo.gscrm.ch';
    for (let attempt = 0; attempt < 3; attempt++)
      expect401(await postLogin(throttled, account, 'guess'), BAD_LOGIN);
    const blocked = await postLogin(throttled, account, 'guess');
    expect(blocked.statusCode, blocked.body).toBe(429);
    expect((blocked.json() as { message: string }).message).toMatch(/too many/i);

    const known = 'employee@demo.gscrm.ch';
    const used = await t.database.db
      .selectFrom('login_attempts')
      .select(sql<number>`count(*)::int`.as('count'))
      .where('email', '=', known)
      .where('success', '=', false)
      .executeTakeFirstOrThrow();
    for (let attempt = Number(used.count); attempt < 3; attempt++)
      await postLogin(throttled, known, 'wrong');
    expect((await postLogin(throttled, known, DEMO_PASSWORD)).statusCode).toBe(429);
    // Other accounts from the same address are not affected.
    expect401(await postLogin(throttled, 'fresh-nobody@demo.gscrm.ch', 'guess'), BAD_LOGIN);
    const counts = await t.database.db
      .selectFrom('login_attempts')
      .select(['email', sql<number>`count(*)::int`.as('count')])
      .where('success', '=', false)
      .groupBy('email')
      .execute();
    const spare = [CONSULTANT, CONSULTANT2, PARTNER, ADMIN].find(
      (email) => Number(counts.find((row) => row.email === email)?.count ?? 0) < 3,
    );
    expect(spare, 'a demo account with fewer than 3 attempts').toBeDefined();
    expect((await postLogin(throttled, spare ?? '', DEMO_PASSWORD)).statusCode).toBe(200);
    const events = await t.database.db
      .selectFrom('audit_log')
      .select('event')
      .where('event', '=', 'login.throttled')
      .execute();
    expect(events.length).toBeGreaterThanOrEqual(2);
  });

  it('counts failed attempts only: successful sign-ins never lock an account', async () => {
    const throttled = await t.variant({ throttle: { perAccount: 2, perAddress: 10_000 } });
    for (let attempt = 0; attempt < 4; attempt++) {
      expect((await postLogin(throttled, PARTNER, DEMO_PASSWORD)).statusCode).toBe(200);
    }
  });

  it('answers 429 after the attempts allowed per address, for any account', async () => {
    const used = await attemptsFrom('127.0.0.1');
    // Beyond its failures an address is delayed, not locked (issue 10: server/auth/throttle.ts); a
    // first delay of a minute is longer than the server waits out itself, so it answers 429.
    const throttled = await t.variant({
      throttle: { perAccount: 10_000, perAddress: used + 1, delay: { baseMs: 60_000 } },
    });
    expect((await postLogin(throttled, ADMIN, DEMO_PASSWORD)).statusCode).toBe(200);
    expect401(await postLogin(throttled, 'someone@demo.gscrm.ch', 'guess'));
    expect((await postLogin(throttled, ADMIN, DEMO_PASSWORD)).statusCode).toBe(429);
    expect((await postLogin(throttled, 'other@demo.gscrm.ch', 'guess')).statusCode).toBe(429);
    // The default limits of the main app still let this address in.
    expect((await postLogin(t, ADMIN, DEMO_PASSWORD)).statusCode).toBe(200);
  });
});

describe('access hook', () => {
  it('lets a consultant read companies but not create them, and of the users only itself', async () => {
    expect(
      (await t.request({ method: 'GET', url: '/api/companies', as: CONSULTANT })).statusCode,
    ).toBe(200);
    const create = await t.request({
      method: 'POST',
      url: '/api/companies',
      payload: { name_de: 'Nope AG' },
      as: CONSULTANT,
    });
    expect(create.statusCode).toBe(403);
    expect((create.json() as { message: string }).message).toBe(
      'You do not have permission to do this.',
    );
    const users = await t.request({ method: 'GET', url: '/api/users', as: CONSULTANT });
    expect(users.statusCode).toBe(200);
    expect((users.json() as { data: Row[] }).data.map((row) => row.email)).toEqual([CONSULTANT]);
    // Another user's record is not there for a consultant (404, as for an unknown id).
    expect(
      (await t.request({ method: 'GET', url: `/api/users/${await userId(ADMIN)}`, as: CONSULTANT }))
        .statusCode,
    ).toBe(404);
    expect(
      (
        await t.request({
          method: 'PATCH',
          url: `/api/users/${await userId(CONSULTANT)}`,
          payload: { role: 'ADMIN' },
          as: CONSULTANT,
        })
      ).statusCode,
    ).toBe(403);
    const companies = await t.request({
      method: 'GET',
      url: '/api/companies?per_page=500',
      as: ADMIN,
    });
    expect((companies.json() as { data: Row[] }).data.map((row) => row.name_de)).not.toContain(
      'Nope AG',
    );
  });

  it('lets back office manage companies but not users', async () => {
    const create = await t.request({
      method: 'POST',
      url: '/api/companies',
      payload: { name_de: 'Backoffice AG' },
      as: BACKOFFICE,
    });
    expect(create.statusCode, create.body).toBe(201);
    // Back office reads the staff (to assign customers) but does not manage users.
    expect((await t.request({ method: 'GET', url: '/api/users', as: BACKOFFICE })).statusCode).toBe(
      200,
    );
    const createUser = await t.request({
      method: 'POST',
      url: '/api/users',
      payload: { first_name: 'B', last_name: 'O', email: 'bo@example.ch', role: 'EMPLOYEE' },
      as: BACKOFFICE,
    });
    expect(createUser.statusCode).toBe(403);
    const patch = await t.request({
      method: 'PATCH',
      url: `/api/users/${await userId(BACKOFFICE)}`,
      payload: { additional_permissions: ['manage-users'] },
      as: BACKOFFICE,
    });
    expect(patch.statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: '/api/users', as: ADMIN })).statusCode).toBe(200);
  });

  it('checks access before validating the body', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/api/companies',
      payload: { bogus: true },
      as: CONSULTANT,
    });
    expect(response.statusCode).toBe(403);
    expect401(
      await t.app.inject({
        method: 'POST',
        url: '/api/companies',
        payload: '{bad',
        headers: { 'content-type': 'application/json' },
      }),
    );
  });

  it('serves GET /api/health to anyone', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', database: ENGINE });
  });

  it('protects every documented /api route except those declared public', async () => {
    await t.app.ready();
    const document = t.app.swagger() as { paths: Record<string, Record<string, unknown>> };
    const routes = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map(
        (method) => [method.toUpperCase(), path.replace(/\{[^}]+\}/g, '1')] as const,
      ),
    );
    expect(routes.length).toBeGreaterThan(6 * 6);
    const open: string[] = [];
    for (const [method, url] of routes) {
      const response = await t.app.inject({
        method: method as 'GET',
        url,
        payload: method === 'GET' || method === 'DELETE' ? undefined : {},
      });
      if (response.statusCode !== 401) open.push(`${method} ${url} ${response.statusCode}`);
    }
    const declaredPublic = t.app.routeTable
      .filter((route) => route.access === 'public' && route.method !== 'HEAD')
      .map((route) => `${route.method} ${route.url.replace(/:[A-Za-z_]+/g, '1')}`);
    expect(open.map((line) => line.split(' ').slice(0, 2).join(' ')).sort()).toEqual(
      [...new Set(declaredPublic)].sort(),
    );
    // The public routes of this app, named so that a route made public by mistake shows here.
    expect(declaredPublic).toEqual(
      expect.arrayContaining([
        'GET /api/health',
        'POST /api/auth/login',
        'POST /api/account/register',
        'POST /api/account/forgot-password',
        'POST /api/account/reset-password',
      ]),
    );
  });

  it('refuses to start with an /api route that declares no config.access', async () => {
    const app = await buildApp({ database: t.database, models: loadResourceModels() });
    try {
      expect(() => app.get('/api/unprotected', async () => ({ secret: true }))).toThrow(
        /declares no config\.access/,
      );
      expect(() =>
        app.post('/api/protected', { config: { access: 'manage-users' } }, async () => ({
          ok: true,
        })),
      ).not.toThrow();
      expect((await app.inject({ method: 'POST', url: '/api/protected' })).statusCode).toBe(401);
      const token = await t.login(ADMIN);
      const allowed = await app.inject({
        method: 'POST',
        url: '/api/protected',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(allowed.statusCode).toBe(200);
      const consultant = await t.login(CONSULTANT);
      const refused = await app.inject({
        method: 'POST',
        url: '/api/protected',
        headers: { authorization: `Bearer ${consultant}` },
      });
      expect(refused.statusCode).toBe(403);
    } finally {
      await app.close();
    }
  });
});
