/**
 * Appointments on the server (issue 15): both time pairs kept in step in Swiss time and the rules
 * on them, the status transitions, the address and coordinates from the customer and the zip,
 * visibility (own and own customers'), the type filter and region=mine, the double-booking check,
 * and the notification of the consultant an appointment is given to. Both engines.
 */
import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lookupPostcode } from '../../server/appointments/postcodes.ts';
import { ADMIN, CONSULTANT, createTestApp, type TestApp } from './harness.ts';

dayjs.extend(utc);
dayjs.extend(timezone);

const CONSULTANT2 = 'consultant2@demo.gscrm.ch';
const CALLCENTER = 'callcenter@demo.gscrm.ch';

type Row = Record<string, unknown>;
interface ErrorAnswer {
  error_keys?: Record<string, Array<{ message: string; args?: Record<string, unknown> }>>;
}

let t: TestApp;
const users: Record<string, number> = {};
let mine: Row;
let theirs: Row;
const unique = Math.random().toString(36).slice(2, 8);

const call = (as: string, method: string, url: string, payload?: unknown) =>
  t.request({ method: method as 'GET', url, payload: payload as never, as });
const data = <T = Row>(response: LightMyRequestResponse) => (response.json() as { data: T }).data;

async function created(as: string, url: string, payload: Row): Promise<Row> {
  const response = await call(as, 'POST', url, payload);
  expect(response.statusCode, response.body).toBe(201);
  return data(response);
}

/** The error keys of a 422, by field. */
function refused(response: LightMyRequestResponse): Record<string, string[]> {
  expect(response.statusCode, response.body).toBe(422);
  const answer = response.json() as ErrorAnswer;
  return Object.fromEntries(
    Object.entries(answer.error_keys ?? {}).map(([field, keys]) => [
      field,
      keys.map((key) => key.message),
    ]),
  );
}

/** The instant of a Swiss local date and time. */
const swiss = (date: string, time: string) =>
  dayjs.tz(`${date}T${time}`, 'Europe/Zurich').toISOString();
/** A Swiss date `days` from today. */
const inDays = (days: number) => dayjs().tz('Europe/Zurich').add(days, 'day').format('YYYY-MM-DD');

const booking = (customer: Row, date: string, from: string, to: string, extra: Row = {}): Row => ({
  client_id: customer.id,
  date_start: swiss(date, from),
  date_end: swiss(date, to),
  ...extra,
});

beforeAll(async () => {
  t = await createTestApp();
  for (const user of await t.database.db.selectFrom('users').select(['id', 'email']).execute())
    users[String(user.email)] = Number(user.id);
  mine = await created(CONSULTANT, '/api/customers', {
    first_name: 'Termin',
    last_name: `Kundin${unique}`,
    street: 'Bahnhofstrasse',
    address_number: '7',
    zip: '8001',
    city: 'Zürich',
  });
  theirs = await created(CONSULTANT2, '/api/customers', {
    first_name: 'Rendez-vous',
    last_name: `Client${unique}`,
    street: 'Rue du Lac',
    address_number: '3',
    zip: '1820',
    city: 'Montreux',
  });
});
afterAll(async () => {
  await t?.close();
});

