/**
 * What a session token stands for is read again as soon as it may have changed, although the
 * embedded engine keeps recent principals in memory (server/auth/sessions.ts PrincipalCache,
 * emptied by the notification of migration 0019 before the changing request is answered): each
 * token here is used first (so its principal is kept), then changed, then used again at once.
 * On PostgreSQL nothing is kept, and the same holds.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, createTestApp, ENGINE, type TestApp } from './harness.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const me = (token: string) =>
  t.app.inject({
    method: 'GET',
    url: '/api/auth/me',
    headers: { authorization: `Bearer ${token}` },
  });
const roleOf = async (token: string) => {
  const response = await me(token);
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as { data: { role: string; language: string | null } }).data;
};
const userId = async (email: string) =>
  Number(
    (
      await t.database.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', email)
        .executeTakeFirstOrThrow()
    ).id,
  );
const patchUser = async (id: number, body: Record<string, unknown>) => {
  const response = await t.request({
    method: 'PATCH',
    url: `/api/users/${id}`,
    payload: body,
    as: ADMIN,
  });
  expect(response.statusCode, response.body).toBe(200);
};

describe('a session’s principal after a change', () => {
  it('has the new role on the very next request', async () => {
    const email = 'employee@demo.gscrm.ch';
    const token = await t.login(email);
    expect((await roleOf(token)).role).toBe('EMPLOYEE');
    expect((await roleOf(token)).role).toBe('EMPLOYEE');
    await patchUser(await userId(email), { role: 'BACKOFFICE' });
    expect((await roleOf(token)).role).toBe('BACKOFFICE');
  });

  it('ends with the account’s active dates, its deactivation and a logout, at once', async () => {
    const ended = await t.login('partner@demo.gscrm.ch');
    expect((await me(ended)).statusCode).toBe(200);
    await patchUser(await userId('partner@demo.gscrm.ch'), {
      date_from: '2020-01-01',
      date_to: '2021-12-31',
    });
    expect((await me(ended)).statusCode).toBe(401);

    const disabled = await t.login('callcenter@demo.gscrm.ch');
    expect((await me(disabled)).statusCode).toBe(200);
    await patchUser(await userId('callcenter@demo.gscrm.ch'), { is_active: false });
    expect((await me(disabled)).statusCode).toBe(401);

    const left = await t.login('backoffice@demo.gscrm.ch');
    expect((await me(left)).statusCode).toBe(200);
    const logout = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { authorization: `Bearer ${left}` },
    });
    expect(logout.statusCode).toBe(204);
    expect((await me(left)).statusCode).toBe(401);
  });

  it('is kept on the embedded engine only while nothing notifies a change', async () => {
    const email = 'consultant2@demo.gscrm.ch';
    const token = await t.login(email);
    expect((await roleOf(token)).language).not.toBe('it');
    // A change the notification does not announce (its trigger off): the embedded engine still
    // answers what it kept; PostgreSQL reads it again on every request.
    await t.database.exclusive((exec) =>
      exec(`alter table users disable trigger users_principals_changed;
        update users set language = 'it' where email = '${email}';
        alter table users enable trigger users_principals_changed`),
    );
    const unannounced = (await roleOf(token)).language;
    if (ENGINE === 'pglite') expect(unannounced).not.toBe('it');
    else expect(unannounced).toBe('it');
    // Any announced change empties what was kept.
    await sql`update users set last_name = last_name where email = ${email}`.execute(t.database.db);
    expect((await roleOf(token)).language).toBe('it');
  });
});
