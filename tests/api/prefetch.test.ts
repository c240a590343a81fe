/**
 * `_prefetch` on the generic lists (server/crud/prefetch.ts), on both engines: a list answer
 * carries the records its page names in the reference columns asked for (`meta.prefetched`, by
 * resource), and for every principal exactly the records that principal's getMany of them answers
 * (`GET /api/<resource>?id=…`): never a record outside the principal's scope (a consultant sees
 * only their own account and the lead sources visible to their role), never a column the
 * resource's own answers leave out, nothing of a resource the principal may not read.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionUser } from '../../server/auth/sessions.ts';
import { prefetchedRecords } from '../../server/crud/prefetch.ts';
import { ADMIN, CONSULTANT, createTestApp, type TestApp } from './harness.ts';

type Row = Record<string, unknown>;
let t: TestApp;
const SUFFIX = Math.random().toString(36).slice(2, 8);
const CONSULTANT2 = 'consultant2@demo.gscrm.ch';
const BACKOFFICE = 'backoffice@demo.gscrm.ch';
const users: Record<string, number> = {};
/** Lead sources: one a consultant may see, one only the back office may. */
const sources: Record<'open' | 'backOffice', number> = { open: 0, backOffice: 0 };

async function get(url: string, as: string) {
  const response = await t.request({ method: 'GET', url, as });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { data: Row[]; meta: Row & { prefetched?: Record<string, Row[]> } };
}
async function created(url: string, payload: Row): Promise<Row> {
  const response = await t.request({ method: 'POST', url, payload, as: ADMIN });
  expect(response.statusCode, response.body).toBe(201);
  return (response.json() as { data: Row }).data;
}
/** What the principal's getMany answers for these ids (react-admin's call for reference cells). */
async function getMany(resource: string, ids: unknown[], as: string): Promise<Row[]> {
  const distinct = [...new Set(ids.filter((id) => id !== null && id !== undefined))];
  if (distinct.length === 0) return [];
  const query = distinct.map((id) => `id=${String(id)}`).join('&');
  const { data } = await get(`/api/${resource}?${query}&per_page=${distinct.length}`, as);
  return data;
}
const byId = (rows: Row[] = []) => [...rows].sort((a, b) => Number(a.id) - Number(b.id));
const LIST = `/api/customers?search=Prefetch${SUFFIX}&per_page=50`;
const PREFETCH = '&_prefetch=assigned_to&_prefetch=lead_source';

beforeAll(async () => {
  t = await createTestApp();
  const rows = await t.database.db.selectFrom('users').select(['id', 'email']).execute();
  for (const row of rows) users[String(row.email)] = Number(row.id);
  const source = async (name: string, roles: string[]) =>
    Number(
      (
        await created('/api/lead-sources', {
          name_de: `${name} ${SUFFIX}`,
          group: 'other',
          visible_roles: roles,
        })
      ).id,
    );
  sources.open = await source('Offen', ['ADMIN', 'BACKOFFICE', 'CONSULTANT']);
  sources.backOffice = await source('Intern', ['ADMIN', 'BACKOFFICE']);
  const customer = (assignedTo: string | null, leadSource: number | null, index: number) =>
    created('/api/customers', {
      first_name: `Kunde ${index}`,
      last_name: `Prefetch${SUFFIX}`,
      assigned_to: assignedTo ? users[assignedTo] : null,
      lead_source: leadSource,
    });
  let index = 0;
  for (const assignedTo of [CONSULTANT, CONSULTANT2, null]) {
    for (const leadSource of [sources.open, sources.backOffice, null]) {
      await customer(assignedTo, leadSource, (index += 1));
    }
  }
});

afterAll(async () => {
  await t?.close();
});