describe('times in Swiss local time', () => {
  it('computes date, start_time and end_time from the instants (winter and summer time)', async () => {
    const winter = await created(ADMIN, '/api/appointments', {
      client_id: mine.id,
      date_start: '2030-01-15T08:00:00.000Z',
      date_end: '2030-01-15T09:30:00.000Z',
    });
    expect(winter).toMatchObject({
      date: '2030-01-15',
      start_time: '09:00:00',
      end_time: '10:30:00',
    });
    const summer = await created(ADMIN, '/api/appointments', {
      client_id: mine.id,
      date_start: '2030-07-15T22:30:00.000Z',
      date_end: '2030-07-15T23:00:00.000Z',
    });
    // 00:30 in Zurich: the next Swiss day.
    expect(summer).toMatchObject({
      date: '2030-07-16',
      start_time: '00:30:00',
      end_time: '01:00:00',
    });
  });

  it('moves the instants when only the local fields change, and the local ones with the instants', async () => {
    const appointment = await created(
      ADMIN,
      '/api/appointments',
      booking(mine, '2030-03-12', '09:00', '10:00'),
    );
    const url = `/api/appointments/${appointment.id}`;
    const later = await call(ADMIN, 'PATCH', url, { start_time: '09:30' });
    expect(later.statusCode, later.body).toBe(200);
    expect(data(later)).toMatchObject({ start_time: '09:30:00', end_time: '10:00:00' });
    expect(Date.parse(String(data(later).date_start))).toBe(
      Date.parse(swiss('2030-03-12', '09:30')),
    );
    expect(Date.parse(String(data(later).date_end))).toBe(Date.parse(swiss('2030-03-12', '10:00')));

    // Another day, over the change to summer time (29 March 2030): same clock times.
    const moved = await call(ADMIN, 'PATCH', url, { date: '2030-04-02' });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(Date.parse(String(data(moved).date_start))).toBe(
      Date.parse(swiss('2030-04-02', '09:30')),
    );
    expect(data(moved)).toMatchObject({ date: '2030-04-02', start_time: '09:30:00' });

    // A calendar drag sends the instants (with the version): the local fields follow.
    const dragged = await call(ADMIN, 'PATCH', url, {
      date_start: swiss('2030-04-03', '14:00'),
      date_end: swiss('2030-04-03', '15:15'),
      version: data(moved).version,
    });
    expect(dragged.statusCode, dragged.body).toBe(200);
    expect(data(dragged)).toMatchObject({
      date: '2030-04-03',
      start_time: '14:00:00',
      end_time: '15:15:00',
    });
    // The record sent back as read changes nothing.
    const again = await call(ADMIN, 'PUT', url, data(dragged));
    expect(again.statusCode, again.body).toBe(200);
    expect(data(again)).toMatchObject({ date: '2030-04-03', start_time: '14:00:00' });
    // A stale version is refused.
    const stale = await call(ADMIN, 'PATCH', url, { start_time: '08:00', version: 1 });
    expect(stale.statusCode).toBe(409);
  });

  it('refuses an end before the start, a time outside the day and an end on another day', async () => {
    expect(
      refused(
        await call(
          ADMIN,
          'POST',
          '/api/appointments',
          booking(mine, '2030-05-02', '10:00', '09:00'),
        ),
      ),
    ).toEqual({ date_end: ['app.errors.endBeforeStart'] });
    expect(
      refused(
        await call(ADMIN, 'POST', '/api/appointments', {
          client_id: mine.id,
          date_start: swiss('2030-05-02', '22:00'),
          date_end: swiss('2030-05-03', '01:00'),
        }),
      ),
    ).toEqual({ date_end: ['app.errors.notSameDay'] });
    const appointment = await created(
      ADMIN,
      '/api/appointments',
      booking(mine, '2030-05-02', '09:00', '10:00'),
    );
    const url = `/api/appointments/${appointment.id}`;
    expect(refused(await call(ADMIN, 'PATCH', url, { end_time: '08:30' }))).toEqual({
      end_time: ['app.errors.endBeforeStart'],
    });
    expect(refused(await call(ADMIN, 'PATCH', url, { start_time: '24:30' }))).toEqual({
      start_time: ['app.errors.notAtThatTime'],
    });
    expect(refused(await call(ADMIN, 'PATCH', url, { date: null }))).toEqual({
      date: ['app.errors.required'],
    });
    // Only the end moved, to before the stored start.
    expect(
      refused(await call(ADMIN, 'PATCH', url, { date_end: swiss('2030-05-02', '08:00') })),
    ).toEqual({ date_end: ['app.errors.endBeforeStart'] });
    const stored = data(await call(ADMIN, 'GET', url));
    expect(stored).toMatchObject({ start_time: '09:00:00', end_time: '10:00:00', version: 1 });
  });
});

