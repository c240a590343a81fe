/**
 * Leads on the server (issue 16), both engines: the board's moves (one write per drop, positions
 * between neighbours, refusals naming the field, stale boards and cards), many concurrent moves
 * staying consistent, call attempts, who sees what (sources' visibleRoles, the call centre, a
 * consultant, hideContact), the mails and notifications a lead sets off, the blacklist, booking an
 * appointment from a lead and what its cancellation and feedback do, converting a prospect.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES } from '../../src/schema/permissions.ts';
import { ADMIN, CONSULTANT, createTestApp, type TestApp } from './harness.ts';

const CONSULTANT2 = 'consultant2@demo.gscrm.ch';
const CALLCENTER = 'callcenter@demo.gscrm.ch';
const BACKOFFICE = 'backoffice@demo.gscrm.ch';

type Row = Record<string, unknown>;

let t: TestApp;
const users: Record<string, number> = {};
const unique = Math.random().toString(36).slice(2, 8);
let source: Row; // visible to everybody
let hidden: Row; // visible to ADMIN and BACKOFFICE only
let secret: Row; // hides the contact details; notifies; mails

const call = (as: string, method: string, url: string, payload?: unknown) =>
  t.request({ method: method as 'GET', url, payload: payload as never, as });
const data = <T = Row>(response: LightMyRequestResponse) => (response.json() as { data: T }).data;

async function created(as: string, url: string, payload: Row): Promise<Row> {
  const response = await call(as, 'POST', url, payload);
  expect(response.statusCode, response.body).toBe(201);
  return data(response);
}

/** The error keys of a refusal by field. */
function keysOf(response: LightMyRequestResponse, status = 422): Record<string, string[]> {
  expect(response.statusCode, response.body).toBe(status);
  const answer = response.json() as {
    error_keys?: Record<string, Array<{ message: string }>>;
  };
  return Object.fromEntries(
    Object.entries(answer.error_keys ?? {}).map(([field, keys]) => [
      field,
      keys.map((key) => key.message),
    ]),
  );
}

let counter = 0;
const lead = (as: string, extra: Row = {}) =>
  created(as, '/api/leads', {
    first_name: 'Lea',
    last_name: `Lead${unique}${++counter}`,
    lead_source: source.id,
    status: 'new',
    ...extra,
  });

const move = (as: string, id: unknown, body: Row) =>
  call(as, 'POST', `/api/leads/${String(id)}/move`, body);

