/**
 * Contracts on the server (issue 14): the computed figures, the rules across fields and records
 * (422 naming the field with its key), visibility through the customer, the delete permission,
 * the list's assignment / work location / search parameters, protocolMissing kept by the
 * documents, non-closures, concurrency, and erasure keeping the contracts. Both engines.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, CONSULTANT, createTestApp, type TestApp } from './harness.ts';
import { multipart } from './multipart.ts';

const CONSULTANT2 = 'consultant2@demo.gscrm.ch';
const BACKOFFICE = 'backoffice@demo.gscrm.ch';
const CALLCENTER = 'callcenter@demo.gscrm.ch';
const PARTNER = 'partner@demo.gscrm.ch';
const PDF_BYTES = Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');

type Row = Record<string, unknown>;
interface ErrorAnswer {
  errors?: Record<string, string[]>;
  error_keys?: Record<string, Array<{ message: string }>>;
}

let t: TestApp;
const users: Record<string, number> = {};
let insurer: number;
let carInsurer: number;
let mine: Row;
let theirs: Row;
let member: Row;
const unique = Math.random().toString(36).slice(2, 8);

const call = (as: string, method: string, url: string, payload?: unknown) =>
  t.request({ method: method as 'GET', url, payload: payload as never, as });
const data = <T = Row>(response: LightMyRequestResponse) => (response.json() as { data: T }).data;

async function created(as: string, url: string, payload: Row): Promise<Row> {
  const response = await call(as, 'POST', url, payload);
  expect(response.statusCode, response.body).toBe(201);
  return data(response);
}

/** A valid health closure (basic + supplementary) of `customer`. */
const health = (customer: Row, extra: Row = {}): Row => ({
  customer_id: customer.id,
  contract_type: 'closure',
  product_id: 3,
  company_id: insurer,
  contract_number: `H-${unique}-${Math.random().toString(36).slice(2, 7)}`,
  payment_cycle: 'monthly',
  signing_date: '2024-12-01',
  start_date: '2025-01-01',
  insurance: { sub_product_id: 1, sub_product_variant_id: 5, premium: 300, deductible: 300 },
  supplementary_insurances: [{ sub_product_id: 5, sub_product_variant_id: 2, premium_month: 50 }],
  ...extra,
});

/** The field errors of a 422 with their keys. */
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

beforeAll(async () => {
  t = await createTestApp();
  for (const user of await t.database.db.selectFrom('users').select(['id', 'email']).execute())
    users[String(user.email)] = Number(user.id);
  insurer = Number(
    (
      await created(ADMIN, '/api/companies', {
        name_de: `Prüfversicherung ${unique}`,
        products: [1, 2, 3, 4, 7, 24, 28],
      })
    ).id,
  );
  carInsurer = Number(
    (await created(ADMIN, '/api/companies', { name_de: `Autoschutz ${unique}`, products: [7] })).id,
  );
  mine = await created(CONSULTANT, '/api/customers', {
    first_name: 'Vertragstest',
    last_name: `Kundin${unique}`,
    nationality: 'DE',
    permit_type: 'C',
  });
  theirs = await created(CONSULTANT2, '/api/customers', {
    first_name: 'Fremd',
    last_name: `Kunde${unique}`,
  });
  member = await created(CONSULTANT, '/api/household-members', {
    customer_id: mine.id,
    relation: 'child',
    first_name: 'Lia',
    last_name: `Kundin${unique}`,
    nationality: 'IT',
    occupation: 'Studentin',
  });
});
afterAll(async () => {
  await t?.close();
});

