/**
 * The leaderboard (issue 17), on both engines, on contracts and ledger lines of 2005 written here
 * directly (before any demo record): ranking by stars, closures and production with shared ranks,
 * reversals and clawbacks taking back what their lines gave (net per contract), team-lead stars
 * not counted, the insurance filter, hidden and inactive users, the periods (ISO week, month,
 * quarter, year, custom; a contract without signing date by its Swiss day entered), CHF only for
 * the viewer or manage-commissions, the charts' buckets, and bad input.
 *
 * March 2005 (the main case):
 *   Anna   K1 health 3★ · K2 life 2★ clawed back in June · K2b life 2★   → 5★, 2 closures, 8000
 *   Bruno  K3 health 5★ changed to 4★ (reversal + new line) · K4 P&C 1★   → 5★, 2 closures, 2800
 *   cons2  K5 other 3★ · K7 health 2★ · K6 life 2★ reversed in full       → 5★, 2 closures, 2800
 *   cons   team lead on K1 (1 team-lead star, CHF 50)                     → 0★, CHF 50
 *   Carla  hidden (show_on_leaderboard false) 10★; Dario inactive 1★
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_EXTERNAL_USER } from '../../server/demo/identity.ts';
import { ADMIN, CONSULTANT, createTestApp, DEMO_PASSWORD, type TestApp } from './harness.ts';

const CONSULTANT2 = 'consultant2@demo.gscrm.ch';

interface Row {
  rank: number;
  user_id: number;
  name: string;
  stars: number;
  closures: number;
  production: number;
  chf: number | null;
  me: boolean;
}
interface Board {
  from: string;
  until: string;
  rows: Row[];
}
interface Charts {
  from: string;
  until: string;
  bucket: string;
  buckets: string[];
  series: Array<{ user_id: number; name: string; stars: number[]; closures: number[] }>;
}

let t: TestApp;
const users: Record<string, number> = {};
let customerId: number;

async function person(key: string, first: string, last: string, extra: object = {}) {
  const row = await t.app.db
    .insertInto('users')
    .values({
      first_name: first,
      last_name: last,
      email: `${key}.leaderboard@example.ch`,
      role: 'CONSULTANT',
      ...extra,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  users[key] = Number(row.id);
}

async function contract(
  signing: string | null,
  group: string,
  production: number,
  createdAt?: string,
): Promise<number> {
  const row = await t.app.db
    .insertInto('contracts')
    .values({
      customer_id: customerId,
      contract_type: 'closure',
      product_id: 10,
      product_group: group,
      signing_date: signing,
      production_sum: production,
      ...(createdAt ? { created_at: new Date(createdAt) } : {}),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

async function line(
  contractId: number,
  user: string,
  stars: number,
  amount: number,
  options: { kind?: string; period?: string; reverses?: number; status?: string } = {},
): Promise<number> {
  const row = await t.app.db
    .insertInto('commission_lines')
    .values({
      contract_id: contractId,
      user_id: users[user],
      kind: options.kind ?? 'consultant',
      period: options.period ?? '2005-03',
      stars,
      amount,
      status: options.status ?? 'ready_present',
      reverses_id: options.reverses ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** A line and its reversal (the original then 'reversed'). */
async function reversed(contractId: number, user: string, stars: number, amount: number) {
  const original = await line(contractId, user, stars, amount, { status: 'reversed' });
  await line(contractId, user, -stars, -amount, { reverses: original, status: 'reversed' });
}

async function board(query: string, as = ADMIN): Promise<Board> {
  const response = await t.request({ method: 'GET', url: `/api/leaderboard?${query}`, as });
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as { data: Board }).data;
}

/** The rows of the test's people (and the demo consultants), as [key, rank, stars, closures, production, chf]. */
function ranking(answer: Board) {
  const keyOf = new Map(Object.entries(users).map(([key, id]) => [id, key]));
  return answer.rows
    .filter((row) => keyOf.has(row.user_id))
    .map((row) => [
      keyOf.get(row.user_id),
      row.rank,
      row.stars,
      row.closures,
      row.production,
      row.chf,
    ]);
}

