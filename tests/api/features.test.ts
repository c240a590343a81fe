/**
 * The feature-plugin convention of the server (docs/ARCHITECTURE.md §2): each feature registers
 * its routes and the hooks of the resources it owns from its own plugin, the generic CRUD routes
 * apply whatever hooks were registered, and the registry refuses the mistakes that would leave a
 * resource's rules silently unapplied (a second owner, a resource without a schema, a late add).
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, createTestApp, type TestApp } from './harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const total = async (app: FastifyInstance, token: string, resource: string): Promise<number> => {
  const response = await app.inject({
    method: 'GET',
    url: `/api/${resource}?per_page=1`,
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as { meta: { total: number } }).meta.total;
};

describe('resource hooks registered by a feature plugin', () => {
  it('are applied by the generic CRUD routes (a scope hook hides records)', async () => {
    const plain = await t.variant({});
    const token = await plain.login(ADMIN);
    expect(await total(plain.app, token, 'products')).toBeGreaterThan(0);

    const hidden = await t.variant({});
    // One register call, as a feature's index.ts does: no central list to edit.
    await hidden.app.register(async (feature) => {
      feature.resourceHooks.add('products', { scope: () => (eb) => eb.val(false) as never });
    });
    expect(await total(hidden.app, token, 'products')).toBe(0);
  });

  it('are owned by one feature: a second registration for a resource is refused', async () => {
    const client = await t.variant({});
    expect(() => client.app.resourceHooks.add('customers', {})).toThrow(/registered twice/);
  });

  it('stop the start when they name a resource without a schema', async () => {
    const client = await t.variant({});
    await client.app.register(async (feature) => {
      feature.resourceHooks.add('no-such-resource', {});
    });
    await expect(client.app.ready()).rejects.toThrow(/no-such-resource/);
  });

  it('cannot be added once the app has started', async () => {
    const client = await t.variant({});
    await client.app.ready();
    expect(() => client.app.resourceHooks.add('products', {})).toThrow(/after the app started/);
  });
});

describe('feature routes', () => {
  it('are all in the route table, each with its access rule', () => {
    const urls = new Set(t.app.routeTable.map((route) => `${route.method} ${route.url}`));
    for (const route of [
      'GET /api/health', // system
      'POST /api/auth/login', // auth
      'GET /api/mail/outbox', // mail
      'POST /api/account/register', // account
      'GET /api/localizations/languages', // i18n
      'GET /api/products/:id', // crud
      'POST /api/customers/:id/merge', // customers
    ]) {
      expect(urls, route).toContain(route);
    }
    // Only the OpenAPI pages (/api/docs) declare no rule (server/access/control.ts).
    const open = t.app.routeTable.filter(
      (route) => !route.access && !route.url.startsWith('/api/docs'),
    );
    expect(open).toEqual([]);
  });
});
