/**
 * The generic CRUD API, tested for every resource model in schemas/ (a new schema is covered
 * without new test code): create, read, list, search, sort, filter, paging, update, delete,
 * validation of bodies, paths and query strings, permissions and atomicity.
 */
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isAllowed, permissionsOf } from '../../server/auth/permissions.ts';
import { visibleCount, visibleIds } from '../../server/access/scope.ts';
import { MAX_PER_PAGE } from '../../server/crud/list.ts';
import { loadResourceModels } from '../../server/schemas.ts';
import {
  type FieldModel,
  type JsonSchema,
  type ResourceModel,
  VERSION_FIELD,
} from '../../src/schema/model.ts';
import { ADMIN, CONSULTANT, createTestApp, type TestApp } from './harness.ts';
import {
  apiReferences,
  createdByClients,
  createSample,
  echoMismatches,
  type ReferenceResolver,
  type Row,
  randomSuffix,
  type Send,
  sampleBody,
  UNKNOWN_ID,
  writableFields,
  wrongTypeValue,
} from './samples.ts';

interface ListAnswer {
  data: Row[];
  meta: {
    current_page: number;
    per_page: number;
    total: number;
    last_page: number;
    total_exact: boolean;
    has_next_page: boolean;
    has_previous_page: boolean;
  };
}
interface ErrorAnswer {
  message: string;
  errors?: Record<string, string[]>;
}

const models = loadResourceModels();
let t: TestApp;
const send: Send = (options) => t.request({ ...options, as: ADMIN });
let references: ReferenceResolver;

beforeAll(async () => {
  t = await createTestApp();
  references = apiReferences(send, models);
});
afterAll(async () => {
  await t?.close();
});

