/**
 * Offers (issue 18): the rules of their writes (the insurer offers the product, the annual
 * premium, the consultant by default, the status moves, decided offers frozen but for the note),
 * accepting (the closure made in the same step, through the contracts' own create) and declining
 * (optionally a non-closure), who sees which offers, the nightly expiry and the offer as PDF.
 * Both engines.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expireOffers } from '../../server/offers/actions.ts';
import { ADMIN, CONSULTANT, createTestApp, type TestApp } from './harness.ts';
import { pdfText } from './pdf-text.ts';

const CONSULTANT2 = 'consultant2@demo.gscrm.ch';
type Row = Record<string, unknown>;
let t: TestApp;
const users: Record<string, number> = {};
const unique = Math.random().toString(36).slice(2, 8);
let customer: Row;
let insurer: number;
/** Products of the catalogue (server/migrations/0003_product_catalogue.sql). */
const CAR = 7;
const VALUABLES = 16;

const call = (as: string, method: string, url: string, payload?: unknown) =>
  t.request({ method: method as 'GET', url, payload: payload as never, as });
const data = <T = Row>(response: LightMyRequestResponse) => (response.json() as { data: T }).data;

async function created(as: string, url: string, payload: Row): Promise<Row> {
  const response = await call(as, 'POST', url, payload);
  expect(response.statusCode, response.body).toBe(201);
  return data(response);
}

function messages(response: LightMyRequestResponse, status = 422): Record<string, string[]> {
  expect(response.statusCode, response.body).toBe(status);
  const answer = response.json() as { error_keys?: Record<string, Array<{ message: string }>> };
  return Object.fromEntries(
    Object.entries(answer.error_keys ?? {}).map(([field, keys]) => [
      field,
      keys.map((k) => k.message),
    ]),
  );
}

const offer = (extra: Row = {}, as = ADMIN) =>
  created(as, '/api/offers', {
    customer_id: customer.id,
    company_id: insurer,
    product_id: CAR,
    premium: 95.5,
    payment_cycle: 'monthly',
    cover_summary: 'Haftpflicht, Teilkasko (Selbstbehalt CHF 200)',
    start_date: '2027-01-01',
    valid_until: '2026-12-31',
    ...extra,
  });

beforeAll(async () => {
  t = await createTestApp();
  for (const user of await t.database.db.selectFrom('users').select(['id', 'email']).execute())
    users[String(user.email)] = Number(user.id);
  customer = await created(ADMIN, '/api/customers', {
    first_name: 'Odile',
    last_name: `Offerte${unique}`,
    date_of_birth: '1980-02-11',
    assigned_to: users[CONSULTANT],
    correspondence_languages: ['fr'],
  });
  const company = await created(ADMIN, '/api/companies', {
    name_de: `Offertversicherung ${unique}`,
    products: [CAR],
  });
  insurer = Number(company.id);
});
afterAll(async () => {
  await t?.close();
});

