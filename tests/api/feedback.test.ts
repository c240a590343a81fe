/**
 * An appointment's feedback (issue 15): POST /api/appointments/:id/feedback stores the feedback,
 * sets the appointment's status, creates the reminder and the follow-up and mails the lead source
 * in one transaction — an injected failure leaves nothing behind; refusals (twice, cancelled, too
 * early, not planned, a status that does not fit, a follow-up in the past, a stale version) write
 * nothing; visibility. Feedbacks through the generic routes: no client creates or deletes them
 * (create and delete: nobody, so tests/api/crud.test.ts leaves them out and this file covers
 * their generic routes), and an update changes only note, comment and address. Both engines.
 */
import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, CONSULTANT, createTestApp, type TestApp } from './harness.ts';

dayjs.extend(utc);
dayjs.extend(timezone);

const CONSULTANT2 = 'consultant2@demo.gscrm.ch';

type Row = Record<string, unknown>;
interface ErrorAnswer {
  key?: string;
  error_keys?: Record<string, Array<{ message: string }>>;
  current?: Row;
}
interface Outcome {
  feedback: Row;
  appointment: Row;
  reminder?: Row;
  follow_up_appointment?: Row;
}

let t: TestApp;
const users: Record<string, number> = {};
let mine: Row;
let leadSourceId: number;
const unique = Math.random().toString(36).slice(2, 8);

const call = (as: string, method: string, url: string, payload?: unknown) =>
  t.request({ method: method as 'GET', url, payload: payload as never, as });
const data = <T = Row>(response: LightMyRequestResponse) => (response.json() as { data: T }).data;

async function created(as: string, url: string, payload: Row): Promise<Row> {
  const response = await call(as, 'POST', url, payload);
  expect(response.statusCode, response.body).toBe(201);
  return data(response);
}

const swiss = (date: string, time: string) =>
  dayjs.tz(`${date}T${time}`, 'Europe/Zurich').toISOString();
const inDays = (days: number) => dayjs().tz('Europe/Zurich').add(days, 'day').format('YYYY-MM-DD');

/** An appointment of `customer` yesterday morning (or at the given times): past, on one Swiss
 *  day whenever the test runs (an hour ago crossed midnight in Zurich between 00:30 and 01:00). */
const appointment = (customer: Row, extra: Row = {}, as = ADMIN) =>
  created(as, '/api/appointments', {
    client_id: customer.id,
    consultant_id: users[CONSULTANT],
    date_start: swiss(inDays(-1), '09:00'),
    date_end: swiss(inDays(-1), '09:30'),
    ...extra,
  });

const feedback = (id: unknown, body: Row, as = CONSULTANT) =>
  call(as, 'POST', `/api/appointments/${String(id)}/feedback`, body);

/** How many rows each table of the feedback holds (and the outbox). */
async function counts() {
  const count = async (table: string) =>
    Number(
      (
        await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(
          t.database.db,
        )
      ).rows[0].n,
    );
  return {
    feedbacks: await count('feedbacks'),
    reminders: await count('reminders'),
    appointments: await count('appointments'),
    outbox: await count('outbox'),
    notifications: await count('notifications'),
  };
}

function keyOf(response: LightMyRequestResponse, status: number): ErrorAnswer {
  expect(response.statusCode, response.body).toBe(status);
  return response.json() as ErrorAnswer;
}

function refused(response: LightMyRequestResponse): Record<string, string[]> {
  const answer = keyOf(response, 422);
  return Object.fromEntries(
    Object.entries(answer.error_keys ?? {}).map(([field, keys]) => [
      field,
      keys.map((k) => k.message),
    ]),
  );
}