describe('address and place', () => {
  it("takes the customer's address, and canton and coordinates from the zip", async () => {
    const appointment = await created(
      ADMIN,
      '/api/appointments',
      booking(mine, '2030-06-03', '09:00', '10:00'),
    );
    const zurich = lookupPostcode('8001')!;
    expect(appointment).toMatchObject({
      street: 'Bahnhofstrasse',
      number: '7',
      zip: '8001',
      city: 'Zürich',
      canton: 'ZH',
      latitude: zurich.latitude,
      longitude: zurich.longitude,
    });
    const url = `/api/appointments/${appointment.id}`;
    // Another zip: canton and coordinates follow (an area's main town when the zip has no entry).
    const moved = data(await call(ADMIN, 'PATCH', url, { zip: '3945', city: 'Gampel' }));
    expect(moved).toMatchObject({ canton: 'VS', city: 'Gampel' });
    expect(moved.latitude).toBe(lookupPostcode('3900')!.latitude);
    // Coordinates sent are kept; an unknown zip has no canton.
    const given = data(
      await call(ADMIN, 'PATCH', url, { zip: 'D-79539', latitude: 47.61, longitude: 7.66 }),
    );
    expect(given).toMatchObject({ canton: null, latitude: 47.61, longitude: 7.66 });
    // An address of its own on create, with coordinates sent.
    const own = await created(
      ADMIN,
      '/api/appointments',
      booking(mine, '2030-06-04', '09:00', '10:00', {
        street: 'Place de la Gare',
        zip: '1003',
        city: 'Lausanne',
        latitude: 46.5167,
        longitude: 6.6291,
      }),
    );
    expect(own).toMatchObject({
      street: 'Place de la Gare',
      number: null,
      canton: 'VD',
      latitude: 46.5167,
      longitude: 6.6291,
    });
  });

  it('knows every two-digit postcode area of Switzerland and the larger towns', () => {
    for (let area = 10; area <= 96; area++) {
      if ([58, 59, 78, 79].includes(area)) continue;
      const found = lookupPostcode(`${area}50`);
      expect(found, `area ${area}`).toBeDefined();
      expect(found!.latitude).toBeGreaterThan(45.8);
      expect(found!.latitude).toBeLessThan(47.9);
      expect(found!.longitude).toBeGreaterThan(5.9);
      expect(found!.longitude).toBeLessThan(10.5);
    }
    expect(lookupPostcode('6900')).toMatchObject({
      canton: 'TI',
      place: 'Lugano',
      precision: 'town',
    });
    expect(lookupPostcode('3186')).toMatchObject({ canton: 'FR' });
    expect(lookupPostcode('9490')).toMatchObject({ canton: null });
    expect(lookupPostcode('12345')).toBeUndefined();
    expect(lookupPostcode('0999')).toBeUndefined();
  });
});

describe('status transitions', () => {
  it('allows the written transitions and refuses the others (422 naming status)', async () => {
    const appointment = await created(
      ADMIN,
      '/api/appointments',
      booking(mine, '2030-06-10', '09:00', '10:00'),
    );
    expect(appointment.status).toBe(1);
    const url = `/api/appointments/${appointment.id}`;
    const patch = (body: Row) => call(ADMIN, 'PATCH', url, body);
    expect((await patch({ status: 3 })).statusCode).toBe(200);
    // Cancelled without a cancel status: still to rebook.
    const cancelled = data(await patch({ status: 6, cancel_reason: 'krank' }));
    expect(cancelled).toMatchObject({ status: 6, cancel_status: 'to_rebook' });
    expect((await patch({ status: 1, cancel_status: 'rebooked' })).statusCode).toBe(200);
    // A cancel status given is kept.
    expect(data(await patch({ status: 5, cancel_status: 'closed' }))).toMatchObject({
      status: 5,
      cancel_status: 'closed',
    });
    const refusal = await patch({ status: 15 });
    expect(refused(refusal)).toEqual({ status: ['app.errors.statusTransition'] });
    const args = (refusal.json() as ErrorAnswer).error_keys?.status?.[0]?.args;
    // Labels in the writer's language (the admin's: German).
    expect(args).toEqual({ from: 'Abgesagt', to: 'Wurde nicht zugewiesen' });
    expect((await patch({ status: 3 })).statusCode).toBe(200);
    for (const status of [2, 7, 10]) {
      expect(refused(await patch({ status }))).toEqual({ status: ['app.errors.setByFeedback'] });
    }
    expect(refused(await patch({ status: null }))).toEqual({ status: ['app.errors.required'] });
    expect(
      refused(
        await call(ADMIN, 'POST', '/api/appointments', {
          ...booking(mine, '2030-06-11', '09:00', '10:00'),
          status: 10,
        }),
      ),
    ).toEqual({ status: ['app.errors.setByFeedback'] });
    expect(data(await call(ADMIN, 'GET', url)).status).toBe(3);
  });
});