describe('writing an offer', () => {
  it('computes the annual premium, takes the customer’s consultant, starts as a draft', async () => {
    const row = await offer();
    expect(row).toMatchObject({
      status: 'draft',
      source: 'manual',
      annual_premium: 1146,
      consultant_id: users[CONSULTANT],
      customer_name: `Odile Offerte${unique}`,
    });
    const single = await offer({ premium: 2500, payment_cycle: 'single' });
    expect(single.annual_premium).toBe(2500);
  });

  it('refuses a product the insurer does not offer, and a negative premium, naming the field', async () => {
    expect(
      messages(
        await call(ADMIN, 'POST', '/api/offers', {
          customer_id: customer.id,
          company_id: insurer,
          product_id: VALUABLES,
          premium: 100,
        }),
      ),
    ).toEqual({ company_id: ['app.errors.notOffered'] });
    expect(
      messages(
        await call(ADMIN, 'POST', '/api/offers', {
          customer_id: customer.id,
          company_id: insurer,
          product_id: CAR,
          premium: -1,
        }),
      ),
    ).toHaveProperty('premium');
  });

  it('moves the status along the allowed moves only; accepted only by its action', async () => {
    const row = await offer();
    const sent = data(await call(ADMIN, 'PATCH', `/api/offers/${row.id}`, { status: 'sent' }));
    expect(sent.status).toBe('sent');
    expect(sent.sent_at).toBeTruthy();
    expect(
      messages(await call(ADMIN, 'PATCH', `/api/offers/${row.id}`, { status: 'accepted' })),
    ).toEqual({ status: ['app.errors.statusTransition'] });
    expect(
      messages(
        await call(ADMIN, 'POST', '/api/offers', {
          customer_id: customer.id,
          company_id: insurer,
          product_id: CAR,
          premium: 10,
          status: 'declined',
        }),
      ),
    ).toEqual({ status: ['app.errors.statusTransition'] });
    const expired = data(
      await call(ADMIN, 'PATCH', `/api/offers/${row.id}`, { status: 'expired' }),
    );
    expect(expired.status).toBe('expired');
    const revived = data(await call(ADMIN, 'PATCH', `/api/offers/${row.id}`, { status: 'draft' }));
    expect(revived.status).toBe('draft');
  });
});

describe('accepting and declining', () => {
  it('accepts an offer by making its closure in the same step', async () => {
    const row = await offer({ status: 'sent' });
    const response = await call(ADMIN, 'POST', `/api/offers/${row.id}/accept`, {
      version: row.version,
      contract_number: `OFF-${unique}`,
    });
    expect(response.statusCode, response.body).toBe(200);
    const answer = response.json() as { data: Row; contract: Row };
    expect(answer.data).toMatchObject({ status: 'accepted', contract_id: answer.contract.id });
    expect(answer.data.decided_at).toBeTruthy();
    const contract = data(await call(ADMIN, 'GET', `/api/contracts/${answer.contract.id}`));
    expect(contract).toMatchObject({
      contract_type: 'closure',
      customer_id: customer.id,
      company_id: insurer,
      product_id: CAR,
      consultant_id: users[CONSULTANT],
      status: 'application',
      payment_cycle: 'monthly',
      start_date: '2027-01-01',
      contract_number: `OFF-${unique}`,
      annual_premium: 1146,
    });
    expect(String(contract.note)).toContain(`#${String(row.id)}`);
    // Decided: accepted twice or declined is refused; only the note may change; it stays.
    expect((await call(ADMIN, 'POST', `/api/offers/${row.id}/accept`, {})).json()).toMatchObject({
      key: 'app.errors.offerNotAcceptable',
    });
    expect(
      (await call(ADMIN, 'POST', `/api/offers/${row.id}/decline`, { reason: 'price' })).json(),
    ).toMatchObject({ key: 'app.errors.offerNotDeclinable' });
    const premium = await call(ADMIN, 'PATCH', `/api/offers/${row.id}`, { premium: 1 });
    expect(premium.statusCode).toBe(409);
    expect(premium.json()).toMatchObject({ key: 'app.errors.offerDecided' });
    const noted = await call(ADMIN, 'PATCH', `/api/offers/${row.id}`, { note: 'Police folgt' });
    expect(noted.statusCode, noted.body).toBe(200);
    expect((await call(ADMIN, 'DELETE', `/api/offers/${row.id}`)).statusCode).toBe(409);
  });

  it('keeps the offer open when its closure is refused (nothing written)', async () => {
    const row = await offer();
    // The insurer stops offering the product: the contract's own rule refuses the closure.
    await call(ADMIN, 'PATCH', `/api/companies/${insurer}`, { products: [VALUABLES] });
    try {
      const refused = await call(ADMIN, 'POST', `/api/offers/${row.id}/accept`, {});
      expect(messages(refused)).toEqual({ company_id: ['app.errors.notOffered'] });
      const still = data(await call(ADMIN, 'GET', `/api/offers/${row.id}`));
      expect(still).toMatchObject({ status: 'draft', contract_id: null });
    } finally {
      await call(ADMIN, 'PATCH', `/api/companies/${insurer}`, { products: [CAR] });
    }
  });

  it('answers 409 with the current offer when the action is based on an old version', async () => {
    const row = await offer();
    await call(ADMIN, 'PATCH', `/api/offers/${row.id}`, { note: 'geändert' });
    const stale = await call(ADMIN, 'POST', `/api/offers/${row.id}/accept`, {
      version: row.version,
    });
    expect(stale.statusCode).toBe(409);
    expect((stale.json() as { current: Row }).current).toMatchObject({ note: 'geändert' });
  });

  it('declines with the reason, and with non_closure makes the non-closure', async () => {
    const plain = await offer();
    const declined = await call(ADMIN, 'POST', `/api/offers/${plain.id}/decline`, {
      reason: 'postponed',
    });
    expect(declined.statusCode, declined.body).toBe(200);
    expect(declined.json()).toMatchObject({
      data: { status: 'declined', decline_reason: 'postponed', contract_id: null },
      contract: null,
    });
    const withContract = await offer({ status: 'sent' });
    const answer = (
      await call(ADMIN, 'POST', `/api/offers/${withContract.id}/decline`, {
        reason: 'price',
        non_closure: true,
      })
    ).json() as { data: Row; contract: Row };
    expect(answer.contract).toMatchObject({
      contract_type: 'non-closure',
      reason: 'price',
      customer_id: customer.id,
      product_id: CAR,
    });
    expect(answer.data.contract_id).toBe(answer.contract.id);
    expect(
      messages(await call(ADMIN, 'POST', `/api/offers/${plain.id}/decline`, { reason: 'x' })),
    ).toEqual({ reason: ['app.errors.enum'] });
  });
});

