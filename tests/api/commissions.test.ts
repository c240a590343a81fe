/**
 * The commission engine (issue 17; DOMAIN.md §2), by worked examples to the centime: each case is
 * a rule (on its own insurer, so the cases never meet), a closure written through the API and
 * the ledger lines it gets. Then the rules' refusals, the known failure modes of commission
 * software (reversals with the wrong sign, reversed lines counted, changes after settlement),
 * who sees which lines, and single payments. Both engines.
 */
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anniversariesDue } from '../../server/commissions/routes.ts';
import { ADMIN, CONSULTANT, createTestApp, type TestApp } from './harness.ts';
import { expectSumsMatchLines } from './ledger-sums.ts';

const CONSULTANT2 = 'consultant2@demo.gscrm.ch';
const CALLCENTER = 'callcenter@demo.gscrm.ch';
const BACKOFFICE = 'backoffice@demo.gscrm.ch';

type Row = Record<string, unknown>;
let t: TestApp;
const users: Record<string, number> = {};
const unique = Math.random().toString(36).slice(2, 8);
let customer: Row;
let counter = 0;

const call = (as: string, method: string, url: string, payload?: unknown) =>
  t.request({ method: method as 'GET', url, payload: payload as never, as });
const data = <T = Row>(response: LightMyRequestResponse) => (response.json() as { data: T }).data;

async function created(as: string, url: string, payload: Row): Promise<Row> {
  const response = await call(as, 'POST', url, payload);
  expect(response.statusCode, response.body).toBe(201);
  return data(response);
}

function keysOf(response: LightMyRequestResponse, status = 422): Record<string, string[]> {
  expect(response.statusCode, response.body).toBe(status);
  const answer = response.json() as { error_keys?: Record<string, Array<{ message: string }>> };
  return Object.fromEntries(
    Object.entries(answer.error_keys ?? {}).map(([field, keys]) => [
      field,
      keys.map((k) => k.message),
    ]),
  );
}

/** An insurer of its own offering every product: a case's rules never meet another case's. */
async function insurer(): Promise<number> {
  const row = await created(ADMIN, '/api/companies', {
    name_de: `Provisionsversicherung ${unique} ${++counter}`,
    products: Array.from({ length: 29 }, (_, index) => index + 1),
  });
  return Number(row.id);
}

const rule = (company: number, extra: Row) =>
  created(ADMIN, '/api/commission-rules', {
    name: `Regel ${unique} ${++counter}`,
    available_from: '2020-01-01',
    commission_type: 'acquisition',
    company_id: company,
    ...extra,
  });

const closure = (company: number, extra: Row) =>
  created(ADMIN, '/api/contracts', {
    customer_id: customer.id,
    contract_type: 'closure',
    company_id: company,
    consultant_id: users[CONSULTANT],
    contract_number: `P-${unique}-${++counter}`,
    payment_cycle: 'monthly',
    signing_date: '2025-03-10',
    start_date: '2025-04-01',
    status: 'active',
    ...extra,
  });

interface Line {
  id: number;
  kind: string;
  user_id: number | null;
  sub_broker_id: number | null;
  amount: number;
  stars: number | null;
  status: string;
  period: string;
  reverses_id: number | null;
  cap_exceeded: boolean;
  cap_amount: number | null;
  explain: Array<{ key: string; params?: Row }>;
}

async function linesOf(contract: Row | number, as = ADMIN): Promise<Line[]> {
  const id = typeof contract === 'number' ? contract : Number(contract.id);
  const response = await call(
    as,
    'GET',
    `/api/commission-lines?contract_id=${id}&per_page=100&sort=id&order=asc`,
  );
  expect(response.statusCode, response.body).toBe(200);
  return data<Line[]>(response);
}

/** kind → amount of the live lines (not reversed, not reversals) — the contract's current result. */
async function result(contract: Row): Promise<Record<string, number>> {
  const lines = await linesOf(contract);
  const reversed = new Set(lines.flatMap((line) => (line.reverses_id ? [line.reverses_id] : [])));
  const out: Record<string, number> = {};
  for (const line of lines) {
    if (line.reverses_id || reversed.has(line.id)) continue;
    out[line.kind] = (out[line.kind] ?? 0) + line.amount;
  }
  return out;
}

/** A user's pay terms from the start (the row every closure of these tests is paid by). */
async function setTerms(email: string, terms: Row) {
  const values = { user_id: users[email]!, valid_from: '1900-01-01', ...terms };
  await t.database.db
    .insertInto('user_terms')
    .values(values as never)
    .onConflict((conflict) =>
      conflict.columns(['user_id', 'valid_from']).doUpdateSet(terms as never),
    )
    .execute();
}

