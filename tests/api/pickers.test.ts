/**
 * Pickers and reference sorting (issue 12, item 6), on both engines: a list sorted by a reference
 * column sorts by the referenced record's label in the user's language (umlauts beside their base
 * letter, ties by id), `sort=_label` sorts a list by its own labels (what pickers ask for), and
 * `x-reference-filter` (customers.assignedTo: active consultants and back office) both narrows
 * the list the picker asks for and is enforced on write (422 naming the field).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import deMessages from '../../locales/de.json';
import { syncTranslations } from '../../server/i18n/sync.ts';
import { ADMIN, createTestApp, type TestApp } from './harness.ts';

type Row = Record<string, unknown>;
let t: TestApp;
const users: Record<string, number> = {};
const SUFFIX = Math.random().toString(36).slice(2, 8);

async function send(method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: Row) {
  return t.request({ method, url, payload, as: ADMIN });
}
async function created(url: string, payload: Row): Promise<Row> {
  const response = await send('POST', url, payload);
  expect(response.statusCode, response.body).toBe(201);
  return (response.json() as { data: Row }).data;
}
async function list(url: string): Promise<Row[]> {
  const response = await send('GET', url);
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as { data: Row[] }).data;
}
async function setLanguage(language: string) {
  const response = await send('PUT', '/api/account/settings', { language });
  expect(response.statusCode, response.body).toBe(200);
}

/** Lead sources by German and French name, deliberately created out of order. */
const SOURCES: [string, string][] = [
  ['Zeitung', 'Journal'],
  ['Österreich-Messe', 'Salon autrichien'],
  ['Oman-Kontakt', 'Contact Oman'],
  ['aargauer Empfehlung', 'Recommandation argovienne'],
  ['Ostafrika-Partner', 'Partenaire est-africain'],
  ['Ärztenetz', 'Réseau de médecins'],
];
const sourceIds = new Map<string, number>();
/** Customer ids in creation order; two share the lead source "Zeitung" (ties break by id). */
const customerIds: number[] = [];

beforeAll(async () => {
  t = await createTestApp();
  const rows = await t.database.db.selectFrom('users').select(['id', 'email']).execute();
  for (const row of rows) users[String(row.email)] = Number(row.id);
  for (const [de, fr] of SOURCES) {
    const source = await created('/api/lead-sources', {
      name_de: `${de} ${SUFFIX}`,
      name_fr: `${fr} ${SUFFIX}`,
      group: 'other',
    });
    sourceIds.set(de, Number(source.id));
  }
  for (const [de] of [...SOURCES, SOURCES[0]]) {
    const customer = await created('/api/customers', {
      first_name: 'Pia',
      last_name: `Picker${SUFFIX}`,
      lead_source: sourceIds.get(de),
    });
    customerIds.push(Number(customer.id));
  }
});

afterAll(async () => {
  await t?.close();
});

const sourceNameOf = (customer: Row) =>
  SOURCES.find(([de]) => sourceIds.get(de) === customer.lead_source)?.[0];

describe('sorting a list by a reference column', () => {
  it('orders customers by the lead source’s German name as a German reader expects', async () => {
    const rows = await list(`/api/customers?search=Picker${SUFFIX}&sort=lead_source&order=asc`);
    expect(rows.map(sourceNameOf)).toEqual([
      'aargauer Empfehlung',
      'Ärztenetz',
      'Oman-Kontakt',
      'Ostafrika-Partner',
      'Österreich-Messe',
      'Zeitung',
      'Zeitung',
    ]);
    // Equal labels keep a stable order: by id, in the sort's direction.
    expect(rows.slice(-2).map((row) => row.id)).toEqual([customerIds[0], customerIds[6]]);
  });

  it('reverses the whole order, ties included, when descending', async () => {
    const rows = await list(`/api/customers?search=Picker${SUFFIX}&sort=lead_source&order=desc`);
    expect(rows.map(sourceNameOf)[0]).toBe('Zeitung');
    expect(rows.slice(0, 2).map((row) => row.id)).toEqual([customerIds[6], customerIds[0]]);
    expect(rows.map(sourceNameOf).at(-1)).toBe('aargauer Empfehlung');
  });

  it('pages through equal keys without repeating or skipping a record', async () => {
    const pages = [];
    for (let page = 1; page <= 4; page += 1) {
      pages.push(
        ...(await list(
          `/api/customers?search=Picker${SUFFIX}&sort=lead_source&order=asc&per_page=2&page=${page}`,
        )),
      );
    }
    expect(pages.map((row) => row.id).sort()).toEqual([...customerIds].sort());
  });

  it('sorts by the French name for a user who reads French', async () => {
    await setLanguage('fr');
    try {
      const rows = await list(`/api/customers?search=Picker${SUFFIX}&sort=lead_source`);
      const french = rows.map(
        (row) => SOURCES.find(([de]) => sourceIds.get(de) === row.lead_source)?.[1],
      );
      expect(french).toEqual([
        'Contact Oman',
        'Journal',
        'Journal',
        'Partenaire est-africain',
        'Recommandation argovienne',
        'Réseau de médecins',
        'Salon autrichien',
      ]);
    } finally {
      await setLanguage('de');
    }
  });

  it('sorts by the user’s name (first and last) for a consultant column', async () => {
    const ids = [users['consultant@demo.gscrm.ch'], users['backoffice@demo.gscrm.ch']];
    for (const [index, id] of ids.entries()) {
      const response = await send('PATCH', `/api/customers/${customerIds[index]}`, {
        assigned_to: id,
      });
      expect(response.statusCode, response.body).toBe(200);
    }
    const names = await t.database.db
      .selectFrom('users')
      .select(['id', 'first_name', 'last_name'])
      .where('id', 'in', ids)
      .execute();
    const label = new Map(names.map((row) => [row.id, `${row.first_name} ${row.last_name}`]));
    const expected = [...ids].sort((a, b) =>
      new Intl.Collator('de').compare(label.get(a) ?? '', label.get(b) ?? ''),
    );
    const rows = await list(
      `/api/customers?search=Picker${SUFFIX}&assigned_to_null=false&sort=assigned_to`,
    );
    expect(rows.map((row) => row.assigned_to)).toEqual(expected);
  });
});