beforeAll(async () => {
  t = await createTestApp();
  for (const user of await t.database.db.selectFrom('users').select(['id', 'email']).execute())
    users[String(user.email)] = Number(user.id);
  leadSourceId = Number(
    (
      await created(ADMIN, '/api/lead-sources', {
        name_de: `Partnerportal ${unique}`,
        name_fr: `Portail partenaire ${unique}`,
        group: 'special',
        feedback_to: {
          enabled: true,
          email: `feedback.${unique}@partner.example.ch`,
          bcc: `copy.${unique}@partner.example.ch`,
          subject: '',
        },
      })
    ).id,
  );
  mine = await created(CONSULTANT, '/api/customers', {
    first_name: 'Feedback',
    last_name: `Kunde${unique}`,
    street: 'Seestrasse',
    address_number: '4',
    zip: '8820',
    city: 'Wädenswil',
  });
});
afterAll(async () => {
  await t?.close();
});

describe('POST /api/appointments/:id/feedback', () => {
  it('stores the feedback, sets the status, creates the reminder and the follow-up in one call', async () => {
    const booked = await appointment(mine);
    const day = inDays(7);
    const response = await feedback(booked.id, {
      has_taken_place: true,
      status: 10,
      note: 'Offerte Hausrat gewünscht',
      comment: 'Partnerin beim nächsten Mal dabei',
      reminder: { due_date: inDays(2), subject: 'Offerte schicken', time: '10:00' },
      follow_up_appointment: {
        date_start: swiss(day, '14:00'),
        date_end: swiss(day, '15:00'),
        comment: 'Offerte besprechen',
      },
    });
    expect(response.statusCode, response.body).toBe(201);
    const outcome = data<Outcome>(response);
    expect(outcome.appointment).toMatchObject({
      id: booked.id,
      status: 10,
      feedback_id: outcome.feedback.id,
      version: 2,
    });
    expect(outcome.feedback).toMatchObject({
      appointment_id: booked.id,
      has_taken_place: true,
      status: 10,
      note: 'Offerte Hausrat gewünscht',
      user_id: users[CONSULTANT],
      reminder_id: outcome.reminder?.id,
      follow_up_appointment_id: outcome.follow_up_appointment?.id,
    });
    expect(outcome.reminder).toMatchObject({
      subject: 'Offerte schicken',
      status: 'open',
      due_date: inDays(2),
      time: '10:00:00',
      date: inDays(0),
      category: 'follow_up',
      user_id: users[CONSULTANT],
      assigner_id: users[CONSULTANT],
      client_id: mine.id,
      appointment_id: booked.id,
    });
    expect(outcome.follow_up_appointment).toMatchObject({
      client_id: mine.id,
      consultant_id: users[CONSULTANT],
      status: 1,
      appointment_type: 'follow_up',
      previous_appointment_id: booked.id,
      date: day,
      start_time: '14:00:00',
      end_time: '15:00:00',
      street: 'Seestrasse',
      number: '4',
      zip: '8820',
      canton: 'ZH',
      comment: 'Offerte besprechen',
    });
    // As GET answers them.
    expect(data(await call(CONSULTANT, 'GET', `/api/appointments/${booked.id}`))).toEqual(
      outcome.appointment,
    );
    expect(data(await call(CONSULTANT, 'GET', `/api/feedbacks/${outcome.feedback.id}`))).toEqual(
      outcome.feedback,
    );
    // The history: every row written by the call carries the user and the request id.
    const audit = await t.database.db
      .selectFrom('audit_log')
      .select(['resource', 'action', 'user_id', 'request_id'])
      .where('request_id', '=', String(response.headers['x-request-id']))
      .execute();
    expect(audit.map((row) => `${row.resource} ${row.action}`).sort()).toEqual(
      ['appointments create', 'appointments update', 'feedbacks create', 'reminders create'].sort(),
    );
    for (const row of audit) expect(row.user_id).toBe(users[CONSULTANT]);
  });

  it('the back office gives feedback for a consultant: the reminder is the consultant’s, who is told of the follow-up', async () => {
    const booked = await appointment(mine);
    const day = inDays(9);
    const before = await counts();
    const outcome = data<Outcome>(
      await feedback(
        booked.id,
        {
          has_taken_place: false,
          is_reached_by_phone: true,
          status: 7,
          reminder: { due_date: inDays(0), subject: 'Zurückrufen', category: 'call' },
          follow_up_appointment: {
            date_start: swiss(day, '08:00'),
            date_end: swiss(day, '09:00'),
            address: 'Dorfstrasse',
            address_no: '1',
            zipcode: '6300',
            city: 'Zug',
            type: 'first',
          },
        },
        ADMIN,
      ),
    );
    expect(outcome.reminder).toMatchObject({
      user_id: users[CONSULTANT],
      assigner_id: users[ADMIN],
      category: 'call',
    });
    expect(outcome.follow_up_appointment).toMatchObject({
      street: 'Dorfstrasse',
      zip: '6300',
      canton: 'ZG',
      appointment_type: 'first',
    });
    expect(outcome.feedback).toMatchObject({ user_id: users[ADMIN], is_reached_by_phone: true });
    expect((await counts()).notifications).toBe(before.notifications + 1);
  });

  it('refuses feedback twice (409), for a cancelled appointment (409), before it began (409)', async () => {
    const booked = await appointment(mine);
    expect((await feedback(booked.id, { has_taken_place: true, status: 2 })).statusCode).toBe(201);
    const cancelled = await appointment(mine, { status: 6 });
    const later = await appointment(mine, {
      date_start: swiss(inDays(1), '09:00'),
      date_end: swiss(inDays(1), '10:00'),
    });
    const notAssigned = await appointment(mine, { status: 15, consultant_id: null });
    const before = await counts();
    expect(keyOf(await feedback(booked.id, { has_taken_place: true, status: 2 }), 409).key).toBe(
      'app.errors.feedbackGiven',
    );
    expect(
      keyOf(await feedback(cancelled.id, { has_taken_place: false, status: 7 }), 409).key,
    ).toBe('app.errors.feedbackNotPossible');
    expect(keyOf(await feedback(later.id, { has_taken_place: true, status: 2 }), 409).key).toBe(
      'app.errors.feedbackTooEarly',
    );
    // Not assigned (15): not a planned appointment.
    expect(
      refused(await feedback(notAssigned.id, { has_taken_place: true, status: 2 }, ADMIN)),
    ).toEqual({
      status: ['app.errors.statusTransition'],
    });
    expect(await counts()).toEqual(before);
  });

  it('refuses bad input with 422 naming the field, and writes nothing', async () => {
    const booked = await appointment(mine);
    const before = await counts();
    const day = inDays(5);
    expect(refused(await feedback(booked.id, { has_taken_place: true, status: 7 }))).toEqual({
      status: ['app.errors.feedbackStatus'],
    });
    expect(refused(await feedback(booked.id, { has_taken_place: false, status: 2 }))).toEqual({
      status: ['app.errors.feedbackStatus'],
    });
    expect(
      refused(
        await feedback(booked.id, {
          has_taken_place: true,
          status: 2,
          follow_up_appointment: {
            date_start: swiss(inDays(-1), '09:00'),
            date_end: swiss(inDays(-1), '10:00'),
          },
        }),
      ),
    ).toEqual({ 'follow_up_appointment.date_start': ['app.errors.notInPast'] });
    expect(
      refused(
        await feedback(booked.id, {
          has_taken_place: true,
          status: 2,
          follow_up_appointment: { date_start: swiss(day, '10:00'), date_end: swiss(day, '09:00') },
        }),
      ),
    ).toEqual({ 'follow_up_appointment.date_end': ['app.errors.endBeforeStart'] });
    expect(
      refused(
        await feedback(booked.id, {
          has_taken_place: true,
          status: 2,
          reminder: { due_date: inDays(-1), subject: 'zu spät' },
        }),
      ),
    ).toEqual({ 'reminder.due_date': ['app.errors.notInPast'] });
    // Validation of the body itself.
    expect(
      Object.keys(refused(await feedback(booked.id, { has_taken_place: true, status: 3 }))),
    ).toEqual(['status']);
    expect(
      Object.keys(
        refused(
          await feedback(booked.id, {
            has_taken_place: true,
            status: 2,
            reminder: { due_date: inDays(1), subject: 'x', time: '24:30' },
          }),
        ),
      ),
    ).toEqual(['reminder.time']);
    expect(await counts()).toEqual(before);
    expect(data(await call(CONSULTANT, 'GET', `/api/appointments/${booked.id}`))).toMatchObject({
      status: 1,
      feedback_id: null,
      version: 1,
    });
  });

  it('answers 404 for an appointment the caller may not see, 409 for a stale version', async () => {
    const booked = await appointment(mine);
    expect(
      (await feedback(booked.id, { has_taken_place: true, status: 2 }, CONSULTANT2)).statusCode,
    ).toBe(404);
    expect((await feedback(2_000_000_000, { has_taken_place: true, status: 2 })).statusCode).toBe(
      404,
    );
    await call(ADMIN, 'PATCH', `/api/appointments/${booked.id}`, { note: 'geändert' });
    const stale = keyOf(
      await feedback(booked.id, { has_taken_place: true, status: 2, version: 1 }),
      409,
    );
    expect(stale.current).toMatchObject({ id: booked.id, version: 2, note: 'geändert' });
    expect(
      (await feedback(booked.id, { has_taken_place: true, status: 2, version: 2 })).statusCode,
    ).toBe(201);
  });

  it('is atomic: a failing after-feedback handler leaves nothing behind', async () => {
    const booked = await appointment(mine);
    const day = inDays(6);
    const before = await counts();
    const seen: number[] = [];
    const remove = t.app.feedbackHandlers.add('test-failure', async ({ db, feedback: given }) => {
      seen.push(Number(given.id));
      // Something a later feature writes, then fails (as a lead move could).
      await db
        .insertInto('notifications')
        .values({ user_id: users[ADMIN], title: 'x', level: 'info' })
        .execute();
      throw new Error('injected failure');
    });
    try {
      const response = await feedback(booked.id, {
        has_taken_place: true,
        status: 2,
        reminder: { due_date: inDays(1), subject: 'Nie gespeichert' },
        follow_up_appointment: { date_start: swiss(day, '10:00'), date_end: swiss(day, '11:00') },
      });
      expect(response.statusCode).toBe(500);
    } finally {
      remove();
    }
    expect(seen).toHaveLength(1);
    expect(await counts()).toEqual(before);
    expect(data(await call(CONSULTANT, 'GET', `/api/appointments/${booked.id}`))).toMatchObject({
      status: 1,
      feedback_id: null,
      version: 1,
    });
    // Without the failing handler the same call goes through.
    expect((await feedback(booked.id, { has_taken_place: true, status: 2 })).statusCode).toBe(201);
  });

  it("mails the customer's lead source when it asks for feedback, in the writer's language", async () => {
    const customer = await created(CONSULTANT2, '/api/customers', {
      first_name: 'Léa',
      last_name: `Source${unique}`,
      lead_source: leadSourceId,
      zip: '1003',
      city: 'Lausanne',
    });
    const booked = await appointment(customer, { consultant_id: users[CONSULTANT2] }, CONSULTANT2);
    const response = await feedback(
      booked.id,
      { has_taken_place: true, status: 2, note: 'Contrat signé' },
      CONSULTANT2,
    );
    expect(response.statusCode, response.body).toBe(201);
    const mails = await t.database.db
      .selectFrom('outbox')
      .select(['kind', 'to_address', 'subject', 'body'])
      .where('kind', '=', 'feedback-to-lead-source')
      .where('to_address', 'like', `%${unique}@partner.example.ch`)
      .orderBy('id')
      .execute();
    expect(mails.map((mail) => mail.to_address)).toEqual([
      `feedback.${unique}@partner.example.ch`,
      `copy.${unique}@partner.example.ch`,
    ]);
    expect(mails[0].subject).toMatch(
      /^Feedback sur le rendez-vous du \d\d\.\d\d\.\d{4} \d\d:\d\d$/,
    );
    expect(mails[0].body).toContain(`Léa Source${unique}`);
    expect(mails[0].body).toContain(`Portail partenaire ${unique}`);
    expect(mails[0].body).toContain('Contrat signé');
    expect(mails[0].body).toContain('Statut : ');
    // A source without "feedback to" gets nothing.
    const quiet = await appointment(mine);
    const outbox = (await counts()).outbox;
    expect((await feedback(quiet.id, { has_taken_place: true, status: 2 })).statusCode).toBe(201);
    expect((await counts()).outbox).toBe(outbox);
  });
});

