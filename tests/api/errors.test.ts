/**
 * Errors at the edges of the API (bodies that are not JSON, too large, wrong content type,
 * constraint violations, unknown routes, crashes, Fastify's own refusals), request ids, the values
 * every route refuses whatever its schema (NUL, integers beyond the column, loose numbers, dates
 * PostgreSQL cannot store, loose ids) and the fixed product catalogue.
 */
import Fastify, { type LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { frameworkErrors, installErrorHandler } from '../../server/http/errors.ts';
import { idParams } from '../../server/http/params.ts';
import { queryAjv } from '../../server/http/validation.ts';
import { ADMIN, CONSULTANT, createTestApp, type TestApp } from './harness.ts';
import { ERROR_TEXTS } from '../../src/schema/errors.ts';

interface ErrorAnswer {
  message: string;
  key?: string;
  args?: Record<string, string | number>;
  errors?: Record<string, string[]>;
  error_keys?: Record<string, Array<{ message: string; args?: Record<string, unknown> }>>;
}

const ERROR_KEYS = new Set(Object.keys(ERROR_TEXTS).map((code) => `app.errors.${code}`));
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
  // Every refusal names its message and each field's errors by translation keys (DESIGN.md §7).
  expect(ERROR_KEYS.has(String(answer.key)), `key ${answer.key}`).toBe(true);
  if (answer.errors) {
    const keys = answer.error_keys ?? {};
    for (const [field, messages] of Object.entries(answer.errors)) {
      const keyed = Object.hasOwn(keys, field) ? keys[field] : [];
      expect(
        keyed.map((entry) => ERROR_KEYS.has(entry.message)),
        field,
      ).toEqual(messages.map(() => true));
    }
  }
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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('request ids', () => {
  it('every answer carries X-Request-Id (a new UUID for each request)', async () => {
    const answers = [
      await t.app.inject({ method: 'GET', url: '/api/health' }), // 200
      await t.app.inject({ method: 'GET', url: '/api/customers' }), // 401 in access control
      await t.app.inject({ method: 'GET', url: '/api/no-such-route' }), // 404
      await t.request({ method: 'GET', url: '/api/companies/0x1', as: ADMIN }), // 400
      await t.request({ method: 'POST', url: '/api/companies', payload: {}, as: ADMIN }), // 422
      await t.request({
        method: 'POST',
        url: '/api/companies',
        payload: '{bad',
        headers: { 'content-type': 'application/json' },
        as: ADMIN,
      }), // 400 from the JSON parser
    ];
    const ids = answers.map((answer) => String(answer.headers['x-request-id']));
    for (const [index, id] of ids.entries())
      expect(id, `${answers[index].statusCode} ${answers[index].body}`).toMatch(UUID);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('keeps a sane X-Request-Id from a proxy, replaces anything else', async () => {
    const sent = async (id: string) =>
      String(
        (
          await t.app.inject({
            method: 'GET',
            url: '/api/health',
            headers: { 'x-request-id': id },
          })
        ).headers['x-request-id'],
      );
    for (const sane of ['0f8fad5b-d9cb-469f-a165-70867728950e', 'lb-7f3a9c21.eu:42'])
      expect(await sent(sane)).toBe(sane);
    for (const insane of ['short', 'with space in it', '<script>alert(1)</script>', 'x'.repeat(65)])
      expect(await sent(insane)).toMatch(UUID);
  });

  it('an unexpected failure is logged with the request id, which the 500 answer carries', async () => {
    const client = await t.variant({});
    client.app.get('/api/test-crash-id', { config: { access: 'public' } }, async () => {
      throw new Error('database on fire');
    });
    await client.app.ready();
    // Without a logger, every request logs through the app's logger object itself.
    const logged = vi.spyOn(client.app.log, 'error');
    const response = await client.app.inject({ method: 'GET', url: '/api/test-crash-id' });
    const answer = expectError(response, 500) as ErrorAnswer & { request_id?: string };
    expect(answer.request_id).toMatch(UUID);
    expect(response.headers['x-request-id']).toBe(answer.request_id);
    expect(logged).toHaveBeenCalledWith(
      expect.objectContaining({ requestId: answer.request_id, err: expect.any(Error) }),
      'request failed',
    );
    expect(JSON.stringify(answer)).not.toContain('on fire');
  });
});

describe('Fastify’s own refusals answer our shape (frameworkErrors, server/http/errors.ts)', () => {
  it('a URL that cannot be decoded: 400; a path parameter over maxParamLength: 414', async () => {
    const app = Fastify({ frameworkErrors, maxParamLength: 100 });
    installErrorHandler(app);
    app.setValidatorCompiler(({ schema }) => queryAjv.compile(schema));
    app.get('/api/probe/:id', { schema: { params: idParams } }, async () => ({ ok: true }));
    try {
      for (const [url, status] of [
        ['/api/probe/%FF', 400],
        ['/api/probe/%E0%A4%A', 400],
        [`/api/probe/${'9'.repeat(200)}`, 414],
      ] as const) {
        const response = await app.inject({ method: 'GET', url });
        const answer = expectError(response, status);
        expect(Object.keys(answer)).toEqual(['message', 'key']);
        expect(answer.key).toMatch(/^app\.errors\.\w+$/);
        expect(answer.message).not.toMatch(/FST_|content-type parser/i);
        expect(response.headers['x-request-id']).toMatch(UUID);
      }
      expect((await app.inject({ method: 'GET', url: '/api/probe/1' })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});

describe('values no route accepts, whatever its schema', () => {
  const get = (url: string, as = ADMIN) => t.request({ method: 'GET', url, as });
  const patch = (url: string, payload: unknown) =>
    t.request({ method: 'PATCH', url, payload: payload as Row, as: ADMIN });
  const fieldsOf = (response: LightMyRequestResponse, status: number) =>
    Object.keys(expectError(response, status).errors ?? {});

  it('strict ids: a loose spelling of a real id is 400 naming id, never the record', async () => {
    expect((await get('/api/companies/16')).statusCode).toBe(200);
    for (const loose of ['%2016', '16%20', '0x10', '1.6e1', '016', '%2B16', '+16', '16.0', '16%00'])
      expect(fieldsOf(await get(`/api/companies/${loose}`), 400), loose).toEqual(['id']);
    for (const loose of ['%201', '0x1', '1e0', '01'])
      expect(fieldsOf(await patch(`/api/companies/${loose}`, {}), 400), loose).toEqual(['id']);
  });

  it('integer query parameters: decimal text within the column type, nothing looser', async () => {
    for (const value of [
      '2147483648',
      '-2147483649',
      '1e400',
      'Infinity',
      '0x10',
      '%201',
      '01',
      '1e3',
    ])
      expect(
        fieldsOf(await get(`/api/customers?assigned_to=${value}`), 400),
        `assigned_to=${value}`,
      ).toEqual(['assigned_to']);
    expect(fieldsOf(await get('/api/customers/export?lead_source=1e400'), 400)).toEqual([
      'lead_source',
    ]);
    expect((await get('/api/customers?assigned_to=2147483647')).statusCode).toBe(200);
  });

  it('integers in bodies are bounded by the column type; numbers are finite', async () => {
    const subProduct = '/api/sub-products/1';
    const before = (await get(subProduct)).json() as { data: Row };
    for (const value of [2_147_483_648, -2_147_483_649, 3_000_000_000, 1e20])
      expect(fieldsOf(await patch(subProduct, { product_id: value }), 422)).toEqual(['product_id']);
    const raw = await t.request({
      method: 'PATCH',
      url: subProduct,
      payload: '{"product_id": 1e400}',
      headers: { 'content-type': 'application/json' },
      as: ADMIN,
    });
    expect(fieldsOf(raw, 422)).toEqual(['product_id']);
    expect(((await get(subProduct)).json() as { data: Row }).data).toEqual(before.data);
  });

  it('NUL in a body, a query or a path: 4xx naming the field, also before sign-in', async () => {
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'a\u0000@x.ch', password: 'x' },
    });
    expect(fieldsOf(login, 422)).toEqual(['email']);
    expect(fieldsOf(await patch('/api/companies/1', { name_de: 'a\u0000b' }), 422)).toEqual([
      'name_de',
    ]);
    expect(fieldsOf(await get('/api/customers?search=a%00b'), 400)).toEqual(['search']);
    expect(fieldsOf(await get('/api/customers?city=%00'), 400)).toEqual(['city']);
  });

  it('dates PostgreSQL cannot store, in bodies and in _gte/_lte filters', async () => {
    const user = '/api/users/1';
    for (const date of ['0000-01-01', '2026-02-31', '99999-01-01', '2026-13-01'])
      expect(fieldsOf(await patch(user, { date_of_birth: date }), 422), date).toEqual([
        'date_of_birth',
      ]);
    for (const value of ['0000-01-01T00%3A00%3A00Z', '2026-02-31T10%3A00%3A00Z'])
      expect(fieldsOf(await get(`/api/notifications?read_at_gte=${value}`), 400)).toEqual([
        'read_at_gte',
      ]);
    expect((await patch(user, { date_of_birth: '0001-01-01' })).statusCode).toBe(200);
    expect((await patch(user, { date_of_birth: null })).statusCode).toBe(200);
  });

  it('unknown fields named like Object’s own properties: 422/400 naming them, no crash', async () => {
    const body = await patch('/api/companies/1', { constructor: 1, toString: 'x' });
    expect(fieldsOf(body, 422).sort()).toEqual(['constructor', 'toString']);
    expect(fieldsOf(await get('/api/companies?__proto__=1'), 400)).toEqual(['__proto__']);
    expect(fieldsOf(await get('/api/companies?constructor=1', CONSULTANT), 400)).toEqual([
      'constructor',
    ]);
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