describe('visibility', () => {
  it('a consultant sees their own and their customers’ appointments, 404 otherwise', async () => {
    const ours = await created(
      CONSULTANT,
      '/api/appointments',
      booking(mine, inDays(20), '09:00', '10:00'),
    );
    // The consultant is always the one who creates (x-owner).
    expect(ours.consultant_id).toBe(users[CONSULTANT]);
    const hers = await created(
      CONSULTANT2,
      '/api/appointments',
      booking(theirs, inDays(20), '09:00', '10:00'),
    );
    // The back office books consultant2 at consultant1's customer: both see it.
    const shared = await created(
      ADMIN,
      '/api/appointments',
      booking(mine, inDays(21), '09:00', '10:00', { consultant_id: users[CONSULTANT2] }),
    );
    const get = (as: string, row: Row) => call(as, 'GET', `/api/appointments/${row.id}`);
    expect((await get(CONSULTANT, ours)).statusCode).toBe(200);
    expect((await get(CONSULTANT, hers)).statusCode).toBe(404);
    expect((await get(CONSULTANT, shared)).statusCode).toBe(200);
    expect((await get(CONSULTANT2, shared)).statusCode).toBe(200);
    expect((await get(CONSULTANT2, ours)).statusCode).toBe(404);
    expect(
      (await call(CONSULTANT, 'PATCH', `/api/appointments/${hers.id}`, { note: 'x' })).statusCode,
    ).toBe(404);
    const listed = await call(
      CONSULTANT,
      'GET',
      `/api/appointments?id=${ours.id}&id=${hers.id}&id=${shared.id}&per_page=10`,
    );
    expect(
      data<Row[]>(listed)
        .map((row) => row.id)
        .sort(),
    ).toEqual([ours.id, shared.id].sort());
    // A customer the consultant may not see is unknown.
    expect(
      refused(
        await call(
          CONSULTANT,
          'POST',
          '/api/appointments',
          booking(theirs, inDays(22), '09:00', '10:00'),
        ),
      ),
    ).toEqual({ client_id: ['app.errors.unknownReference'] });
    // Nor can a consultant give the appointment to someone else.
    expect(
      refused(
        await call(CONSULTANT, 'PATCH', `/api/appointments/${ours.id}`, {
          consultant_id: users[CONSULTANT2],
        }),
      ),
    ).toEqual({ consultant_id: ['app.errors.otherOwner'] });
    // Roles without customer data see none.
    const employee = await call('employee@demo.gscrm.ch', 'GET', `/api/appointments/${ours.id}`);
    expect(employee.statusCode).toBe(404);
  });
});

describe('list parameters', () => {
  it('type=past|missing_feedbacks|unassigned and region=mine', async () => {
    const yesterday = inDays(-1);
    const past = await created(
      ADMIN,
      '/api/appointments',
      booking(mine, yesterday, '09:00', '10:00', { consultant_id: users[CONSULTANT] }),
    );
    const pastCancelled = await created(
      ADMIN,
      '/api/appointments',
      booking(mine, yesterday, '11:00', '12:00', { status: 5 }),
    );
    const future = await created(
      ADMIN,
      '/api/appointments',
      booking(mine, inDays(3), '09:00', '10:00', { consultant_id: users[CONSULTANT] }),
    );
    const unassigned = await created(
      ADMIN,
      '/api/appointments',
      booking(mine, inDays(3), '11:00', '12:00'),
    );
    const notAssigned = await created(
      ADMIN,
      '/api/appointments',
      booking(theirs, inDays(4), '11:00', '12:00', { status: 15 }),
    );
    const pastUnassigned = await created(
      ADMIN,
      '/api/appointments',
      booking(mine, yesterday, '14:00', '15:00'),
    );
    const all = [past, pastCancelled, future, unassigned, notAssigned, pastUnassigned];
    const ids = all.map((row) => `id=${row.id}`).join('&');
    const listed = async (as: string, query: string) =>
      data<Row[]>(await call(as, 'GET', `/api/appointments?${ids}&per_page=50&${query}`))
        .map((row) => row.id)
        .sort();
    const sorted = (...rows: Row[]) => rows.map((row) => row.id).sort();
    expect(await listed(ADMIN, 'type=all')).toEqual(sorted(...all));
    expect(await listed(ADMIN, 'type=past')).toEqual(sorted(past, pastCancelled, pastUnassigned));
    expect(await listed(ADMIN, 'type=missing_feedbacks')).toEqual(sorted(past, pastUnassigned));
    expect(await listed(ADMIN, 'type=unassigned')).toEqual(sorted(unassigned, notAssigned));
    // A consultant's own missing feedbacks (the unassigned one is not theirs but their customer's).
    expect(await listed(CONSULTANT, 'type=missing_feedbacks')).toEqual(
      sorted(past, pastUnassigned),
    );
    // region=mine: cantons of users.district_ids (consultant: ZH, ZG, SZ; consultant2: VD, VS, FR).
    expect(await listed(CONSULTANT, 'region=mine')).toEqual(
      sorted(past, pastCancelled, future, unassigned, pastUnassigned),
    );
    expect(await listed(ADMIN, 'region=mine&type=unassigned')).toEqual(sorted(unassigned));
    expect(await listed(CONSULTANT2, 'region=mine')).toEqual(sorted(notAssigned));
    expect(await listed(CALLCENTER, 'region=mine')).toEqual([]);
    expect((await call(ADMIN, 'GET', '/api/appointments?type=later')).statusCode).toBe(400);
    expect((await call(ADMIN, 'GET', '/api/appointments?region=yours')).statusCode).toBe(400);
  });
});