describe('who sees which offers', () => {
  it('shows a consultant the offers of their customers, not another consultant’s', async () => {
    const row = await offer();
    expect((await call(CONSULTANT, 'GET', `/api/offers/${row.id}`)).statusCode).toBe(200);
    expect((await call(CONSULTANT2, 'GET', `/api/offers/${row.id}`)).statusCode).toBe(404);
    expect((await call(CONSULTANT2, 'POST', `/api/offers/${row.id}/accept`, {})).statusCode).toBe(
      404,
    );
    const listed = data<Row[]>(
      await call(CONSULTANT2, 'GET', `/api/offers?customer_id=${String(customer.id)}`),
    );
    expect(listed).toEqual([]);
    // A consultant creating an offer for a customer they do not see: refused.
    const foreign = await call(CONSULTANT2, 'POST', '/api/offers', {
      customer_id: customer.id,
      company_id: insurer,
      product_id: CAR,
      premium: 10,
    });
    expect(foreign.statusCode).toBe(422);
  });
});

describe('the nightly expiry and the PDF', () => {
  it('expires draft and sent offers past their last valid day, and no other', async () => {
    const past = await offer({ valid_until: '2026-01-31', status: 'sent' });
    const today = await offer({ valid_until: '2026-02-01' });
    const expired = await expireOffers(t.database.db, '2026-02-01');
    expect(expired).toBeGreaterThanOrEqual(1);
    expect(data(await call(ADMIN, 'GET', `/api/offers/${past.id}`)).status).toBe('expired');
    expect(data(await call(ADMIN, 'GET', `/api/offers/${today.id}`)).status).toBe('draft');
  });

  it('answers the offer as PDF in the customer’s language, only to who may see it', async () => {
    const row = await offer();
    const response = await call(ADMIN, 'GET', `/api/offers/${row.id}/offer.pdf`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdfText(response.rawPayload)).toContain('Offre #');
    expect(pdfText(response.rawPayload)).toContain('CHF 95.50');
    expect((await call(CONSULTANT2, 'GET', `/api/offers/${row.id}/offer.pdf`)).statusCode).toBe(
      404,
    );
  });
});