beforeAll(async () => {
  t = await createTestApp();
  for (const user of await t.database.db.selectFrom('users').select(['id', 'email']).execute())
    users[String(user.email)] = Number(user.id);
  customer = await created(ADMIN, '/api/customers', {
    first_name: 'Petra',
    last_name: `Provision${unique}`,
    date_of_birth: '1990-06-15',
    assigned_to: users[CONSULTANT],
  });
  // The consultant's terms before every case (valid from the start: the user-terms seed, and the
  // change below is valid from today — so closures signed in the past use the seed's terms).
  await setTerms(CONSULTANT, {
    chf_per_star: 50,
    star_health: null,
    closures_pass_on_rate: 20,
    share_of_mandate_business: 10,
    payment_type: 'commission',
  });
  await setTerms(CONSULTANT2, {
    chf_per_star: 40,
    closures_pass_on_rate: 0,
    payment_type: 'commission',
  });
});
afterAll(async () => {
  await t?.close();
});

describe('worked examples, to the centime', () => {
  it.each([
    // name, rule, contract, courtage (centimes), cap flagged, cap (centimes)
    [
      'KVG basic at the cap: flat CHF 70 per person is allowed',
      { product_ids: [1], calculation_basis: 'flat', flat_rate: 70 },
      { product_id: 1, insurance: { sub_product_id: 1, premium: 350 } },
      7_000,
      false,
      7_000,
    ],
    [
      'KVG basic above the cap: flat CHF 80 is flagged',
      { product_ids: [1], calculation_basis: 'flat', flat_rate: 80 },
      { product_id: 1, insurance: { sub_product_id: 1, premium: 350 } },
      8_000,
      true,
      7_000,
    ],
    [
      'VVG supplementary at 16 monthly premiums (CHF 52.35 a month)',
      { product_ids: [2], calculation_basis: 'monthly_premium', premium_amount: 16 },
      { product_id: 2, insurance: { sub_product_id: 5, premium: 52.35 } },
      83_760,
      false,
      83_760,
    ],
    [
      'VVG supplementary at 18 monthly premiums is flagged',
      { product_ids: [2], calculation_basis: 'monthly_premium', premium_amount: 18 },
      { product_id: 2, insurance: { sub_product_id: 5, premium: 52.35 } },
      94_230,
      true,
      83_760,
    ],
    [
      'P&C car at 12 % of the annual premium CHF 1,234.55',
      { product_ids: [7], calculation_basis: 'annual_premium', premium_amount: 12 },
      { product_id: 7, payment_cycle: 'annual', insurance: { premium: 1234.55 } },
      14_815, // 148.146 → 148.15
      false,
      null,
    ],
    [
      'life 3a at 2.5 % of the production sum (CHF 3,000 a year × 20 years)',
      { product_ids: [4], calculation_basis: 'production_sum', premium_amount: 2.5 },
      { product_id: 4, payment_cycle: 'annual', insurance: { premium: 3000, term_years: 20 } },
      150_000,
      false,
      null,
    ],
    [
      'a flat-rate rule: personal liability CHF 45',
      { product_ids: [10], calculation_basis: 'flat', flat_rate: 45 },
      { product_id: 10, payment_cycle: 'annual', insurance: { premium: 120 } },
      4_500,
      false,
      null,
    ],
  ])('%s', async (_name, ruleBody, contractBody, courtage, flagged, cap) => {
    const company = await insurer();
    await rule(company, { stars: 2, ...ruleBody });
    const contract = await closure(company, contractBody);
    const lines = await linesOf(contract);
    const line = lines.find((candidate) => candidate.kind === 'courtage');
    expect(line?.amount).toBe(courtage);
    expect(line?.cap_exceeded).toBe(flagged);
    expect(line?.cap_amount ?? null).toBe(cap);
    expect(line?.period).toBe('2025-03');
    expect(line?.explain[0]?.key).toBe('app.commissions.explain.rule');
    // The consultant: 2 stars × CHF 50 − 20 % pass-on only when the call centre booked: none here.
    expect(lines.find((candidate) => candidate.kind === 'consultant')?.amount).toBe(10_000);
  });

  it('chooses the rule by the client age band at signing (35 on 2025-03-10)', async () => {
    const company = await insurer();
    const base = { product_ids: [10], calculation_basis: 'flat' };
    await rule(company, { ...base, client_age_from: 0, client_age_to: 25, flat_rate: 10 });
    await rule(company, { ...base, client_age_from: 26, client_age_to: 130, flat_rate: 30 });
    const contract = await closure(company, { product_id: 10, insurance: { premium: 10 } });
    expect((await result(contract)).courtage).toBe(3_000);
  });

  it('lets the most specific rule win: variant over sub-product over product over any', async () => {
    const company = await insurer();
    await rule(company, { calculation_basis: 'flat', flat_rate: 1 });
    await rule(company, { product_ids: [1], calculation_basis: 'flat', flat_rate: 2 });
    await rule(company, {
      product_ids: [1],
      sub_product_ids: [1],
      calculation_basis: 'flat',
      flat_rate: 3,
    });
    await rule(company, {
      product_ids: [1],
      sub_product_ids: [1],
      sub_product_variant_ids: [5],
      calculation_basis: 'flat',
      flat_rate: 4,
    });
    const variant = await closure(company, {
      product_id: 1,
      insurance: { sub_product_id: 1, sub_product_variant_id: 5, premium: 300 },
    });
    const subProduct = await closure(company, {
      product_id: 1,
      insurance: { sub_product_id: 1, sub_product_variant_id: 6, premium: 300 },
    });
    const product = await closure(company, {
      product_id: 1,
      insurance: { sub_product_id: 2, premium: 300 },
    });
    const any = await closure(company, { product_id: 10, insurance: { premium: 10 } });
    expect([
      (await result(variant)).courtage,
      (await result(subProduct)).courtage,
      (await result(product)).courtage,
      (await result(any)).courtage,
    ]).toEqual([400, 300, 200, 100]);
  });

  it('passes 20 % of the consultant share on to the call centre that booked the appointment', async () => {
    const company = await insurer();
    await rule(company, { product_ids: [10], calculation_basis: 'flat', flat_rate: 100, stars: 3 });
    // A customer of its own: the booking would pass on every later closure of the shared one.
    const client = await created(ADMIN, '/api/customers', {
      first_name: 'Call',
      last_name: `Center${unique}`,
      assigned_to: users[CONSULTANT],
    });
    const booked = await created(CALLCENTER, '/api/appointments', {
      client_id: client.id,
      consultant_id: users[CONSULTANT],
      who_requested: 'call_centre',
      date_start: '2025-03-05T09:00:00Z',
      date_end: '2025-03-05T10:00:00Z',
    });
    expect(booked.booked_by).toBe(users[CALLCENTER]);
    const contract = await closure(company, {
      customer_id: client.id,
      product_id: 10,
      insurance: { premium: 10 },
    });
    const lines = await linesOf(contract);
    // 3 stars × CHF 50 = 150.00; 20 % = 30.00 to the call centre, 120.00 to the consultant.
    expect(lines.find((line) => line.kind === 'call_centre')).toMatchObject({
      user_id: users[CALLCENTER],
      amount: 3_000,
    });
    expect(lines.find((line) => line.kind === 'consultant')).toMatchObject({
      user_id: users[CONSULTANT],
      amount: 12_000,
      stars: 3,
    });
    // The contract's own commissions say the same in CHF (kept by the engine), in the answer to
    // its create already; its total is what its people earn.
    expect(contract.commissions).toEqual([
      { type: 'consultant', user_id: users[CONSULTANT], comission: 120 },
      { type: 'call_centre', user_id: users[CALLCENTER], comission: 30 },
    ]);
    expect(contract.total_commission).toBe(150);
    // A change that earns more changes them with the ledger, the version the answer's.
    const changed = await call(ADMIN, 'PATCH', `/api/contracts/${String(contract.id)}`, {
      signing_date: '2025-03-04',
      version: contract.version,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const after = data(changed);
    // Signed before the booking: no pass-on; the consultant earns the whole CHF 150.
    expect(after.commissions).toEqual([
      { type: 'consultant', user_id: users[CONSULTANT], comission: 150 },
    ]);
    expect(after.total_commission).toBe(150);
    const stored = data(await call(ADMIN, 'GET', `/api/contracts/${String(contract.id)}`));
    expect(stored.version).toBe(after.version);
    expect(stored.commissions).toEqual(after.commissions);
  });

  it('pays a sub-broker its rule percentage of the courtage', async () => {
    const company = await insurer();
    await rule(company, { product_ids: [10], calculation_basis: 'flat', flat_rate: 123.45 });
    const broker = await created(ADMIN, '/api/sub-brokers', { name: `Untervermittler ${unique}` });
    await created(ADMIN, '/api/sub-broker-rules', {
      organization_id: broker.id,
      date_from: '2024-01-01',
      percentage_payout: 30,
    });
    const client = await created(ADMIN, '/api/customers', {
      first_name: 'Sub',
      last_name: `Kunde${unique}`,
      sub_broker_id: broker.id,
    });
    const contract = await closure(company, {
      customer_id: client.id,
      product_id: 10,
      insurance: { premium: 10 },
    });
    const line = (await linesOf(contract)).find((candidate) => candidate.kind === 'sub_broker');
    // 30 % of CHF 123.45 = 37.035 → 37.04 (sub-broker lines to the centime).
    expect(line).toMatchObject({ sub_broker_id: broker.id, user_id: null, amount: 3_704 });
    expect(contract.commissions).toEqual([
      { type: 'sub_broker', sub_broker_id: broker.id, comission: 37.04 },
    ]);
  });

  it('rounds the people’s lines to CHF 0.05 and says so (1.5 stars × CHF 33.31 = 49.965)', async () => {
    const company = await insurer();
    await rule(company, {
      product_ids: [10],
      calculation_basis: 'flat',
      flat_rate: 10,
      stars: 1.5,
    });
    await setTerms(CONSULTANT2, { chf_per_star: 33.31, closures_pass_on_rate: 0 });
    const contract = await closure(company, {
      product_id: 10,
      consultant_id: users[CONSULTANT2],
      insurance: { premium: 10 },
    });
    const line = (await linesOf(contract)).find((candidate) => candidate.kind === 'consultant');
    expect(line?.amount).toBe(4_995);
    expect(line?.explain.map((step) => step.key)).toContain('app.commissions.explain.rounded');
    await setTerms(CONSULTANT2, { chf_per_star: 40 });
  });

  it('claws back the unearned part of a cancellation within the liability period', async () => {
    const company = await insurer();
    await rule(company, {
      product_ids: [10],
      calculation_basis: 'flat',
      flat_rate: 120,
      stars: 2,
      liability_months: 12,
    });
    const contract = await closure(company, { product_id: 10, insurance: { premium: 10 } });
    const cancelled = await call(ADMIN, 'PATCH', `/api/contracts/${String(contract.id)}`, {
      status: 'cancelled',
      end_date: '2025-07-01',
      version: contract.version,
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    // 3 of 12 months run: 9/12 of CHF 120.00 and of the consultant's CHF 100.00 come back.
    expect(await result(contract)).toEqual({
      courtage: 12_000 - 9_000,
      consultant: 10_000 - 7_500,
    });
    const clawback = (await linesOf(contract)).filter(
      (line) => line.amount < 0 && !line.reverses_id,
    );
    expect(clawback.map((line) => line.period)).toEqual(['2025-07', '2025-07']);
  });

  it('claws nothing back after the liability period', async () => {
    const company = await insurer();
    await rule(company, {
      product_ids: [10],
      calculation_basis: 'flat',
      flat_rate: 120,
      stars: 2,
      liability_months: 12,
    });
    const contract = await closure(company, { product_id: 10, insurance: { premium: 10 } });
    const cancelled = await call(ADMIN, 'PATCH', `/api/contracts/${String(contract.id)}`, {
      status: 'cancelled',
      end_date: '2026-05-01',
      version: contract.version,
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(await result(contract)).toEqual({ courtage: 12_000, consultant: 10_000 });
    expect((await linesOf(contract)).every((line) => line.amount > 0)).toBe(true);
  });

  it('books a change after payout as a reversal in the next month plus the new line', async () => {
    const company = await insurer();
    await rule(company, {
      product_ids: [7],
      calculation_basis: 'annual_premium',
      premium_amount: 10,
      stars: 1,
    });
    const contract = await closure(company, {
      product_id: 7,
      payment_cycle: 'annual',
      insurance: { premium: 1000 },
    });
    const [consultantLine] = (await linesOf(contract)).filter((line) => line.kind === 'consultant');
    // Paid out in March 2025 (a payout of that month, its line paid).
    const payout = await t.database.db
      .insertInto('payouts')
      .values({
        user_id: users[CONSULTANT]!,
        period: '2025-03',
        status: 'paid',
        total: 5_000,
        line_count: 1,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.database.db
      .updateTable('commission_lines')
      .set({ status: 'paid', payout_id: payout.id })
      .where('id', '=', consultantLine!.id)
      .execute();
    const changed = await call(ADMIN, 'PATCH', `/api/contracts/${String(contract.id)}`, {
      insurance: { premium: 1500 },
      version: contract.version,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const lines = await linesOf(contract);
    const consultant = lines.filter((line) => line.kind === 'consultant');
    // The stars did not change: the consultant's line stands. The courtage did: reversed + new.
    expect(consultant).toHaveLength(1);
    const courtage = lines.filter((line) => line.kind === 'courtage');
    expect(courtage.map((line) => line.amount)).toEqual([10_000, -10_000, 15_000]);
    expect(courtage[1]?.reverses_id).toBe(courtage[0]?.id);

    // A change of the stars after the payout: the paid line stays paid, its reversal lands in April.
    await rule(company, {
      product_ids: [7],
      sub_product_ids: [9],
      calculation_basis: 'annual_premium',
      premium_amount: 10,
      stars: 2,
    });
    const again = data(await call(ADMIN, 'GET', `/api/contracts/${String(contract.id)}`));
    const changedStars = await call(ADMIN, 'PATCH', `/api/contracts/${String(contract.id)}`, {
      insurance: { premium: 1500, sub_product_id: 9 },
      version: again.version,
    });
    expect(changedStars.statusCode, changedStars.body).toBe(200);
    const after = (await linesOf(contract)).filter((line) => line.kind === 'consultant');
    expect(after.map((line) => [line.amount, line.status, line.period])).toEqual([
      [5_000, 'paid', '2025-03'],
      [-5_000, 'ready_present', '2025-04'],
      [10_000, 'ready_present', '2025-04'],
    ]);
  });

  it('pays a salaried consultant stars without CHF', async () => {
    const company = await insurer();
    await rule(company, { product_ids: [10], calculation_basis: 'flat', flat_rate: 50, stars: 2 });
    await setTerms(CONSULTANT2, { payment_type: 'salary' });
    try {
      const contract = await closure(company, {
        product_id: 10,
        consultant_id: users[CONSULTANT2],
        insurance: { premium: 10 },
      });
      const line = (await linesOf(contract)).find((candidate) => candidate.kind === 'consultant');
      expect([line?.amount, line?.stars]).toEqual([0, 2]);
    } finally {
      await setTerms(CONSULTANT2, { payment_type: 'commission' });
    }
  });
});

describe('the known failure modes of commission software', () => {
  it('reverses with the opposite sign, and a reversed pair nets to zero and leaves the payable lines', async () => {
    const company = await insurer();
    await rule(company, { product_ids: [10], calculation_basis: 'flat', flat_rate: 80, stars: 1 });
    const contract = await closure(company, { product_id: 10, insurance: { premium: 10 } });
    const deleted = await call(ADMIN, 'DELETE', `/api/contracts/${String(contract.id)}`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    const lines = await t.database.db
      .selectFrom('commission_lines')
      .selectAll()
      .where('contract_number', '=', String(contract.contract_number))
      .orderBy('id')
      .execute();
    expect(lines.map((line) => [line.kind, line.amount, line.status])).toEqual([
      ['courtage', 8_000, 'reversed'],
      ['consultant', 5_000, 'reversed'],
      ['courtage', -8_000, 'reversed'],
      ['consultant', -5_000, 'reversed'],
    ]);
    expect(lines.every((line) => line.contract_id === null)).toBe(true);
    expect(lines.reduce((sum, line) => sum + line.amount, 0)).toBe(0);
  });

  it('writes nothing when a contract is saved unchanged (no duplicate lines)', async () => {
    const company = await insurer();
    await rule(company, { product_ids: [10], calculation_basis: 'flat', flat_rate: 80, stars: 1 });
    const contract = await closure(company, { product_id: 10, insurance: { premium: 10 } });
    const before = await linesOf(contract);
    const saved = await call(ADMIN, 'PATCH', `/api/contracts/${String(contract.id)}`, {
      note: 'Nur eine Notiz',
      version: contract.version,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await linesOf(contract)).map((line) => line.id)).toEqual(before.map((line) => line.id));
  });

  it('refuses to reverse a line in a payout not yet paid, or twice', async () => {
    const company = await insurer();
    await rule(company, { product_ids: [10], calculation_basis: 'flat', flat_rate: 80, stars: 1 });
    const contract = await closure(company, { product_id: 10, insurance: { premium: 10 } });
    const line = (await linesOf(contract)).find((candidate) => candidate.kind === 'consultant')!;
    await t.database.db
      .updateTable('commission_lines')
      .set({ status: 'in_payout' })
      .where('id', '=', line.id)
      .execute();
    const frozen = await call(ADMIN, 'POST', `/api/commission-lines/${line.id}/reverse`, {
      reason: 'Falsch',
    });
    expect(frozen.statusCode, frozen.body).toBe(409);
    expect(frozen.json().key).toBe('app.errors.commissionLineFrozen');
    await t.database.db
      .updateTable('commission_lines')
      .set({ status: 'ready_present' })
      .where('id', '=', line.id)
      .execute();
    const first = await call(ADMIN, 'POST', `/api/commission-lines/${line.id}/reverse`, {
      reason: 'Falsch',
    });
    expect(first.statusCode, first.body).toBe(201);
    expect(data(first)).toMatchObject({
      amount: -line.amount,
      reverses_id: line.id,
      reason: 'Falsch',
    });
    const twice = await call(ADMIN, 'POST', `/api/commission-lines/${line.id}/reverse`, {
      reason: 'Nochmals',
    });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().key).toBe('app.errors.commissionLineReversed');
    const consultant = await call(CONSULTANT, 'POST', `/api/commission-lines/${line.id}/reverse`, {
      reason: 'x',
    });
    expect(consultant.statusCode).toBe(403);
  });
});

describe('rules', () => {
  it('refuses bad rules naming the field, and two equally specific active ones naming the other', async () => {
    const company = await insurer();
    const keys = async (body: Row) =>
      keysOf(
        await call(ADMIN, 'POST', '/api/commission-rules', {
          name: `Falsch ${unique}`,
          available_from: '2025-01-01',
          commission_type: 'acquisition',
          calculation_basis: 'flat',
          flat_rate: 10,
          company_id: company,
          ...body,
        }),
      );
    expect(await keys({ available_till: '2024-12-31' })).toEqual({
      available_till: ['app.errors.notBeforeFrom'],
    });
    expect(await keys({ client_age_from: 40, client_age_to: 30 })).toEqual({
      client_age_to: ['app.errors.notBelowFrom'],
    });
    expect(await keys({ flat_rate: -5 })).toHaveProperty('flat_rate');
    const narrow = await insurer();
    await t.database.db
      .updateTable('companies')
      .set({ products: JSON.stringify([7]) })
      .where('id', '=', narrow)
      .execute();
    expect(await keys({ company_id: narrow, product_ids: [1] })).toEqual({
      product_ids: ['app.errors.notOffered'],
    });
    expect(await keys({ product_ids: [7], sub_product_ids: [1] })).toEqual({
      sub_product_ids: ['app.errors.notOfProduct'],
    });

    const first = await rule(company, {
      product_ids: [7, 8],
      calculation_basis: 'flat',
      flat_rate: 10,
      available_till: '2025-12-31',
    });
    const clash = await call(ADMIN, 'POST', '/api/commission-rules', {
      name: `Zweite ${unique}`,
      available_from: '2025-06-01',
      commission_type: 'acquisition',
      calculation_basis: 'flat',
      flat_rate: 20,
      company_id: company,
      product_ids: [8, 9],
    });
    expect(keysOf(clash)).toEqual({ available_from: ['app.errors.commissionRuleOverlap'] });
    expect(clash.json().error_keys.available_from[0].args).toMatchObject({
      rule: first.name,
      id: first.id,
    });
    // Not overlapping: later dates, other products, another type, or a more specific rule.
    await rule(company, {
      product_ids: [8],
      calculation_basis: 'flat',
      flat_rate: 20,
      available_from: '2026-01-01',
    });
    await rule(company, { product_ids: [9], calculation_basis: 'flat', flat_rate: 20 });
    await rule(company, {
      product_ids: [8],
      calculation_basis: 'flat',
      flat_rate: 20,
      commission_type: 'portfolio',
    });
    await rule(company, {
      product_ids: [7],
      sub_product_ids: [9],
      calculation_basis: 'flat',
      flat_rate: 20,
    });
  });

  it('answers "which rule applies?" for a case and for a contract', async () => {
    const company = await insurer();
    const chosen = await rule(company, {
      product_ids: [7],
      calculation_basis: 'annual_premium',
      premium_amount: 10,
      stars: 1,
    });
    const answer = data(
      await call(ADMIN, 'POST', '/api/commission-rules/test', {
        signing_date: '2025-05-01',
        company_id: company,
        product_id: 7,
        premium: 100,
        payment_cycle: 'monthly',
      }),
    );
    expect(answer.rule).toMatchObject({ id: chosen.id, name: chosen.name });
    expect(answer.courtage).toMatchObject({ amount: 12_000, cap_exceeded: false });
    const contract = await closure(company, {
      product_id: 7,
      payment_cycle: 'annual',
      insurance: { premium: 500 },
    });
    const forContract = data(
      await call(ADMIN, 'POST', '/api/commission-rules/test', { contract_id: contract.id }),
    );
    expect(forContract.courtage).toMatchObject({ amount: 5_000 });
    expect((forContract.lines as Row[]).map((line) => line.kind)).toEqual([
      'courtage',
      'consultant',
    ]);
    expect(
      (await call(CONSULTANT, 'POST', '/api/commission-rules/test', { contract_id: contract.id }))
        .statusCode,
    ).toBe(403);
    expect(
      keysOf(await call(ADMIN, 'POST', '/api/commission-rules/test', { company_id: company })),
    ).toEqual({
      signing_date: ['app.errors.required'],
      product_id: ['app.errors.required'],
    });
  });
});

describe('who sees which lines', () => {
  it('shows a consultant their own lines only; manage-commissions sees all; the summary follows', async () => {
    const company = await insurer();
    await rule(company, { product_ids: [10], calculation_basis: 'flat', flat_rate: 60, stars: 1 });
    const theirs = await closure(company, {
      product_id: 10,
      consultant_id: users[CONSULTANT2],
      insurance: { premium: 10 },
    });
    const mine = await closure(company, { product_id: 10, insurance: { premium: 10 } });
    const own = await call(
      CONSULTANT,
      'GET',
      `/api/commission-lines?per_page=200&contract_id=${String(mine.id)}`,
    );
    expect(data<Line[]>(own).map((line) => line.kind)).toEqual(['consultant']);
    const other = await call(
      CONSULTANT,
      'GET',
      `/api/commission-lines?per_page=200&contract_id=${String(theirs.id)}`,
    );
    expect(data<Line[]>(other).map((line) => [line.kind, line.user_id])).toEqual([]);
    expect((await linesOf(theirs, BACKOFFICE)).length).toBeGreaterThan(0);
    const summary = data(
      await call(CONSULTANT, 'GET', `/api/commission-lines/summary?contract_id=${String(mine.id)}`),
    );
    expect(summary).toMatchObject({ count: 1, total: 5_000, by_status: { ready_present: 5_000 } });
    const inRange = async (query: string) =>
      data<Line[]>(
        await call(
          ADMIN,
          'GET',
          `/api/commission-lines?per_page=200&contract_id=${String(mine.id)}&${query}`,
        ),
      ).length;
    // March 2025 (or April: that user's March was paid out in an earlier case).
    expect(await inRange('period_until=2025-02')).toBe(0);
    expect(await inRange('period_from=2025-03&period_until=2025-04')).toBe(2);
    expect(await inRange('statuses=paid&statuses=in_payout')).toBe(0);
    expect(await inRange('statuses=ready_present')).toBe(2);
  });
});

describe('assigned single payments', () => {
  it('writes a ledger line, reverses it on a change and on deletion, refuses a negative bonus', async () => {
    const payment = await created(ADMIN, '/api/assigned-single-payments', {
      user_id: users[CONSULTANT],
      kind: 'bonus',
      amount: 250.25,
      period: '2025-06',
      reason: `Jahresbonus ${unique}`,
    });
    const line = data(await call(ADMIN, 'GET', `/api/commission-lines/${String(payment.line_id)}`));
    expect(line).toMatchObject({
      kind: 'bonus',
      amount: 25_025,
      period: '2025-06',
      status: 'ready_present',
    });
    const changed = await call(
      ADMIN,
      'PATCH',
      `/api/assigned-single-payments/${String(payment.id)}`,
      {
        amount: 300,
        version: payment.version,
      },
    );
    expect(changed.statusCode, changed.body).toBe(200);
    const lines = await t.database.db
      .selectFrom('commission_lines')
      .select(['amount', 'reverses_id', 'status'])
      .where('user_id', '=', users[CONSULTANT]!)
      .where('kind', '=', 'bonus')
      .orderBy('id')
      .execute();
    expect(lines.map((row) => row.amount)).toEqual([25_025, -25_025, 30_000]);
    const removed = await call(
      ADMIN,
      'DELETE',
      `/api/assigned-single-payments/${String(payment.id)}`,
    );
    expect(removed.statusCode, removed.body).toBe(200);
    const total = await t.database.db
      .selectFrom('commission_lines')
      .select((eb) => eb.fn.sum<number>('amount').as('sum'))
      .where('user_id', '=', users[CONSULTANT]!)
      .where('kind', '=', 'bonus')
      .executeTakeFirstOrThrow();
    expect(Number(total.sum)).toBe(0);
    const negative = await call(ADMIN, 'POST', '/api/assigned-single-payments', {
      user_id: users[CONSULTANT],
      kind: 'bonus',
      amount: -10,
      period: '2025-06',
      reason: 'Nein',
    });
    expect(keysOf(negative)).toEqual({ amount: ['app.errors.minimum'] });
  });
});

describe('the nightly job', () => {
  it('recomputes a batch after a rule correction: paid, unpaid and untouched closures together', async () => {
    const company = await insurer();
    const corrected = await rule(company, {
      product_ids: [10],
      calculation_basis: 'flat',
      flat_rate: 100,
      stars: 1,
    });
    await rule(company, { product_ids: [13], calculation_basis: 'flat', flat_rate: 30, stars: 1 });
    // Consultant 2 at CHF 40 a star, signed in May 2023 (a month no other case of this file uses).
    const of = (product: number) =>
      closure(company, {
        product_id: product,
        consultant_id: users[CONSULTANT2],
        signing_date: '2023-05-10',
        start_date: '2023-06-01',
        payment_cycle: 'annual',
        insurance: { premium: 200 },
      });
    const paid = await of(10);
    const unpaid = await of(10);
    const untouched = await of(13);
    const consultantLine = (await linesOf(paid)).find((line) => line.kind === 'consultant')!;
    expect([consultantLine.amount, consultantLine.period]).toEqual([4_000, '2023-05']);
    const payout = await t.database.db
      .insertInto('payouts')
      .values({
        user_id: users[CONSULTANT2]!,
        period: '2023-05',
        status: 'paid',
        total: 4_000,
        line_count: 1,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.database.db
      .updateTable('commission_lines')
      .set({ status: 'paid', payout_id: payout.id })
      .where('id', '=', consultantLine.id)
      .execute();
    const before = await linesOf(untouched);

    const fixed = await call(ADMIN, 'PATCH', `/api/commission-rules/${String(corrected.id)}`, {
      flat_rate: 120,
      stars: 2,
      version: corrected.version,
    });
    expect(fixed.statusCode, fixed.body).toBe(200);
    const ids = [paid, unpaid, untouched].map((contract) => Number(contract.id));
    const recomputed = await call(ADMIN, 'POST', '/api/commissions/recompute', {
      contract_ids: ids,
    });
    expect(recomputed.statusCode, recomputed.body).toBe(200);
    // Two closures: the courtage and the consultant's line reversed and written anew, each.
    expect(data(recomputed)).toEqual({ contracts: 3, reversed: 4, written: 4 });
    // The history: the three lines reversed in place are logged as changes; the ledger's new lines
    // are their own record of their making (x-resource.auditInserts false), not copied there.
    const logged = await t.database.db
      .selectFrom('audit_log')
      .select(['action', 'changes'])
      .where('request_id', '=', String(recomputed.headers['x-request-id']))
      .where('resource', '=', 'commission_lines')
      .execute();
    expect(logged.map((row) => row.action)).toEqual(['update', 'update', 'update']);
    for (const row of logged)
      expect((row.changes as Record<string, { new: unknown }>).status?.new).toBe('reversed');
    const shape = (lines: Line[], kind: string) =>
      lines
        .filter((line) => line.kind === kind)
        .map((line) => [line.amount, line.status, line.period]);
    const paidLines = await linesOf(paid);
    // The paid line stays paid; its reversal and the new line land in the next open month.
    expect(shape(paidLines, 'consultant')).toEqual([
      [4_000, 'paid', '2023-05'],
      [-4_000, 'ready_present', '2023-06'],
      [8_000, 'ready_present', '2023-06'],
    ]);
    expect(shape(paidLines, 'courtage')).toEqual([
      [10_000, 'reversed', '2023-05'],
      [-10_000, 'reversed', '2023-05'],
      [12_000, 'ready_present', '2023-05'],
    ]);
    const newLine = paidLines.filter((line) => line.kind === 'consultant')[2]!;
    expect(newLine.explain.map((step) => step.key)).toContain('app.commissions.explain.nextPeriod');
    // Never paid: reversed in place; the new line after the month paid out already.
    expect(shape(await linesOf(unpaid), 'consultant')).toEqual([
      [4_000, 'reversed', '2023-05'],
      [-4_000, 'reversed', '2023-05'],
      [8_000, 'ready_present', '2023-06'],
    ]);
    expect(await linesOf(untouched)).toEqual(before);
    // Settled once more, nothing changed: nothing is written.
    const again = await call(ADMIN, 'POST', '/api/commissions/recompute', { contract_ids: ids });
    expect(data(again)).toEqual({ contracts: 3, reversed: 0, written: 0 });
  });

  it('settles again the closures whose contract year began in the last week, still running', async () => {
    const company = await insurer();
    const due = await closure(company, { product_id: 10, start_date: '2024-11-25' });
    const older = await closure(company, { product_id: 10, start_date: '2024-11-10' });
    const ended = await closure(company, {
      product_id: 10,
      start_date: '2024-11-26',
      end_date: '2025-11-26',
    });
    const ids = await anniversariesDue(t.database.db, '2026-11-28');
    expect(ids).toContain(Number(due.id));
    expect(ids).not.toContain(Number(older.id));
    expect(ids).not.toContain(Number(ended.id));
  });
});

describe('the totals', () => {
  /** The lines' own count and sum, straight from the table. */
  async function fromLines(where: ReturnType<typeof sql>) {
    const { rows } = await sql<{ count: string; total: string | null }>`select count(*) as count,
        sum(amount) as total from commission_lines where ${where}`.execute(t.database.db);
    return { count: Number(rows[0]!.count), total: Number(rows[0]!.total ?? 0) };
  }

  it('are read from the sums as the lines add up: by owner, month, status and kind', async () => {
    await expectSumsMatchLines(t, 10);
    const me = users[CONSULTANT]!;
    const summary = (as: string, query: string) =>
      call(as, 'GET', `/api/commission-lines/summary?${query}`).then((r) => data(r));
    // A consultant's own lines: all of them, of two statuses, of a month range and a kind.
    expect(await summary(CONSULTANT, '')).toMatchObject(await fromLines(sql`user_id = ${me}`));
    expect(await summary(CONSULTANT, 'statuses=ready_present&statuses=reversed')).toMatchObject(
      await fromLines(sql`user_id = ${me} and status in ('ready_present', 'reversed')`),
    );
    const ranged = await summary(
      CONSULTANT,
      'period_from=2023-01&period_until=2025-06&kind=consultant',
    );
    const expected = await fromLines(
      sql`user_id = ${me} and period between '2023-01' and '2025-06' and kind = 'consultant'`,
    );
    expect(expected.count).toBeGreaterThan(0);
    expect(ranged).toMatchObject(expected);
    // Another user's id asked by a consultant: nothing (the scope wins); the admin sees everyone's.
    expect(await summary(CONSULTANT, `user_id=${users[ADMIN]!}`)).toMatchObject({
      count: 0,
      total: 0,
    });
    expect(await summary(ADMIN, '')).toMatchObject(await fromLines(sql`true`));
    expect(await summary(ADMIN, `user_id=${users[CONSULTANT2]!}`)).toMatchObject(
      await fromLines(sql`user_id = ${users[CONSULTANT2]!}`),
    );
  });
});