describe('computed fields', () => {
  it('are set by the server from the product and the premiums; commissions by its engine', async () => {
    const contract = await created(
      CONSULTANT,
      '/api/contracts',
      health(mine, {
        // Read-only: ignored on create.
        annual_premium: 1,
        production_sum: 2,
        total_commission: 3,
        commissions: [{ user_id: users[CONSULTANT], type: 'consultant', comission: 120.5 }],
        product_group: 'life',
        protocol_missing: false,
      }),
    );
    expect(contract).toMatchObject({
      product_group: 'health',
      annual_premium: 300 * 12 + 50 * 12,
      production_sum: 4200,
      // No commission rule here (tests/api/commissions.test.ts has them): nobody earns anything.
      commissions: [],
      total_commission: 0,
      protocol_missing: true,
      status: 'active',
      // Defaults from the customer.
      consultant_id: users[CONSULTANT],
      client: { nationality: 'DE', permit_type: 'C' },
    });
    const url = `/api/contracts/${contract.id}`;
    expect(
      Object.keys(refused(await call(CONSULTANT, 'PATCH', url, { annual_premium: 9 }))),
    ).toEqual(['annual_premium']);
    expect(
      Object.keys(
        refused(
          await call(CONSULTANT, 'PATCH', url, {
            commissions: [{ user_id: users[CONSULTANT], type: 'consultant', comission: 100 }],
          }),
        ),
      ),
    ).toEqual(['commissions']);
    const changed = data(
      await call(CONSULTANT, 'PATCH', url, {
        payment_cycle: 'quarterly',
      }),
    );
    expect(changed).toMatchObject({
      annual_premium: 300 * 4 + 600,
      total_commission: 0,
      // The snapshot stays as taken at create.
      client: { nationality: 'DE', permit_type: 'C' },
    });
  });

  it('life: production sum is the annual premium × term; finance: the amount', async () => {
    const life = await created(ADMIN, '/api/contracts', {
      customer_id: mine.id,
      product_id: 4,
      company_id: insurer,
      payment_cycle: 'monthly',
      insurance: { sub_product_id: 13, premium: 100, term_years: 10 },
    });
    expect(life).toMatchObject({
      product_group: 'life',
      annual_premium: 1200,
      production_sum: 12000,
      protocol_missing: false,
    });
    const mortgage = await created(ADMIN, '/api/contracts', {
      customer_id: mine.id,
      product_id: 24,
      company_id: insurer,
      coverage: { amount: 500000, interest_rate: 1.5 },
    });
    expect(mortgage).toMatchObject({ product_group: 'finance', production_sum: 500000 });
  });

  it('takes the client snapshot from the insured household member', async () => {
    const contract = await created(
      CONSULTANT,
      '/api/contracts',
      health(mine, { household_member_id: member.id, client: { occupation: 'Lernende' } }),
    );
    // Given fields stay; the empty ones come from the member.
    expect(contract.client).toEqual({ nationality: 'IT', occupation: 'Lernende' });
  });
});