describe('feedbacks through the generic routes', () => {
  it('are read like any record, changed only in note, comment and address, never created or deleted', async () => {
    const booked = await appointment(mine);
    const other = await appointment(mine);
    const given = data<Outcome>(
      await feedback(booked.id, { has_taken_place: true, status: 2, note: 'erste Notiz' }),
    ).feedback;
    const url = `/api/feedbacks/${given.id}`;
    const read = await call(CONSULTANT, 'GET', url);
    expect(read.statusCode).toBe(200);
    expect(read.headers.etag).toBe('"1"');
    expect((await call(CONSULTANT2, 'GET', url)).statusCode).toBe(404);
    const listed = await call(CONSULTANT, 'GET', `/api/feedbacks?appointment_id=${booked.id}`);
    expect(data<Row[]>(listed).map((row) => row.id)).toEqual([given.id]);
    expect(
      data<Row[]>(await call(CONSULTANT2, 'GET', `/api/feedbacks?appointment_id=${booked.id}`)),
    ).toEqual([]);
    expect(
      data<Row[]>(await call(ADMIN, 'GET', '/api/feedbacks?search=erste&per_page=100')).map(
        (row) => row.id,
      ),
    ).toContain(given.id);

    const patched = await call(CONSULTANT, 'PATCH', url, {
      note: 'korrigiert',
      comment: 'nachgetragen',
      address: 'im Büro',
      version: 1,
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(data(patched)).toMatchObject({ note: 'korrigiert', address: 'im Büro', version: 2 });
    // The rest is the feedback call's: refused when it would change, accepted unchanged (PUT).
    for (const body of [{ status: 7 }, { has_taken_place: false }, { appointment_id: other.id }]) {
      const answer = refused(await call(ADMIN, 'PATCH', url, body));
      expect(Object.values(answer).flat()).toContain('app.errors.notYours');
    }
    expect(refused(await call(ADMIN, 'PATCH', url, { user_id: users[ADMIN] }))).toEqual({
      user_id: ['app.errors.readOnly'],
    });
    const put = await call(ADMIN, 'PUT', url, { ...data<Row>(patched), note: 'per PUT' });
    expect(put.statusCode, put.body).toBe(200);
    expect(data(put)).toMatchObject({ note: 'per PUT', status: 2, version: 3 });

    // create and delete: nobody.
    expect(
      (
        await call(ADMIN, 'POST', '/api/feedbacks', {
          appointment_id: booked.id,
          has_taken_place: true,
          status: 2,
        })
      ).statusCode,
    ).toBe(403);
    expect((await call(ADMIN, 'DELETE', url)).statusCode).toBe(403);
    expect((await call(CONSULTANT, 'GET', url)).statusCode).toBe(200);
  });
});

describe('personal-data requests', () => {
  it("export carries the customer's appointments and feedback; erasure deletes them", async () => {
    const customer = await created(CONSULTANT, '/api/customers', {
      first_name: 'Vergessen',
      last_name: `Werden${unique}`,
    });
    const booked = await appointment(customer);
    const day = inDays(8);
    const outcome = data<Outcome>(
      await feedback(booked.id, {
        has_taken_place: true,
        status: 2,
        note: 'persönliche Notiz',
        follow_up_appointment: { date_start: swiss(day, '09:00'), date_end: swiss(day, '10:00') },
      }),
    );
    const erased = await call(ADMIN, 'POST', `/api/customers/${customer.id}/erase`);
    expect(erased.statusCode, erased.body).toBe(200);
    expect(data(erased)).toMatchObject({ pseudonymised: false });
    const left = await t.database.db
      .selectFrom('appointments')
      .select('id')
      .where('id', 'in', [Number(booked.id), Number(outcome.follow_up_appointment?.id)])
      .execute();
    expect(left).toEqual([]);
    expect(
      await t.database.db
        .selectFrom('feedbacks')
        .select('id')
        .where('id', '=', Number(outcome.feedback.id))
        .execute(),
    ).toEqual([]);
  });
});
