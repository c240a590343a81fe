/**
 * The car-insurance comparison (FS24, issue 18): drafts saved step by step and resumed, each
 * step's checks (registration in the future, a driver under 18 or licensed before 18, an unknown
 * canton, km out of range), who opens a customer's comparison (a staff session that sees the
 * customer, or that customer's unexpired, unrevoked link token — 404 for everything else), the
 * adapter against the local stand-in (sample tariffs, a timeout, garbage, another shape, an error,
 * refused credentials, no service configured: a clear message and the draft untouched), and
 * chosen results becoming offers, one of them accepted into a closure. Both engines.
 */
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_HEADER } from '../../server/comparison/index.ts';
import { type StandIn, startStandIn } from '../../server/comparison/stand-in.ts';
import { swissToday } from '../../src/schema/swiss-time.ts';
import { ADMIN, CONSULTANT, createTestApp, type TestApp, type TestClient } from './harness.ts';

const CONSULTANT2 = 'consultant2@demo.gscrm.ch';
type Row = Record<string, unknown>;
let t: TestApp;
let served: TestClient;
let standIn: StandIn;
let customer: Row;
let otherCustomer: Row;

const today = swissToday();
const year = Number(today.slice(0, 4));
const yearsAgo = (years: number, days = 0) => {
  const date = new Date(`${today}T00:00:00Z`);
  date.setUTCFullYear(date.getUTCFullYear() - years);
  date.setUTCDate(date.getUTCDate() - days);
  return date.toISOString().slice(0, 10);
};
const inDays = (days: number) => {
  const date = new Date(`${today}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
};

const STEPS: Record<string, Row> = {
  vehicle: {
    car: {
      manufacturer: 'Volkswagen',
      type: 'Golf 1.5 TSI',
      first_registration_year: year - 3,
      first_registration_month: 5,
      kilometres: 42_000,
      extras_valuation: 1500,
      purchase_year: year - 3,
    },
  },
  use: { canton: 'ZH', yearly_km: 14_000, usage: 'way_to_work', garage_type: 'private_garage' },
  drivers: {
    driver: {
      title: 'ms',
      first_name: 'Anna',
      last_name: 'Muster',
      birthdate: yearsAgo(34),
      nationality: 'CH',
      postcode: '8004',
      city: 'Zürich',
      licence_date: yearsAgo(15),
      is_main: true,
    },
    other_users: [{ first_name: 'Luca', birthdate: yearsAgo(40), licence_date: yearsAgo(21) }],
    under25_usage: false,
  },
  cover: {
    coverage: {
      leased: false,
      basic: 'full_casco',
      deductible_partial: 200,
      deductible_full: 1000,
      bonus_protection: 'liability_full_casco',
      parking_extra: true,
      passenger_accident: true,
      valuable_items: 2000,
      start_date: inDays(30),
      previous_insurer: 'AXA',
    },
  },
  history: {
    history: {
      cancelled_contract: false,
      rejected_application: false,
      damage_or_fines_over250: false,
    },
  },
};

const base = (customerId: unknown) => `/api/fs24/${String(customerId)}`;

function send(
  client: TestClient,
  method: string,
  url: string,
  options: { as?: string; token?: string; payload?: unknown } = {},
) {
  return client.request({
    method: method as 'GET',
    url,
    payload: options.payload as never,
    as: options.as,
    headers: options.token ? { [TOKEN_HEADER]: options.token } : {},
  });
}

const data = (response: LightMyRequestResponse) => (response.json() as { data: Row }).data;

function fieldKeys(response: LightMyRequestResponse, status = 422): Record<string, string[]> {
  expect(response.statusCode, response.body).toBe(status);
  const answer = response.json() as { error_keys?: Record<string, Array<{ message: string }>> };
  return Object.fromEntries(
    Object.entries(answer.error_keys ?? {}).map(([field, keys]) => [
      field,
      keys.map((k) => k.message),
    ]),
  );
}

/** A draft of the customer with every step saved (as CONSULTANT). */
async function completeDraft(client: TestClient = t, customerId = customer.id): Promise<Row> {
  const created = await send(client, 'POST', `${base(customerId)}/drafts`, {
    as: CONSULTANT,
    payload: { step: 'vehicle', ...STEPS.vehicle },
  });
  expect(created.statusCode, created.body).toBe(201);
  let draft = data(created);
  for (const step of ['use', 'drivers', 'cover', 'history']) {
    const saved = await send(client, 'PATCH', `${base(customerId)}/drafts/${String(draft.id)}`, {
      as: CONSULTANT,
      payload: { step, version: draft.version, ...STEPS[step] },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    draft = data(saved);
  }
  return draft;
}

beforeAll(async () => {
  t = await createTestApp();
  standIn = await startStandIn();
  served = await t.variant({ comparison: { url: standIn.url, timeoutMs: 1500 } });
  const consultant = await t.database.db
    .selectFrom('users')
    .select('id')
    .where('email', '=', CONSULTANT)
    .executeTakeFirstOrThrow();
  customer = (await t.database.db
    .selectFrom('customers')
    .select(['id', 'first_name', 'last_name', 'date_of_birth'])
    .where('assigned_to', '=', consultant.id)
    .where('is_company', '=', false)
    .orderBy('id')
    .executeTakeFirstOrThrow()) as Row;
  otherCustomer = (await t.database.db
    .selectFrom('customers')
    .select(['id'])
    .where((eb) => eb.or([eb('assigned_to', '!=', consultant.id), eb('assigned_to', 'is', null)]))
    .where('sub_broker_id', 'is', null)
    .orderBy('id')
    .executeTakeFirstOrThrow()) as Row;
}, 120_000);

afterAll(async () => {
  await standIn?.close();
  await t?.close();
});

describe('drafts saved step by step', () => {
  it('answers the page context: prefill from the customer, drafts, whether a service is configured', async () => {
    const response = await send(t, 'GET', base(customer.id), { as: CONSULTANT });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json() as Row & { prefill: { driver: Row }; comparison: Row };
    expect(body.access).toBe('staff');
    expect(body.can_make_offers).toBe(true);
    expect(body.comparison).toEqual({ configured: false });
    expect(body.prefill.driver.last_name).toBe(customer.last_name);
    expect(body.prefill.driver.is_main).toBe(true);
    const configured = await send(served, 'GET', base(customer.id), { as: CONSULTANT });
    expect((configured.json() as { comparison: Row }).comparison).toEqual({ configured: true });
  });

  it('saves each step, counts the steps done in order, resumes, and refuses a stale version', async () => {
    const created = await send(t, 'POST', `${base(customer.id)}/drafts`, {
      as: CONSULTANT,
      payload: { step: 'vehicle', ...STEPS.vehicle },
    });
    expect(created.statusCode, created.body).toBe(201);
    const draft = data(created);
    expect(draft).toMatchObject({
      customer_id: customer.id,
      steps_done: 1,
      status: 'open',
      started_via: 'staff',
      summary: `Volkswagen Golf 1.5 TSI · 05/${year - 3}`,
    });
    const use = await send(t, 'PATCH', `${base(customer.id)}/drafts/${String(draft.id)}`, {
      as: CONSULTANT,
      payload: { step: 'use', version: draft.version, ...STEPS.use },
    });
    expect(use.statusCode, use.body).toBe(200);
    expect(data(use)).toMatchObject({ steps_done: 2, canton: 'ZH', yearly_km: 14_000 });
    // Resumed: the same draft, listed on the customer.
    const resumed = await send(t, 'GET', `${base(customer.id)}/drafts/${String(draft.id)}`, {
      as: CONSULTANT,
    });
    expect(data(resumed)).toMatchObject({ steps_done: 2, car: STEPS.vehicle.car as Row });
    const context = await send(t, 'GET', base(customer.id), { as: CONSULTANT });
    expect((context.json() as { drafts: Row[] }).drafts.map((one) => one.id)).toContain(draft.id);
    const listed = await send(
      t,
      'GET',
      `/api/car-comparison-drafts?customer_id=${String(customer.id)}`,
      {
        as: CONSULTANT,
      },
    );
    expect(listed.statusCode, listed.body).toBe(200);
    expect((listed.json() as { data: Row[] }).data.map((one) => one.id)).toContain(draft.id);
    // Based on the first version: 409 with the current draft, nothing written.
    const stale = await send(t, 'PATCH', `${base(customer.id)}/drafts/${String(draft.id)}`, {
      as: CONSULTANT,
      payload: { step: 'use', version: draft.version, ...STEPS.use, canton: 'BE' },
    });
    expect(stale.statusCode, stale.body).toBe(409);
    expect((stale.json() as { current: Row }).current).toMatchObject({ canton: 'ZH' });
  });

  it('keeps what was typed without the checks when a step is not completed', async () => {
    const created = await send(t, 'POST', `${base(customer.id)}/drafts`, {
      as: CONSULTANT,
      payload: { step: 'vehicle', complete: false, car: { manufacturer: 'Škoda' } },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(data(created)).toMatchObject({ steps_done: 0, car: { manufacturer: 'Škoda' } });
    // A later step is not done before the ones before it.
    const later = await send(
      t,
      'PATCH',
      `${base(customer.id)}/drafts/${String(data(created).id)}`,
      {
        as: CONSULTANT,
        payload: { step: 'use', ...STEPS.use },
      },
    );
    expect(data(later).steps_done).toBe(0);
  });

  it('refuses bad input naming the field, and writes nothing', async () => {
    const post = (payload: Row) =>
      send(t, 'POST', `${base(customer.id)}/drafts`, { as: CONSULTANT, payload });
    const car = STEPS.vehicle.car as Row;
    expect(
      fieldKeys(
        await post({ step: 'vehicle', car: { ...car, first_registration_year: year + 1 } }),
      ),
    ).toEqual({ 'car.first_registration_year': ['app.errors.notInFuture'] });
    expect(
      fieldKeys(await post({ step: 'vehicle', car: { ...car, manufacturer: undefined } })),
    ).toEqual({
      'car.manufacturer': ['app.errors.required'],
    });
    expect(Object.keys(fieldKeys(await post({ step: 'use', ...STEPS.use, canton: 'XX' })))).toEqual(
      ['canton'],
    );
    expect(
      Object.keys(fieldKeys(await post({ step: 'use', ...STEPS.use, yearly_km: 250_000 }))),
    ).toEqual(['yearly_km']);
    expect(
      Object.keys(fieldKeys(await post({ step: 'vehicle', ...STEPS.vehicle, canton: 'ZH' }))),
    ).toEqual(['canton']);
    const driver = (STEPS.drivers.driver as Row) ?? {};
    const young = fieldKeys(
      await post({
        ...STEPS.drivers,
        step: 'drivers',
        driver: { ...driver, birthdate: yearsAgo(17), licence_date: undefined },
      }),
    );
    expect(young['driver.birthdate']).toEqual(['app.errors.driverTooYoung']);
    const early = fieldKeys(
      await post({
        ...STEPS.drivers,
        step: 'drivers',
        driver: { ...driver, birthdate: yearsAgo(30), licence_date: yearsAgo(13) },
      }),
    );
    expect(early).toEqual({ 'driver.licence_date': ['app.errors.licenceBefore18'] });
    const youngOther = fieldKeys(
      await post({
        ...STEPS.drivers,
        step: 'drivers',
        other_users: [{ birthdate: yearsAgo(20), licence_date: yearsAgo(1) }],
      }),
    );
    expect(youngOther).toEqual({ under25_usage: ['app.errors.youngDriverNamed'] });
    const leased = fieldKeys(
      await post({
        step: 'cover',
        coverage: { ...(STEPS.cover.coverage as Row), leased: true, basic: 'partial_casco' },
      }),
    );
    expect(leased['coverage.basic']).toEqual(['app.errors.leasedNeedsFullCasco']);
    const count = await t.database.db
      .selectFrom('car_comparison_drafts')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('summary', 'is', null)
      .executeTakeFirstOrThrow();
    expect(count.n).toBe(0);
  });
});

describe('who opens a customer’s comparison', () => {
  it('staff who do not see the customer, and anyone without session or token, get 404', async () => {
    expect((await send(t, 'GET', base(otherCustomer.id), { as: CONSULTANT })).statusCode).toBe(404);
    expect((await send(t, 'GET', base(customer.id))).statusCode).toBe(404);
    expect((await send(t, 'GET', base(customer.id), { token: 'x'.repeat(43) })).statusCode).toBe(
      404,
    );
    expect((await send(t, 'GET', base(customer.id), { as: ADMIN })).statusCode).toBe(200);
  });

  it('a link token opens its own customer only, until it expires or is revoked', async () => {
    const made = await send(t, 'POST', `/api/customers/${String(customer.id)}/comparison-links`, {
      as: CONSULTANT,
      payload: { days: 7, language: 'fr' },
    });
    expect(made.statusCode, made.body).toBe(201);
    const link = made.json() as { id: number; token: string; url: string };
    expect(link.url).toBe(`/financescout24/${String(customer.id)}?token=${link.token}&lang=fr`);
    const context = await send(t, 'GET', base(customer.id), { token: link.token });
    expect(context.statusCode, context.body).toBe(200);
    expect(context.json()).toMatchObject({ access: 'link', can_make_offers: false });
    // A draft the customer starts is marked so, and is the link maker's to compare.
    const started = await send(t, 'POST', `${base(customer.id)}/drafts`, {
      token: link.token,
      payload: { step: 'vehicle', ...STEPS.vehicle },
    });
    expect(started.statusCode, started.body).toBe(201);
    expect(data(started)).toMatchObject({ started_via: 'link' });
    // Another customer's comparison, or another's drafts: 404, nothing revealed.
    const elsewhere = await send(t, 'GET', base(otherCustomer.id), { token: link.token });
    expect(elsewhere.statusCode).toBe(404);
    expect(elsewhere.body).not.toContain(String(otherCustomer.id));
    const otherDraft = await completeDraft(t, customer.id);
    expect(
      (
        await send(t, 'GET', `${base(otherCustomer.id)}/drafts/${String(otherDraft.id)}`, {
          as: ADMIN,
        })
      ).statusCode,
    ).toBe(404);
    // The links listed on the customer, without their tokens.
    const listed = await send(t, 'GET', `/api/customers/${String(customer.id)}/comparison-links`, {
      as: CONSULTANT,
    });
    expect(listed.body).not.toContain(link.token);
    expect((listed.json() as { data: Row[] }).data[0]).toMatchObject({ id: link.id, active: true });
    // Another consultant may not revoke a link of a customer they do not see.
    expect(
      (await send(t, 'DELETE', `/api/comparison-links/${link.id}`, { as: CONSULTANT2 })).statusCode,
    ).toBe(404);
    expect(
      (await send(t, 'DELETE', `/api/comparison-links/${link.id}`, { as: CONSULTANT })).statusCode,
    ).toBe(204);
    expect((await send(t, 'GET', base(customer.id), { token: link.token })).statusCode).toBe(404);
    // Expired.
    const second = (
      await send(t, 'POST', `/api/customers/${String(customer.id)}/comparison-links`, {
        as: CONSULTANT,
      })
    ).json() as { id: number; token: string };
    expect((await send(t, 'GET', base(customer.id), { token: second.token })).statusCode).toBe(200);
    await t.database.db
      .updateTable('comparison_links')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', second.id)
      .execute();
    expect((await send(t, 'GET', base(customer.id), { token: second.token })).statusCode).toBe(404);
  });

  it('a customer through a link cannot turn results into offers', async () => {
    const link = (
      await send(t, 'POST', `/api/customers/${String(customer.id)}/comparison-links`, {
        as: CONSULTANT,
      })
    ).json() as { token: string };
    const draft = await completeDraft();
    const response = await send(
      t,
      'POST',
      `${base(customer.id)}/drafts/${String(draft.id)}/offers`,
      {
        token: link.token,
        payload: { quote_ids: ['sample-1'] },
      },
    );
    expect(response.statusCode, response.body).toBe(403);
    expect((response.json() as { key: string }).key).toBe('app.errors.comparisonStaffOnly');
  });
});

describe('the comparison service', () => {
  it('says so when no service is configured, and compares nothing incomplete', async () => {
    const draft = await completeDraft();
    const response = await send(
      t,
      'POST',
      `${base(customer.id)}/drafts/${String(draft.id)}/compare`,
      {
        as: CONSULTANT,
      },
    );
    expect(response.statusCode, response.body).toBe(503);
    expect((response.json() as { key: string }).key).toBe('app.errors.comparisonNotConfigured');
    const partial = data(
      await send(t, 'POST', `${base(customer.id)}/drafts`, {
        as: CONSULTANT,
        payload: { step: 'vehicle', ...STEPS.vehicle },
      }),
    );
    const incomplete = await send(
      served,
      'POST',
      `${base(customer.id)}/drafts/${String(partial.id)}/compare`,
      {
        as: CONSULTANT,
      },
    );
    expect(incomplete.statusCode, incomplete.body).toBe(409);
    expect((incomplete.json() as { key: string }).key).toBe('app.errors.comparisonIncomplete');
  });

  it('shows the stand-in’s labelled sample tariffs per insurer, matched to the companies', async () => {
    standIn.mode = 'ok';
    const draft = await completeDraft(served);
    expect(draft).toMatchObject({ steps_done: 5, status: 'complete' });
    const response = await send(
      served,
      'POST',
      `${base(customer.id)}/drafts/${String(draft.id)}/compare`,
      {
        as: CONSULTANT,
      },
    );
    expect(response.statusCode, response.body).toBe(200);
    const compared = data(response);
    expect(compared.status).toBe('compared');
    const results = compared.results as {
      sample: boolean;
      label: string;
      quotes: Array<
        Row & { premiums: Row; deductibles: Row; add_ons: Row[]; annual_premium: number }
      >;
    };
    expect(results.sample).toBe(true);
    expect(results.label).toMatch(/not real prices/);
    expect(results.quotes.length).toBeGreaterThan(3);
    for (const quote of results.quotes) {
      const parts = ['liability', 'partial_casco', 'full_casco', 'add_ons'].reduce(
        (sum, key) => sum + Number(quote.premiums[key]),
        0,
      );
      expect(Math.abs(parts - quote.annual_premium)).toBeLessThan(1);
      expect(quote.deductibles.full_casco).toBe(1000);
    }
    const premiums = results.quotes.map((quote) => quote.annual_premium);
    expect(premiums).toEqual([...premiums].sort((a, b) => a - b));
    expect(results.quotes.find((quote) => quote.insurer === 'AXA')?.company_id).toEqual(
      expect.any(Number),
    );
    // A change of the data drops the prices for the old data.
    const changed = await send(served, 'PATCH', `${base(customer.id)}/drafts/${String(draft.id)}`, {
      as: CONSULTANT,
      payload: { step: 'use', version: compared.version, ...STEPS.use, yearly_km: 30_000 },
    });
    expect(data(changed)).toMatchObject({ status: 'complete', compared_at: null, results: {} });
  });

  it.each([
    ['slow', 504, 'comparisonTimeout'],
    ['garbage', 502, 'comparisonMalformed'],
    ['wrong-shape', 502, 'comparisonMalformed'],
    ['error', 502, 'comparisonUnavailable'],
    ['refuse', 502, 'comparisonCredentialsRefused'],
  ] as const)(
    'a service that is %s: %i %s, the draft kept as it was',
    async (mode, status, code) => {
      const draft = await completeDraft(served);
      standIn.mode = mode;
      try {
        const response = await send(
          served,
          'POST',
          `${base(customer.id)}/drafts/${String(draft.id)}/compare`,
          {
            as: CONSULTANT,
          },
        );
        expect(response.statusCode, response.body).toBe(status);
        expect((response.json() as { key: string }).key).toBe(`app.errors.${code}`);
      } finally {
        standIn.mode = 'ok';
      }
      const after = data(
        await send(served, 'GET', `${base(customer.id)}/drafts/${String(draft.id)}`, {
          as: CONSULTANT,
        }),
      );
      expect(after).toMatchObject({ version: draft.version, status: 'complete', steps_done: 5 });
    },
  );

  it('asks for offer credentials when the user has none', async () => {
    const consultant = await t.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', CONSULTANT)
      .executeTakeFirstOrThrow();
    const draft = await completeDraft(served);
    const saved = await t.database.db
      .selectFrom('offer_credentials')
      .selectAll()
      .where('user_id', '=', consultant.id)
      .executeTakeFirstOrThrow();
    await t.database.db
      .deleteFrom('offer_credentials')
      .where('user_id', '=', consultant.id)
      .execute();
    try {
      const response = await send(
        served,
        'POST',
        `${base(customer.id)}/drafts/${String(draft.id)}/compare`,
        {
          as: CONSULTANT,
        },
      );
      expect(response.statusCode, response.body).toBe(409);
      expect((response.json() as { key: string }).key).toBe('app.errors.comparisonNoCredentials');
    } finally {
      await t.database.db.insertInto('offer_credentials').values(saved).execute();
    }
  });
});

describe('results become offers', () => {
  it('makes an offer per chosen result (source comparison), and one accepted becomes a closure', async () => {
    standIn.mode = 'ok';
    const draft = await completeDraft(served);
    const compared = data(
      await send(served, 'POST', `${base(customer.id)}/drafts/${String(draft.id)}/compare`, {
        as: CONSULTANT,
      }),
    );
    const quotes = (compared.results as { quotes: Array<Row & { company_id: number | null }> })
      .quotes;
    const chosen = quotes.filter((quote) => quote.company_id).slice(0, 2);
    expect(chosen).toHaveLength(2);
    const unknown = await send(
      served,
      'POST',
      `${base(customer.id)}/drafts/${String(draft.id)}/offers`,
      {
        as: CONSULTANT,
        payload: { quote_ids: ['sample-99'] },
      },
    );
    expect(fieldKeys(unknown)).toEqual({ quote_ids: ['app.errors.comparisonQuoteUnknown'] });
    const response = await send(
      served,
      'POST',
      `${base(customer.id)}/drafts/${String(draft.id)}/offers`,
      {
        as: CONSULTANT,
        payload: { quote_ids: chosen.map((quote) => quote.id), valid_until: inDays(30) },
      },
    );
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json() as { data: Row; offers: Row[] };
    expect(body.data.status).toBe('offered');
    expect(body.offers).toHaveLength(2);
    for (const [index, offer] of body.offers.entries()) {
      expect(offer).toMatchObject({
        customer_id: customer.id,
        company_id: chosen[index]!.company_id,
        product_id: 7,
        premium: chosen[index]!.annual_premium,
        payment_cycle: 'annual',
        source: 'comparison',
        comparison_draft_id: draft.id,
        status: 'draft',
        valid_until: inDays(30),
      });
    }
    // The cover summary in the customer's language: every label a text, none a key.
    for (const offer of body.offers) {
      expect(String(offer.cover_summary)).not.toMatch(/app\.|enums\./);
      expect(String(offer.cover_summary).split('\n').length).toBeGreaterThan(2);
    }
    const read = await send(served, 'GET', `/api/offers/${String(body.offers[0]!.id)}`, {
      as: CONSULTANT,
    });
    expect(data(read)).toMatchObject({
      source: 'comparison',
      comparison_quote: { id: chosen[0]!.id, insurer: chosen[0]!.insurer },
    });
    const accepted = await send(
      served,
      'POST',
      `/api/offers/${String(body.offers[0]!.id)}/accept`,
      {
        as: CONSULTANT,
        payload: {},
      },
    );
    expect(accepted.statusCode, accepted.body).toBe(200);
    const answer = accepted.json() as { data: Row; contract: Row };
    expect(answer.data.status).toBe('accepted');
    expect(answer.contract).toMatchObject({
      customer_id: customer.id,
      company_id: chosen[0]!.company_id,
      product_id: 7,
      contract_type: 'closure',
    });
  });
});
