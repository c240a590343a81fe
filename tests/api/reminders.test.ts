/**
 * Reminders on the server (issue 15): what the server sets (assigner, user, day, resolvedAt,
 * notifiedAt cleared on a new due date), the status transitions and the reopen rule, the contract
 * of the customer, visibility (a consultant: their own and their customers'; 404 otherwise), the
 * default list query, the customers' open-issue filter and the notifications' unread filter.
 * Both engines.
 */
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { swissToday } from '../../server/contracts/coverage.ts';
import { ADMIN, CONSULTANT, createTestApp, type TestApp } from './harness.ts';

const CONSULTANT2 = 'consultant2@demo.gscrm.ch';
const BACKOFFICE = 'backoffice@demo.gscrm.ch';

type Row = Record<string, unknown>;

let t: TestApp;
const users: Record<string, number> = {};
let mine: Row;
let theirs: Row;
let contractOfMine: Row;
const unique = Math.random().toString(36).slice(2, 8);
const today = swissToday();
const dayOffset = (days: number) => {
  const date = new Date(`${today}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
};

const call = (as: string, method: string, url: string, payload?: unknown) =>
  t.request({ method: method as 'GET', url, payload: payload as never, as });
const data = <T = Row>(response: LightMyRequestResponse) => (response.json() as { data: T }).data;

async function created(as: string, url: string, payload: Row): Promise<Row> {
  const response = await call(as, 'POST', url, payload);
  expect(response.statusCode, response.body).toBe(201);
  return data(response);
}

/** The error keys of a 422 by field. */
function refused(response: LightMyRequestResponse): Record<string, string[]> {
  expect(response.statusCode, response.body).toBe(422);
  const answer = response.json() as {
    error_keys?: Record<string, Array<{ message: string; args?: Row }>>;
  };
  return Object.fromEntries(
    Object.entries(answer.error_keys ?? {}).map(([field, keys]) => [
      field,
      keys.map((key) => key.message),
    ]),
  );
}

const reminder = (as: string, extra: Row = {}) =>
  created(as, '/api/reminders', { subject: `Rückruf ${unique}`, due_date: today, ...extra });

beforeAll(async () => {
  t = await createTestApp();
  for (const user of await t.database.db.selectFrom('users').select(['id', 'email']).execute())
    users[String(user.email)] = Number(user.id);
  mine = await created(CONSULTANT, '/api/customers', {
    first_name: 'Erinnerung',
    last_name: `Kundin${unique}`,
  });
  theirs = await created(CONSULTANT2, '/api/customers', {
    first_name: 'Fremd',
    last_name: `Kunde${unique}`,
  });
  const insurer = await created(ADMIN, '/api/companies', {
    name_de: `Erinnerungsversicherung ${unique}`,
    products: [10],
  });
  contractOfMine = await created(ADMIN, '/api/contracts', {
    customer_id: mine.id,
    contract_type: 'closure',
    product_id: 10,
    company_id: insurer.id,
    start_date: '2025-01-01',
    end_date: '2027-12-31',
  });
  // A fresh database with the demo data: slow on a busy machine.
}, 180_000);
afterAll(async () => {
  await t?.close();
});

describe('what the server sets', () => {
  it('records the assigner (read-only), defaults the user to the writer and the day to today', async () => {
    const own = await reminder(CONSULTANT, { assigner_id: users[ADMIN], client_id: mine.id });
    expect(own).toMatchObject({
      assigner_id: users[CONSULTANT],
      user_id: users[CONSULTANT],
      date: today,
      status: 'open',
      resolved_at: null,
      notified_at: null,
    });
    // The back office sets one for a consultant: the consultant's, assigned by the back office.
    const forConsultant = await reminder(BACKOFFICE, { user_id: users[CONSULTANT] });
    expect(forConsultant).toMatchObject({
      assigner_id: users[BACKOFFICE],
      user_id: users[CONSULTANT],
    });
    // A consultant cannot set one for somebody else (the owner is theirs).
    expect(
      Object.keys(
        refused(
          await call(CONSULTANT, 'PATCH', `/api/reminders/${own.id}`, {
            user_id: users[CONSULTANT2],
          }),
        ),
      ),
    ).toEqual(['user_id']);
    // The assigner is read-only on the wire.
    expect(
      Object.keys(
        refused(
          await call(ADMIN, 'PATCH', `/api/reminders/${own.id}`, { assigner_id: users[ADMIN] }),
        ),
      ),
    ).toEqual(['assigner_id']);
  });

  it('takes the customer from the contract, and refuses a contract of another customer', async () => {
    const fromContract = await reminder(CONSULTANT, { contract_id: contractOfMine.id });
    expect(fromContract.client_id).toBe(mine.id);
    const other = await created(ADMIN, '/api/customers', {
      first_name: 'Andere',
      last_name: `Person${unique}`,
    });
    expect(
      refused(
        await call(ADMIN, 'POST', '/api/reminders', {
          subject: 'Falscher Vertrag',
          due_date: today,
          client_id: other.id,
          contract_id: contractOfMine.id,
        }),
      ),
    ).toEqual({ contract_id: ['app.errors.notOfCustomer'] });
    expect(
      refused(
        await call(ADMIN, 'PATCH', `/api/reminders/${fromContract.id}`, { client_id: other.id }),
      ),
    ).toEqual({ contract_id: ['app.errors.notOfCustomer'] });
  });

  it('clears notified_at when the due date or time changes, so it notifies again', async () => {
    const due = await reminder(CONSULTANT);
    const url = `/api/reminders/${due.id}`;
    await sql`update reminders set notified_at = now() where id = ${due.id}`.execute(t.database.db);
    const renamed = data(await call(CONSULTANT, 'PATCH', url, { subject: 'Nur umbenannt' }));
    expect(renamed.notified_at).not.toBeNull();
    const moved = data(await call(CONSULTANT, 'PATCH', url, { due_date: dayOffset(2) }));
    expect(moved.notified_at).toBeNull();
    await sql`update reminders set notified_at = now() where id = ${due.id}`.execute(t.database.db);
    const timed = data(await call(CONSULTANT, 'PATCH', url, { time: '15:30' }));
    expect(timed.notified_at).toBeNull();
    expect(String(timed.time)).toMatch(/^15:30/);
  });
});

describe('status', () => {
  it('moves open → resolved → open → cancelled, setting and clearing resolved_at', async () => {
    const item = await reminder(CONSULTANT);
    const url = `/api/reminders/${item.id}`;
    const resolved = data(await call(CONSULTANT, 'PATCH', url, { status: 'resolved' }));
    expect(resolved.status).toBe('resolved');
    expect(Date.parse(String(resolved.resolved_at))).toBeGreaterThan(Date.now() - 60_000);
    // The consultant set it: may reopen it.
    const reopened = data(await call(CONSULTANT, 'PATCH', url, { status: 'open' }));
    expect(reopened).toMatchObject({ status: 'open', resolved_at: null });
    const cancelled = data(await call(CONSULTANT, 'PATCH', url, { status: 'cancelled' }));
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.resolved_at).not.toBeNull();
  });

  it('refuses resolved → cancelled, cancelled → resolved and an empty status (422 on status)', async () => {
    const item = await reminder(ADMIN);
    const url = `/api/reminders/${item.id}`;
    await call(ADMIN, 'PATCH', url, { status: 'resolved' });
    const answer = await call(ADMIN, 'PATCH', url, { status: 'cancelled' });
    expect(refused(answer)).toEqual({ status: ['app.errors.statusTransition'] });
    expect(
      (answer.json() as { error_keys: Record<string, [{ args: Row }]> }).error_keys.status[0].args,
    ).toEqual({ from: 'Erledigt', to: 'Abgebrochen' }); // labels in the writer's language (German)
    expect(refused(await call(ADMIN, 'PATCH', url, { status: null }))).toEqual({
      status: ['app.errors.required'],
    });
    expect(data(await call(ADMIN, 'GET', url)).status).toBe('resolved');
  });

  it('reopening is for the assigner or the back office, not the user it was set for', async () => {
    const set = await reminder(BACKOFFICE, { user_id: users[CONSULTANT] });
    const url = `/api/reminders/${set.id}`;
    // The user may resolve it …
    expect(data(await call(CONSULTANT, 'PATCH', url, { status: 'resolved' })).status).toBe(
      'resolved',
    );
    // … but not reopen it.
    expect(refused(await call(CONSULTANT, 'PATCH', url, { status: 'open' }))).toEqual({
      status: ['app.errors.reopenByAssigner'],
    });
    expect(data(await call(ADMIN, 'GET', url)).status).toBe('resolved');
    // The back office may (the admin here is not the assigner).
    expect(data(await call(ADMIN, 'PATCH', url, { status: 'open' })).status).toBe('open');
  });

  it('a reminder the system set (no assigner) is reopened by its user', async () => {
    const row = await t.database.db
      .insertInto('reminders')
      .values({
        subject: 'Vom System',
        due_date: today,
        status: 'resolved',
        user_id: users[CONSULTANT],
        // On consultant2's customer: consultant2 sees it, but it is not theirs to reopen.
        client_id: Number(theirs.id),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const url = `/api/reminders/${row.id}`;
    expect(refused(await call(CONSULTANT2, 'PATCH', url, { status: 'open' }))).toEqual({
      status: ['app.errors.reopenByAssigner'],
    });
    expect(data(await call(CONSULTANT, 'PATCH', url, { status: 'open' })).status).toBe('open');
  });
});

describe('visibility', () => {
  it("a consultant sees their own and their customers' reminders; others answer 404", async () => {
    const own = await reminder(CONSULTANT);
    const onMyCustomer = await reminder(ADMIN, { user_id: users[ADMIN], client_id: mine.id });
    const foreign = await reminder(CONSULTANT2, { client_id: theirs.id });
    const listed = data<Row[]>(
      await call(CONSULTANT, 'GET', `/api/reminders?search=${unique}&per_page=500`),
    ).map((row) => row.id);
    expect(listed).toContain(own.id);
    expect(listed).toContain(onMyCustomer.id);
    expect(listed).not.toContain(foreign.id);
    expect((await call(CONSULTANT, 'GET', `/api/reminders/${onMyCustomer.id}`)).statusCode).toBe(
      200,
    );
    for (const method of ['GET', 'PATCH'])
      expect(
        (await call(CONSULTANT, method, `/api/reminders/${foreign.id}`, { subject: 'x' }))
          .statusCode,
      ).toBe(404);
    // On a customer one does not see: 422 "unknown customers".
    expect(
      Object.keys(
        refused(
          await call(CONSULTANT, 'POST', '/api/reminders', {
            subject: 'Fremd',
            due_date: today,
            client_id: theirs.id,
          }),
        ),
      ),
    ).toEqual(['client_id']);
  });

  it('answers the default list (open, due up to today, oldest due first)', async () => {
    const old = await reminder(CONSULTANT, { due_date: dayOffset(-5) });
    const now = await reminder(CONSULTANT, { due_date: today });
    const later = await reminder(CONSULTANT, { due_date: dayOffset(3) });
    const done = await reminder(CONSULTANT, { due_date: dayOffset(-1) });
    await call(CONSULTANT, 'PATCH', `/api/reminders/${done.id}`, { status: 'resolved' });
    const response = await call(
      CONSULTANT,
      'GET',
      `/api/reminders?status=open&due_date_lte=${today}&sort=due_date&order=ASC&per_page=500`,
    );
    expect(response.statusCode, response.body).toBe(200);
    const rows = data<Row[]>(response);
    const ids = rows.map((row) => row.id);
    expect(ids).toContain(old.id);
    expect(ids).toContain(now.id);
    expect(ids).not.toContain(later.id);
    expect(ids).not.toContain(done.id);
    expect(ids.indexOf(old.id)).toBeLessThan(ids.indexOf(now.id));
    const dues = rows.map((row) => String(row.due_date));
    expect([...dues].sort()).toEqual(dues);
    expect(rows.every((row) => row.status === 'open' && String(row.due_date) <= today)).toBe(true);
  });
});

describe('customers open_issue', () => {
  it('filters customers by their reminders: open-due, open-not-due, closed, none', async () => {
    const make = (name: string) =>
      created(ADMIN, '/api/customers', { first_name: name, last_name: `Offen${unique}` });
    const due = await make('Fällig');
    const notDue = await make('Später');
    const closed = await make('Erledigt');
    await make('Ohne');
    const mixed = await make('Gemischt');
    await reminder(ADMIN, { client_id: due.id, due_date: dayOffset(-1) });
    await reminder(ADMIN, { client_id: due.id, due_date: dayOffset(4) });
    await reminder(ADMIN, { client_id: notDue.id, due_date: dayOffset(4) });
    const finished = await reminder(ADMIN, { client_id: closed.id, due_date: dayOffset(-3) });
    await call(ADMIN, 'PATCH', `/api/reminders/${finished.id}`, { status: 'resolved' });
    // Due today counts as due; a cancelled one beside it changes nothing.
    await reminder(ADMIN, { client_id: mixed.id, due_date: today });
    const gone = await reminder(ADMIN, { client_id: mixed.id, due_date: dayOffset(9) });
    await call(ADMIN, 'PATCH', `/api/reminders/${gone.id}`, { status: 'cancelled' });
    const found = async (value: string) => {
      const response = await call(
        ADMIN,
        'GET',
        `/api/customers?open_issue=${value}&search=Offen${unique}&per_page=100`,
      );
      expect(response.statusCode, response.body).toBe(200);
      return data<Row[]>(response)
        .map((row) => String(row.first_name))
        .sort();
    };
    expect(await found('open-due')).toEqual(['Fällig', 'Gemischt']);
    expect(await found('open-not-due')).toEqual(['Später']);
    expect(await found('closed')).toEqual(['Erledigt']);
    expect(await found('none')).toEqual(['Ohne']);
    expect((await call(ADMIN, 'GET', '/api/customers?open_issue=sometimes')).statusCode).toBe(400);
    // Within the consultant's scope too.
    const scoped = await call(CONSULTANT, 'GET', `/api/customers?open_issue=none&per_page=500`);
    expect(scoped.statusCode).toBe(200);
    expect(data<Row[]>(scoped).every((row) => row.assigned_to === users[CONSULTANT])).toBe(true);
  });
});

describe('notifications unread', () => {
  it('lists only unread notifications with unread=true, read ones with unread=false', async () => {
    const userId = users[CONSULTANT];
    const inserted = await t.database.db
      .insertInto('notifications')
      .values([
        { user_id: userId, level: 'info', title: `Ungelesen ${unique}` },
        { user_id: userId, level: 'info', title: `Gelesen ${unique}`, read_at: new Date() },
      ])
      .returning(['id', 'title'])
      .execute();
    const titles = async (query: string) =>
      data<Row[]>(await call(CONSULTANT, 'GET', `/api/notifications?${query}&per_page=500`))
        .map((row) => String(row.title))
        .filter((title) => title.endsWith(unique));
    expect(await titles('unread=true')).toEqual([`Ungelesen ${unique}`]);
    expect(await titles('unread=false')).toEqual([`Gelesen ${unique}`]);
    expect((await titles('sort=id')).sort()).toEqual(inserted.map((row) => row.title).sort());
    const unread = await call(CONSULTANT, 'GET', '/api/notifications?unread=true');
    expect(
      (unread.json() as { meta: { total: number } }).meta.total,
      'the bell counts them',
    ).toBeGreaterThanOrEqual(1);
  });
});

describe('personal data', () => {
  it('erasing a customer deletes their reminders (and clears a feedback link) in the same transaction', async () => {
    const erased = await created(ADMIN, '/api/customers', {
      first_name: 'Vergessen',
      last_name: `Werden${unique}`,
    });
    const first = await reminder(ADMIN, { client_id: erased.id });
    await reminder(ADMIN, { client_id: erased.id, status: 'open', subject: `Zweite ${unique}` });
    const exported = await call(ADMIN, 'GET', `/api/customers/${erased.id}/personal-data`);
    expect(exported.statusCode, exported.body).toBe(200);
    const answer = await call(ADMIN, 'POST', `/api/customers/${erased.id}/erase`);
    expect(answer.statusCode, answer.body).toBe(200);
    const left = await t.database.db
      .selectFrom('reminders')
      .select('id')
      .where('client_id', '=', Number(erased.id))
      .execute();
    expect(left).toEqual([]);
    expect((await call(ADMIN, 'GET', `/api/reminders/${first.id}`)).statusCode).toBe(404);
  });
});