beforeAll(async () => {
  t = await createTestApp();
  const db = t.app.db;
  for (const row of await db.selectFrom('users').select(['id', 'email']).execute()) {
    if (row.email === CONSULTANT) users.cons = Number(row.id);
    if (row.email === CONSULTANT2) users.cons2 = Number(row.id);
  }
  await person('anna', 'Anna', 'Alpha');
  await person('bruno', 'Bruno', 'Beta');
  await person('carla', 'Carla', 'Gamma', { show_on_leaderboard: false });
  await person('dario', 'Dario', 'Delta', { is_active: false });
  customerId = Number(
    (
      await db
        .insertInto('customers')
        .values({ first_name: 'Rang', last_name: 'Liste' })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id,
  );

  const k1 = await contract('2005-03-02', 'health', 1000);
  await line(k1, 'anna', 3, 45000);
  await line(k1, 'cons', 1, 5000, { kind: 'team_lead' });
  // A clawback written in June takes the stars of a March closure back.
  const k2 = await contract('2005-03-10', 'life', 50000);
  const clawed = await line(k2, 'anna', 2, 30000, { status: 'paid' });
  await line(k2, 'anna', -2, -30000, { reverses: clawed, period: '2005-06' });
  const k2b = await contract('2005-03-12', 'life', 7000);
  await line(k2b, 'anna', 2, 30000);

  // A changed closure: reversal + new line.
  const k3 = await contract('2005-03-20', 'health', 2000);
  await reversed(k3, 'bruno', 5, 75000);
  await line(k3, 'bruno', 4, 60000);
  const k4 = await contract('2005-03-25', 'property_casualty', 800);
  await line(k4, 'bruno', 1, 15000);

  const k5 = await contract('2005-03-05', 'other', 1400);
  await line(k5, 'cons2', 3, 45000);
  const k7 = await contract('2005-03-28', 'health', 1400);
  await line(k7, 'cons2', 2, 30000);
  const k6 = await contract('2005-03-15', 'life', 9000);
  await reversed(k6, 'cons2', 2, 30000);

  const k8 = await contract('2005-03-03', 'health', 5000);
  await line(k8, 'carla', 10, 150000);
  const k9 = await contract('2005-03-04', 'finance', 500);
  await line(k9, 'dario', 1, 15000);

  // April: a signed closure, and one without signing date entered on 1 April 00:30 in Zurich.
  const k10 = await contract('2005-04-06', 'health', 3000);
  await line(k10, 'anna', 7, 105000, { period: '2005-04' });
  const k11 = await contract(null, 'health', 100, '2005-03-31T22:30:00Z');
  await line(k11, 'anna', 1, 15000, { period: '2005-04' });
});

afterAll(async () => {
  await t?.close();
});

describe('the ranking', () => {
  it('ranks by stars, closures and production after reversals; equal figures share a rank', async () => {
    const answer = await board('range=month&from=2005-03-15');
    expect(answer).toMatchObject({ from: '2005-03-01', until: '2005-03-31' });
    expect(ranking(answer)).toEqual([
      ['anna', 1, 5, 2, 8000, 750],
      ['bruno', 2, 5, 2, 2800, 750],
      ['cons2', 2, 5, 2, 2800, 750],
      ['cons', 4, 0, 0, 0, 50],
    ]);
    // Ranks follow the rows' order; the admin is not on the board (show_on_leaderboard false).
    expect(answer.rows.map((row) => row.rank)).toEqual(
      [...answer.rows.map((row) => row.rank)].sort((a, b) => a - b),
    );
    expect(answer.rows.some((row) => row.me)).toBe(false);
    expect(answer.rows.find((row) => row.user_id === users.anna)?.name).toBe('Anna Alpha');
  });

  it('leaves out hidden users, and inactive ones unless status is all', async () => {
    const active = await board('from=2005-03-15');
    expect(active.rows.map((row) => row.user_id)).not.toContain(users.carla);
    expect(active.rows.map((row) => row.user_id)).not.toContain(users.dario);
    const all = await board('from=2005-03-15&status=all');
    expect(all.rows.map((row) => row.user_id)).not.toContain(users.carla);
    expect(ranking(all)).toEqual([
      ['anna', 1, 5, 2, 8000, 750],
      ['bruno', 2, 5, 2, 2800, 750],
      ['cons2', 2, 5, 2, 2800, 750],
      ['dario', 4, 1, 1, 500, 150],
      ['cons', 5, 0, 0, 0, 50],
    ]);
  });

  it('counts one product group with insurance', async () => {
    expect(ranking(await board('from=2005-03-15&insurance=health'))).toEqual([
      ['bruno', 1, 4, 1, 2000, 600],
      ['anna', 2, 3, 1, 1000, 450],
      ['cons2', 3, 2, 1, 1400, 300],
      ['cons', 4, 0, 0, 0, 50],
    ]);
    expect(ranking(await board('from=2005-03-15&insurance=life'))).toEqual([
      ['anna', 1, 2, 1, 7000, 300],
      ['bruno', 2, 0, 0, 0, 0],
      ['cons', 2, 0, 0, 0, 0],
      ['cons2', 2, 0, 0, 0, 0],
    ]);
  });

  it('shows a consultant the ranks and figures, but CHF only on their own row', async () => {
    const answer = await board('from=2005-03-15', CONSULTANT2);
    const mine = answer.rows.filter((row) => row.me);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ user_id: users.cons2, rank: 2, stars: 5, chf: 750 });
    for (const row of answer.rows.filter((one) => !one.me)) expect(row.chf).toBeNull();
    expect(answer.rows.find((row) => row.user_id === users.anna)).toMatchObject({
      rank: 1,
      stars: 5,
      closures: 2,
      production: 8000,
      chf: null,
    });
    const lead = await board('from=2005-03-15', CONSULTANT);
    expect(lead.rows.find((row) => row.me)).toMatchObject({ user_id: users.cons, chf: 50 });
  });
});