describe('bad input: 422 naming the field with its key', () => {
  const cases: Array<[string, () => Row, string, string]> = [
    [
      'end before start',
      () => ({ start_date: '2025-01-01', end_date: '2024-12-31' }),
      'end_date',
      'notBeforeStart',
    ],
    [
      'signing in the future',
      () => ({ signing_date: '2099-01-01' }),
      'signing_date',
      'notInFuture',
    ],
    [
      'a sub-product of another product',
      () => ({ insurance: { sub_product_id: 9 } }),
      'insurance.sub_product_id',
      'notOfProduct',
    ],
    [
      'a supplementary sub-product of another product',
      () => ({ supplementary_insurances: [{ sub_product_id: 5 }, { sub_product_id: 10 }] }),
      'supplementary_insurances.1.sub_product_id',
      'notOfProduct',
    ],
    [
      'a basic model on the supplementary product',
      () => ({ product_id: 2, insurance: { sub_product_id: 1 }, supplementary_insurances: [] }),
      'insurance.sub_product_id',
      'notOfProduct',
    ],
    [
      'an unknown sub-product',
      () => ({ insurance: { sub_product_id: 2_000_000_000 } }),
      'insurance.sub_product_id',
      'unknownReference',
    ],
    [
      'a variant of another sub-product',
      () => ({ insurance: { sub_product_id: 1, sub_product_variant_id: 1 } }),
      'insurance.sub_product_variant_id',
      'notOfSubProduct',
    ],
    [
      'a supplementary variant without its sub-product',
      () => ({ supplementary_insurances: [{ sub_product_id: 6, sub_product_variant_id: 2 }] }),
      'supplementary_insurances.0.sub_product_variant_id',
      'notOfSubProduct',
    ],
    [
      'an insurer that does not offer the product',
      () => ({ company_id: carInsurer }),
      'company_id',
      'notOffered',
    ],
    ['an unknown insurer', () => ({ company_id: 2_000_000_000 }), 'company_id', 'unknownReference'],
    ['a closure without insurer', () => ({ company_id: null }), 'company_id', 'required'],
    [
      'a non-closure without reason',
      () => ({ contract_type: 'non-closure' }),
      'reason',
      'required',
    ],
    [
      'an interest rate on a health contract',
      () => ({ coverage: { interest_rate: 2 } }),
      'coverage.interest_rate',
      'onlyForFinance',
    ],
    [
      'an absurd interest rate',
      () => ({ product_id: 24, coverage: { interest_rate: 80 } }),
      'coverage.interest_rate',
      'maximum',
    ],
    ['a negative premium', () => ({ insurance: { premium: -5 } }), 'insurance.premium', 'minimum'],
    [
      'an absurd monthly premium (CHF 1.2 million a year)',
      () => ({ payment_cycle: 'monthly', insurance: { premium: 100_000 } }),
      'insurance.premium',
      'maximum',
    ],
    [
      'an absurd single premium',
      () => ({ product_id: 4, payment_cycle: 'single', insurance: { premium: 9_000_000 } }),
      'insurance.premium',
      'maximum',
    ],
    [
      'an absurd supplementary monthly premium',
      () => ({ supplementary_insurances: [{ sub_product_id: 5, premium_month: 25_000 }] }),
      'supplementary_insurances.0.premium_month',
      'maximum',
    ],
    [
      'a household member of another customer',
      () => ({ customer_id: theirs.id, household_member_id: member.id }),
      'household_member_id',
      'notOfCustomer',
    ],
    [
      'an unknown previous insurer',
      () => ({ previous_insurance: { previous_companies: [insurer, 2_000_000_000] } }),
      'previous_insurance.previous_companies',
      'unknownReference',
    ],
  ];

  beforeAll(async () => {
    await t.database.db
      .updateTable('users')
      .set({ is_active: false })
      .where('id', '=', users[PARTNER])
      .execute();
  });

  it.each(cases)('refuses %s', async (_name, change, field, code) => {
    const keys = refused(await call(ADMIN, 'POST', '/api/contracts', health(mine, change())));
    expect(keys[field], JSON.stringify(keys)).toContain(`app.errors.${code}`);
  });

  it('accepts sub-products of basic and supplementary on the basic + supplementary product', async () => {
    const contract = await created(ADMIN, '/api/contracts', health(mine));
    expect(contract.insurance).toMatchObject({ sub_product_id: 1 });
  });

  it('checks a PATCH against the stored record merged with it', async () => {
    const contract = await created(ADMIN, '/api/contracts', health(mine));
    const url = `/api/contracts/${contract.id}`;
    expect(refused(await call(ADMIN, 'PATCH', url, { end_date: '2024-06-30' }))).toEqual({
      end_date: ['app.errors.notBeforeStart'],
    });
    expect(refused(await call(ADMIN, 'PATCH', url, { product_id: 9 }))).toMatchObject({
      company_id: ['app.errors.notOffered'],
      'insurance.sub_product_id': ['app.errors.notOfProduct'],
    });
  });
});

