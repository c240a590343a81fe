/**
 * GET /api/tasks (issue 15) on both engines: the sections each role gets, what each holds (own
 * reminders due; missing feedbacks — a consultant's own, all for admins and the back office;
 * unassigned appointments and cancellations to rebook for the call centre, admins and the back
 * office), totals against the database, the limit, records as GET answers them.
 */
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { swissToday } from '../../server/contracts/coverage.ts';
import { TASK_COUNT_CAP } from '../../server/tasks/index.ts';
import { ADMIN, CONSULTANT, createTestApp, type TestApp } from './harness.ts';

const CONSULTANT2 = 'consultant2@demo.gscrm.ch';
const BACKOFFICE = 'backoffice@demo.gscrm.ch';
const CALLCENTER = 'callcenter@demo.gscrm.ch';
const EMPLOYEE = 'employee@demo.gscrm.ch';

type Row = Record<string, unknown>;
interface Section {
  key: string;
  total: number;
  total_exact: boolean;
  items: Row[];
}

let t: TestApp;
const users: Record<string, number> = {};
let customer: Row;
const unique = Math.random().toString(36).slice(2, 8);
const today = swissToday();
const ids: Record<string, number> = {};

const call = (as: string, method: string, url: string, payload?: unknown) =>
  t.request({ method: method as 'GET', url, payload: payload as never, as });

async function tasksOf(as: string, query = ''): Promise<Record<string, Section>> {
  const response: LightMyRequestResponse = await call(as, 'GET', `/api/tasks${query}`);
  expect(response.statusCode, response.body).toBe(200);
  const sections = (response.json() as { data: { sections: Section[] } }).data.sections;
  return Object.fromEntries(sections.map((section) => [section.key, section]));
}

const hours = (n: number) => new Date(Date.now() + n * 3600_000);