describe('sort=_label: a list by its own records’ labels (what pickers ask for)', () => {
  it('orders lead sources by their name in the user’s language', async () => {
    const rows = await list(`/api/lead-sources?search=${SUFFIX}&sort=_label`);
    expect(rows.map((row) => String(row.name_de).replace(` ${SUFFIX}`, ''))).toEqual([
      'aargauer Empfehlung',
      'Ärztenetz',
      'Oman-Kontakt',
      'Ostafrika-Partner',
      'Österreich-Messe',
      'Zeitung',
    ]);
  });

  it('orders products by their translated name (x-translate), not by their key', async () => {
    // The texts reach the database at start (server/main.ts); the harness does not start that way.
    await syncTranslations(t.database.db, { models: t.app.models });
    const rows = await list('/api/products?sort=_label&per_page=500');
    const names = deMessages.products as Record<string, string>;
    const labels = rows.map((row) => names[String(row.key)] ?? String(row.key));
    const collator = new Intl.Collator('de');
    const sorted = [...labels].sort((a, b) => collator.compare(a, b));
    expect(labels).toEqual(sorted);
    expect(rows.map((row) => row.key)).not.toEqual([...rows.map((row) => row.key)].sort());
  });

  it('is refused for a resource whose records have no label', async () => {
    const response = await send('GET', '/api/sub-broker-rules?sort=_label');
    expect(response.statusCode, response.body).toBe(400);
  });
});

describe('x-reference-filter on customers.assignedTo', () => {
  /** The condition the consultant picker sends (schemas/customers.schema.json). */
  const PICKER =
    'is_active=true&role=CONSULTANT&role=BACKOFFICE&role=BACKOFFICE-CALLCENTER&per_page=500';

  it('the list with the filter offers only active users who can own customers', async () => {
    const rows = await list(`/api/users?${PICKER}`);
    const emails = rows.map((row) => row.email);
    expect(emails).toEqual(
      expect.arrayContaining([
        'consultant@demo.gscrm.ch',
        'backoffice@demo.gscrm.ch',
        'callcenter@demo.gscrm.ch',
      ]),
    );
    for (const email of ['admin@demo.gscrm.ch', 'employee@demo.gscrm.ch', 'partner@demo.gscrm.ch'])
      expect(emails).not.toContain(email);
    for (const row of rows) {
      expect(row.is_active).toBe(true);
      expect(['CONSULTANT', 'BACKOFFICE', 'BACKOFFICE-CALLCENTER']).toContain(row.role);
    }
  });

  it.each([
    ['an EMPLOYEE', 'employee@demo.gscrm.ch'],
    ['a PARTNER', 'partner@demo.gscrm.ch'],
    ['an ADMIN', 'admin@demo.gscrm.ch'],
  ])('refuses %s as consultant with 422 naming the field', async (_who, email) => {
    const response = await send('PATCH', `/api/customers/${customerIds[2]}`, {
      assigned_to: users[email],
    });
    expect(response.statusCode, response.body).toBe(422);
    const body = response.json() as {
      errors: Record<string, string[]>;
      error_keys?: Record<string, { message: string; args?: Record<string, unknown> }[]>;
    };
    expect(Object.keys(body.errors)).toEqual(['assigned_to']);
    expect(body.errors.assigned_to.join(' ')).toContain(String(users[email]));
    expect(body.error_keys?.assigned_to[0]).toEqual({
      message: 'app.errors.unsuitableReference',
      args: { ids: String(users[email]) },
    });
  });

  it('refuses it on create too, and writes nothing', async () => {
    const before = await list(`/api/customers?search=Refused${SUFFIX}`);
    const response = await send('POST', '/api/customers', {
      first_name: 'Rita',
      last_name: `Refused${SUFFIX}`,
      assigned_to: users['employee@demo.gscrm.ch'],
    });
    expect(response.statusCode, response.body).toBe(422);
    expect(Object.keys((response.json() as { errors: Row }).errors)).toEqual(['assigned_to']);
    expect(await list(`/api/customers?search=Refused${SUFFIX}`)).toEqual(before);
  });

  it('accepts a consultant and the back office', async () => {
    for (const email of ['consultant2@demo.gscrm.ch', 'callcenter@demo.gscrm.ch']) {
      const response = await send('PATCH', `/api/customers/${customerIds[3]}`, {
        assigned_to: users[email],
      });
      expect(response.statusCode, response.body).toBe(200);
    }
  });

  it('lets a record keep a consultant chosen before the rule (only a new choice is checked)', async () => {
    const id = customerIds[4];
    await t.database.db
      .updateTable('customers')
      .set({ assigned_to: users['employee@demo.gscrm.ch'] })
      .where('id', '=', id)
      .execute();
    const current = (await send('GET', `/api/customers/${id}`)).json() as { data: Row };
    const { id: _id, created_at: _c, updated_at: _u, ...record } = current.data;
    const response = await send('PUT', `/api/customers/${id}`, { ...record, city: 'Olten' });
    expect(response.statusCode, response.body).toBe(200);
    expect((response.json() as { data: Row }).data.assigned_to).toBe(
      users['employee@demo.gscrm.ch'],
    );
  });
});