describe('visibility and permissions', () => {
  it('a consultant sees and changes only the contracts of its customers', async () => {
    const own = await created(CONSULTANT, '/api/contracts', health(mine));
    const other = await created(CONSULTANT2, '/api/contracts', health(theirs));
    const list = data<Row[]>(await call(CONSULTANT, 'GET', '/api/contracts?per_page=500'));
    const ids = list.map((row) => row.id);
    expect(ids).toContain(own.id);
    expect(ids).not.toContain(other.id);
    const customers = new Set(
      data<Row[]>(
        await call(ADMIN, 'GET', `/api/customers?assigned_to=${users[CONSULTANT]}&per_page=500`),
      ).map((row) => row.id),
    );
    expect(list.every((row) => customers.has(row.customer_id))).toBe(true);
    const url = `/api/contracts/${other.id}`;
    for (const [method, payload] of [
      ['GET', undefined],
      ['PATCH', { note: 'taken over' }],
      ['PUT', health(theirs)],
    ] as const) {
      const response = await call(CONSULTANT, method, url, payload);
      expect(response.statusCode, `${method} ${response.body}`).toBe(404);
    }
    const search = await call(
      CONSULTANT,
      'GET',
      `/api/contracts?search=${encodeURIComponent(String(other.contract_number))}`,
    );
    expect(data<Row[]>(search)).toEqual([]);
  });

  it('a consultant cannot create a contract on another consultant’s customer, nor move one there', async () => {
    const response = await call(CONSULTANT, 'POST', '/api/contracts', health(theirs));
    expect(response.statusCode, response.body).toBe(422);
    expect((response.json() as ErrorAnswer).errors).toEqual({
      customer_id: [`refers to unknown customers: ${theirs.id}`],
    });
    const own = await created(CONSULTANT, '/api/contracts', health(mine));
    const move = await call(CONSULTANT, 'PATCH', `/api/contracts/${own.id}`, {
      customer_id: theirs.id,
    });
    expect(move.statusCode).toBe(422);
    expect(Object.keys((move.json() as ErrorAnswer).errors ?? {})).toContain('customer_id');
  });

  it('deleting needs delete-contracts (admin, back office); others get 403', async () => {
    const contract = await created(CONSULTANT, '/api/contracts', health(mine));
    const url = `/api/contracts/${contract.id}`;
    expect((await call(CONSULTANT, 'DELETE', url)).statusCode).toBe(403);
    expect((await call(CALLCENTER, 'DELETE', url)).statusCode).toBe(403);
    expect((await call(BACKOFFICE, 'DELETE', url)).statusCode).toBe(200);
    expect((await call(ADMIN, 'GET', url)).statusCode).toBe(404);
  });

  it('a contract with a document is not deleted: 409 naming the documents, nothing removed', async () => {
    const contract = await created(CONSULTANT, '/api/contracts', health(mine));
    const url = `/api/contracts/${contract.id}`;
    const document = await created(CONSULTANT, '/api/documents', {
      customer_id: mine.id,
      contract_id: contract.id,
      document_name: 'Police',
      document_type: 'policy',
      document_related_to: 'contract',
    });
    for (const as of [ADMIN, BACKOFFICE]) {
      const response = await call(as, 'DELETE', url);
      expect(response.statusCode, response.body).toBe(409);
      // The web app says it in words from the key and the table named (ContractActions.tsx).
      expect(response.json()).toMatchObject({
        key: 'app.errors.stillUsed',
        args: { users: ' (documents)' },
      });
    }
    expect((await call(ADMIN, 'GET', url)).statusCode).toBe(200);
    expect(data(await call(ADMIN, 'GET', `/api/documents/${document.id}`))).toMatchObject({
      contract_id: contract.id,
    });
    // Without its document it goes.
    expect((await call(CONSULTANT, 'DELETE', `/api/documents/${document.id}`)).statusCode).toBe(
      200,
    );
    expect((await call(ADMIN, 'DELETE', url)).statusCode).toBe(200);
    expect((await call(ADMIN, 'GET', url)).statusCode).toBe(404);
  });

  it('a consultant is refused the delete of its own customer’s contract (403), which stays', async () => {
    const contract = await created(CONSULTANT, '/api/contracts', health(mine));
    const url = `/api/contracts/${contract.id}`;
    const response = await call(CONSULTANT, 'DELETE', url);
    expect(response.statusCode, response.body).toBe(403);
    expect(data(await call(CONSULTANT, 'GET', url))).toMatchObject({ id: contract.id });
  });

  it('a consultant cancels its customer’s contract instead: status and end date in one versioned PUT', async () => {
    const contract = await created(CONSULTANT, '/api/contracts', health(mine));
    const url = `/api/contracts/${contract.id}`;
    // What the web app's "cancel contract" dialog sends (ContractActions.tsx cancellationOf).
    const cancellation = (extra: Row) => ({
      customer_id: contract.customer_id,
      contract_type: contract.contract_type,
      product_id: contract.product_id,
      status: 'terminated',
      ...extra,
    });
    // The server's rules as for any write: not before the start.
    expect(
      refused(
        await call(
          CONSULTANT,
          'PUT',
          url,
          cancellation({ end_date: '2024-12-31', version: contract.version }),
        ),
      ),
    ).toEqual({ end_date: ['app.errors.notBeforeStart'] });
    const done = await call(
      CONSULTANT,
      'PUT',
      url,
      cancellation({ end_date: '2026-12-31', version: contract.version }),
    );
    expect(done.statusCode, done.body).toBe(200);
    expect(data(done)).toMatchObject({
      status: 'terminated',
      end_date: '2026-12-31',
      version: Number(contract.version) + 1,
      // Everything else kept.
      insurance: contract.insurance,
      supplementary_insurances: contract.supplementary_insurances,
      annual_premium: contract.annual_premium,
      commissions: contract.commissions,
    });
    // Based on the old version: 409 with the contract as it is now.
    const stale = await call(
      CONSULTANT,
      'PUT',
      url,
      cancellation({ status: 'cancelled', end_date: '2026-06-30', version: contract.version }),
    );
    expect(stale.statusCode).toBe(409);
    expect((stale.json() as { current: Row }).current).toMatchObject({ status: 'terminated' });
  });
});