/** The ids of a column of a source, in board order. */
async function column(status: string, sourceId = source.id, as = ADMIN): Promise<number[]> {
  const query = new URLSearchParams({
    status,
    lead_source: String(sourceId),
    sort: 'position',
    order: 'asc',
    per_page: '200',
  });
  const response = await call(as, 'GET', `/api/leads?${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return data<Row[]>(response).map((row) => Number(row.id));
}

beforeAll(async () => {
  t = await createTestApp();
  for (const user of await t.database.db.selectFrom('users').select(['id', 'email']).execute())
    users[String(user.email)] = Number(user.id);
  source = await created(ADMIN, '/api/lead-sources', {
    name_de: `Webformular ${unique}`,
    group: 'internal',
    visible_roles: [...ROLES],
  });
  hidden = await created(ADMIN, '/api/lead-sources', {
    name_de: `Partnerliste ${unique}`,
    group: 'special',
    visible_roles: ['ADMIN', 'BACKOFFICE'],
  });
  secret = await created(ADMIN, '/api/lead-sources', {
    name_de: `Vergleichsportal ${unique}`,
    group: 'other',
    visible_roles: [...ROLES],
    hide_contact: true,
    assigned_notify: true,
    email_to: {
      enabled: true,
      email: `portal.${unique}@example.ch`,
      bcc: `copy.${unique}@example.ch`,
      subject: `Lead ${unique}`,
    },
  });
});

afterAll(async () => {
  await t?.close();
});

describe('the board', () => {
  it('puts a new lead on top of New Leads and refuses a lead without a person', async () => {
    const first = await lead(ADMIN);
    const second = await lead(ADMIN);
    expect(first.status).toBe('new');
    expect(typeof first.position).toBe('string');
    const ids = await column('new');
    expect(ids.indexOf(Number(second.id))).toBeLessThan(ids.indexOf(Number(first.id)));
    const response = await call(ADMIN, 'POST', '/api/leads', {
      lead_source: source.id,
      status: 'new',
      first_name: 'Nur',
    });
    expect(keysOf(response).last_name).toEqual(['app.errors.leadNoPerson']);
  });

  it('moves a card between its neighbours with one write, and to the top', async () => {
    const [a, b, c] = [await lead(ADMIN), await lead(ADMIN), await lead(ADMIN)];
    // Into "to do": a on top, then c below a, then b below a (between a and c).
    for (const [card, after] of [
      [a, null],
      [c, a.id],
      [b, a.id],
    ] as const) {
      const response = await move(ADMIN, card.id, { status: 'to do', after_id: after });
      expect(response.statusCode, response.body).toBe(200);
    }
    const ids = (await column('to do')).filter((id) => [a.id, b.id, c.id].includes(id));
    expect(ids).toEqual([a.id, b.id, c.id]);
    // Only the moved card changed: the others keep their version.
    const stored = await t.database.db
      .selectFrom('leads')
      .select(['id', 'version', 'position'])
      .where('id', 'in', [Number(a.id), Number(c.id)])
      .execute();
    expect(stored.map((row) => row.version).sort()).toEqual([2, 2]);
    const top = await move(ADMIN, c.id, { status: 'to do', after_id: null });
    expect(
      String(data(top).position) < String(stored.find((row) => row.id === a.id)?.position),
    ).toBe(true);
  });

  it('refuses a move to an unknown column, closing without a reason, and "appointment set"', async () => {
    const card = await lead(ADMIN);
    expect(Object.keys(keysOf(await move(ADMIN, card.id, { status: 'lost' })))).toEqual(['status']);
    expect(keysOf(await move(ADMIN, card.id, { status: 'closed' })).close_status).toEqual([
      'app.errors.leadCloseStatusRequired',
    ]);
    expect(
      keysOf(await move(ADMIN, card.id, { status: 'closed', close_status: 'appointment_set' }))
        .close_status,
    ).toEqual(['app.errors.leadAppointmentNeeded']);
    const after = data(await call(ADMIN, 'GET', `/api/leads/${String(card.id)}`));
    expect([after.status, after.version]).toEqual(['new', 1]);
  });

  it('answers 409 to a stale board (the neighbour moved away) and to a stale card', async () => {
    const [card, neighbour] = [await lead(ADMIN), await lead(ADMIN)];
    // The neighbour is in "new", not in "not reached".
    const stale = await move(ADMIN, card.id, { status: 'not reached', after_id: neighbour.id });
    expect(keysOf(stale, 409).after_id).toEqual(['app.errors.staleBoardPosition']);
    expect((await move(ADMIN, card.id, { status: 'to do', version: 1 })).statusCode).toBe(200);
    const old = await move(ADMIN, card.id, { status: 'new', version: 1 });
    expect(old.statusCode).toBe(409);
    expect((old.json() as { current: Row }).current.status).toBe('to do');
  });

  it('closes with a reason, keeps it inside Done and forgets it when reopened', async () => {
    const card = await lead(ADMIN);
    const closed = data(
      await move(ADMIN, card.id, { status: 'closed', close_status: 'not_interested' }),
    );
    expect([closed.status, closed.close_status]).toEqual(['closed', 'not_interested']);
    expect(closed.closed_at).toBeTruthy();
    const within = data(await move(ADMIN, card.id, { status: 'closed', after_id: null }));
    expect(within.close_status).toBe('not_interested');
    const reopened = data(await move(ADMIN, card.id, { status: 'to do' }));
    expect([reopened.close_status, reopened.closed_at]).toEqual([null, null]);
  });

  it('stays consistent under many concurrent moves (every card once, no two in one place)', async () => {
    const own = await created(ADMIN, '/api/lead-sources', {
      name_de: `Messe ${unique}`,
      group: 'other',
    });
    const cards: Row[] = [];
    for (let index = 0; index < 12; index++) cards.push(await lead(ADMIN, { lead_source: own.id }));
    const statuses = ['new', 'not reached', 'to do'];
    const moves = Array.from({ length: 40 }, (_, index) => {
      const card = cards[(index * 7) % cards.length] as Row;
      const anchor = cards[(index * 5 + 3) % cards.length] as Row;
      const status = statuses[index % 3] as string;
      return move(ADMIN, card.id, { status, after_id: index % 4 === 0 ? null : anchor.id });
    });
    const answers = await Promise.all(moves);
    // A drop below a card that moved away meanwhile is refused as stale; nothing else fails.
    for (const answer of answers) expect([200, 409], answer.body).toContain(answer.statusCode);
    expect(answers.filter((answer) => answer.statusCode === 200).length).toBeGreaterThan(10);
    const board = await Promise.all(statuses.map((status) => column(status, own.id)));
    const all = board.flat();
    expect(all.sort((x, y) => x - y)).toEqual(
      cards.map((card) => Number(card.id)).sort((x, y) => x - y),
    );
    const positions = await t.database.db
      .selectFrom('leads')
      .select(['status', 'position'])
      .where('lead_source', '=', Number(own.id))
      .execute();
    const keys = positions.map((row) => `${row.status}:${row.position}`);
    expect(new Set(keys).size).toBe(keys.length);
    // The list's order is the positions' byte order (what fractional indexing relies on).
    const positionOf = new Map(
      (
        await t.database.db
          .selectFrom('leads')
          .select(['id', 'position'])
          .where('lead_source', '=', Number(own.id))
          .execute()
      ).map((row) => [row.id, String(row.position)]),
    );
    for (const ids of board) {
      const keys = ids.map((id) => positionOf.get(id) as string);
      expect(keys).toEqual([...keys].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)));
    }
  });
});

describe('call attempts', () => {
  it('records an attempt and moves a lead not reached, then reached', async () => {
    const card = await lead(CALLCENTER);
    const first = data(
      await call(CALLCENTER, 'POST', `/api/leads/${String(card.id)}/call-attempts`, {
        outcome: 'voicemail',
        note: 'Combox',
      }),
    );
    expect([first.status, first.attempt_count]).toEqual(['not reached', 1]);
    const attempts = first.call_attempts as Row[];
    expect(attempts[0]).toMatchObject({
      outcome: 'voicemail',
      note: 'Combox',
      user_id: users[CALLCENTER],
    });
    const second = data(
      await call(CALLCENTER, 'POST', `/api/leads/${String(card.id)}/call-attempts`, {
        outcome: 'reached',
      }),
    );
    expect([second.status, second.attempt_count]).toEqual(['to do', 2]);
    const bad = await call(CALLCENTER, 'POST', `/api/leads/${String(card.id)}/call-attempts`, {
      outcome: 'maybe',
    });
    expect(Object.keys(keysOf(bad))).toEqual(['outcome']);
  });
});

describe('who sees what', () => {
  it('keeps leads of a source from roles its visibleRoles leave out', async () => {
    const restricted = await lead(ADMIN, { lead_source: hidden.id });
    expect((await call(BACKOFFICE, 'GET', `/api/leads/${String(restricted.id)}`)).statusCode).toBe(
      200,
    );
    expect((await call(CALLCENTER, 'GET', `/api/leads/${String(restricted.id)}`)).statusCode).toBe(
      404,
    );
    const refused = await call(CALLCENTER, 'POST', '/api/leads', {
      last_name: 'Versteckt',
      lead_source: hidden.id,
      status: 'new',
    });
    expect(keysOf(refused).lead_source).toEqual(['app.errors.leadSourceHidden']);
    const assign = await call(ADMIN, 'PATCH', `/api/leads/${String(restricted.id)}`, {
      assigned_to: users[CONSULTANT],
    });
    expect(keysOf(assign).assigned_to).toEqual(['app.errors.assigneeCannotSeeSource']);
  });

  it('shows a source naming no role only to those who manage lead sources, as its screen does', async () => {
    const unnamed = await created(ADMIN, '/api/lead-sources', {
      name_de: `Ohne Rollen ${unique}`,
      group: 'other',
    });
    const row = await lead(ADMIN, { lead_source: unnamed.id });
    const sees = async (as: string) => [
      (await call(as, 'GET', `/api/lead-sources/${String(unnamed.id)}`)).statusCode,
      (await call(as, 'GET', `/api/leads/${String(row.id)}`)).statusCode,
    ];
    // BACKOFFICE holds manage-companies (it edits lead sources); the call centre does not.
    expect(await sees(BACKOFFICE)).toEqual([200, 200]);
    expect(await sees(CALLCENTER)).toEqual([404, 404]);
    expect(await sees(CONSULTANT)).toEqual([404, 404]);
    const refused = await call(CALLCENTER, 'POST', '/api/leads', {
      last_name: 'Ohne',
      lead_source: unnamed.id,
      status: 'new',
    });
    expect(keysOf(refused).lead_source).toEqual(['app.errors.leadSourceHidden']);
    const assign = await call(ADMIN, 'PATCH', `/api/leads/${String(row.id)}`, {
      assigned_to: users[CALLCENTER],
    });
    expect(keysOf(assign).assigned_to).toEqual(['app.errors.assigneeCannotSeeSource']);
  });

  it('lets every role choose exactly the lead sources it is shown', async () => {
    for (const as of [BACKOFFICE, CALLCENTER, CONSULTANT]) {
      const listed = data<Row[]>(await call(as, 'GET', '/api/lead-sources?per_page=200'));
      const shown = new Set(listed.map((row) => Number(row.id)));
      for (const candidate of [source, hidden, secret]) {
        const response = await call(as, 'POST', '/api/leads', {
          last_name: `Wahl${unique}`,
          lead_source: candidate.id,
          status: 'new',
          ...(as === CONSULTANT ? { assigned_to: users[CONSULTANT] } : {}),
        });
        expect([as, candidate.id, response.statusCode === 201], response.body).toEqual([
          as,
          candidate.id,
          shown.has(Number(candidate.id)),
        ]);
      }
    }
  });

  it('gives the call centre the unassigned leads and its own, a consultant only its own', async () => {
    const open = await lead(ADMIN);
    const mine = await lead(ADMIN, { assigned_to: users[CONSULTANT] });
    const theirs = await lead(ADMIN, { assigned_to: users[CONSULTANT2] });
    const sees = async (as: string, row: Row) =>
      (await call(as, 'GET', `/api/leads/${String(row.id)}`)).statusCode;
    expect([await sees(CALLCENTER, open), await sees(CALLCENTER, mine)]).toEqual([200, 404]);
    expect([
      await sees(CONSULTANT, mine),
      await sees(CONSULTANT, theirs),
      await sees(CONSULTANT, open),
    ]).toEqual([200, 404, 404]);
    // The call centre assigns an unassigned lead; it then leaves the call centre's board.
    const assigned = await call(CALLCENTER, 'PATCH', `/api/leads/${String(open.id)}`, {
      assigned_to: users[CONSULTANT],
    });
    expect(assigned.statusCode, assigned.body).toBe(200);
    expect(await sees(CONSULTANT, open)).toBe(200);
    const unassigned = await call(
      CALLCENTER,
      'GET',
      `/api/leads?assignment=unassigned&lead_source=${String(source.id)}&per_page=200`,
    );
    expect(data<Row[]>(unassigned).every((row) => row.assigned_to === null)).toBe(true);
  });

  it("hides a hideContact source's contact details from the consultant and keeps them on write", async () => {
    const card = await lead(ADMIN, {
      lead_source: secret.id,
      assigned_to: users[CONSULTANT],
      email: `verborgen.${unique}@example.ch`,
      phone_number: '079 555 12 34',
      city: 'Luzern',
    });
    const seen = data(await call(CONSULTANT, 'GET', `/api/leads/${String(card.id)}`));
    expect([seen.email, seen.phone_number, seen.city]).toEqual([null, null, null]);
    const listed = data<Row[]>(
      await call(CONSULTANT, 'GET', `/api/leads?lead_source=${String(secret.id)}`),
    ).find((row) => row.id === card.id);
    expect(listed?.email).toBeNull();
    // The consultant's form sends the blanks back: the stored details stay.
    const put = await call(CONSULTANT, 'PUT', `/api/leads/${String(card.id)}`, {
      ...seen,
      notes: 'Rückruf am Montag',
    });
    expect(put.statusCode, put.body).toBe(200);
    const stored = data(await call(ADMIN, 'GET', `/api/leads/${String(card.id)}`));
    expect([stored.email, stored.phone_number, stored.notes]).toEqual([
      `verborgen.${unique}@example.ch`,
      '+41795551234',
      'Rückruf am Montag',
    ]);
    expect(data(await call(BACKOFFICE, 'GET', `/api/leads/${String(card.id)}`)).email).toBe(
      `verborgen.${unique}@example.ch`,
    );
  });
});

describe('mails and notifications', () => {
  it('notifies the assignee and mails the source on create and on assignment', async () => {
    const outbox = () =>
      t.database.db
        .selectFrom('outbox')
        .select(['to_address', 'subject', 'body'])
        .where('subject', '=', `Lead ${unique}`)
        .execute();
    const before = (await outbox()).length;
    const card = await lead(CALLCENTER, { lead_source: secret.id, last_name: `Mail${unique}` });
    expect((await outbox()).length).toBe(before + 2);
    expect((await outbox()).map((mail) => mail.to_address).sort()).toContain(
      `copy.${unique}@example.ch`,
    );
    const notices = () =>
      t.database.db
        .selectFrom('notifications')
        .select(['title', 'link'])
        .where('user_id', '=', users[CONSULTANT] as number)
        .where('title', 'like', `%Mail${unique}%`)
        .execute();
    expect(await notices()).toEqual([]);
    const patched = await call(CALLCENTER, 'PATCH', `/api/leads/${String(card.id)}`, {
      assigned_to: users[CONSULTANT],
    });
    expect(patched.statusCode, patched.body).toBe(200);
    const [notice] = await notices();
    expect(notice?.link).toBe(`/consultant/leads/${String(card.id)}/show`);
    expect((await outbox()).length).toBe(before + 4);
    // A change that assigns nobody new sends nothing.
    await call(ADMIN, 'PATCH', `/api/leads/${String(card.id)}`, { notes: 'nichts Neues' });
    expect((await outbox()).length).toBe(before + 4);
  });
});

describe('the blacklist', () => {
  it('puts a person closed as blacklist on it, closes their other leads and refuses new ones', async () => {
    const email = `Sperre.${unique}@Example.ch`;
    const card = await lead(ADMIN, { email, phone_number: '+41 44 987 65 43' });
    const twin = await lead(ADMIN, { phone_number: '044 987 65 43' });
    const closed = await move(ADMIN, card.id, { status: 'closed', close_status: 'blacklist' });
    expect(closed.statusCode, closed.body).toBe(200);
    const entry = await t.database.db
      .selectFrom('blacklist_entries')
      .selectAll()
      .where('lead_id', '=', Number(card.id))
      .executeTakeFirstOrThrow();
    expect([entry.email, entry.phone_number, entry.created_by]).toEqual([
      email,
      '+41449876543',
      users[ADMIN],
    ]);
    const other = data(await call(ADMIN, 'GET', `/api/leads/${String(twin.id)}`));
    expect([other.status, other.close_status]).toEqual(['closed', 'blacklist']);
    const again = await call(ADMIN, 'POST', '/api/leads', {
      last_name: 'Nochmals',
      email: email.toLowerCase(),
      lead_source: source.id,
      status: 'new',
    });
    expect(keysOf(again).email).toEqual(['app.errors.blacklisted']);
  });
});

describe('appointments from leads', () => {
  /** An hour on a day `days` from today, 09:00–10:00 UTC: one Swiss day whenever the test runs
   *  (now + 3 days, for an hour, crossed midnight in Zurich when run after 23:00). */
  const slot = (days: number) => {
    const day = new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
    return { date_start: `${day}T09:00:00.000Z`, date_end: `${day}T10:00:00.000Z` };
  };

  it('closes the lead when its appointment is booked and reopens it when cancelled', async () => {
    const customer = await created(CONSULTANT, '/api/customers', {
      first_name: 'Termin',
      last_name: `Lead${unique}`,
    });
    const card = await lead(ADMIN, { assigned_to: users[CONSULTANT] });
    const appointment = await created(CONSULTANT, '/api/appointments', {
      client_id: customer.id,
      consultant_id: users[CONSULTANT],
      lead_id: card.id,
      ...slot(3),
    });
    const closed = data(await call(CONSULTANT, 'GET', `/api/leads/${String(card.id)}`));
    expect([closed.status, closed.close_status, closed.appointment_id, closed.customer_id]).toEqual(
      ['closed', 'appointment_set', appointment.id, customer.id],
    );
    // A second appointment from the closed lead is refused.
    const second = await call(CONSULTANT, 'POST', '/api/appointments', {
      client_id: customer.id,
      consultant_id: users[CONSULTANT],
      lead_id: card.id,
      ...slot(4),
    });
    expect(keysOf(second).lead_id).toEqual(['app.errors.leadClosed']);
    const cancelled = await call(
      CONSULTANT,
      'PATCH',
      `/api/appointments/${String(appointment.id)}`,
      {
        status: 5,
        cancel_reason: 'Kunde krank',
      },
    );
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const reopened = data(await call(CONSULTANT, 'GET', `/api/leads/${String(card.id)}`));
    expect([reopened.status, reopened.close_status, reopened.appointment_id]).toEqual([
      'to do',
      null,
      null,
    ]);
  });

  it('sends the lead back to "to do" when the feedback says the appointment did not take place', async () => {
    const customer = await created(CONSULTANT, '/api/customers', {
      first_name: 'Feedback',
      last_name: `Lead${unique}`,
    });
    const card = await lead(ADMIN, { assigned_to: users[CONSULTANT], customer_id: customer.id });
    const appointment = await created(CONSULTANT, '/api/appointments', {
      client_id: customer.id,
      consultant_id: users[CONSULTANT],
      lead_id: card.id,
      ...slot(-1),
    });
    const feedback = await call(
      CONSULTANT,
      'POST',
      `/api/appointments/${String(appointment.id)}/feedback`,
      {
        has_taken_place: false,
        status: 7,
        note: 'Niemand da',
      },
    );
    expect(feedback.statusCode, feedback.body).toBe(201);
    const after = data(await call(CONSULTANT, 'GET', `/api/leads/${String(card.id)}`));
    expect(after.status).toBe('to do');
  });

  it("refuses an appointment for another customer than the lead's", async () => {
    const customer = await created(CONSULTANT, '/api/customers', {
      first_name: 'Andere',
      last_name: `Kundin${unique}`,
    });
    const other = await created(CONSULTANT, '/api/customers', {
      first_name: 'Falsche',
      last_name: `Kundin${unique}`,
    });
    const card = await lead(ADMIN, { assigned_to: users[CONSULTANT], customer_id: customer.id });
    const response = await call(CONSULTANT, 'POST', '/api/appointments', {
      client_id: other.id,
      consultant_id: users[CONSULTANT],
      lead_id: card.id,
      ...slot(5),
    });
    expect(keysOf(response).client_id).toEqual(['app.errors.leadOtherCustomer']);
  });
});

describe('converting a prospect', () => {
  it('makes a customer of the lead once', async () => {
    const card = await lead(CALLCENTER, {
      first_name: 'Paula',
      last_name: `Prospekt${unique}`,
      email: `paula.${unique}@example.ch`,
      zip: '6003',
      city: 'Luzern',
      language: 'it',
    });
    const response = await call(CALLCENTER, 'POST', `/api/leads/${String(card.id)}/convert`);
    expect(response.statusCode, response.body).toBe(201);
    const { customer_id: customerId, lead: linked } = data<{ customer_id: number; lead: Row }>(
      response,
    );
    expect(linked.customer_id).toBe(customerId);
    const customer = data(await call(ADMIN, 'GET', `/api/customers/${customerId}`));
    expect(customer).toMatchObject({
      first_name: 'Paula',
      email: `paula.${unique}@example.ch`,
      city: 'Luzern',
      lead_source: source.id,
      correspondence_languages: ['it'],
    });
    const again = await call(CALLCENTER, 'POST', `/api/leads/${String(card.id)}/convert`);
    expect(again.statusCode).toBe(409);
  });
});

describe('the list', () => {
  it('filters by assignment, creation day and source', async () => {
    const card = await lead(ADMIN);
    const today = new Date().toISOString().slice(0, 10);
    const list = async (query: string) =>
      data<Row[]>(
        await call(
          ADMIN,
          'GET',
          `/api/leads?lead_source=${String(source.id)}&per_page=200&${query}`,
        ),
      ).map((row) => row.id);
    expect(await list(`created_from=${today}`)).toContain(card.id);
    expect(await list('created_until=2020-01-01')).toEqual([]);
    expect(await list('assignment=unassigned')).toContain(card.id);
    expect(await list('assignment=me')).not.toContain(card.id);
    const bad = await call(ADMIN, 'GET', '/api/leads?created_from=gestern');
    expect(bad.statusCode).toBe(400);
  });
});

describe('the worklist', () => {
  it('lists the open leads to call, newest not called first, never a blacklisted person', async () => {
    const email = `anrufen.${unique}@example.ch`;
    const card = await lead(ADMIN, { assigned_to: users[CONSULTANT], email });
    const open = await lead(ADMIN);
    const section = async (as: string) => {
      const answer = await call(as, 'GET', '/api/tasks?limit=50');
      expect(answer.statusCode, answer.body).toBe(200);
      const sections = data<{ sections: Array<{ key: string; items: Row[] }> }>(answer).sections;
      return (sections.find((one) => one.key === 'leads_to_call')?.items ?? []).map(
        (row) => row.id,
      );
    };
    const consultant = await section(CONSULTANT);
    expect(consultant[0]).toBe(card.id);
    expect(consultant).not.toContain(open.id);
    expect(await section(CALLCENTER)).toContain(open.id);
    expect(await section(CALLCENTER)).not.toContain(card.id);
    await created(ADMIN, '/api/blacklist-entries', { email, reason: 'Ruft nicht mehr an' });
    expect(await section(CONSULTANT)).not.toContain(card.id);
  });
});

describe('personal data', () => {
  it("erasing a customer deletes their leads and keeps only the blacklist's e-mail and phone", async () => {
    const customer = await created(ADMIN, '/api/customers', {
      first_name: 'Vergessen',
      last_name: `Werden${unique}`,
    });
    const own = await lead(ADMIN, { customer_id: customer.id });
    const recommended = await lead(ADMIN, { recommended_by_customer_id: customer.id });
    await created(ADMIN, '/api/blacklist-entries', {
      customer_id: customer.id,
      email: `vergessen.${unique}@example.ch`,
      last_name: `Werden${unique}`,
    });
    const erased = await call(ADMIN, 'POST', `/api/customers/${String(customer.id)}/erase`);
    expect(erased.statusCode, erased.body).toBe(200);
    expect(data(erased)).toMatchObject({ pseudonymised: false });
    expect((await call(ADMIN, 'GET', `/api/leads/${String(own.id)}`)).statusCode).toBe(404);
    const other = data(await call(ADMIN, 'GET', `/api/leads/${String(recommended.id)}`));
    expect(other.recommended_by_customer_id).toBeNull();
    const entry = await t.database.db
      .selectFrom('blacklist_entries')
      .selectAll()
      .where('email', '=', `vergessen.${unique}@example.ch`)
      .executeTakeFirstOrThrow();
    expect([entry.customer_id, entry.last_name]).toEqual([null, null]);
  });
});
