/**
 * The background passes of issue 15 (server/reminders/passes.ts) on both engines: due reminders
 * notify their user once (and mail only when the user's preference says so), appointments a day
 * without feedback notify their consultant once, renewal and termination reminders are created
 * once per contract and deadline however often the pass runs, and through the job queue two
 * working queues on one database notify each due reminder and each missing feedback exactly once
 * (over several claim batches); a pass that fails half-way rolls its claims back with its notices.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { savePreferences } from '../../server/account/preferences.ts';
import { JobQueue } from '../../server/jobs/queue.ts';
import { PASS_POLICY } from '../../server/reminders/index.ts';
import {
  deadlineLeadDays,
  runDeadlinePass,
  runDuePass,
  runFeedbackPass,
} from '../../server/reminders/passes.ts';
import { ADMIN, CONSULTANT, createTestApp, type TestApp } from './harness.ts';

const CONSULTANT2 = 'consultant2@demo.gscrm.ch';

type Row = Record<string, unknown>;

let t: TestApp;
const users: Record<string, number> = {};
let mine: Row;
let theirs: Row;
let insurer: number;
const unique = Math.random().toString(36).slice(2, 8);

const call = (as: string, method: string, url: string, payload?: unknown) =>
  t.request({ method: method as 'GET', url, payload: payload as never, as });

async function created(as: string, url: string, payload: Row): Promise<Row> {
  const response = await call(as, 'POST', url, payload);
  expect(response.statusCode, response.body).toBe(201);
  return (response.json() as { data: Row }).data;
}

/** Notifications whose title contains `text`, per user. */
async function notificationsWith(text: string) {
  return t.database.db
    .selectFrom('notifications')
    .select(['user_id', 'title', 'body', 'link', 'level', 'customer_id'])
    .where('title', 'like', `%${text}%`)
    .orderBy('id')
    .execute();
}

async function outboxWith(text: string) {
  return t.database.db
    .selectFrom('outbox')
    .select(['to_address', 'subject', 'kind', 'customer_id'])
    .where('subject', 'like', `%${text}%`)
    .orderBy('id')
    .execute();
}

