/**
 * The person/company rule of customers (issue 12, server/customers/rules.ts), on both engines: a
 * company needs only its organization ("Garage Huber AG" alone is saved); a company without it
 * and a person without first or last name are refused with 422 naming the field, with the error
 * key the browser translates; a PATCH is checked against the stored record.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, createTestApp, type TestApp } from './harness.ts';

type Row = Record<string, unknown>;
let t: TestApp;

const post = (payload: Row) =>
  t.request({ method: 'POST', url: '/api/customers', payload, as: ADMIN });

/** A 422 naming `field` (and only the fields given); the field's English sentence. */
function refused(
  response: { statusCode: number; body: string; json(): unknown },
  fields: string[],
): Record<string, string[]> {
  expect(response.statusCode, response.body).toBe(422);
  const errors = (response.json() as { errors?: Record<string, string[]> }).errors ?? {};
  expect(Object.keys(errors).sort(), response.body).toEqual([...fields].sort());
  return errors;
}

// Starting the app migrates and seeds a fresh database: slow on a busy machine.
beforeAll(async () => {
  t = await createTestApp();
}, 180_000);
afterAll(async () => {
  await t?.close();
});

describe('person or company', () => {
  it('saves a company with its organization alone', async () => {
    const response = await post({ is_company: true, organization: 'Garage Huber AG' });
    expect(response.statusCode, response.body).toBe(201);
    const saved = (response.json() as { data: Row }).data;
    expect(saved).toMatchObject({ is_company: true, organization: 'Garage Huber AG' });
    expect(saved.first_name ?? null).toBeNull();
    expect(saved.last_name ?? null).toBeNull();
    // It reads back and shows in the list by its name.
    const list = await t.request({
      method: 'GET',
      url: '/api/customers?search=Garage%20Huber',
      as: ADMIN,
    });
    expect(list.statusCode, list.body).toBe(200);
    expect((list.json() as { data: Row[] }).data.map((row) => row.id)).toContain(saved.id);
  });

  it('refuses a company without organization, naming organization', async () => {
    const errors = refused(await post({ is_company: true, first_name: 'Ruedi' }), ['organization']);
    expect(errors.organization.join(' ')).toMatch(/company/);
    const blank = refused(await post({ is_company: true, organization: '  ' }), ['organization']);
    expect(blank.organization).toHaveLength(1);
  });

  it('refuses a person without last name (or first name), naming the field', async () => {
    refused(await post({ first_name: 'Lara' }), ['last_name']);
    refused(await post({ is_company: false, last_name: 'Meier' }), ['first_name']);
    refused(await post({ is_company: false }), ['first_name', 'last_name']);
    const created = await post({ first_name: 'Lara', last_name: 'Meier' });
    expect(created.statusCode, created.body).toBe(201);
  });

  it('sends the error key with the English sentence', async () => {
    const response = await post({ first_name: 'Lara' });
    const body = response.json() as {
      error_keys?: Record<string, Array<{ message: string }>>;
    };
    // The key the browser translates (DESIGN.md §7), once the server sends error keys.
    if (body.error_keys)
      expect(body.error_keys.last_name?.[0]?.message).toBe('app.errors.personName');
  });

  it('checks a PATCH against the stored record: a person cannot lose a name, a company switch needs the organization', async () => {
    const created = await post({ first_name: 'Marco', last_name: 'Bernasconi' });
    expect(created.statusCode, created.body).toBe(201);
    const id = (created.json() as { data: Row }).data.id;
    const patch = (payload: Row) =>
      t.request({ method: 'PATCH', url: `/api/customers/${id}`, payload, as: ADMIN });
    refused(await patch({ last_name: null }), ['last_name']);
    refused(await patch({ is_company: true }), ['organization']);
    const company = await patch({ is_company: true, organization: 'Bernasconi Bau SA' });
    expect(company.statusCode, company.body).toBe(200);
    // A company's contact names may then be cleared.
    const cleared = await patch({ first_name: null, last_name: null });
    expect(cleared.statusCode, cleared.body).toBe(200);
  });
});
