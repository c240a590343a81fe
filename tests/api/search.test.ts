/**
 * The generic list search normalises what people type (issue 12), on both engines: phone numbers
 * in any spelling find the number stored as E.164, accents and umlauts are optional (`muller`,
 * `mueller` → Müller, `zurich` → Zürich), digits find zip codes. Phone fields are stored as E.164
 * on every write path (create, update, another resource, the CSV import); a bad number is 422
 * naming the field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { E164 } from '../../src/schema/phone.ts';
import { ADMIN, createTestApp, type TestApp } from './harness.ts';
import { multipart } from './multipart.ts';

type Row = Record<string, unknown>;
let t: TestApp;
/** A word no demo record contains, so that a search for it and a normalised word is exact. */
const tag = `Qx${Math.random().toString(36).slice(2, 8)}`;

async function create(url: string, payload: Row): Promise<Row> {
  const response = await t.request({ method: 'POST', url, payload, as: ADMIN });
  expect(response.statusCode, response.body).toBe(201);
  return (response.json() as { data: Row }).data;
}
async function search(resource: string, text: string): Promise<Row[]> {
  const response = await t.request({
    method: 'GET',
    url: `/api/${resource}?search=${encodeURIComponent(text)}&per_page=500`,
    as: ADMIN,
  });
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as { data: Row[] }).data;
}
const ids = (rows: Row[]) => rows.map((row) => row.id);

let mueller: Row;
let phoneOwner: Row;
let oerlikon: Row;

beforeAll(async () => {
  t = await createTestApp();
  mueller = await create('/api/customers', {
    first_name: tag,
    last_name: 'Müller',
    zip: '8001',
    city: 'Zürich',
    country: 'CH',
  });
  phoneOwner = await create('/api/customers', {
    first_name: 'Petra',
    last_name: `Telefon${tag}`,
    phone_number: '079 322 50 35',
  });
  oerlikon = await create('/api/customers', {
    first_name: 'Otto',
    last_name: `Oerlikon${tag}`,
    zip: '8050',
    city: 'Zürich',
    country: 'CH',
  });
});
afterAll(async () => {
  await t?.close();
});