const insertReminder = async (values: Row) =>
  Number(
    (
      await t.database.db
        .insertInto('reminders')
        .values({ status: 'open', user_id: users[CONSULTANT], ...values } as never)
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id,
  );

beforeAll(async () => {
  t = await createTestApp();
  for (const user of await t.database.db.selectFrom('users').select(['id', 'email']).execute())
    users[String(user.email)] = Number(user.id);
  mine = await created(CONSULTANT, '/api/customers', {
    first_name: 'Job',
    last_name: `Kundin${unique}`,
  });
  theirs = await created(CONSULTANT2, '/api/customers', {
    first_name: 'Job',
    last_name: `Kunde${unique}`,
  });
  insurer = Number(
    (
      await created(ADMIN, '/api/companies', {
        name_de: `Fristversicherung ${unique}`,
        products: [1, 2, 3, 7, 10],
      })
    ).id,
  );
  // The consultant wants mails, consultant2 does not (the default).
  await savePreferences(t.database.db, users[CONSULTANT], { notification_emails: true });
}, 180_000);
afterAll(async () => {
  await t?.close();
});

describe('reminders falling due', () => {
  // 10:00 in Zurich (summer time), 08:00 UTC.
  const now = new Date('2030-06-10T08:00:00Z');

  it('notifies once when the due moment (date + time, else 08:00 Swiss) has come', async () => {
    const tag = `Fällig-${unique}`;
    const yesterday = await insertReminder({
      subject: `${tag} gestern`,
      due_date: '2030-06-09',
      client_id: mine.id,
    });
    const morning = await insertReminder({ subject: `${tag} heute früh`, due_date: '2030-06-10' });
    const later = await insertReminder({
      subject: `${tag} heute später`,
      due_date: '2030-06-10',
      time: '11:00',
    });
    await insertReminder({ subject: `${tag} morgen`, due_date: '2030-06-11' });
    await insertReminder({
      subject: `${tag} erledigt`,
      due_date: '2030-06-09',
      status: 'resolved',
    });
    const forOther = await insertReminder({
      subject: `${tag} andere`,
      due_date: '2030-06-09',
      user_id: users[CONSULTANT2],
    });

    expect(await runDuePass(t.database.db, now)).toBeGreaterThanOrEqual(3);
    await runDuePass(t.database.db, now);
    const notes = await notificationsWith(tag);
    expect(notes.map((note) => note.title).sort()).toEqual(
      [
        `Erinnerung fällig: ${tag} gestern`,
        `Erinnerung fällig: ${tag} heute früh`,
        `Rappel échu : ${tag} andere`,
      ].sort(),
    );
    const first = notes.find((note) => String(note.title).endsWith('gestern'))!;
    // The reminder's customer, for the erasure (personal-data.ts); none without one.
    expect(first).toMatchObject({
      user_id: users[CONSULTANT],
      link: `/consultant/reminders/${yesterday}/show`,
      customer_id: mine.id,
    });
    expect(notes.find((note) => String(note.title).endsWith('früh'))?.customer_id).toBeNull();
    expect(first.body).toContain('09.06.2030');
    expect(first.body).toContain(`Job Kundin${unique}`);
    // Mail only for the user who wants it (consultant2 does not).
    const mails = await outboxWith(tag);
    expect(mails.map((mail) => mail.to_address).sort()).toEqual([CONSULTANT, CONSULTANT]);
    expect(mails.every((mail) => mail.kind === 'reminder-due')).toBe(true);
    expect(mails.map((mail) => mail.customer_id).sort()).toEqual([mine.id, null].sort());

    const notified = await t.database.db
      .selectFrom('reminders')
      .select(['id', 'notified_at'])
      .where('id', 'in', [yesterday, morning, later, forOther])
      .execute();
    expect(
      notified
        .filter((row) => row.notified_at !== null)
        .map((row) => row.id)
        .sort(),
    ).toEqual([yesterday, morning, forOther].sort());

    // At 11:00 in Zurich the one with a time falls due as well — once.
    const eleven = new Date('2030-06-10T09:00:00Z');
    await runDuePass(t.database.db, eleven);
    await runDuePass(t.database.db, eleven);
    expect((await notificationsWith(`${tag} heute später`)).length).toBe(1);
    expect((await notificationsWith(tag)).length).toBe(4);
  });

  it('notifies again after the due date moved (notified_at cleared by the write)', async () => {
    const tag = `Verschoben-${unique}`;
    const id = await insertReminder({ subject: tag, due_date: '2030-06-01' });
    await runDuePass(t.database.db, now);
    expect((await notificationsWith(tag)).length).toBe(1);
    const moved = await call(CONSULTANT, 'PATCH', `/api/reminders/${id}`, {
      due_date: '2030-06-05',
    });
    expect(moved.statusCode, moved.body).toBe(200);
    await runDuePass(t.database.db, now);
    expect((await notificationsWith(tag)).length).toBe(2);
  });
});

describe('feedback missing', () => {
  const appointment = async (values: Row) =>
    Number(
      (
        await t.database.db
          .insertInto('appointments')
          .values({
            client_id: mine.id,
            consultant_id: users[CONSULTANT],
            status: 1,
            ...values,
          } as never)
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
    );
  const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3600_000);

  it('notifies the consultant once, a day after the end of a planned appointment without feedback', async () => {
    const overdue = await appointment({ date_start: hoursAgo(50), date_end: hoursAgo(49) });
    const recent = await appointment({ date_start: hoursAgo(3), date_end: hoursAgo(2) });
    const cancelled = await appointment({
      date_start: hoursAgo(50),
      date_end: hoursAgo(49),
      status: 5,
    });
    const unassigned = await appointment({
      date_start: hoursAgo(50),
      date_end: hoursAgo(49),
      consultant_id: null,
    });
    await runFeedbackPass(t.database.db);
    await runFeedbackPass(t.database.db);
    const rows = await t.database.db
      .selectFrom('appointments')
      .select(['id', 'feedback_notified_at'])
      .where('id', 'in', [overdue, recent, cancelled, unassigned])
      .orderBy('id')
      .execute();
    expect(rows.filter((row) => row.feedback_notified_at !== null).map((row) => row.id)).toEqual([
      overdue,
    ]);
    const notes = await t.database.db
      .selectFrom('notifications')
      .select(['user_id', 'title', 'body', 'customer_id'])
      .where('link', '=', `/consultant/appointments/${overdue}/show`)
      .execute();
    expect(notes).toHaveLength(1);
    expect(notes[0].user_id).toBe(users[CONSULTANT]);
    expect(notes[0].customer_id).toBe(mine.id);
    expect(notes[0].title).toMatch(/^Feedback fehlt: Termin vom \d\d\.\d\d\.\d{4} \d\d:\d\d$/);
    expect(notes[0].body).toContain(`Job Kundin${unique}`);
    for (const id of [recent, cancelled, unassigned])
      expect(
        (
          await t.database.db
            .selectFrom('notifications')
            .select('id')
            .where('link', 'like', `%/appointments/${id}/show`)
            .execute()
        ).length,
      ).toBe(0);
    // The consultant wants mails.
    expect(
      (
        await t.database.db
          .selectFrom('outbox')
          .select('id')
          .where('kind', '=', 'feedback-missing')
          .where('to_address', '=', CONSULTANT)
          .execute()
      ).length,
    ).toBeGreaterThanOrEqual(1);
  });
});

describe('renewal and termination reminders', () => {
  const contract = (customer: Row, productId: number, extra: Row = {}) =>
    created(ADMIN, '/api/contracts', {
      customer_id: customer.id,
      contract_type: 'closure',
      product_id: productId,
      company_id: insurer,
      contract_number: `F-${unique}-${Math.random().toString(36).slice(2, 7)}`,
      start_date: '2025-01-01',
      ...extra,
    });

  it('creates one reminder per contract, category and deadline within the lead time, once', async () => {
    const today = '2030-09-01';
    const ending = await contract(mine, 10, { end_date: '2030-10-15' });
    const supplementary = await contract(theirs, 2);
    const car = await contract(mine, 7, { end_date: '2030-12-15' });
    const far = await contract(mine, 10, { end_date: '2031-06-30' });
    const basic = await contract(mine, 1);
    const terminated = await contract(mine, 2, { status: 'terminated' });
    const ids = [ending, supplementary, car, far, basic, terminated].map((row) => Number(row.id));
    const ours = () =>
      t.database.db
        .selectFrom('reminders')
        .select([
          'contract_id',
          'category',
          'deadline',
          'due_date',
          'user_id',
          'client_id',
          'subject',
          'status',
          'assigner_id',
        ])
        .where('contract_id', 'in', ids)
        .orderBy('contract_id')
        .orderBy('deadline')
        .execute();

    const first = await runDeadlinePass(t.database.db, { today, leadDays: 60 });
    const rows = await ours();
    expect(first).toBeGreaterThanOrEqual(rows.length);
    expect(
      rows.map((row) => [row.contract_id, row.category, String(row.deadline).slice(0, 10)]),
    ).toEqual([
      [ending.id, 'renewal', '2030-10-15'],
      [supplementary.id, 'termination', '2030-09-30'],
      [car.id, 'termination', '2030-09-15'],
    ]);
    expect(rows[0]).toMatchObject({
      user_id: users[CONSULTANT],
      client_id: mine.id,
      status: 'open',
      assigner_id: null,
    });
    // Due at deadline − lead time, or today when that has passed.
    expect(rows.map((row) => String(row.due_date).slice(0, 10))).toEqual([today, today, today]);
    expect(rows[0].subject).toBe(
      `Vertrag läuft am 15.10.2030 ab: Job Kundin${unique}, ${String(ending.contract_number)}`,
    );
    // consultant2 writes French.
    expect(rows[1]).toMatchObject({ user_id: users[CONSULTANT2], client_id: theirs.id });
    expect(rows[1].subject).toMatch(/^Délai de résiliation le 30\.09\.2030 : /);

    // Again, and on the next day: nothing new.
    expect(await runDeadlinePass(t.database.db, { today, leadDays: 60 })).toBe(0);
    expect(await runDeadlinePass(t.database.db, { today: '2030-09-02', leadDays: 60 })).toBe(0);
    expect(await ours()).toHaveLength(3);

    // A longer lead time reaches the basic insurance's 30 November.
    await runDeadlinePass(t.database.db, { today, leadDays: 100 });
    const longer = await ours();
    expect(
      longer
        .filter((row) => row.contract_id === basic.id)
        .map((row) => [row.category, String(row.deadline).slice(0, 10), String(row.due_date)]),
    ).toEqual([['termination', '2030-11-30', '2030-09-01']]);
    expect(
      longer.filter((row) => row.contract_id === far.id || row.contract_id === terminated.id),
    ).toEqual([]);
  });
});

describe('DEADLINE_REMINDER_DAYS', () => {
  it('defaults to 60 days, takes 1–366, refuses anything else', () => {
    expect(deadlineLeadDays(undefined)).toBe(60);
    expect(deadlineLeadDays(' ')).toBe(60);
    expect(deadlineLeadDays('30')).toBe(30);
    for (const bad of ['0', '-5', '2.5', 'sixty', '367'])
      expect(() => deadlineLeadDays(bad), bad).toThrow(/DEADLINE_REMINDER_DAYS/);
  });
});

describe('through the job queue', () => {
  let queues: JobQueue[] = [];
  afterAll(async () => {
    for (const queue of queues) await queue.stop(5000);
  });

  it('two working queues on one database notify each due reminder and each missing feedback exactly once', async () => {
    const tag = `Zwei-${unique}`;
    // More rows than one claim takes (PASS_BATCH 200): each pass runs several transactions, and
    // the two queues' passes overlap.
    const reminders = await t.database.db
      .insertInto('reminders')
      .values(
        Array.from({ length: 450 }, (_, n) => ({
          status: 'open',
          user_id: users[CONSULTANT],
          subject: `${tag} ${n}`,
          due_date: '2026-01-05',
        })) as never,
      )
      .returning('id')
      .execute();
    const ids = reminders.map((row) => Number(row.id));
    const ended = new Date(Date.now() - 3 * 86_400_000);
    const appointments = await t.database.db
      .insertInto('appointments')
      .values(
        Array.from({ length: 250 }, (_, n) => ({
          client_id: Number(mine.id),
          consultant_id: users[CONSULTANT],
          status: 1,
          date_start: new Date(ended.getTime() - 3_600_000 - n * 60_000),
          date_end: new Date(ended.getTime() - n * 60_000),
          comment: `${tag} Termin ${n}`,
        })) as never,
      )
      .returning('id')
      .execute();
    const appointmentIds = appointments.map((row) => Number(row.id));
    const runs: Record<string, number> = { a: 0, b: 0 };
    queues = ['a', 'b'].map((label) => {
      const queue = new JobQueue(t.database, { work: true, pollingIntervalSeconds: 0.5 });
      // Counted once a pass has finished (its transactions committed), not when it starts.
      queue.define('reminders.due', PASS_POLICY, async () => {
        await runDuePass(t.database.db);
        runs[label]++;
      });
      queue.define('appointments.feedback-missing', PASS_POLICY, async () => {
        await runFeedbackPass(t.database.db);
        runs[label]++;
      });
      return queue;
    });
    for (const queue of queues) await queue.start();
    for (const queue of queues) await queue.ready();
    await Promise.all(
      queues.flatMap((queue) =>
        [1, 2, 3].flatMap(() => [
          queue.send('reminders.due', {}),
          queue.send('appointments.feedback-missing', {}),
        ]),
      ),
    );
    const end = Date.now() + 60_000;
    while (runs.a + runs.b < 12 && Date.now() < end)
      await new Promise((resolve) => setTimeout(resolve, 200));
    expect(runs.a + runs.b).toBe(12);
    for (const queue of queues) await queue.stop(5000);
    queues = [];
    const perReminder = await sql<{ title: string; n: number }>`
      select title, count(*)::int as n from notifications where title like ${`%${tag} %`}
      group by title`.execute(t.database.db);
    expect(perReminder.rows).toHaveLength(450);
    expect(perReminder.rows.filter((row) => row.n !== 1)).toEqual([]);
    const left = await t.database.db
      .selectFrom('reminders')
      .select('id')
      .where('id', 'in', ids)
      .where('notified_at', 'is', null)
      .execute();
    expect(left).toEqual([]);
    // Each appointment without feedback: one notice to its consultant, linking to it.
    const perAppointment = await sql<{ link: string; n: number }>`
      select link, count(*)::int as n from notifications
      where user_id = ${users[CONSULTANT]} and link like '%appointments/%/show'
      group by link`.execute(t.database.db);
    const counts = new Map(perAppointment.rows.map((row) => [row.link, row.n]));
    const missing = appointmentIds.filter(
      (id) => ![...counts.keys()].some((link) => link.endsWith(`appointments/${id}/show`)),
    );
    expect(missing).toEqual([]);
    for (const id of appointmentIds) {
      const link = [...counts.keys()].find((key) => key.endsWith(`appointments/${id}/show`));
      expect(counts.get(String(link)), `appointment ${id}`).toBe(1);
    }
  });

  it('a pass that fails half-way loses nothing: its claims roll back with its notices, the next run takes them', async () => {
    const tag = `Absturz-${unique}`;
    const ids: number[] = [];
    for (let n = 0; n < 5; n++)
      ids.push(await insertReminder({ subject: `${tag} ${n}`, due_date: '2026-01-06' }));
    // A failure while the third notice is written (after the claim and two notices).
    const run = (statement: string) => sql.raw(statement).execute(t.database.db);
    await run(`create or replace function gscrm_test_fail_notice() returns trigger
      language plpgsql as $$
      begin
        if new.title like '%${tag} 2%' then raise exception 'injected failure'; end if;
        return new;
      end $$`);
    await run(`create trigger gscrm_test_fail_notice before insert on notifications
      for each row execute function gscrm_test_fail_notice()`);
    try {
      await expect(runDuePass(t.database.db)).rejects.toThrow(/injected failure/);
    } finally {
      await run('drop trigger if exists gscrm_test_fail_notice on notifications');
      await run('drop function if exists gscrm_test_fail_notice()');
    }
    const notified = await t.database.db
      .selectFrom('reminders')
      .select('id')
      .where('id', 'in', ids)
      .where('notified_at', 'is not', null)
      .execute();
    expect(notified).toEqual([]);
    expect(await notificationsWith(tag)).toEqual([]);
    // The next run (another server, a retry) notifies each of them once.
    await runDuePass(t.database.db);
    const notices = await notificationsWith(tag);
    expect(notices.map((row) => row.title).sort()).toEqual(
      [0, 1, 2, 3, 4].map((n) => expect.stringContaining(`${tag} ${n}`)),
    );
    expect(new Set(notices.map((row) => row.title)).size).toBe(5);
  });
});