describe('a list with _prefetch', () => {
  it('carries the records of the asked reference columns, by resource', async () => {
    const { data, meta } = await get(`${LIST}${PREFETCH}`, ADMIN);
    expect(data).toHaveLength(9);
    const prefetched = meta.prefetched ?? {};
    expect(Object.keys(prefetched).sort()).toEqual(['lead-sources', 'users']);
    expect(byId(prefetched.users).map((row) => row.id)).toEqual(
      [users[CONSULTANT], users[CONSULTANT2]].sort((a, b) => a - b),
    );
    expect(byId(prefetched['lead-sources']).map((row) => row.id)).toEqual(
      [sources.open, sources.backOffice].sort((a, b) => a - b),
    );
  });

  it('answers only the columns asked for, and nothing without _prefetch', async () => {
    const one = await get(`${LIST}&_prefetch=lead_source`, ADMIN);
    expect(Object.keys(one.meta.prefetched ?? {})).toEqual(['lead-sources']);
    const none = await get(LIST, ADMIN);
    expect(none.meta.prefetched).toBeUndefined();
    // The page itself is the same with or without.
    expect(one.data).toEqual(none.data);
    expect({ ...one.meta, prefetched: undefined }).toEqual({ ...none.meta, prefetched: undefined });
  });

  it('refuses a column that is no reference, or a resource without any', async () => {
    for (const url of [
      `${LIST}&_prefetch=email`,
      `${LIST}&_prefetch=nonsense`,
      '/api/products?_prefetch=id',
    ]) {
      const response = await t.request({ method: 'GET', url, as: ADMIN });
      expect(response.statusCode, url).toBe(400);
    }
  });

  it.each([ADMIN, BACKOFFICE, CONSULTANT, CONSULTANT2])(
    'gives %s exactly what their getMany of the same ids answers',
    async (as) => {
      const { data, meta } = await get(`${LIST}${PREFETCH}`, as);
      const prefetched = meta.prefetched ?? {};
      const expectedUsers = await getMany(
        'users',
        data.map((row) => row.assigned_to),
        as,
      );
      const expectedSources = await getMany(
        'lead-sources',
        data.map((row) => row.lead_source),
        as,
      );
      expect(byId(prefetched.users)).toEqual(byId(expectedUsers));
      expect(byId(prefetched['lead-sources'])).toEqual(byId(expectedSources));
    },
  );

  it('never shows a consultant a record outside their scope', async () => {
    const { data, meta } = await get(`${LIST}${PREFETCH}`, CONSULTANT);
    // Their own customers only (the list's scope) …
    expect(data.length).toBeGreaterThan(0);
    expect(data.every((row) => row.assigned_to === users[CONSULTANT])).toBe(true);
    // … their own account (not another's) and the lead source their role may see.
    expect((meta.prefetched?.users ?? []).map((row) => row.id)).toEqual([users[CONSULTANT]]);
    expect((meta.prefetched?.['lead-sources'] ?? []).map((row) => row.id)).toEqual([sources.open]);
    const text = JSON.stringify(meta.prefetched);
    expect(text).not.toContain(`Intern ${SUFFIX}`);
    expect(text).not.toContain('consultant2@');
  });

  it('sends no column the resource’s own answers leave out', async () => {
    const { meta } = await get(`${LIST}${PREFETCH}`, ADMIN);
    const [user] = meta.prefetched?.users ?? [];
    expect(user).toBeDefined();
    const { data } = await get(`/api/users/${String(user.id)}`, ADMIN);
    expect(Object.keys(user).sort()).toEqual(Object.keys(data).sort());
    expect(JSON.stringify(meta.prefetched)).not.toMatch(/password|token|hash/i);
  });

  it('leaves out a resource the principal may not read', async () => {
    const customers = t.app.models.find((model) => model.name === 'customers')!;
    const models = t.app.models.map((model) =>
      model.name === 'users'
        ? { ...model, permissions: { ...model.permissions, read: 'manage-users' as const } }
        : model,
    );
    const rows = [{ id: 1, assigned_to: users[CONSULTANT], lead_source: sources.open }];
    const consultant = {
      id: users[CONSULTANT],
      role: 'CONSULTANT',
      permissions: [],
    } as unknown as SessionUser;
    const prefetched = await prefetchedRecords(
      { db: t.app.db, models, resourceHooks: t.app.resourceHooks },
      { principal: consultant },
      customers,
      rows,
      ['assigned_to', 'lead_source'],
    );
    expect(Object.keys(prefetched ?? {})).toEqual(['lead-sources']);
    const admin = { id: users[ADMIN], role: 'ADMIN', permissions: ['manage-users'] };
    const allowed = await prefetchedRecords(
      { db: t.app.db, models, resourceHooks: t.app.resourceHooks },
      { principal: admin as unknown as SessionUser },
      customers,
      rows,
      ['assigned_to'],
    );
    expect((allowed?.users ?? []).map((row) => Number(row.id))).toEqual([users[CONSULTANT]]);
  });
});