describe('search', () => {
  it('finds a phone number however it is typed', async () => {
    for (const text of [
      '+41793225035',
      '0793225035',
      '079 322 50 35',
      '0041 79 322 50 35',
      '+41 79 322 50 35',
      '079/322.50.35',
      '079 322',
      '322 50 35',
    ]) {
      expect(ids(await search('customers', text)), text).toContain(phoneOwner.id);
    }
    expect(ids(await search('customers', '079 322 50 36'))).not.toContain(phoneOwner.id);
  });

  it('ignores accents and umlauts, and reads ue as ü', async () => {
    for (const text of [`muller ${tag}`, `mueller ${tag}`, `MÜLLER ${tag}`, `Müller ${tag}`]) {
      expect(ids(await search('customers', text)), text).toEqual([mueller.id]);
    }
    for (const text of [`zurich ${tag}`, `zuerich ${tag}`, `ZURICH ${tag}`]) {
      expect(ids(await search('customers', text)).sort(), text).toEqual(
        [mueller.id, oerlikon.id].sort(),
      );
    }
    expect(await search('customers', `mollar ${tag}`)).toEqual([]);
    // The city filter folds the same way.
    const filtered = await t.request({
      method: 'GET',
      url: `/api/customers?city=zurich&search=${tag}&per_page=500`,
      as: ADMIN,
    });
    expect(ids((filtered.json() as { data: Row[] }).data)).toContain(mueller.id);
  });

  it('looks in a stored search document that follows every write and stays inside the database', async () => {
    // Words are found in different fields of the same record, each word anywhere.
    expect(ids(await search('customers', `muller ${tag}`))).toContain(mueller.id);
    expect(ids(await search('customers', `${tag} zurich 8001`))).toContain(mueller.id);
    // No word is found across two fields (the document joins them with a space).
    expect(ids(await search('customers', `${tag}muller`))).not.toContain(mueller.id);
    const other = await create('/api/customers', {
      first_name: `Doc${tag}`,
      last_name: 'Keller',
      city: 'Zürich',
    });
    const updated = await t.request({
      method: 'PUT',
      url: `/api/customers/${String(other.id)}`,
      payload: { ...other, city: 'Genève' },
      as: ADMIN,
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(ids(await search('customers', `doc${tag} geneve`))).toEqual([other.id]);
    expect(ids(await search('customers', `doc${tag} zurich`))).toEqual([]);
    // Derived data: no answer carries it, the history does not record it.
    expect(Object.keys(updated.json().data as Row)).not.toContain('search_document');
    const listed = await search('customers', `doc${tag}`);
    expect(Object.keys(listed[0])).not.toContain('search_document');
    const history = await t.database.db
      .selectFrom('audit_log')
      .select('changes')
      .where('resource', '=', 'customers')
      .where('record_id', '=', String(other.id))
      .execute();
    expect(history.length).toBeGreaterThanOrEqual(2);
    expect(JSON.stringify(history)).toContain('Genève');
    expect(JSON.stringify(history)).not.toContain('search_document');
  });

  it('finds the customers of a zip code', async () => {
    const rows = await search('customers', '8050');
    expect(ids(rows)).toContain(oerlikon.id);
    const demo = await t.database.db
      .selectFrom('customers')
      .select('id')
      .where('zip', '=', '8050')
      .execute();
    expect(demo.length).toBeGreaterThan(1);
    expect(ids(rows)).toEqual(expect.arrayContaining(demo.map((row) => row.id)));
    expect(ids(await search('customers', `8050 zurich ${tag}`))).toEqual([oerlikon.id]);
    expect(ids(await search('customers', `805 ${tag}`))).toEqual([oerlikon.id]);
  });

  it('normalises every resource that declares search fields', async () => {
    const broker = await create('/api/sub-brokers', { name: `Genève Courtage ${tag}` });
    expect(ids(await search('sub-brokers', `geneve ${tag}`))).toEqual([broker.id]);
  });
});

describe('phone numbers are stored as E.164', () => {
  it('on create and update, and a bad number is refused naming the field', async () => {
    expect(phoneOwner.phone_number).toBe('+41793225035');
    const updated = await t.request({
      method: 'PATCH',
      url: `/api/customers/${String(phoneOwner.id)}`,
      payload: { phone_number: '0041 44 123 45 67' },
      as: ADMIN,
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect((updated.json() as { data: Row }).data.phone_number).toBe('+41441234567');
    const stored = await t.database.db
      .selectFrom('customers')
      .select('phone_number')
      .where('id', '=', Number(phoneOwner.id))
      .executeTakeFirstOrThrow();
    expect(stored.phone_number).toBe('+41441234567');

    for (const bad of ['abc', '12345', '079 322 50']) {
      const refused = await t.request({
        method: 'POST',
        url: '/api/customers',
        payload: { first_name: 'Bad', last_name: 'Phone', phone_number: bad },
        as: ADMIN,
      });
      expect(refused.statusCode, bad).toBe(422);
      expect(Object.keys((refused.json() as { errors: Row }).errors), bad).toEqual([
        'phone_number',
      ]);
    }
  });

  it('in the demo data', async () => {
    const db = t.database.db;
    const stored = [
      ...(await db.selectFrom('customers').select('phone_number as phone').execute()),
      ...(await db.selectFrom('users').select('phone').execute()),
      ...(await db.selectFrom('sub_brokers').select('phone').execute()),
      ...(await db.selectFrom('sub_brokers').select('contact_phone as phone').execute()),
      ...(await db.selectFrom('external_users').select('phone').execute()),
    ]
      .map((row) => row.phone)
      .filter((phone) => phone !== null);
    expect(stored.length).toBeGreaterThan(50);
    for (const phone of stored) expect(phone).toMatch(E164);
  });

  it('on other resources with phone fields', async () => {
    const broker = await create('/api/sub-brokers', {
      name: `Telefon Broker ${tag}`,
      phone: '044 123 45 67',
      contact_phone: '+49 30 1234567',
    });
    expect(broker).toMatchObject({ phone: '+41441234567', contact_phone: '+49301234567' });
  });

  it('in the CSV import', async () => {
    const csv = `Vorname;Nachname;Telefon\nImport;Telefon${tag};079 555 12 34\n`;
    const body = multipart([
      ['options', JSON.stringify({ mode: 'all_or_nothing' })],
      { name: 'file', filename: 'kunden.csv', content: csv, contentType: 'text/csv' },
    ]);
    const response = await t.request({
      method: 'POST',
      url: '/api/customers/import',
      payload: body.payload,
      headers: body.headers,
      as: ADMIN,
    });
    expect(response.statusCode, response.body).toBe(200);
    const row = await t.database.db
      .selectFrom('customers')
      .select('phone_number')
      .where('last_name', '=', `Telefon${tag}`)
      .where('first_name', '=', 'Import')
      .executeTakeFirstOrThrow();
    expect(row.phone_number).toBe('+41795551234');
  });
});
