/**
 * Guessing ids (IDOR) between the two demo consultants, an external user and the roles without
 * customer data: a record outside one's scope answers 404 on every route (as an unknown id does),
 * never shows up in lists, searches or filters, cannot be referred to, and a write cannot hand a
 * record to someone else or raise one's own rights.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_EXTERNAL_USER } from '../../server/demo/identity.ts';
import { ADMIN, CONSULTANT, createTestApp, type TestApp } from './harness.ts';

const CONSULTANT2 = 'consultant2@demo.gscrm.ch';
const EXTERNAL = DEMO_EXTERNAL_USER.email;
const EMPLOYEE = 'employee@demo.gscrm.ch';
const PARTNER = 'partner@demo.gscrm.ch';
const CALLCENTER = 'callcenter@demo.gscrm.ch';

type Row = Record<string, unknown>;
let t: TestApp;
const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp();
  const users = await t.database.db.selectFrom('users').select(['id', 'email']).execute();
  for (const user of users) ids[String(user.email)] = Number(user.id);
});
afterAll(async () => {
  await t?.close();
});

const call = (as: string, method: string, url: string, payload?: unknown) =>
  t.request({ method: method as 'GET', url, payload: payload as never, as });
const data = <T = Row>(response: LightMyRequestResponse) => (response.json() as { data: T }).data;

async function customersOf(email: string): Promise<Row[]> {
  const response = await call(
    ADMIN,
    'GET',
    `/api/customers?assigned_to=${ids[email]}&per_page=500`,
  );
  expect(response.statusCode, response.body).toBe(200);
  return data<Row[]>(response);
}

async function newCustomer(as: string, extra: Row = {}): Promise<Row> {
  const response = await call(as, 'POST', '/api/customers', {
    first_name: 'Idor',
    last_name: `Probe ${Math.random().toString(36).slice(2, 8)}`,
    ...extra,
  });
  expect(response.statusCode, response.body).toBe(201);
  return data(response);
}

describe('between the two consultants', () => {
  it('answers 404 for every route on the other consultant’s customer', async () => {
    const [theirs] = await customersOf(CONSULTANT2);
    expect(theirs).toBeDefined();
    const url = `/api/customers/${theirs.id}`;
    expect((await call(CONSULTANT2, 'GET', url)).statusCode).toBe(200);
    for (const [method, payload] of [
      ['GET', undefined],
      ['PATCH', { notes: 'taken over' }],
      ['PUT', { first_name: 'X', last_name: 'Y' }],
      ['DELETE', undefined],
    ] as const) {
      const response = await call(CONSULTANT, method, url, payload);
      expect(response.statusCode, `${method} ${response.body}`).toBe(404);
      // The same answer as for an id that does not exist.
      const unknown = await call(CONSULTANT, method, '/api/customers/2000000000', payload);
      expect(response.json()).toEqual(unknown.json());
    }
    const after = await call(ADMIN, 'GET', url);
    expect(data(after)).toEqual(theirs);
  });

  it('never lists the other consultant’s customers: not by id, filter nor search', async () => {
    const theirs = await customersOf(CONSULTANT2);
    const mine = await customersOf(CONSULTANT);
    const list = await call(CONSULTANT, 'GET', '/api/customers?per_page=500');
    const listed = data<Row[]>(list);
    expect(listed.length).toBeGreaterThanOrEqual(mine.length);
    expect(listed.every((row) => row.assigned_to === ids[CONSULTANT])).toBe(true);
    expect((list.json() as { meta: { total: number } }).meta.total).toBe(listed.length);
    const byIds = await call(
      CONSULTANT,
      'GET',
      `/api/customers?${theirs
        .slice(0, 5)
        .map((row) => `id=${row.id}`)
        .join('&')}`,
    );
    expect(data<Row[]>(byIds)).toEqual([]);
    const filtered = await call(
      CONSULTANT,
      'GET',
      `/api/customers?assigned_to=${ids[CONSULTANT2]}`,
    );
    expect(data<Row[]>(filtered)).toEqual([]);
    const search = await call(
      CONSULTANT,
      'GET',
      `/api/customers?search=${encodeURIComponent(String(theirs[0].last_name))}`,
    );
    expect(data<Row[]>(search).map((row) => row.id)).not.toContain(theirs[0].id);
  });

  it('hides what hangs off the other consultant’s customers (household members)', async () => {
    const [theirs] = await customersOf(CONSULTANT2);
    const member = await call(CONSULTANT2, 'POST', '/api/household-members', {
      customer_id: theirs.id,
      first_name: 'Lea',
      last_name: String(theirs.last_name),
    });
    expect(member.statusCode, member.body).toBe(201);
    const memberUrl = `/api/household-members/${data(member).id}`;
    expect((await call(CONSULTANT, 'GET', memberUrl)).statusCode).toBe(404);
    expect((await call(CONSULTANT, 'PATCH', memberUrl, { first_name: 'Mia' })).statusCode).toBe(
      404,
    );
    expect((await call(CONSULTANT, 'DELETE', memberUrl)).statusCode).toBe(404);
    const listed = await call(CONSULTANT, 'GET', `/api/household-members?customer_id=${theirs.id}`);
    expect(data<Row[]>(listed)).toEqual([]);
    expect((await call(CONSULTANT2, 'GET', memberUrl)).statusCode).toBe(200);
  });

  it('refuses to attach records to the other consultant’s customer (422, as an unknown id)', async () => {
    const [theirs] = await customersOf(CONSULTANT2);
    const attach = await call(CONSULTANT, 'POST', '/api/household-members', {
      customer_id: theirs.id,
      first_name: 'Noah',
      last_name: 'Guess',
    });
    expect(attach.statusCode, attach.body).toBe(422);
    expect((attach.json() as { errors: Row }).errors.customer_id).toEqual([
      `refers to unknown customers: ${theirs.id}`,
    ]);
    const mine = await newCustomer(CONSULTANT);
    const member = await call(CONSULTANT, 'POST', '/api/household-members', {
      customer_id: mine.id,
      first_name: 'Noah',
      last_name: 'Own',
    });
    expect(member.statusCode, member.body).toBe(201);
    const move = await call(CONSULTANT, 'PATCH', `/api/household-members/${data(member).id}`, {
      customer_id: theirs.id,
    });
    expect(move.statusCode).toBe(422);
    const recommend = await call(CONSULTANT, 'PATCH', `/api/customers/${mine.id}`, {
      recommended_by_customer_id: theirs.id,
    });
    expect(recommend.statusCode).toBe(422);
    expect(Object.keys((recommend.json() as { errors: Row }).errors)).toEqual([
      'recommended_by_customer_id',
    ]);
  });

  it('assigns a consultant’s new customer to the consultant, whatever was sent', async () => {
    const created = await newCustomer(CONSULTANT, { assigned_to: ids[CONSULTANT2] });
    expect(created.assigned_to).toBe(ids[CONSULTANT]);
    const handOver = await call(CONSULTANT, 'PATCH', `/api/customers/${created.id}`, {
      assigned_to: ids[CONSULTANT2],
    });
    expect(handOver.statusCode).toBe(422);
    expect(Object.keys((handOver.json() as { errors: Row }).errors)).toEqual(['assigned_to']);
    // Sending back the owner unchanged is fine (a form sends every field).
    const same = await call(CONSULTANT, 'PATCH', `/api/customers/${created.id}`, {
      assigned_to: ids[CONSULTANT],
      notes: 'kept',
    });
    expect(same.statusCode, same.body).toBe(200);
    // An admin may reassign; then the consultant no longer sees it.
    const admin = await call(ADMIN, 'PATCH', `/api/customers/${created.id}`, {
      assigned_to: ids[CONSULTANT2],
    });
    expect(admin.statusCode).toBe(200);
    expect((await call(CONSULTANT, 'GET', `/api/customers/${created.id}`)).statusCode).toBe(404);
    expect((await call(CONSULTANT2, 'GET', `/api/customers/${created.id}`)).statusCode).toBe(200);
  });

  it('answers 404 for another user’s record and refuses changing one’s own rights', async () => {
    expect((await call(CONSULTANT, 'GET', `/api/users/${ids[CONSULTANT2]}`)).statusCode).toBe(404);
    expect((await call(CONSULTANT, 'GET', `/api/users/${ids[CONSULTANT]}`)).statusCode).toBe(200);
    for (const payload of [
      { role: 'ADMIN' },
      { additional_permissions: ['manage-users'] },
      { is_active: false },
    ]) {
      const own = await call(CONSULTANT, 'PATCH', `/api/users/${ids[CONSULTANT]}`, payload);
      expect(own.statusCode).toBe(403);
    }
    for (const payload of [
      { role: 'ADMIN' },
      { additional_permissions: ['manage-users'] },
      { permissions: ['manage-users'] },
      { language: 'fr', role: 'ADMIN' },
    ]) {
      const settings = await call(CONSULTANT, 'PUT', '/api/account/settings', payload);
      expect(settings.statusCode, JSON.stringify(payload)).toBe(422);
    }
    const me = await call(CONSULTANT, 'GET', '/api/auth/me');
    expect(data<Row>(me)).toMatchObject({ role: 'CONSULTANT', permissions: [], language: 'de' });
    const row = await t.database.db
      .selectFrom('users')
      .select(['role', 'additional_permissions', 'is_active'])
      .where('id', '=', ids[CONSULTANT])
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ role: 'CONSULTANT', additional_permissions: [], is_active: true });
    for (const action of ['approve', 'reject', 'send-password-link', 'revoke-sessions']) {
      const response = await call(
        CONSULTANT,
        'POST',
        `/api/users/${ids[CONSULTANT2]}/${action}`,
        {},
      );
      expect(response.statusCode, action).toBe(403);
    }
  });
});

describe('an external user (sub-broker account)', () => {
  let subBrokerId: number;
  beforeAll(async () => {
    const row = await t.database.db
      .selectFrom('external_users')
      .select('sub_broker_id')
      .where('email', '=', EXTERNAL)
      .executeTakeFirstOrThrow();
    subBrokerId = Number(row.sub_broker_id);
  });

  it('sees only its sub-broker’s customers and its own sub-broker', async () => {
    const all = data<Row[]>(await call(ADMIN, 'GET', '/api/customers?per_page=500'));
    const ours = all.filter((row) => row.sub_broker_id === subBrokerId);
    const others = all.filter((row) => row.sub_broker_id !== subBrokerId);
    expect(ours.length).toBeGreaterThan(0);
    const listed = data<Row[]>(await call(EXTERNAL, 'GET', '/api/customers?per_page=500'));
    expect(listed.map((row) => row.id).sort()).toEqual(ours.map((row) => row.id).sort());
    expect((await call(EXTERNAL, 'GET', `/api/customers/${others[0].id}`)).statusCode).toBe(404);
    expect((await call(EXTERNAL, 'GET', `/api/customers/${ours[0].id}`)).statusCode).toBe(200);
    const brokers = data<Row[]>(await call(EXTERNAL, 'GET', '/api/sub-brokers'));
    expect(brokers.map((row) => row.id)).toEqual([subBrokerId]);
  });

  it('creates customers for its sub-broker only, cannot move them, and deletes nothing', async () => {
    const [otherBroker] = data<Row[]>(
      await call(ADMIN, 'GET', `/api/sub-brokers?search=Bern&per_page=5`),
    );
    const created = await newCustomer(EXTERNAL, { sub_broker_id: otherBroker.id });
    expect(created.sub_broker_id).toBe(subBrokerId);
    const move = await call(EXTERNAL, 'PATCH', `/api/customers/${created.id}`, {
      sub_broker_id: otherBroker.id,
    });
    expect(move.statusCode).toBe(422);
    expect((await call(EXTERNAL, 'DELETE', `/api/customers/${created.id}`)).statusCode).toBe(403);
    expect((await call(ADMIN, 'GET', `/api/customers/${created.id}`)).statusCode).toBe(200);
  });

  it('holds no permission and reaches no hand-written route that does not allow it', async () => {
    const me = data<Row>(await call(EXTERNAL, 'GET', '/api/auth/me'));
    expect(me).toMatchObject({ role: 'PARTNER', permissions: [], route_set: null });
    expect(me.sub_broker_id).toBe(subBrokerId);
    expect((await call(EXTERNAL, 'GET', '/api/account/settings')).statusCode).toBe(200);
    expect((await call(EXTERNAL, 'GET', '/api/account/offer-credentials')).statusCode).toBe(403);
    expect((await call(EXTERNAL, 'GET', '/api/external-users')).statusCode).toBe(403);
    const users = data<Row[]>(await call(EXTERNAL, 'GET', '/api/users'));
    expect(users.map((row) => row.email)).toEqual([EXTERNAL]);
  });

  it('is refused at once when its account is disabled', async () => {
    const token = await t.login(EXTERNAL);
    const [account] = data<Row[]>(
      await call(ADMIN, 'GET', `/api/external-users?search=${encodeURIComponent(EXTERNAL)}`),
    );
    const headers = { authorization: `Bearer ${token}` };
    expect((await t.app.inject({ url: '/api/auth/me', headers })).statusCode).toBe(200);
    const off = await call(ADMIN, 'PATCH', `/api/external-users/${account.id}`, {
      is_active: false,
    });
    expect(off.statusCode, off.body).toBe(200);
    expect((await t.app.inject({ url: '/api/auth/me', headers })).statusCode).toBe(401);
    await call(ADMIN, 'PATCH', `/api/external-users/${account.id}`, { is_active: true });
    // Re-enabling does not revive the old token.
    expect((await t.app.inject({ url: '/api/auth/me', headers })).statusCode).toBe(401);
  });
});

describe('roles without customer data, and lead sources by role', () => {
  it('gives EMPLOYEE and PARTNER no customer data', async () => {
    for (const email of [EMPLOYEE, PARTNER]) {
      const list = await call(email, 'GET', '/api/customers');
      expect(list.statusCode).toBe(200);
      expect((list.json() as { meta: { total: number } }).meta.total).toBe(0);
      const create = await call(email, 'POST', '/api/customers', {
        first_name: 'A',
        last_name: 'B',
      });
      expect(create.statusCode, create.body).toBe(403);
      const [any] = await customersOf(CONSULTANT);
      expect((await call(email, 'GET', `/api/customers/${any.id}`)).statusCode).toBe(404);
    }
  });

  it('shows a lead source only to the roles in its visibleRoles (404 otherwise)', async () => {
    const all = data<Row[]>(await call(ADMIN, 'GET', '/api/lead-sources?per_page=100'));
    const roleOf: Record<string, string> = {
      [CONSULTANT]: 'CONSULTANT',
      [CALLCENTER]: 'BACKOFFICE-CALLCENTER',
      [EMPLOYEE]: 'EMPLOYEE',
    };
    for (const [email, role] of Object.entries(roleOf)) {
      const expected = all.filter((row) => (row.visible_roles as string[]).includes(role));
      const listed = data<Row[]>(await call(email, 'GET', '/api/lead-sources?per_page=100'));
      expect(listed.map((row) => row.id).sort(), role).toEqual(
        expected.map((row) => row.id).sort(),
      );
      const hidden = all.find((row) => !(row.visible_roles as string[]).includes(role));
      if (hidden) {
        expect((await call(email, 'GET', `/api/lead-sources/${hidden.id}`)).statusCode).toBe(404);
      }
    }
    expect(all.length).toBe(8);
    expect(
      data<Row[]>(await call(CONSULTANT, 'GET', '/api/lead-sources?per_page=100')).length,
    ).toBeLessThan(all.length);
  });
});
