/**
 * Customers and households (issue 6), on both engines: the rules of server/customers/rules.ts,
 * the list (default order, search, filters), visibility between the two demo consultants,
 * duplicates, the admin merge, household members (rules, cascade, conversion) and the export.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, CONSULTANT, createTestApp, type TestApp } from './harness.ts';

const CONSULTANT2 = 'consultant2@demo.gscrm.ch';
const BACKOFFICE = 'backoffice@demo.gscrm.ch';

type Row = Record<string, unknown>;
let t: TestApp;
const ids: Record<string, number> = {};
let leadSource: number;

async function post(url: string, payload: Row, as = ADMIN) {
  return t.request({ method: 'POST', url, payload, as });
}
async function create(payload: Row, as = ADMIN): Promise<Row> {
  const response = await post('/api/customers', payload, as);
  expect(response.statusCode, response.body).toBe(201);
  return (response.json() as { data: Row }).data;
}
async function list(query: string, as = ADMIN): Promise<{ data: Row[]; meta: { total: number } }> {
  const response = await t.request({ method: 'GET', url: `/api/customers?${query}`, as });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { data: Row[]; meta: { total: number } };
}
function expect422(response: { statusCode: number; body: string; json(): unknown }, field: string) {
  expect(response.statusCode, response.body).toBe(422);
  const errors = (response.json() as { errors?: Record<string, string[]> }).errors ?? {};
  expect(Object.keys(errors), response.body).toContain(field);
  return errors[field].join(' ');
}

const person = (extra: Row = {}): Row => ({
  first_name: 'Hans',
  last_name: `Muster${Math.random().toString(36).slice(2, 8)}`,
  date_of_birth: '1980-04-12',
  street: 'Bahnhofstrasse',
  address_number: '12',
  zip: '8001',
  city: 'Zürich',
  country: 'CH',
  email: 'hans.muster@example.ch',
  phone_number: '079 123 45 67',
  ...extra,
});

beforeAll(async () => {
  t = await createTestApp();
  const users = await t.database.db.selectFrom('users').select(['id', 'email']).execute();
  for (const user of users) ids[String(user.email)] = Number(user.id);
  const source = await t.database.db
    .selectFrom('lead_sources')
    .select('id')
    .orderBy('id')
    .executeTakeFirstOrThrow();
  leadSource = Number(source.id);
});
afterAll(async () => {
  await t?.close();
});

describe('rules (422 naming the field, nothing written)', () => {
  it('accepts a complete person and a company', async () => {
    const hans = await create(person({ lead_source: leadSource, gender: 'male' }));
    expect(hans).toMatchObject({ first_name: 'Hans', zip: '8001', is_company: false });
    const company = await create({
      is_company: true,
      organization: 'Bäckerei Test AG',
      first_name: 'Anna',
      last_name: 'Beispiel',
      zip: '3011',
      city: 'Bern',
      email: 'info@baeckerei-test.ch',
      phone_number: '+41 31 123 45 67',
    });
    expect(company).toMatchObject({ is_company: true, organization: 'Bäckerei Test AG' });
  });

  it('refuses an invalid email and phone numbers that are not Swiss or E.164', async () => {
    expect422(await post('/api/customers', person({ email: 'hans@' })), 'email');
    for (const phone of ['12345', '079 123 45', '+41 79 123 45 67 89 12 34', 'call me']) {
      expect422(await post('/api/customers', person({ phone_number: phone })), 'phone_number');
    }
    for (const phone of ['0791234567', '+41791234567', '0041 79 123 45 67', '+49 30 1234567']) {
      expect((await post('/api/customers', person({ phone_number: phone }))).statusCode).toBe(201);
    }
  });

  it('needs four digits for a Swiss or Liechtenstein zip; other countries are free', async () => {
    for (const [zip, country] of [
      ['800', 'CH'],
      ['80011', 'CH'],
      ['0800', 'CH'],
      ['94 90', 'LI'],
    ]) {
      const message = expect422(await post('/api/customers', person({ zip, country })), 'zip');
      expect(message).toContain('4 digits');
    }
    expect((await post('/api/customers', person({ zip: '9490', country: 'LI' }))).statusCode).toBe(
      201,
    );
    expect(
      (await post('/api/customers', person({ zip: '79539', city: 'Lörrach', country: 'DE' })))
        .statusCode,
    ).toBe(201);
    expect(
      (await post('/api/customers', person({ zip: 'SW1A 1AA', city: 'London', country: 'GB' })))
        .statusCode,
    ).toBe(201);
  });

  it('refuses a future date of birth and a partnership before the birth', async () => {
    const nextYear = new Date().getFullYear() + 1;
    expect422(
      await post('/api/customers', person({ date_of_birth: `${nextYear}-01-01` })),
      'date_of_birth',
    );
    const message = expect422(
      await post(
        '/api/customers',
        person({ date_of_birth: '1980-04-12', partnership_date: '1979-12-31' }),
      ),
      'partnership_date',
    );
    expect(message).toContain('before the date of birth');
    // A PATCH of one date is checked against the stored other one.
    const stored = await create(
      person({ marital_status: 'married', partnership_date: '2010-06-05' }),
    );
    expect422(
      await t.request({
        method: 'PATCH',
        url: `/api/customers/${stored.id}`,
        payload: { date_of_birth: '2011-01-01' },
        as: ADMIN,
      }),
      'partnership_date',
    );
  });

  it('refuses an unknown lead source, consultant or recommending customer', async () => {
    expect(
      expect422(await post('/api/customers', person({ lead_source: 999999 })), 'lead_source'),
    ).toContain('999999');
    expect422(await post('/api/customers', person({ assigned_to: 999999 })), 'assigned_to');
    expect422(
      await post('/api/customers', person({ recommended_by_customer_id: 999999 })),
      'recommended_by_customer_id',
    );
    const stored = await create(person());
    expect422(
      await t.request({
        method: 'PATCH',
        url: `/api/customers/${stored.id}`,
        payload: { recommended_by_customer_id: stored.id },
        as: ADMIN,
      }),
      'recommended_by_customer_id',
    );
  });

  it('refuses a disabled consultant', async () => {
    const [user] = await t.database.db
      .insertInto('users')
      .values({
        email: `gone.${Date.now()}@demo.gscrm.ch`,
        first_name: 'Ex',
        last_name: 'Berater',
        role: 'CONSULTANT',
        is_active: false,
        additional_permissions: '[]',
      })
      .returning('id')
      .execute();
    expect(
      expect422(
        await post('/api/customers', person({ assigned_to: Number(user.id) })),
        'assigned_to',
      ),
    ).toContain('disabled');
  });

  it('needs the organization of a company and no permit for a Swiss national', async () => {
    expect422(await post('/api/customers', person({ is_company: true })), 'organization');
    expect422(
      await post('/api/customers', person({ nationality: 'CH', permit_type: 'B' })),
      'permit_type',
    );
    expect(
      (await post('/api/customers', person({ nationality: 'PT', permit_type: 'C' }))).statusCode,
    ).toBe(201);
  });

  it('writes nothing when a rule fails', async () => {
    const before = (await list('per_page=1')).meta.total;
    await post('/api/customers', person({ zip: '12' }));
    await post('/api/customers', person({ date_of_birth: '2999-01-01' }));
    expect((await list('per_page=1')).meta.total).toBe(before);
  });
});

describe('list', () => {
  it("orders by 'newest' first by default", async () => {
    const older = await create(person({ last_name: 'Älter' }));
    const newer = await create(person({ last_name: 'Neuer' }));
    const answer = await list('per_page=5');
    const order = answer.data.map((row) => row.id);
    expect(order.indexOf(newer.id)).toBeLessThan(order.indexOf(older.id));
    const dates = answer.data.map((row) => Date.parse(String(row.created_at)));
    expect(dates).toEqual([...dates].sort((a, b) => b - a));
  });

  it('searches name, email, phone and city', async () => {
    const unique = `Zz${Date.now().toString(36)}`;
    const row = await create(
      person({
        first_name: unique,
        email: `${unique.toLowerCase()}@example.ch`,
        phone_number: '044 987 65 43',
        city: `${unique}ingen`,
      }),
    );
    for (const search of [
      unique,
      `${unique.toLowerCase()}@example`,
      '987 65 43',
      `${unique}ingen`,
    ]) {
      const answer = await list(`search=${encodeURIComponent(search)}&per_page=100`);
      expect(
        answer.data.map((item) => item.id),
        search,
      ).toContain(row.id);
    }
  });

  it('filters by consultant (one, or unassigned), lead source, person/company, city and zip', async () => {
    const mine = await list(`assigned_to=${ids[CONSULTANT]}&per_page=500`);
    expect(mine.meta.total).toBeGreaterThan(10);
    for (const row of mine.data) expect(row.assigned_to).toBe(ids[CONSULTANT]);
    const unassigned = await list('assigned_to_null=true&per_page=500');
    expect(unassigned.meta.total).toBeGreaterThan(0);
    for (const row of unassigned.data) expect(row.assigned_to).toBeNull();
    const bySource = await list(`lead_source=${leadSource}&per_page=500`);
    for (const row of bySource.data) expect(row.lead_source).toBe(leadSource);
    const companies = await list('is_company=true&per_page=500');
    expect(companies.meta.total).toBeGreaterThan(0);
    for (const row of companies.data) expect(row.is_company).toBe(true);
    const lausanne = await list('city=Lausanne&per_page=500');
    for (const row of lausanne.data) expect(String(row.city)).toContain('Lausanne');
    const zip = await list('zip=8001&per_page=500');
    expect(zip.meta.total).toBeGreaterThan(0);
    for (const row of zip.data) expect(row.zip).toBe('8001');
  });
});

describe('visibility between the two demo consultants', () => {
  it('lists to each consultant only their own customers', async () => {
    for (const email of [CONSULTANT, CONSULTANT2]) {
      const answer = await list('per_page=500', email);
      expect(answer.meta.total).toBeGreaterThan(10);
      for (const row of answer.data) expect(row.assigned_to).toBe(ids[email]);
    }
    const all = await list('per_page=1');
    const first = await list('per_page=1', CONSULTANT);
    const second = await list('per_page=1', CONSULTANT2);
    expect(first.meta.total + second.meta.total).toBeLessThan(all.meta.total);
  });

  it("hides another consultant's customer, its members and documents (404)", async () => {
    const theirs = await create(person(), CONSULTANT2);
    expect(theirs.assigned_to).toBe(ids[CONSULTANT2]);
    const url = `/api/customers/${theirs.id}`;
    expect((await t.request({ method: 'GET', url, as: CONSULTANT })).statusCode).toBe(404);
    expect(
      (await t.request({ method: 'PATCH', url, payload: { city: 'Bern' }, as: CONSULTANT }))
        .statusCode,
    ).toBe(404);
    expect((await t.request({ method: 'DELETE', url, as: CONSULTANT })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url, as: CONSULTANT2 })).statusCode).toBe(200);
    const member = await post(
      '/api/household-members',
      { customer_id: theirs.id, first_name: 'Lea', last_name: 'Muster', relation: 'child' },
      CONSULTANT2,
    );
    expect(member.statusCode, member.body).toBe(201);
    const memberId = (member.json() as { data: Row }).data.id;
    expect(
      (
        await t.request({
          method: 'GET',
          url: `/api/household-members/${memberId}`,
          as: CONSULTANT,
        })
      ).statusCode,
    ).toBe(404);
    const members = await t.request({
      method: 'GET',
      url: `/api/household-members?customer_id=${theirs.id}`,
      as: CONSULTANT,
    });
    expect((members.json() as { meta: { total: number } }).meta.total).toBe(0);
    // Nor may a consultant attach a member to someone else's customer.
    expect422(
      await post(
        '/api/household-members',
        { customer_id: theirs.id, first_name: 'X', last_name: 'Y' },
        CONSULTANT,
      ),
      'customer_id',
    );
  });

  it("assigns a consultant's new customers to that consultant, whatever was sent", async () => {
    const row = await create(person({ assigned_to: ids[CONSULTANT2] }), CONSULTANT);
    expect(row.assigned_to).toBe(ids[CONSULTANT]);
  });
});

describe('duplicates', () => {
  const check = async (query: string, as = ADMIN) => {
    const response = await t.request({
      method: 'GET',
      url: `/api/customers/duplicates?${query}`,
      as,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { data: Array<Row & { reasons: string[] }>; hidden: boolean };
  };

  it('finds the same name and birth date, email or phone, and says why', async () => {
    const original = await create(
      person({
        first_name: 'Doppel',
        last_name: 'Gänger',
        date_of_birth: '1975-03-03',
        email: 'Doppel.Gaenger@Example.ch',
        phone_number: '+41 78 555 66 77',
      }),
    );
    const byName = await check('first_name=doppel&last_name=GÄNGER&date_of_birth=1975-03-03');
    expect(byName.data.find((row) => row.id === original.id)?.reasons).toEqual([
      'name_and_birth_date',
    ]);
    const byEmail = await check('email=doppel.gaenger@example.ch');
    expect(byEmail.data.find((row) => row.id === original.id)?.reasons).toEqual(['email']);
    const byPhone = await check(`phone_number=${encodeURIComponent('078 555 66 77')}`);
    expect(byPhone.data.find((row) => row.id === original.id)?.reasons).toEqual(['phone']);
    const excluded = await check(`email=doppel.gaenger@example.ch&exclude_id=${original.id}`);
    expect(excluded.data.map((row) => row.id)).not.toContain(original.id);
    expect((await check('first_name=Doppel&last_name=Gänger')).data).toEqual([]);
    expect((await check('')).data).toEqual([]);
  });

  it("counts but does not show another consultant's matches", async () => {
    await create(person({ email: 'only.mine@example.ch' }), CONSULTANT2);
    const seen = await check('email=only.mine@example.ch', CONSULTANT);
    expect(seen.data).toEqual([]);
    expect(seen.hidden).toBe(true);
    expect((await check('email=only.mine@example.ch', CONSULTANT2)).data).toHaveLength(1);
  });

  it('creates the customer anyway when the user confirms', async () => {
    const first = await create(person({ email: 'twice@example.ch' }));
    const second = await create(person({ email: 'twice@example.ch' }));
    expect(second.id).not.toBe(first.id);
  });
});

describe('merge', () => {
  it('moves members, documents and referrals, fills empty fields and keeps an audit record', async () => {
    const keep = await create(
      person({ first_name: 'Bleibt', email: null, notes: 'Kunde seit 2010' }),
    );
    const duplicate = await create(
      person({
        first_name: 'Bleibt',
        email: 'bleibt@example.ch',
        notes: 'Doppelt erfasst',
        lead_source: leadSource,
      }),
    );
    const member = await post('/api/household-members', {
      customer_id: duplicate.id,
      first_name: 'Kind',
      last_name: 'Muster',
      relation: 'child',
    });
    const document = await post('/api/documents', {
      customer_id: duplicate.id,
      document_name: 'Police',
    });
    const referred = await create(person({ recommended_by_customer_id: duplicate.id }));

    expect(
      (await post(`/api/customers/${keep.id}/merge`, { duplicate_id: duplicate.id }, CONSULTANT))
        .statusCode,
    ).toBe(403);
    const response = await post(`/api/customers/${keep.id}/merge`, { duplicate_id: duplicate.id });
    expect(response.statusCode, response.body).toBe(200);
    const result = response.json() as {
      data: Row;
      moved: Record<string, number>;
      filled: string[];
    };
    expect(result.data.email).toBe('bleibt@example.ch');
    expect(result.data.lead_source).toBe(leadSource);
    expect(result.data.notes).toBe('Kunde seit 2010\n\nDoppelt erfasst');
    expect(result.filled).toEqual(expect.arrayContaining(['email', 'lead_source', 'notes']));
    expect(result.moved).toMatchObject({
      'household_members.customer_id': 1,
      'documents.customer_id': 1,
      'customers.recommended_by_customer_id': 1,
    });

    const get = (url: string) => t.request({ method: 'GET', url, as: ADMIN });
    expect((await get(`/api/customers/${duplicate.id}`)).statusCode).toBe(404);
    const memberId = (member.json() as { data: Row }).data.id;
    expect(
      ((await get(`/api/household-members/${memberId}`)).json() as { data: Row }).data.customer_id,
    ).toBe(keep.id);
    const documentId = (document.json() as { data: Row }).data.id;
    expect(
      ((await get(`/api/documents/${documentId}`)).json() as { data: Row }).data.customer_id,
    ).toBe(keep.id);
    expect(
      ((await get(`/api/customers/${referred.id}`)).json() as { data: Row }).data
        .recommended_by_customer_id,
    ).toBe(keep.id);

    const [entry] = await t.database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('event', '=', 'customer.merged')
      .where('record_id', '=', String(keep.id))
      .execute();
    expect(entry.user_id).toBe(ids[ADMIN]);
    const details = (
      typeof entry.details === 'string' ? JSON.parse(entry.details) : entry.details
    ) as Row;
    expect(details).toMatchObject({ kept: keep.id, removed: duplicate.id });
    expect((details.removedRecord as Row).email).toBe('bleibt@example.ch');
  });

  it('refuses merging a customer into itself or an unknown one, and lets the back office merge', async () => {
    const keep = await create(person());
    expect422(
      await post(`/api/customers/${keep.id}/merge`, { duplicate_id: keep.id }),
      'duplicate_id',
    );
    expect422(
      await post(`/api/customers/${keep.id}/merge`, { duplicate_id: 999999 }),
      'duplicate_id',
    );
    const other = await create(person());
    const response = await post(
      `/api/customers/${keep.id}/merge`,
      { duplicate_id: other.id },
      BACKOFFICE,
    );
    expect(response.statusCode, response.body).toBe(200);
  });
});

describe('household members', () => {
  it('checks the same date rules and is deleted with its customer', async () => {
    const customer = await create(person());
    const future = `${new Date().getFullYear() + 1}-05-05`;
    expect422(
      await post('/api/household-members', {
        customer_id: customer.id,
        first_name: 'Zukunft',
        last_name: 'Kind',
        date_of_birth: future,
      }),
      'date_of_birth',
    );
    expect422(
      await post('/api/household-members', {
        customer_id: customer.id,
        first_name: 'Ehe',
        last_name: 'Partner',
        date_of_birth: '1990-01-01',
        partnership_date: '1989-01-01',
      }),
      'partnership_date',
    );
    const member = await post('/api/household-members', {
      customer_id: customer.id,
      first_name: 'Lina',
      last_name: 'Muster',
      relation: 'child',
      date_of_birth: '2015-02-02',
    });
    expect(member.statusCode, member.body).toBe(201);
    expect((member.json() as { data: Row }).data.same_household).toBe(true);
    const deleted = await t.request({
      method: 'DELETE',
      url: `/api/customers/${customer.id}`,
      as: ADMIN,
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    const left = await t.database.db
      .selectFrom('household_members')
      .select('id')
      .where('customer_id', '=', Number(customer.id))
      .execute();
    expect(left).toEqual([]);
  });

  it('turns a member into a customer of its own, once', async () => {
    const customer = await create(
      person({ lead_source: leadSource, correspondence_languages: ['fr'] }),
      CONSULTANT,
    );
    const member = await post(
      '/api/household-members',
      {
        customer_id: customer.id,
        first_name: 'Marie',
        last_name: String(customer.last_name),
        relation: 'spouse',
        gender: 'female',
        date_of_birth: '1982-07-07',
        marital_status: 'married',
        partnership_date: '2008-08-08',
        nationality: 'FR',
        permit_type: 'C',
      },
      CONSULTANT,
    );
    const memberId = (member.json() as { data: Row }).data.id;
    expect(
      (await post(`/api/household-members/${memberId}/convert`, {}, CONSULTANT2)).statusCode,
    ).toBe(404);
    const converted = await post(`/api/household-members/${memberId}/convert`, {}, CONSULTANT);
    expect(converted.statusCode, converted.body).toBe(201);
    const created = (converted.json() as { data: Row }).data;
    expect(created).toMatchObject({
      first_name: 'Marie',
      last_name: customer.last_name,
      date_of_birth: '1982-07-07',
      partnership_date: '2008-08-08',
      nationality: 'FR',
      permit_type: 'C',
      street: customer.street,
      zip: customer.zip,
      city: customer.city,
      correspondence_languages: ['fr'],
      lead_source: leadSource,
      recommended_by_customer_id: customer.id,
      assigned_to: ids[CONSULTANT],
    });
    const linked = await t.request({
      method: 'GET',
      url: `/api/household-members/${memberId}`,
      as: CONSULTANT,
    });
    expect((linked.json() as { data: Row }).data.linked_customer_id).toBe(created.id);
    expect(
      (await post(`/api/household-members/${memberId}/convert`, {}, CONSULTANT)).statusCode,
    ).toBe(409);
  });
});

describe('client report export', () => {
  const exportCsv = async (query: string, as = ADMIN) => {
    const response = await t.request({ method: 'GET', url: `/api/customers/export?${query}`, as });
    expect(response.statusCode, response.body.slice(0, 500)).toBe(200);
    return response;
  };
  const lines = (body: string) =>
    body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');

  it('streams a CSV in the user language with a BOM, as an attachment', async () => {
    const response = await exportCsv('');
    expect(response.headers['content-type']).toContain('text/csv');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="customers-/);
    expect(response.body.startsWith('\uFEFF')).toBe(true);
    const [header, ...rows] = lines(response.body);
    expect(header.split(';')).toEqual(expect.arrayContaining(['Vorname', 'Nachname', 'PLZ']));
    const total = (await list('per_page=1')).meta.total;
    expect(rows).toHaveLength(total);
  });

  it("contains only the consultant's own customers", async () => {
    const own = (await list('per_page=1', CONSULTANT)).meta.total;
    const [, ...rows] = lines((await exportCsv('', CONSULTANT)).body);
    expect(rows).toHaveLength(own);
    const consultant = await t.database.db
      .selectFrom('users')
      .select(['email'])
      .where('id', '=', ids[CONSULTANT2])
      .executeTakeFirstOrThrow();
    expect(rows.join('\n')).not.toContain(String(consultant.email));
  });

  it('filters by creation dates and lead sources', async () => {
    const [, ...none] = lines((await exportCsv('from=2000-01-01&until=2000-12-31')).body);
    expect(none).toEqual([]);
    const today = new Date().toISOString().slice(0, 10);
    const marked = await create(person({ lead_source: leadSource, last_name: 'Exportiert' }));
    const body = (await exportCsv(`from=${today}&lead_source=${leadSource}`)).body;
    expect(body).toContain('Exportiert');
    const countInDb = await t.database.db
      .selectFrom('customers')
      .select((eb) => eb.fn.countAll().as('count'))
      .where('lead_source', '=', leadSource)
      .executeTakeFirstOrThrow();
    expect(lines((await exportCsv(`lead_source=${leadSource}`)).body).length - 1).toBe(
      Number(countInDb.count),
    );
    expect(marked.id).toBeDefined();
    const bad = await t.request({
      method: 'GET',
      url: '/api/customers/export?from=2024-02-01&until=2024-01-01',
      as: ADMIN,
    });
    expect(bad.statusCode).toBe(400);
  });
});