describe('the periods', () => {
  it('takes the ISO week, quarter and year around a day, and April by its Swiss day', async () => {
    const week = await board('range=week&from=2005-03-09');
    expect(week).toMatchObject({ from: '2005-03-07', until: '2005-03-13' });
    expect(ranking(week)[0]).toEqual(['anna', 1, 2, 1, 7000, 300]);
    const quarter = await board('range=quarter&from=2005-02-01');
    expect(quarter).toMatchObject({ from: '2005-01-01', until: '2005-03-31' });
    expect(ranking(quarter)[0]).toEqual(['anna', 1, 5, 2, 8000, 750]);
    const april = await board('range=month&from=2005-04-30');
    expect(ranking(april)[0]).toEqual(['anna', 1, 8, 2, 3100, 1200]);
    const year = await board('range=year&from=2005-07-01');
    expect(year).toMatchObject({ from: '2005-01-01', until: '2005-12-31' });
    expect(ranking(year)[0]).toEqual(['anna', 1, 13, 4, 11100, 1950]);
  });

  it('takes a custom range, both days included', async () => {
    const answer = await board('range=custom&from=2005-03-10&until=2005-03-20');
    expect(answer).toMatchObject({ from: '2005-03-10', until: '2005-03-20' });
    expect(ranking(answer).slice(0, 2)).toEqual([
      ['bruno', 1, 4, 1, 2000, 600],
      ['anna', 2, 2, 1, 7000, 300],
    ]);
  });

  it('defaults to the current month', async () => {
    const answer = await board('');
    const today = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Zurich' }).format(
      new Date(),
    );
    expect(answer.from).toBe(`${today.slice(0, 7)}-01`);
    expect(answer.until.slice(0, 7)).toBe(today.slice(0, 7));
  });
});

describe('the charts', () => {
  it('follow the users per ISO week of a month and per month of a year', async () => {
    const response = await t.request({
      method: 'GET',
      url: '/api/leaderboard?section=charts&from=2005-03-15',
      as: ADMIN,
    });
    expect(response.statusCode, response.body).toBe(200);
    const charts = (response.json() as { data: Charts }).data;
    expect(charts.bucket).toBe('week');
    expect(charts.buckets).toEqual(['2005-W09', '2005-W10', '2005-W11', '2005-W12', '2005-W13']);
    const of = (key: string) => charts.series.find((one) => one.user_id === users[key]);
    expect(of('anna')).toMatchObject({ stars: [3, 2, 0, 0, 0], closures: [1, 1, 0, 0, 0] });
    expect(of('bruno')).toMatchObject({ stars: [0, 0, 4, 1, 0], closures: [0, 0, 1, 1, 0] });
    expect(of('cons2')).toMatchObject({ stars: [3, 0, 0, 0, 2], closures: [1, 0, 0, 0, 1] });
    expect(charts.series.length).toBeLessThanOrEqual(11);

    const year = (
      (
        await t.request({
          method: 'GET',
          url: '/api/leaderboard?section=charts&range=year&from=2005-01-01',
          as: ADMIN,
        })
      ).json() as { data: Charts }
    ).data;
    expect(year.bucket).toBe('month');
    expect(year.buckets).toHaveLength(12);
    expect(year.buckets[0]).toBe('2005-01');
    const anna = year.series.find((one) => one.user_id === users.anna);
    expect(anna?.stars.slice(1, 5)).toEqual([0, 5, 8, 0]);
    expect(anna?.closures.slice(1, 5)).toEqual([0, 2, 2, 0]);
  });
});

describe('bad input and access', () => {
  it('needs both days of a custom range, until not before from', async () => {
    const refused = async (query: string) => {
      const response = await t.request({
        method: 'GET',
        url: `/api/leaderboard?${query}`,
        as: ADMIN,
      });
      expect(response.statusCode, response.body).toBe(422);
      const answer = response.json() as { error_keys: Record<string, Array<{ message: string }>> };
      return Object.fromEntries(
        Object.entries(answer.error_keys).map(([field, keys]) => [
          field,
          keys.map((k) => k.message),
        ]),
      );
    };
    expect(await refused('range=custom&from=2005-03-10&until=2005-03-09')).toEqual({
      until: ['app.errors.notBeforeFrom'],
    });
    expect(await refused('range=custom&from=2005-03-10')).toEqual({
      until: ['app.errors.required'],
    });
    expect(await refused('range=custom')).toEqual({
      from: ['app.errors.required'],
      until: ['app.errors.required'],
    });
    for (const query of [
      'range=decade',
      'from=2005-13-01',
      'insurance=motor',
      'status=gone',
      'x=1',
    ])
      expect(
        (await t.request({ method: 'GET', url: `/api/leaderboard?${query}`, as: ADMIN }))
          .statusCode,
        query,
      ).toBe(400);
  });

  it('is for signed-in staff: 401 without a token, 403 for an external user', async () => {
    expect((await t.request({ method: 'GET', url: '/api/leaderboard' })).statusCode).toBe(401);
    const external = await t.login(DEMO_EXTERNAL_USER.email, DEMO_PASSWORD);
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/leaderboard',
      headers: { authorization: `Bearer ${external}` },
    });
    expect(response.statusCode).toBe(403);
  });
});