async function appointment(name: string, values: Row): Promise<void> {
  const row = await t.database.db
    .insertInto('appointments')
    .values({ client_id: customer.id, status: 1, comment: name, ...values } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  ids[name] = Number(row.id);
}

async function reminder(name: string, values: Row): Promise<void> {
  const row = await t.database.db
    .insertInto('reminders')
    .values({ subject: `${name} ${unique}`, status: 'open', ...values } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  ids[name] = Number(row.id);
}

beforeAll(async () => {
  t = await createTestApp();
  for (const user of await t.database.db.selectFrom('users').select(['id', 'email']).execute())
    users[String(user.email)] = Number(user.id);
  const response = await call(CONSULTANT, 'POST', '/api/customers', {
    first_name: 'Aufgabe',
    last_name: `Kundin${unique}`,
  });
  customer = (response.json() as { data: Row }).data;
  const consultant = users[CONSULTANT];
  const consultant2 = users[CONSULTANT2];
  await appointment('missing-mine', {
    consultant_id: consultant,
    date_start: hours(-30),
    date_end: hours(-29),
  });
  await appointment('missing-theirs', {
    consultant_id: consultant2,
    date_start: hours(-5),
    date_end: hours(-4),
    status: 3,
  });
  await appointment('given', {
    consultant_id: consultant,
    date_start: hours(-30),
    date_end: hours(-29),
    status: 2,
  });
  await appointment('future-mine', {
    consultant_id: consultant,
    date_start: hours(20),
    date_end: hours(21),
  });
  await appointment('unassigned', { date_start: hours(40), date_end: hours(41) });
  await appointment('unassigned-past', { date_start: hours(-40), date_end: hours(-39) });
  await appointment('rebook', {
    consultant_id: consultant,
    date_start: hours(-100),
    date_end: hours(-99),
    status: 6,
    cancel_status: 'to_rebook',
  });
  await appointment('rebooked', {
    consultant_id: consultant,
    date_start: hours(-100),
    date_end: hours(-99),
    status: 5,
    cancel_status: 'rebooked',
  });
  await reminder('due-mine', { user_id: consultant, due_date: '2020-01-01' });
  await reminder('due-today', { user_id: consultant, due_date: today, time: '23:59' });
  await reminder('later-mine', { user_id: consultant, due_date: '2099-01-01' });
  await reminder('done-mine', { user_id: consultant, due_date: '2020-01-01', status: 'resolved' });
  await reminder('due-theirs', { user_id: consultant2, due_date: '2020-01-01' });
}, 180_000);
afterAll(async () => {
  await t?.close();
});

const idsOf = (section: Section | undefined) => (section?.items ?? []).map((item) => item.id);

describe('GET /api/tasks', () => {
  it('gives each role its sections', async () => {
    const keys = async (as: string) => Object.keys(await tasksOf(as));
    expect(await keys(CONSULTANT)).toEqual(['reminders_due', 'missing_feedbacks', 'leads_to_call']);
    expect(await keys(ADMIN)).toEqual([
      'reminders_due',
      'missing_feedbacks',
      'unassigned_appointments',
      'to_rebook',
      'leads_to_call',
    ]);
    expect(await keys(BACKOFFICE)).toEqual([
      'reminders_due',
      'missing_feedbacks',
      'unassigned_appointments',
      'to_rebook',
      'leads_to_call',
    ]);
    expect(await keys(CALLCENTER)).toEqual([
      'reminders_due',
      'unassigned_appointments',
      'to_rebook',
      'leads_to_call',
    ]);
    expect(await keys(EMPLOYEE)).toEqual(['reminders_due']);
    expect((await t.request({ method: 'GET', url: '/api/tasks' })).statusCode).toBe(401);
  });

  it("a consultant's reminders due (own, open, due up to today, oldest first) and own missing feedbacks", async () => {
    const tasks = await tasksOf(CONSULTANT, '?limit=50');
    const due = tasks.reminders_due;
    expect(idsOf(due)).toContain(ids['due-mine']);
    expect(idsOf(due)).toContain(ids['due-today']);
    for (const name of ['later-mine', 'done-mine', 'due-theirs'])
      expect(idsOf(due)).not.toContain(ids[name]);
    expect(due.items.every((item) => item.user_id === users[CONSULTANT])).toBe(true);
    const dues = due.items.map((item) => String(item.due_date));
    expect([...dues].sort()).toEqual(dues);
    // A record as GET answers it.
    const one = due.items.find((item) => item.id === ids['due-mine'])!;
    const read = await call(CONSULTANT, 'GET', `/api/reminders/${one.id}`);
    expect(one).toEqual((read.json() as { data: Row }).data);
    const expected = await sql<{ n: number }>`select count(*)::int as n from reminders
      where user_id = ${users[CONSULTANT]} and status = 'open' and due_date <= ${today}::date`.execute(
      t.database.db,
    );
    expect(due.total).toBe(expected.rows[0].n);
    expect(due.total_exact).toBe(true);

    const missing = tasks.missing_feedbacks;
    expect(idsOf(missing)).toContain(ids['missing-mine']);
    for (const name of ['missing-theirs', 'given', 'future-mine', 'rebook'])
      expect(idsOf(missing)).not.toContain(ids[name]);
    expect(missing.items.every((item) => item.consultant_id === users[CONSULTANT])).toBe(true);
    const appointmentRead = await call(
      CONSULTANT,
      'GET',
      `/api/appointments/${ids['missing-mine']}`,
    );
    expect(missing.items.find((item) => item.id === ids['missing-mine'])).toEqual(
      (appointmentRead.json() as { data: Row }).data,
    );
  });

  it('admins see every missing feedback; the call centre the unassigned and the cancellations to rebook', async () => {
    const admin = await tasksOf(ADMIN, '?limit=50');
    expect(idsOf(admin.missing_feedbacks)).toEqual(
      expect.arrayContaining([ids['missing-mine'], ids['missing-theirs']]),
    );
    // Latest end first.
    expect(idsOf(admin.missing_feedbacks).indexOf(ids['missing-theirs'])).toBeLessThan(
      idsOf(admin.missing_feedbacks).indexOf(ids['missing-mine']),
    );
    expect(idsOf(admin.reminders_due)).not.toContain(ids['due-mine']);
    const callcenter = await tasksOf(CALLCENTER, '?limit=50');
    expect(idsOf(callcenter.unassigned_appointments)).toContain(ids.unassigned);
    expect(idsOf(callcenter.unassigned_appointments)).not.toContain(ids['unassigned-past']);
    expect(idsOf(callcenter.unassigned_appointments)).not.toContain(ids['future-mine']);
    expect(idsOf(callcenter.to_rebook)).toContain(ids.rebook);
    expect(idsOf(callcenter.to_rebook)).not.toContain(ids.rebooked);
    const unassignedTotal = await sql<{ n: number }>`select count(*)::int as n from appointments
      where consultant_id is null and status in (1, 3) and date_end >= now()`.execute(
      t.database.db,
    );
    expect(callcenter.unassigned_appointments.total).toBe(unassignedTotal.rows[0].n);
  });

  it('answers at most `limit` items per section, with the whole total', async () => {
    for (let n = 0; n < 3; n++)
      await reminder(`extra-${n}`, { user_id: users[CONSULTANT], due_date: '2021-01-01' });
    const tasks = await tasksOf(CONSULTANT, '?limit=2');
    expect(tasks.reminders_due.items).toHaveLength(2);
    expect(tasks.reminders_due.total).toBeGreaterThanOrEqual(5);
    // Beyond the cap the total is the cap, marked inexact.
    await t.database.db
      .insertInto('reminders')
      .values(
        Array.from({ length: TASK_COUNT_CAP + 5 }, (_, n) => ({
          subject: `Viele ${n} ${unique}`,
          status: 'open',
          due_date: '2022-01-01',
          user_id: users[BACKOFFICE],
        })),
      )
      .execute();
    const many = (await tasksOf(BACKOFFICE)).reminders_due;
    expect(many).toMatchObject({ total: TASK_COUNT_CAP, total_exact: false });
    expect(many.items).toHaveLength(10);
    expect((await call(CONSULTANT, 'GET', '/api/tasks?limit=0')).statusCode).toBe(400);
    expect((await call(CONSULTANT, 'GET', '/api/tasks?limit=51')).statusCode).toBe(400);
  });
});