describe('list parameters', () => {
  it('assignment: me, unassigned, all', async () => {
    const mineContract = await created(CONSULTANT, '/api/contracts', health(mine));
    const unassignedCustomer = await created(ADMIN, '/api/customers', {
      first_name: 'Ohne',
      last_name: `Berater${unique}`,
    });
    const unassigned = await created(ADMIN, '/api/contracts', health(unassignedCustomer));
    expect(unassigned.consultant_id).toBeNull();
    const me = data<Row[]>(
      await call(CONSULTANT, 'GET', '/api/contracts?assignment=me&per_page=500'),
    );
    expect(me.map((row) => row.id)).toContain(mineContract.id);
    expect(me.every((row) => row.consultant_id === users[CONSULTANT])).toBe(true);
    const none = data<Row[]>(
      await call(ADMIN, 'GET', '/api/contracts?assignment=unassigned&per_page=500'),
    );
    expect(none.map((row) => row.id)).toContain(unassigned.id);
    expect(none.every((row) => row.consultant_id === null)).toBe(true);
    const all = await call(ADMIN, 'GET', '/api/contracts?assignment=all&per_page=1');
    const total = await call(ADMIN, 'GET', '/api/contracts?per_page=1');
    expect((all.json() as { meta: Row }).meta.total).toBe(
      (total.json() as { meta: Row }).meta.total,
    );
    expect((await call(ADMIN, 'GET', '/api/contracts?assignment=some')).statusCode).toBe(400);
  });

  it('work_location: the consultant’s location', async () => {
    const locations = new Map(
      (await t.database.db.selectFrom('users').select(['id', 'work_location']).execute()).map(
        (row) => [Number(row.id), row.work_location],
      ),
    );
    const own = await created(CONSULTANT, '/api/contracts', health(mine));
    const location = locations.get(users[CONSULTANT]);
    expect(location).toBeTruthy();
    const found = data<Row[]>(
      await call(ADMIN, 'GET', `/api/contracts?work_location=${location}&per_page=500`),
    );
    expect(found.map((row) => row.id)).toContain(own.id);
    expect(found.every((row) => locations.get(Number(row.consultant_id)) === location)).toBe(true);
    const elsewhere = ['switzerland', 'montreux', 'zurich'].find((other) => other !== location);
    const other = data<Row[]>(
      await call(ADMIN, 'GET', `/api/contracts?work_location=${elsewhere}&per_page=500`),
    );
    expect(other.map((row) => row.id)).not.toContain(own.id);
    expect((await call(ADMIN, 'GET', '/api/contracts?work_location=bern')).statusCode).toBe(400);
  });

  it('search finds a contract by its number, its customer and its insurer', async () => {
    const contract = await created(ADMIN, '/api/contracts', health(mine));
    const search = async (words: string, as = ADMIN) =>
      data<Row[]>(
        await call(as, 'GET', `/api/contracts?per_page=500&search=${encodeURIComponent(words)}`),
      ).map((row) => row.id);
    expect(await search(String(contract.contract_number))).toEqual([contract.id]);
    expect(await search(`kundin${unique}`)).toContain(contract.id);
    expect(await search(`prufversicherung ${unique}`)).toContain(contract.id);
    // Words may be found in different places: the customer's name and the insurer's.
    expect(await search(`Kundin${unique} Prüfversicherung`)).toContain(contract.id);
    expect(await search(`Kundin${unique} Autoschutz`)).not.toContain(contract.id);
    expect(await search(`kundin${unique}`, CONSULTANT)).toContain(contract.id);
    expect(await search(`kunde${unique}`, CONSULTANT)).toEqual([]);
  });

  it("search follows the customer's names: a rename and a merge reach the contracts, a client cannot set them", async () => {
    const customer = await created(ADMIN, '/api/customers', {
      first_name: 'Umbenannt',
      last_name: `Alt${unique}`,
    });
    const contract = await created(ADMIN, '/api/contracts', health(customer));
    expect(contract.customer_name).toBe(`Umbenannt Alt${unique}`);
    const search = async (words: string) =>
      data<Row[]>(
        await call(ADMIN, 'GET', `/api/contracts?per_page=500&search=${encodeURIComponent(words)}`),
      ).map((row) => row.id);
    expect(await search(`alt${unique}`)).toEqual([contract.id]);
    const renamed = await call(ADMIN, 'PATCH', `/api/customers/${customer.id}`, {
      last_name: `Neu${unique}`,
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(await search(`alt${unique}`)).toEqual([]);
    expect(await search(`umbenannt neu${unique}`)).toEqual([contract.id]);
    // Read-only on the wire: a PATCH naming it is refused, a PUT's value is ignored.
    const refused = await call(ADMIN, 'PATCH', `/api/contracts/${contract.id}`, {
      customer_name: 'Jemand Anders',
    });
    expect(refused.statusCode).toBe(422);
    // A merge moves the duplicate's contracts with plain SQL: they take the names of the one that stays.
    const keep = await created(ADMIN, '/api/customers', {
      first_name: 'Bleibt',
      last_name: `Zusammen${unique}`,
    });
    const merged = await call(ADMIN, 'POST', `/api/customers/${keep.id}/merge`, {
      duplicate_id: customer.id,
    });
    expect(merged.statusCode, merged.body).toBe(200);
    const moved = data(await call(ADMIN, 'GET', `/api/contracts/${contract.id}`));
    expect(moved.customer_id).toBe(keep.id);
    expect(moved.customer_name).toBe(`Bleibt Zusammen${unique}`);
    expect(await search(`neu${unique}`)).toEqual([]);
    expect(await search(`zusammen${unique}`)).toEqual([contract.id]);
  });

  it('filters by product (broker contracts), type, group, status and dates', async () => {
    const broker = await created(ADMIN, '/api/contracts', {
      customer_id: mine.id,
      product_id: 28,
      company_id: insurer,
      signing_date: '2023-05-05',
    });
    const nonClosure = await created(ADMIN, '/api/contracts', {
      customer_id: mine.id,
      contract_type: 'non-closure',
      product_id: 3,
      reason: 'price',
    });
    const list = async (query: string) =>
      data<Row[]>(await call(ADMIN, 'GET', `/api/contracts?per_page=500&${query}`));
    const brokers = await list('product_id=28');
    expect(brokers.map((row) => row.id)).toContain(broker.id);
    expect(brokers.every((row) => row.product_id === 28)).toBe(true);
    const nonClosures = await list('contract_type=non-closure');
    expect(nonClosures.map((row) => row.id)).toContain(nonClosure.id);
    expect(nonClosures.every((row) => row.contract_type === 'non-closure')).toBe(true);
    const other = await list(
      'product_group=other&signing_date_gte=2023-05-05&signing_date_lte=2023-05-05',
    );
    expect(other.map((row) => row.id)).toContain(broker.id);
    expect(
      other.every((row) => row.product_group === 'other' && row.signing_date === '2023-05-05'),
    ).toBe(true);
  });
});

describe('non-closures', () => {
  it('have no status, need no insurer, and no protocol', async () => {
    const contract = await created(ADMIN, '/api/contracts', {
      customer_id: mine.id,
      contract_type: 'non-closure',
      product_id: 1,
      status: 'active',
      reason: 'stayed_with_insurer',
    });
    expect(contract).toMatchObject({ status: null, protocol_missing: false, company_id: null });
    // Becoming a closure needs the insurer.
    const url = `/api/contracts/${contract.id}`;
    expect(refused(await call(ADMIN, 'PATCH', url, { contract_type: 'closure' }))).toEqual({
      company_id: ['app.errors.required'],
    });
    const closed = data(
      await call(ADMIN, 'PATCH', url, {
        contract_type: 'closure',
        company_id: insurer,
        status: 'application',
      }),
    );
    expect(closed).toMatchObject({ status: 'application', protocol_missing: true });
  });
});

describe('protocolMissing via documents', () => {
  it('follows the advice protocols on the contract, in the same transaction as the document', async () => {
    const contract = await created(CONSULTANT, '/api/contracts', health(mine));
    const url = `/api/contracts/${contract.id}`;
    const missing = async () => data(await call(CONSULTANT, 'GET', url)).protocol_missing;
    expect(await missing()).toBe(true);
    const document = await created(CONSULTANT, '/api/documents', {
      customer_id: mine.id,
      contract_id: contract.id,
      document_name: 'Beratungsprotokoll',
      document_type: 'advice_protocol',
      document_related_to: 'contract',
    });
    // Not signed yet: the protocol does not count.
    expect(await missing()).toBe(true);
    const documentUrl = `/api/documents/${document.id}`;
    // A signing day in the future is refused, naming the field; nothing changes.
    const future = refused(
      await call(CONSULTANT, 'PATCH', documentUrl, { signed_on: '2999-01-01' }),
    );
    expect(future).toEqual({ signed_on: ['app.errors.notInFuture'] });
    expect(await missing()).toBe(true);
    expect(
      (await call(CONSULTANT, 'PATCH', documentUrl, { signed_on: '2025-03-01' })).statusCode,
    ).toBe(200);
    expect(await missing()).toBe(false);
    const listed = data<Row[]>(
      await call(CONSULTANT, 'GET', `/api/contracts?protocol_missing=false&id=${contract.id}`),
    );
    expect(listed.map((row) => row.id)).toEqual([contract.id]);
    expect(
      (await call(CONSULTANT, 'PATCH', documentUrl, { document_type: 'policy' })).statusCode,
    ).toBe(200);
    expect(await missing()).toBe(true);
    expect(
      (await call(CONSULTANT, 'PATCH', documentUrl, { document_type: 'advice_protocol' }))
        .statusCode,
    ).toBe(200);
    expect(await missing()).toBe(false);
    // Moved to another contract: the first one misses it again.
    const second = await created(CONSULTANT, '/api/contracts', health(mine));
    expect(
      (await call(CONSULTANT, 'PATCH', documentUrl, { contract_id: second.id })).statusCode,
    ).toBe(200);
    expect(await missing()).toBe(true);
    expect(
      data(await call(CONSULTANT, 'GET', `/api/contracts/${second.id}`)).protocol_missing,
    ).toBe(false);
    expect((await call(CONSULTANT, 'DELETE', documentUrl)).statusCode).toBe(200);
    expect(
      data(await call(CONSULTANT, 'GET', `/api/contracts/${second.id}`)).protocol_missing,
    ).toBe(true);
    // A contract's own write keeps the value the documents give.
    expect(data(await call(CONSULTANT, 'PATCH', url, { note: 'x' })).protocol_missing).toBe(true);
  });

  it('an uploaded advice protocol with contract_id counts once signed', async () => {
    const contract = await created(CONSULTANT, '/api/contracts', health(mine));
    const unsigned = multipart([
      ['document_type', 'advice_protocol'],
      ['contract_id', String(contract.id)],
      { name: 'file', filename: 'entwurf.pdf', contentType: 'application/pdf', content: PDF_BYTES },
    ]);
    const draft = await t.request({
      method: 'POST',
      url: `/api/customers/${mine.id}/documents`,
      payload: unsigned.payload,
      headers: unsigned.headers,
      as: CONSULTANT,
    });
    expect(draft.statusCode, draft.body).toBe(201);
    expect(
      data(await call(CONSULTANT, 'GET', `/api/contracts/${contract.id}`)).protocol_missing,
    ).toBe(true);
    const form = multipart([
      ['document_type', 'advice_protocol'],
      ['contract_id', String(contract.id)],
      ['signed_on', '2025-02-03'],
      {
        name: 'file',
        filename: 'protokoll.pdf',
        contentType: 'application/pdf',
        content: PDF_BYTES,
      },
    ]);
    const upload = await t.request({
      method: 'POST',
      url: `/api/customers/${mine.id}/documents`,
      payload: form.payload,
      headers: form.headers,
      as: CONSULTANT,
    });
    expect(upload.statusCode, upload.body).toBe(201);
    expect(data(upload)).toMatchObject({ contract_id: contract.id, signed_on: '2025-02-03' });
    expect(
      data(await call(CONSULTANT, 'GET', `/api/contracts/${contract.id}`)).protocol_missing,
    ).toBe(false);
    const bad = multipart([
      ['contract_id', 'abc'],
      { name: 'file', filename: 'p.pdf', contentType: 'application/pdf', content: PDF_BYTES },
    ]);
    const refusedUpload = await t.request({
      method: 'POST',
      url: `/api/customers/${mine.id}/documents`,
      payload: bad.payload,
      headers: bad.headers,
      as: CONSULTANT,
    });
    expect(refusedUpload.statusCode).toBe(422);
    expect(Object.keys((refusedUpload.json() as ErrorAnswer).errors ?? {})).toEqual([
      'contract_id',
    ]);
  });

  it('a document names only a contract of its own customer', async () => {
    const theirContract = await created(ADMIN, '/api/contracts', health(theirs));
    const keys = refused(
      await call(ADMIN, 'POST', '/api/documents', {
        customer_id: mine.id,
        contract_id: theirContract.id,
        document_name: 'Fremd',
        document_type: 'advice_protocol',
      }),
    );
    expect(keys).toEqual({ contract_id: ['app.errors.notOfCustomer'] });
    // A consultant cannot name another consultant's contract at all.
    const response = await call(CONSULTANT, 'POST', '/api/documents', {
      customer_id: mine.id,
      contract_id: theirContract.id,
      document_name: 'Fremd',
    });
    expect(response.statusCode).toBe(422);
    const upload = multipart([
      ['contract_id', String(theirContract.id)],
      { name: 'file', filename: 'p.pdf', contentType: 'application/pdf', content: PDF_BYTES },
    ]);
    const uploaded = await t.request({
      method: 'POST',
      url: `/api/customers/${mine.id}/documents`,
      payload: upload.payload,
      headers: upload.headers,
      as: ADMIN,
    });
    expect(uploaded.statusCode).toBe(422);
    expect(Object.keys((uploaded.json() as ErrorAnswer).errors ?? {})).toEqual(['contract_id']);
    expect(
      data(await call(ADMIN, 'GET', `/api/contracts/${theirContract.id}`)).protocol_missing,
    ).toBe(true);
  });
});

describe('concurrency', () => {
  it('a write based on an old version answers 409 with the current record', async () => {
    const contract = await created(CONSULTANT, '/api/contracts', health(mine));
    const url = `/api/contracts/${contract.id}`;
    const first = await call(CONSULTANT, 'PATCH', url, {
      note: 'first',
      version: contract.version,
    });
    expect(first.statusCode, first.body).toBe(200);
    const stale = await call(CONSULTANT, 'PATCH', url, {
      note: 'second',
      version: contract.version,
    });
    expect(stale.statusCode).toBe(409);
    expect((stale.json() as { current: Row }).current).toMatchObject({ note: 'first' });
  });
});

describe('erasure keeps the contracts', () => {
  it('a household member insured by a contract is pseudonymised, the contract kept without the person', async () => {
    const customer = await created(ADMIN, '/api/customers', {
      first_name: 'Lösch',
      last_name: `Mich${unique}`,
    });
    const insured = await created(ADMIN, '/api/household-members', {
      customer_id: customer.id,
      relation: 'partner',
      first_name: 'Versichert',
      last_name: `Person${unique}`,
      occupation: 'Pilotin',
      nationality: 'FR',
    });
    const contract = await created(
      ADMIN,
      '/api/contracts',
      health(customer, { household_member_id: insured.id, note: 'Notiz über die Person' }),
    );
    const erased = await call(ADMIN, 'POST', `/api/household-members/${insured.id}/erase`);
    expect(erased.statusCode, erased.body).toBe(200);
    const kept = data(await call(ADMIN, 'GET', `/api/contracts/${contract.id}`));
    expect(kept).toMatchObject({ household_member_id: insured.id, client: {}, note: null });
    expect(kept.contract_number).toBe(contract.contract_number);
    const member = data(await call(ADMIN, 'GET', `/api/household-members/${insured.id}`));
    expect(member.first_name).toBe(`erased-household-members-${insured.id}`);
    // The customer as well: kept pseudonymised while the contract points to it.
    const customerErased = await call(ADMIN, 'POST', `/api/customers/${customer.id}/erase`);
    expect(customerErased.statusCode, customerErased.body).toBe(200);
    const still = data(await call(ADMIN, 'GET', `/api/contracts/${contract.id}`));
    expect(still).toMatchObject({ customer_id: customer.id, household_member_id: null });
    expect((await call(ADMIN, 'GET', `/api/household-members/${insured.id}`)).statusCode).toBe(404);
  });
});