async function list(
  model: ResourceModel,
  query: string | URLSearchParams = '',
): Promise<ListAnswer> {
  const text = String(query);
  const response = await send({
    method: 'GET',
    url: `/api/${model.name}${text ? `?${text}` : ''}`,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as ListAnswer;
}

async function totalOf(model: ResourceModel): Promise<number> {
  return (await list(model, 'per_page=1')).meta.total;
}

/**
 * Fields a resource's own rules require beside the schema's `required` (a person customer needs
 * both names: server/customers/rules.ts), so generic bodies keep them.
 */
const RULE_REQUIRED: Record<string, string[]> = {
  customers: ['first_name', 'last_name'],
  // A closure needs an insurer; the consultant and the client snapshot default from the customer
  // (server/contracts/hooks.ts), so a generic body keeps them to see what it sent.
  contracts: ['company_id', 'consultant_id', 'client'],
  // The address defaults from the customer, the coordinates from the zip, the local date and
  // times from the instants, the status is never empty (server/appointments/).
  appointments: [
    'status',
    'date',
    'start_time',
    'end_time',
    'street',
    'number',
    'zip',
    'city',
    'latitude',
    'longitude',
  ],
  // The user defaults to the writer and the day to today; the status is never empty
  // (server/reminders/hooks.ts).
  reminders: ['status', 'user_id', 'date'],
  // A lead needs a person, a closed one its reason (samples are closed); a blacklist entry
  // something to match people by (server/leads/).
  leads: ['last_name', 'close_status'],
  'blacklist-entries': ['email'],
  // The consultant defaults from the customer, the status is never empty (server/offers/hooks.ts).
  offers: ['consultant_id', 'status'],
};
const ruleRequired = (model: { name: string }): string[] => RULE_REQUIRED[model.name] ?? [];

/**
 * Read-only fields the server computes from others (server/contracts/figures.ts): a PATCH of one
 * field may change them.
 */
const SERVER_COMPUTED: Record<string, string[]> = {
  contracts: [
    'product_group',
    'annual_premium',
    'production_sum',
    'total_commission',
    'commissions',
    'protocol_missing',
  ],
  // The two time pairs follow each other; canton and coordinates follow the zip.
  // A change of column puts the card on top of it, closes or reopens it (server/leads/hooks.ts).
  leads: ['position', 'closed_at'],
  // A change of a single payment is a reversal and a new ledger line (server/commissions/lines.ts).
  'assigned-single-payments': ['line_id'],
  // The annual premium follows the premium and the payment cycle (server/offers/hooks.ts).
  offers: ['annual_premium'],
  // The day, the own cover and the results are computed on every write (server/global-check/).
  'global-checks': ['check_date', 'own_cover', 'results'],
  appointments: [
    'date_start',
    'date_end',
    'date',
    'start_time',
    'end_time',
    'canton',
    'latitude',
    'longitude',
  ],
};

/**
 * Read-only filterable fields that only another feature's route sets, so a sample record holds
 * none: the filter test writes one into the sample's row in the database (an existing record of
 * the field's reference) and takes it out again afterwards. documents.originalDocumentId: the
 * signed version of an online signature names its original (server/signatures/).
 */
const SET_ELSEWHERE: Record<string, string[]> = {
  documents: ['original_document_id'],
};

/** Pages of a list beyond one (the demo data holds more than MAX_PER_PAGE of some resources). */
const MAX_PAGES = 6;

/** Every row of a list, page by page (at most MAX_PAGES pages of MAX_PER_PAGE). */
async function listAll(
  model: ResourceModel,
  query: string | URLSearchParams = '',
): Promise<ListAnswer> {
  const params = new URLSearchParams(query);
  params.set('per_page', String(MAX_PER_PAGE));
  const first = await list(model, params);
  const data = [...first.data];
  expect(first.meta.total_exact, 'an exact total').toBe(true);
  expect(first.meta.last_page, 'few enough pages to read them all').toBeLessThanOrEqual(MAX_PAGES);
  for (let page = 2; page <= first.meta.last_page; page++) {
    params.set('page', String(page));
    data.push(...(await list(model, params)).data);
  }
  expect(data).toHaveLength(first.meta.total);
  return { ...first, data };
}

function expectError(
  response: LightMyRequestResponse,
  status: number,
  field?: string,
): ErrorAnswer {
  expect(response.statusCode, response.body).toBe(status);
  const answer = response.json() as ErrorAnswer;
  expect(answer.message).toEqual(expect.any(String));
  if (field !== undefined) expect(Object.keys(answer.errors ?? {}), response.body).toContain(field);
  return answer;
}

const ids = (rows: Row[]): number[] => rows.map((row) => Number(row.id));

/** String fields with a maxLength, top level and inside objects: [wire path, schema, parent column]. */
function boundedStrings(
  model: ResourceModel,
): Array<{ path: string; schema: JsonSchema; field: FieldModel }> {
  const out: Array<{ path: string; schema: JsonSchema; field: FieldModel }> = [];
  for (const field of writableFields(model)) {
    if (
      field.schema.type === 'string' &&
      field.schema.maxLength !== undefined &&
      !field.schema.enum
    ) {
      out.push({ path: field.column, schema: field.schema, field });
    }
    if (field.schema.type === 'object') {
      for (const [key, child] of Object.entries(field.schema.properties ?? {})) {
        if (child.type === 'string' && child.maxLength !== undefined && !child.enum) {
          out.push({ path: `${field.column}.${key}`, schema: child, field });
        }
      }
    }
  }
  return out;
}

/** Body with the value at a dotted wire path replaced. */
function withValue(body: Row, path: string, value: unknown): Row {
  const [head, ...rest] = path.split('.');
  if (rest.length === 0) return { ...body, [head]: value };
  return { ...body, [head]: withValue((body[head] ?? {}) as Row, rest.join('.'), value) };
}

/** Does a stored value pass the list filter `value` of this field? */
function matchesFilter(field: FieldModel, stored: unknown, value: unknown): boolean {
  if (field.kind === 'references' || field.kind === 'enumArray') {
    return Array.isArray(stored) && stored.includes(value);
  }
  if (field.kind === 'string') {
    return typeof stored === 'string' && stored.toLowerCase().includes(String(value).toLowerCase());
  }
  return stored === value;
}

const requiredWithoutDefault = (model: ResourceModel): FieldModel[] =>
  writableFields(model).filter((field) => field.required && field.schema.default === undefined);

const consultant = { id: 0, role: 'CONSULTANT', permissions: permissionsOf('CONSULTANT') };

/** The principal of a demo account, as the server builds it. */
async function principalOf(email: string) {
  const row = await t.database.db
    .selectFrom('users')
    .select(['id', 'role'])
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  return { id: Number(row.id), role: String(row.role), permissions: permissionsOf(row.role) };
}

// Resources no client creates (feedbacks) are covered by their feature's tests (samples.ts).
const creatable = models.filter(createdByClients);

describe.each(creatable.map((model) => [model.name, model] as const))('/api/%s', (_name, model) => {
  const base = `/api/${model.name}`;
  const suffix = randomSuffix();
  let body: Row;
  let created: Row;
  let url: string;

  // Tests change the record; each starts from what is stored (body: its writable fields).
  beforeEach(async () => {
    if (!created) return;
    const response = await send({ method: 'GET', url });
    if (response.statusCode !== 200) return;
    created = (response.json() as { data: Row }).data;
    body = Object.fromEntries(
      writableFields(model).map((field) => [field.column, created[field.column]]),
    );
  });

  it('POST creates a record (201) that echoes every field', async () => {
    body = await sampleBody(model, { suffix, reference: references });
    const before = await totalOf(model);
    const response = await send({ method: 'POST', url: base, payload: body });
    expect(response.statusCode, response.body).toBe(201);
    created = (response.json() as { data: Row }).data;
    url = `${base}/${created.id}`;
    expect(created.id).toEqual(expect.any(Number));
    expect(echoMismatches(model, body, created)).toEqual([]);
    // Every field, and the record's version (a base property that is no field: src/schema/model.ts).
    expect(Object.keys(created).sort()).toEqual(
      [...model.fields.map((field) => field.column), VERSION_FIELD].sort(),
    );
    expect(Number.isNaN(Date.parse(String(created.created_at)))).toBe(false);
    expect(Number.isNaN(Date.parse(String(created.updated_at)))).toBe(false);
    expect(await totalOf(model)).toBe(before + 1);
  });

  it('POST fills defaults of fields left out', async () => {
    const defaults = writableFields(model).filter((field) => field.schema.default !== undefined);
    const minimal: Row = {};
    for (const field of requiredWithoutDefault(model)) minimal[field.column] = body[field.column];
    for (const column of ruleRequired(model)) minimal[column] = body[column];
    for (const field of writableFields(model).filter((f) => f.schema['x-unique'])) {
      minimal[field.column] = (await sampleBody(model, { reference: references }))[field.column];
    }
    const response = await send({ method: 'POST', url: base, payload: minimal });
    expect(response.statusCode, response.body).toBe(201);
    const data = (response.json() as { data: Row }).data;
    for (const field of defaults) {
      if (field.column in minimal) continue;
      expect(data[field.column], field.column).toEqual(field.schema.default);
    }
    const optional = writableFields(model).filter(
      (field) => !(field.column in minimal) && field.schema.default === undefined,
    );
    for (const field of optional) expect(data[field.column], field.column).toBeNull();
    expect((await send({ method: 'DELETE', url: `${base}/${data.id}` })).statusCode).toBe(200);
  });

  it('GET /:id answers the record', async () => {
    const response = await send({ method: 'GET', url });
    expect(response.statusCode, response.body).toBe(200);
    expect((response.json() as { data: Row }).data).toEqual(created);
  });

  it('GET list answers data and meta; total counts the records in the admin’s scope', async () => {
    const answer = await list(model);
    // The table, less what the resource's scope keeps from admins (users: external accounts' rows).
    const count = await visibleCount(t.app, model, await principalOf(ADMIN));
    expect(answer.meta.total).toBe(count);
    expect(answer.data.length).toBe(Math.min(count, 25));
    expect(answer.meta).toEqual({
      current_page: 1,
      per_page: 25,
      total: count,
      last_page: Math.max(1, Math.ceil(count / 25)),
      total_exact: true,
      has_next_page: count > 25,
      has_previous_page: false,
    });
    const byId = await list(model, `id=${created.id}`);
    expect(byId.data).toEqual([created]);
  });

  it('GET list with several id parameters answers exactly those records', async () => {
    const other = Number((await createSample(send, model, { reference: references })).id);
    const answer = await list(model, `id=${created.id}&id=${other}&id=${UNKNOWN_ID}&per_page=10`);
    expect(ids(answer.data).sort((a, b) => a - b)).toEqual(
      [other, Number(created.id)].sort((a, b) => a - b),
    );
    expect((await send({ method: 'DELETE', url: `${base}/${other}` })).statusCode).toBe(200);
  });

  it('takes back a record as it was read (GET then PUT answers 200, nothing changes)', async () => {
    const read = (await send({ method: 'GET', url })).json() as { data: Row };
    const listed = await list(model, `id=${created.id}`);
    expect(listed.data).toEqual([read.data]);
    let version = Number(read.data[VERSION_FIELD]);
    for (const payload of [read.data, body]) {
      const response = await send({ method: 'PUT', url, payload });
      expect(response.statusCode, response.body).toBe(200);
      // Every write counts a version (optimistic concurrency); nothing else changes.
      const { updated_at: _before, [VERSION_FIELD]: _read, ...unchanged } = read.data;
      const {
        updated_at: _after,
        [VERSION_FIELD]: written,
        ...stored
      } = (response.json() as { data: Row }).data;
      expect(stored).toEqual(unchanged);
      expect(written).toBe(++version);
    }
  });

  const searchFields = model.resource.search ?? [];
  if (searchFields.length > 0) {
    const columns = searchFields.map(
      (name) => model.fields.find((field) => field.name === name)?.column ?? name,
    );
    const hit = (row: Row, word: string) =>
      columns.some((column) =>
        String(row[column] ?? '')
          .toLowerCase()
          .includes(word.toLowerCase()),
      );

    it('search finds the record by a word of its searchable fields, case-insensitively', async () => {
      expect(columns.some((column) => String(created[column] ?? '').includes(suffix))).toBe(true);
      const answer = await list(model, `search=${suffix.toUpperCase()}&per_page=${MAX_PER_PAGE}`);
      expect(ids(answer.data)).toContain(Number(created.id));
      for (const row of answer.data) expect(hit(row, suffix), JSON.stringify(row)).toBe(true);
    });

    it('search needs every word to match, and finds nothing for an unknown word', async () => {
      const twoWords = new URLSearchParams({ search: `${suffix} zz${randomSuffix()}` });
      expect((await list(model, twoWords)).meta.total).toBe(0);
      expect((await list(model, `search=zz${randomSuffix()}`)).meta.total).toBe(0);
    });

    it('search treats % and _ as text, not as wildcards', async () => {
      for (const word of ['%', '_', '\\']) {
        const answer = await list(
          model,
          new URLSearchParams({ search: word, per_page: String(MAX_PER_PAGE) }),
        );
        for (const row of answer.data)
          expect(hit(row, word), `${word}: ${JSON.stringify(row)}`).toBe(true);
      }
    });
  }

  const sortable = model.fields.filter((field) => field.sortable);
  it.each(sortable.map((field) => [field.column, field] as const))(
    'sorts by %s in both orders (desc is the reverse of asc)',
    async (column, field) => {
      const asc = await listAll(model, `sort=${column}&order=asc`);
      const desc = await listAll(model, `sort=${column}&order=DESC`);
      expect(ids(desc.data)).toEqual(ids(asc.data).reverse());
      // A reference sorts by the label of the record it names (tests/api/pickers.test.ts).
      if (['integer', 'number', 'boolean', 'date', 'datetime'].includes(field.kind)) {
        const values = asc.data.map((row) => row[column]).filter((value) => value !== null);
        const keys = values.map((value) =>
          field.kind === 'datetime' ? Date.parse(String(value)) : value,
        );
        const sorted = [...keys].sort((a, b) =>
          a === b ? 0 : (a as number) < (b as number) ? -1 : 1,
        );
        expect(keys).toEqual(sorted);
      }
    },
  );

  it('uses the default sort of x-resource when no sort is given', async () => {
    const answer = await list(model, `per_page=${MAX_PER_PAGE}`);
    const defaultSort = model.resource.defaultSort;
    const column = model.fields.find((field) => field.name === defaultSort?.field)?.column ?? 'id';
    const order = (defaultSort?.order ?? 'ASC').toLowerCase();
    const explicit = await list(model, `sort=${column}&order=${order}&per_page=${MAX_PER_PAGE}`);
    expect(ids(answer.data)).toEqual(ids(explicit.data));
  });

  it('refuses a sort by an unknown column or a bad order with 400', async () => {
    expectError(await send({ method: 'GET', url: `${base}?sort=no_such_column` }), 400, 'sort');
    const injection = encodeURIComponent('id; drop table users');
    expectError(await send({ method: 'GET', url: `${base}?sort=${injection}` }), 400, 'sort');
    expectError(await send({ method: 'GET', url: `${base}?sort=id&order=sideways` }), 400, 'order');
  });

  for (const field of model.fields.filter((f) => f.filter)) {
    it(`filters by ${field.column}`, async () => {
      const elsewhere = (SET_ELSEWHERE[model.name] ?? []).includes(field.column);
      if (elsewhere) {
        expect(created[field.column], 'no client sets it').toBeNull();
        const value = await references(field.reference!, field.referenceFilter);
        await sql`update ${sql.table(model.table)} set ${sql.ref(field.column)} = ${value}
          where id = ${Number(created.id)}`.execute(t.database.db);
        const read = await send({ method: 'GET', url });
        expect(read.statusCode, read.body).toBe(200);
        created = (read.json() as { data: Row }).data;
      }
      const stored = created[field.column];
      const value = Array.isArray(stored) ? stored[0] : stored;
      expect(value, 'the sample record has a value to filter by').not.toBeNull();
      const answer = await listAll(model, new URLSearchParams({ [field.column]: String(value) }));
      expect(ids(answer.data)).toContain(Number(created.id));
      for (const row of answer.data) {
        expect(matchesFilter(field, row[field.column], value), JSON.stringify(row)).toBe(true);
      }
      if (field.kind === 'boolean') {
        const other = await listAll(model, `${field.column}=${String(!value)}`);
        expect(ids(other.data)).not.toContain(Number(created.id));
        for (const row of other.data) expect(row[field.column]).toBe(!value);
      }
      if (['date', 'datetime', 'integer', 'number'].includes(field.kind)) {
        const within = await listAll(
          model,
          new URLSearchParams({
            [`${field.column}_gte`]: String(value),
            [`${field.column}_lte`]: String(value),
          }),
        );
        expect(ids(within.data)).toContain(Number(created.id));
      }
      if (field.kind !== 'string') {
        const bad = await send({
          method: 'GET',
          url: `${base}?${field.column}=${encodeURIComponent('[bad value]')}`,
        });
        const answer = expectError(bad, 400);
        expect(
          Object.keys(answer.errors ?? {}).some((key) => key.split('.')[0] === field.column),
        ).toBe(true);
      }
      if (elsewhere)
        await sql`update ${sql.table(model.table)} set ${sql.ref(field.column)} = null
          where id = ${Number(created.id)}`.execute(t.database.db);
    });
  }

  it('pages with current_page, per_page, total and last_page', async () => {
    while ((await totalOf(model)) < 5) await createSample(send, model, { reference: references });
    const total = await totalOf(model);
    const lastPage = Math.ceil(total / 2);
    const first = await list(model, 'per_page=2&page=1&sort=id');
    const second = await list(model, 'per_page=2&page=2&sort=id');
    const last = await list(model, `per_page=2&page=${lastPage}&sort=id`);
    const beyond = await list(model, `per_page=2&page=${lastPage + 1}&sort=id`);
    const paging = { per_page: 2, total, last_page: lastPage, total_exact: true };
    expect(first.meta).toEqual({
      ...paging,
      current_page: 1,
      has_next_page: true,
      has_previous_page: false,
    });
    expect(second.meta).toEqual({
      ...paging,
      current_page: 2,
      has_next_page: lastPage > 2,
      has_previous_page: true,
    });
    expect(last.meta).toMatchObject({ total, has_next_page: false, has_previous_page: true });
    expect(beyond.meta).toMatchObject({ total, total_exact: true, has_next_page: false });
    expect(first.data).toHaveLength(2);
    expect(second.data).toHaveLength(2);
    expect(last.data).toHaveLength(total - 2 * (lastPage - 1));
    expect(beyond.data).toEqual([]);
    expect(ids(first.data).some((id) => ids(second.data).includes(id))).toBe(false);
    const all = await list(model, `per_page=${MAX_PER_PAGE}&sort=id`);
    expect([...ids(first.data), ...ids(second.data)]).toEqual(ids(all.data).slice(0, 4));
  });

  it('refuses bad paging parameters with 400', async () => {
    expectError(
      await send({ method: 'GET', url: `${base}?per_page=${MAX_PER_PAGE + 1}` }),
      400,
      'per_page',
    );
    expectError(await send({ method: 'GET', url: `${base}?per_page=0` }), 400, 'per_page');
    expectError(await send({ method: 'GET', url: `${base}?page=0` }), 400, 'page');
    expectError(await send({ method: 'GET', url: `${base}?page=two` }), 400, 'page');
  });

  it('refuses an unknown query parameter with 400 naming it', async () => {
    expectError(await send({ method: 'GET', url: `${base}?bogus_param=1` }), 400, 'bogus_param');
  });

  it('PUT replaces every field (200) and keeps id and created_at', async () => {
    const replacement = await sampleBody(model, { variant: 1, reference: references });
    const response = await send({ method: 'PUT', url, payload: replacement });
    expect(response.statusCode, response.body).toBe(200);
    const updated = (response.json() as { data: Row }).data;
    expect(echoMismatches(model, replacement, updated)).toEqual([]);
    expect(updated.id).toBe(created.id);
    expect(updated.created_at).toBe(created.created_at);
    expect(Date.parse(String(updated.updated_at))).toBeGreaterThan(
      Date.parse(String(created.updated_at)),
    );
    const reread = await send({ method: 'GET', url });
    expect((reread.json() as { data: Row }).data).toEqual(updated);
  });

  it('PUT refuses a record without its required fields (422 naming them)', async () => {
    const required = requiredWithoutDefault(model);
    for (const field of required) {
      const { [field.column]: _left, ...rest } = body;
      expectError(await send({ method: 'PUT', url, payload: rest }), 422, field.column);
    }
    expectError(await send({ method: 'PUT', url: `${base}/${UNKNOWN_ID}`, payload: body }), 404);
  });

  it('PATCH changes only the fields sent', async () => {
    const next = await sampleBody(model, { variant: 2, reference: references });
    for (const field of writableFields(model)) {
      const before = (await send({ method: 'GET', url })).json() as { data: Row };
      const response = await send({
        method: 'PATCH',
        url,
        payload: { [field.column]: next[field.column] },
      });
      expect(response.statusCode, response.body).toBe(200);
      const after = (response.json() as { data: Row }).data;
      expect(echoMismatches(model, { [field.column]: next[field.column] }, after)).toEqual([]);
      const { [field.column]: _a, updated_at: _b, [VERSION_FIELD]: _e, ...unchangedAfter } = after;
      const {
        [field.column]: _c,
        updated_at: _d,
        [VERSION_FIELD]: _f,
        ...unchangedBefore
      } = before.data;
      for (const computed of SERVER_COMPUTED[model.name] ?? []) {
        delete unchangedAfter[computed];
        delete unchangedBefore[computed];
      }
      expect(unchangedAfter, field.column).toEqual(unchangedBefore);
    }
  });

  // Issue 10: a PATCH names only what it changes, so naming a read-only field is refused (it was
  // silently dropped before); a PUT (the complete record react-admin sends back) ignores them.
  it('PATCH refuses read-only fields (422 naming each), PUT ignores them; null clears optional fields', async () => {
    const readOnly = {
      id: UNKNOWN_ID,
      created_at: '2000-01-01T00:00:00.000Z',
      updated_at: '2000-01-01T00:00:00.000Z',
    };
    const before = (await send({ method: 'GET', url })).json() as { data: Row };
    const refused = expectError(await send({ method: 'PATCH', url, payload: readOnly }), 422);
    expect(Object.keys(refused.errors ?? {}).sort()).toEqual(Object.keys(readOnly).sort());
    expect(((await send({ method: 'GET', url })).json() as { data: Row }).data).toEqual(
      before.data,
    );
    const response = await send({ method: 'PUT', url, payload: { ...body, ...readOnly } });
    expect(response.statusCode, response.body).toBe(200);
    const after = (response.json() as { data: Row }).data;
    expect(after.id).toBe(created.id);
    expect(after.created_at).toBe(created.created_at);
    expect(Date.parse(String(after.updated_at))).toBeGreaterThan(Date.parse('2001-01-01'));
    expect((await send({ method: 'GET', url: `${base}/${UNKNOWN_ID}` })).statusCode).toBe(404);
    const optional = writableFields(model).filter(
      (field) =>
        !field.required &&
        !ruleRequired(model).includes(field.column) &&
        !['object', 'array', 'references', 'enumArray'].includes(field.kind),
    );
    for (const field of optional) {
      const cleared = await send({ method: 'PATCH', url, payload: { [field.column]: null } });
      expect(cleared.statusCode, cleared.body).toBe(200);
      expect((cleared.json() as { data: Row }).data[field.column], field.column).toBeNull();
    }
  });

  it('PATCH refuses null for a required field and an unknown id', async () => {
    for (const field of writableFields(model).filter((f) => f.required)) {
      expectError(
        await send({ method: 'PATCH', url, payload: { [field.column]: null } }),
        422,
        field.column,
      );
    }
    expectError(await send({ method: 'PATCH', url: `${base}/${UNKNOWN_ID}`, payload: {} }), 404);
  });

  it('refuses an unknown field (422 naming it)', async () => {
    expectError(
      await send({ method: 'POST', url: base, payload: { ...body, bogus_field: 1 } }),
      422,
      'bogus_field',
    );
    expectError(
      await send({ method: 'PATCH', url, payload: { bogus_field: 1 } }),
      422,
      'bogus_field',
    );
    expectError(
      await send({ method: 'PUT', url, payload: { ...body, nameDe: 'camelCase is not the wire' } }),
      422,
      'nameDe',
    );
    for (const field of writableFields(model).filter((f) => f.schema.type === 'object')) {
      const nested = { ...(body[field.column] as Row), bogus_nested: true };
      expectError(
        await send({ method: 'PATCH', url, payload: { [field.column]: nested } }),
        422,
        `${field.column}.bogus_nested`,
      );
    }
  });

  it('refuses a value of the wrong type for every field (422 naming it)', async () => {
    for (const field of writableFields(model)) {
      const payload = { ...body, [field.column]: wrongTypeValue(field) };
      expectError(await send({ method: 'POST', url: base, payload }), 422, field.column);
      expectError(
        await send({ method: 'PATCH', url, payload: { [field.column]: wrongTypeValue(field) } }),
        422,
        field.column,
      );
    }
  });

  it('refuses a create without its required fields (422 naming each)', async () => {
    const required = requiredWithoutDefault(model);
    for (const field of required) {
      const { [field.column]: _left, ...rest } = body;
      expectError(await send({ method: 'POST', url: base, payload: rest }), 422, field.column);
    }
    if (required.length > 0) {
      const answer = expectError(await send({ method: 'POST', url: base, payload: {} }), 422);
      expect(Object.keys(answer.errors ?? {}).sort()).toEqual(
        required.map((field) => field.column).sort(),
      );
    }
  });

  it('refuses a string over its maxLength (422 naming it)', async () => {
    for (const { path, schema } of boundedStrings(model)) {
      const long = 'x'.repeat((schema.maxLength ?? 0) + 1);
      expectError(
        await send({ method: 'POST', url: base, payload: withValue(body, path, long) }),
        422,
        path,
      );
      const patch = withValue({ [path.split('.')[0]]: body[path.split('.')[0]] }, path, long);
      expectError(await send({ method: 'PATCH', url, payload: patch }), 422, path);
    }
  });

  it('refuses a value outside its enum, format or pattern (422 naming it)', async () => {
    for (const field of writableFields(model)) {
      const schema = field.kind === 'enumArray' ? (field.schema.items ?? {}) : field.schema;
      let bad: unknown;
      if (schema.enum) bad = 'not_an_enum_value';
      else if (schema.format) bad = 'not a valid @ value';
      else if (schema.pattern) bad = 'NOT valid ✗ !';
      else if (schema.minimum !== undefined) bad = schema.minimum - 1;
      else continue;
      const value = field.kind === 'enumArray' ? [bad] : bad;
      const answer = expectError(
        await send({ method: 'POST', url: base, payload: { ...body, [field.column]: value } }),
        422,
      );
      expect(
        Object.keys(answer.errors ?? {}).some((key) => key.split('.')[0] === field.column),
        field.column,
      ).toBe(true);
    }
  });

  const referenceFields = writableFields(model).filter((field) => field.reference);
  if (referenceFields.length > 0) {
    it('refuses an unknown reference id (422 naming the field)', async () => {
      for (const field of referenceFields) {
        const value = field.kind === 'references' ? [UNKNOWN_ID] : UNKNOWN_ID;
        const answer = expectError(
          await send({ method: 'POST', url: base, payload: { ...body, [field.column]: value } }),
          422,
          field.column,
        );
        expect(answer.errors?.[field.column]?.join(' ')).toContain(String(UNKNOWN_ID));
        expectError(
          await send({ method: 'PATCH', url, payload: { [field.column]: value } }),
          422,
          field.column,
        );
      }
    });
  }

  const uniqueFields = writableFields(model).filter((field) => field.schema['x-unique']);
  if (uniqueFields.length > 0) {
    it('refuses a duplicate of an x-unique field (422 naming it), on create and update', async () => {
      const other = await createSample(send, model, { reference: references });
      for (const field of uniqueFields) {
        const duplicate = {
          ...(await sampleBody(model, { reference: references })),
          [field.column]: body[field.column],
        };
        expectError(
          await send({ method: 'POST', url: base, payload: duplicate }),
          422,
          field.column,
        );
        const patch = { [field.column]: body[field.column] };
        expectError(
          await send({ method: 'PATCH', url: `${base}/${other.id}`, payload: patch }),
          422,
          field.column,
        );
      }
      expect((await send({ method: 'DELETE', url: `${base}/${other.id}` })).statusCode).toBe(200);
    });
  }

  it('writes nothing when a create fails', async () => {
    const before = await totalOf(model);
    const [count] = (
      await sql<{
        count: number;
      }>`select count(*)::int as count from ${sql.table(model.table)}`.execute(t.database.db)
    ).rows;
    const failures: Row[] = [{ ...body, bogus_field: true }];
    if (requiredWithoutDefault(model).length > 0) failures.push({});
    for (const field of referenceFields) {
      failures.push({
        ...body,
        [field.column]: field.kind === 'references' ? [UNKNOWN_ID] : UNKNOWN_ID,
      });
    }
    // Passes validation and fails in the database (unique index): must not leave a row behind.
    for (const field of uniqueFields) {
      failures.push({
        ...(await sampleBody(model, { reference: references })),
        [field.column]: body[field.column],
      });
    }
    for (const payload of failures) {
      const response = await send({ method: 'POST', url: base, payload });
      expect(response.statusCode, JSON.stringify(payload)).toBeGreaterThanOrEqual(400);
      expect(response.statusCode).toBeLessThan(500);
    }
    expect(await totalOf(model)).toBe(before);
    const [countAfter] = (
      await sql<{
        count: number;
      }>`select count(*)::int as count from ${sql.table(model.table)}`.execute(t.database.db)
    ).rows;
    expect(countAfter.count).toBe(count.count);
  });

  it('refuses a bad id in the path with 400', async () => {
    for (const id of ['abc', '0', '-1', '1.5', '99999999999']) {
      expectError(await send({ method: 'GET', url: `${base}/${id}` }), 400, 'id');
      expectError(await send({ method: 'PATCH', url: `${base}/${id}`, payload: {} }), 400, 'id');
      expectError(await send({ method: 'PUT', url: `${base}/${id}`, payload: body }), 400, 'id');
      expectError(await send({ method: 'DELETE', url: `${base}/${id}` }), 400, 'id');
    }
  });

  it('follows x-permissions for a consultant', async () => {
    const rules = model.permissions;
    const status = (rule: typeof rules.read, ok: number) =>
      isAllowed(rule, consultant) ? ok : 403;
    const as = CONSULTANT;
    // A record outside the consultant's scope (server/access) answers 404, as an unknown id does.
    const me = await principalOf(CONSULTANT);
    const seen = async (id: unknown, rule: typeof rules.read, ok: number) =>
      (await visibleIds(t.app, model, me, [Number(id)])).length > 0
        ? status(rule, ok)
        : status(rule, 404);
    expect((await t.request({ method: 'GET', url: base, as })).statusCode).toBe(
      status(rules.read, 200),
    );
    expect((await t.request({ method: 'GET', url, as })).statusCode).toBe(
      await seen(created.id, rules.read, 200),
    );
    const before = await totalOf(model);
    // Without the ownership markers only the back office sets (a consultant setting one is refused:
    // tests/api/hardening.test.ts); the consultant's own marker is forced anyway.
    const sample = await sampleBody(model, { reference: references });
    for (const field of model.fields) if (field.schema['x-sub-broker']) delete sample[field.column];
    // An optional reference to a record the consultant cannot see is left out (a consultant's
    // appointment from a lead of someone else's is refused: tests/api/leads.test.ts).
    for (const field of model.fields) {
      const target = t.app.models.find((other) => other.name === field.reference);
      const id = sample[field.column];
      if (field.kind !== 'reference' || field.required || !target || typeof id !== 'number')
        continue;
      if ((await visibleIds(t.app, target, me, [id])).length === 0) delete sample[field.column];
    }
    const posted = await t.request({ method: 'POST', url: base, payload: sample, as });
    expect(posted.statusCode, posted.body).toBe(status(rules.create, 201));
    const expectedTotal = before + (posted.statusCode === 201 ? 1 : 0);
    expect(await totalOf(model)).toBe(expectedTotal);
    const patched = await t.request({ method: 'PATCH', url, payload: {}, as });
    expect(patched.statusCode).toBe(await seen(created.id, rules.update, 200));
    const victim =
      posted.statusCode === 201
        ? (posted.json() as { data: Row }).data
        : await createSample(send, model, { reference: references });
    const expectedDelete = await seen(victim.id, rules.delete, 200);
    const deleted = await t.request({ method: 'DELETE', url: `${base}/${victim.id}`, as });
    expect(deleted.statusCode).toBe(expectedDelete);
    if (deleted.statusCode !== 200)
      expect((await send({ method: 'DELETE', url: `${base}/${victim.id}` })).statusCode).toBe(200);
  });

  it('answers 401 to every route without a token', async () => {
    for (const [method, target] of [
      ['GET', base],
      ['GET', url],
      ['POST', base],
      ['PUT', url],
      ['PATCH', url],
      ['DELETE', url],
    ] as const) {
      const response = await t.app.inject({
        method,
        url: target,
        payload: method === 'GET' || method === 'DELETE' ? undefined : body,
      });
      expect(response.statusCode, `${method} ${target}`).toBe(401);
    }
    expect((await send({ method: 'GET', url })).statusCode).toBe(200);
  });

  it('DELETE answers the record, then the record is gone (404)', async () => {
    const before = await totalOf(model);
    const response = await send({ method: 'DELETE', url });
    expect(response.statusCode, response.body).toBe(200);
    expect((response.json() as { data: Row }).data).toEqual(created);
    expectError(await send({ method: 'GET', url }), 404);
    expectError(await send({ method: 'DELETE', url }), 404);
    expectError(await send({ method: 'PATCH', url, payload: {} }), 404);
    expect(await totalOf(model)).toBe(before - 1);
  });
});
