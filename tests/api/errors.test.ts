/**
 * Errors at the edges of the API (bodies that are not JSON, too large, wrong content type,
 * constraint violations, unknown routes, crashes) and the fixed product catalogue.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, createTestApp, type TestApp } from './harness.ts';

interface ErrorAnswer {
  message: string;
  errors?: Record<string, string[]>;
}
type Row = Record<string, unknown>;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

function expectError(response: LightMyRequestResponse, status: number): ErrorAnswer {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  const answer = response.json() as ErrorAnswer;
  expect(answer.message).toEqual(expect.any(String));
  expect(answer.message.length).toBeGreaterThan(0);
  return answer;
}

const productsTotal = async (): Promise<number> => {
  const response = await t.request({ method: 'GET', url: '/api/products?per_page=1', as: ADMIN });
  return (response.json() as { meta: { total: number } }).meta.total;
};

describe('request bodies', () => {
  const raw = (method: 'POST' | 'PUT' | 'PATCH', url: string, payload: string, type?: string) =>
    t.request({ method, url, payload, headers: type ? { 'content-type': type } : {}, as: ADMIN });

  it('answers 400, not 500, to malformed JSON', async () => {
    for (const [method, url] of [
      ['POST', '/api/companies'],
      ['PUT', '/api/companies/1'],
      ['PATCH', '/api/companies/1'],
    ] as const) {
      for (const payload of ['{bad', '{"name_de": "x",}', '[1, 2', 'undefined']) {
        expectError(await raw(method, url, payload, 'application/json'), 400);
      }
    }
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: '{"email": ',
      headers: { 'content-type': 'application/json' },
    });
    expectError(login, 400);
  });

  it('answers 400 to an empty JSON body', async () => {
    expectError(await raw('POST', '/api/companies', '', 'application/json'), 400);
  });

  it('answers 422 to JSON that is not an object', async () => {
    for (const payload of ['"text"', '[]', '42', 'null']) {
      expectError(await raw('POST', '/api/companies', payload, 'application/json'), 422);
    }
  });

  it('answers 415 to a body that is not JSON', async () => {
    const json = JSON.stringify({ name_de: 'Wrong type' });
    for (const type of [
      'text/plain',
      'text/plain; charset=utf-8',
      'application/xml',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
    ]) {
      expectError(await raw('POST', '/api/companies', json, type), 415);
      expectError(await raw('PATCH', '/api/companies/1', json, type), 415);
    }
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: JSON.stringify({ email: ADMIN, password: 'x' }),
      headers: { 'content-type': 'text/plain' },
    });
    expectError(login, 415);
  });

  it('answers 413 to a body over 1 MiB, and reads one just under it', async () => {
    const over = JSON.stringify({ name_de: 'x'.repeat(1024 * 1024) });
    expectError(await raw('POST', '/api/companies', over, 'application/json'), 413);
    const under = JSON.stringify({ name_de: 'x'.repeat(1024 * 1024 - 100) });
    expect(Buffer.byteLength(under)).toBeLessThan(1024 * 1024);
    const answer = expectError(await raw('POST', '/api/companies', under, 'application/json'), 422);
    expect(Object.keys(answer.errors ?? {})).toEqual(['name_de']);
  });

  it('names every invalid field in one answer', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/api/users',
      payload: { first_name: '', email: 'not an email', role: 'KING', phone: 'call me' },
      as: ADMIN,
    });
    const answer = expectError(response, 422);
    expect(Object.keys(answer.errors ?? {}).sort()).toEqual([
      'email',
      'first_name',
      'last_name',
      'phone',
      'role',
    ]);
    expect(answer.errors?.last_name).toEqual(['is required']);
    expect(answer.errors?.role?.[0]).toContain('CONSULTANT');
  });
});

describe('constraints', () => {
  it('refuses to delete a product still used by sub-products (409), and keeps it', async () => {
    const answer = expectError(
      await t.request({ method: 'DELETE', url: '/api/products/1', as: ADMIN }),
      409,
    );
    expect(answer.message).toContain('sub-products');
    expect((await t.request({ method: 'GET', url: '/api/products/1', as: ADMIN })).statusCode).toBe(
      200,
    );
  });

  it('refuses to delete a sub-product still used by variants (409)', async () => {
    const answer = expectError(
      await t.request({ method: 'DELETE', url: '/api/sub-products/5', as: ADMIN }),
      409,
    );
    expect(answer.message).toContain('sub-product-variants');
    expect(
      (await t.request({ method: 'GET', url: '/api/sub-products/5', as: ADMIN })).statusCode,
    ).toBe(200);
  });

  it('refuses to delete a product still listed in a company (409 naming companies), and keeps it', async () => {
    // Product 15 (animal) has no sub-products; the demo insurer Epona lists it.
    const refused = await t.request({ method: 'DELETE', url: '/api/products/15', as: ADMIN });
    expectError(refused, 409);
    expect((refused.json() as { message: string }).message).toContain('companies');
    expect(
      (await t.request({ method: 'GET', url: '/api/products/15', as: ADMIN })).statusCode,
    ).toBe(200);
  });

  it('deletes a product once nothing refers to it', async () => {
    const created = await t.request({
      method: 'POST',
      url: '/api/products',
      payload: { key: 'temporary_product', group: 'other' },
      as: ADMIN,
    });
    expect(created.statusCode, created.body).toBe(201);
    const product = (created.json() as { data: Row }).data;
    const sub = await t.request({
      method: 'POST',
      url: '/api/sub-products',
      payload: { product_id: product.id, name_de: 'Temporär' },
      as: ADMIN,
    });
    expect(sub.statusCode, sub.body).toBe(201);
    const subId = (sub.json() as { data: Row }).data.id;
    expectError(
      await t.request({ method: 'DELETE', url: `/api/products/${product.id}`, as: ADMIN }),
      409,
    );
    expect(
      (await t.request({ method: 'DELETE', url: `/api/sub-products/${subId}`, as: ADMIN }))
        .statusCode,
    ).toBe(200);
    expect(
      (await t.request({ method: 'DELETE', url: `/api/products/${product.id}`, as: ADMIN }))
        .statusCode,
    ).toBe(200);
  });

  it('refuses a duplicate products.key (422 naming key), on create and update', async () => {
    const before = await productsTotal();
    const duplicate = await t.request({
      method: 'POST',
      url: '/api/products',
      payload: { key: 'broker_mandate', group: 'other' },
      as: ADMIN,
    });
    const answer = expectError(duplicate, 422);
    expect(Object.keys(answer.errors ?? {})).toEqual(['key']);
    expect(await productsTotal()).toBe(before);
    const update = await t.request({
      method: 'PATCH',
      url: '/api/products/27',
      payload: { key: 'broker_mandate' },
      as: ADMIN,
    });
    expect(Object.keys(expectError(update, 422).errors ?? {})).toEqual(['key']);
    const kept = await t.request({ method: 'GET', url: '/api/products/27', as: ADMIN });
    expect((kept.json() as { data: Row }).data.key).toBe('other');
  });

  it('refuses a user email that differs only in case (422 naming email)', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/api/users',
      payload: {
        first_name: 'Andrea',
        last_name: 'Kopie',
        email: 'ADMIN@Demo.GSCRM.ch',
        role: 'ADMIN',
      },
      as: ADMIN,
    });
    expect(Object.keys(expectError(response, 422).errors ?? {})).toEqual(['email']);
  });
});

describe('routes and failures', () => {
  it('answers unknown routes with a JSON 404', async () => {
    const answer = expectError(
      await t.request({ method: 'GET', url: '/api/no-such-resource', as: ADMIN }),
      404,
    );
    expect(answer.message).toContain('/api/no-such-resource');
    expectError(await t.app.inject({ method: 'GET', url: '/api/no-such-resource?x=1' }), 404);
    expectError(
      await t.request({ method: 'POST', url: '/api/products/1', payload: {}, as: ADMIN }),
      404,
    );
  });

  it('answers 500 without internals when a handler fails', async () => {
    const client = await t.variant({});
    client.app.get('/api/test-crash', { config: { access: 'public' } }, async () => {
      throw new Error('secret detail: password=hunter2 at /srv/app');
    });
    const answer = expectError(
      await client.app.inject({ method: 'GET', url: '/api/test-crash' }),
      500,
    );
    expect(answer.message).toBe('Internal server error.');
    expect(JSON.stringify(answer)).not.toContain('hunter2');
  });
});

describe('product catalogue (fixed ids, migration 0003)', () => {
  let products: Row[];
  beforeAll(async () => {
    const response = await t.request({
      method: 'GET',
      url: '/api/products?per_page=500&sort=id',
      as: ADMIN,
    });
    expect(response.statusCode).toBe(200);
    products = (response.json() as { data: Row[] }).data.filter((row) => Number(row.id) <= 1000);
  });

  it('has 29 products with ids 1 to 29 and unique keys', () => {
    expect(products.map((row) => row.id)).toEqual(
      Array.from({ length: 29 }, (_, index) => index + 1),
    );
    expect(new Set(products.map((row) => row.key)).size).toBe(29);
    for (const row of products) expect(row.is_active).toBe(true);
  });

  it('has product 28 = broker_mandate (group other)', async () => {
    const response = await t.request({ method: 'GET', url: '/api/products/28', as: ADMIN });
    expect(response.statusCode).toBe(200);
    expect((response.json() as { data: Row }).data).toMatchObject({
      id: 28,
      key: 'broker_mandate',
      group: 'other',
    });
  });

  it('spreads the products over the 5 groups', async () => {
    const expected = { health: 3, life: 3, property_casualty: 15, finance: 4, other: 4 };
    const counts: Record<string, number> = {};
    for (const row of products) counts[String(row.group)] = (counts[String(row.group)] ?? 0) + 1;
    expect(counts).toEqual(expected);
    for (const [group, count] of Object.entries(expected)) {
      const response = await t.request({
        method: 'GET',
        url: `/api/products?group=${group}&per_page=1`,
        as: ADMIN,
      });
      expect((response.json() as { meta: { total: number } }).meta.total, group).toBe(count);
    }
  });

  it('lists the catalogue in sort_order by default', async () => {
    const response = await t.request({
      method: 'GET',
      url: '/api/products?per_page=29',
      as: ADMIN,
    });
    const rows = (response.json() as { data: Row[] }).data;
    const orders = rows.map((row) => Number(row.sort_order));
    expect(orders).toEqual([...orders].sort((a, b) => a - b));
    expect(rows[0].key).toBe('basic');
  });

  it('gives new products ids above the reserved range', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/api/products',
      payload: { key: 'new_product_after_catalogue', group: 'finance' },
      as: ADMIN,
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(Number((response.json() as { data: Row }).data.id)).toBeGreaterThan(1000);
  });

  it('has the seeded sub-products and variants', async () => {
    const sub = await t.request({
      method: 'GET',
      url: '/api/sub-products?product_id=1&per_page=50',
      as: ADMIN,
    });
    expect((sub.json() as { data: Row[] }).data.map((row) => row.id).sort()).toEqual([1, 2, 3, 4]);
    const variants = await t.request({
      method: 'GET',
      url: '/api/sub-product-variants?sub_product_id=5',
      as: ADMIN,
    });
    expect((variants.json() as { meta: { total: number } }).meta.total).toBe(4);
  });
});