describe('GET /api/appointments/overlaps', () => {
  it("answers the consultant's planned appointments overlapping a range, those the caller sees", async () => {
    const day = inDays(40);
    const nine = await created(
      ADMIN,
      '/api/appointments',
      booking(mine, day, '09:00', '10:00', { consultant_id: users[CONSULTANT] }),
    );
    await created(
      ADMIN,
      '/api/appointments',
      booking(mine, day, '10:00', '11:00', { consultant_id: users[CONSULTANT], status: 5 }),
    );
    const eleven = await created(
      ADMIN,
      '/api/appointments',
      booking(theirs, day, '10:30', '11:30', { consultant_id: users[CONSULTANT] }),
    );
    await created(
      ADMIN,
      '/api/appointments',
      booking(mine, day, '09:00', '10:00', { consultant_id: users[CONSULTANT2] }),
    );
    const ask = (as: string, from: string, to: string, extra = '') =>
      call(
        as,
        'GET',
        `/api/appointments/overlaps?consultant_id=${users[CONSULTANT]}&date_start=${encodeURIComponent(swiss(day, from))}&date_end=${encodeURIComponent(swiss(day, to))}${extra}`,
      );
    const found = await ask(ADMIN, '09:30', '11:00');
    expect(found.statusCode, found.body).toBe(200);
    expect(data<Row[]>(found)).toEqual([
      {
        id: nine.id,
        date_start: new Date(swiss(day, '09:00')).toISOString(),
        date_end: new Date(swiss(day, '10:00')).toISOString(),
        client_name: expect.stringContaining(`Kundin${unique}`),
        status: 1,
      },
      expect.objectContaining({ id: eleven.id }),
    ]);
    // Touching is no overlap; the one being moved is left out.
    expect(data<Row[]>(await ask(ADMIN, '08:00', '09:00'))).toEqual([]);
    expect(data<Row[]>(await ask(ADMIN, '09:30', '10:15', `&exclude_id=${nine.id}`))).toEqual([]);
    // The consultant sees their own; consultant2 sees none of them (its own customer's only).
    expect(data<Row[]>(await ask(CONSULTANT, '09:30', '11:00')).map((row) => row.id)).toEqual([
      nine.id,
      eleven.id,
    ]);
    expect(data<Row[]>(await ask(CONSULTANT2, '09:30', '11:00')).map((row) => row.id)).toEqual([
      eleven.id,
    ]);
    expect((await ask(ADMIN, '10:00', '09:00')).statusCode).toBe(400);
    const missing = await call(ADMIN, 'GET', '/api/appointments/overlaps?consultant_id=1');
    expect(missing.statusCode).toBe(400);
  });
});

describe('notifications', () => {
  it('tells the consultant an appointment was given to them, not when they booked it themselves', async () => {
    const notices = async () =>
      t.database.db
        .selectFrom('notifications')
        .select(['title', 'body', 'link', 'customer_id'])
        .where('user_id', '=', users[CONSULTANT])
        .orderBy('id')
        .execute();
    const before = (await notices()).length;
    await created(CONSULTANT, '/api/appointments', booking(mine, inDays(30), '09:00', '10:00'));
    expect((await notices()).length).toBe(before);
    const given = await created(
      CALLCENTER,
      '/api/appointments',
      booking(mine, '2031-02-03', '14:00', '15:00', { consultant_id: users[CONSULTANT] }),
    );
    const after = await notices();
    expect(after.length).toBe(before + 1);
    expect(after.at(-1)).toEqual({
      title: 'Neuer Termin am 03.02.2031 14:00',
      body: `Ihnen wurde ein Termin zugewiesen: 03.02.2031 14:00 mit Termin Kundin${unique}, Bahnhofstrasse 7, 8001 Zürich.`,
      link: `/consultant/appointments/${given.id}`,
      customer_id: mine.id,
    });
    // Reassigned to consultant2: notified too; a change of something else notifies nobody.
    const unassigned = await created(
      ADMIN,
      '/api/appointments',
      booking(mine, '2031-02-04', '14:00', '15:00'),
    );
    await call(ADMIN, 'PATCH', `/api/appointments/${unassigned.id}`, { note: 'n' });
    expect((await notices()).length).toBe(before + 1);
    await call(ADMIN, 'PATCH', `/api/appointments/${unassigned.id}`, {
      consultant_id: users[CONSULTANT],
    });
    expect((await notices()).length).toBe(before + 2);
  });
});
