/**
 * Optimistic concurrency (issue 10, DESIGN.md §7), on both engines. Contract: every record carries
 * an integer `version` (1 on create, +1 on every write); GET /:id answers `ETag: "<version>"`;
 * PUT and PATCH take the version they are based on as `version` in the body or as
 * `If-Match: "<version>"`; a mismatch answers 409 `{ message, current }` (current = the record as
 * GET /:id's data) and writes nothing; a write without any version still works (last write wins).
 * Rules across fields run on the locked row, so two concurrent PATCHes cannot together store a
 * record that breaks one; a PATCH of a read-only or unknown field is a 422 naming it.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResourceModel } from '../../src/schema/model.ts';
import { ADMIN, CONSULTANT, createTestApp, ENGINE, type TestApp } from './harness.ts';
import {
  apiReferences,
  createdByClients,
  createSample,
  type ReferenceResolver,
  type Row,
  sampleBody,
  type Send,
} from './samples.ts';

let t: TestApp;
let models: ResourceModel[];
let references: ReferenceResolver;
const send: Send = (options) => t.request({ ...options, as: ADMIN });
const data = (response: LightMyRequestResponse) => (response.json() as { data: Row }).data;

beforeAll(async () => {
  t = await createTestApp();
  models = t.app.models;
  references = apiReferences(send, models);
});
afterAll(async () => {
  await t?.close();
});

const modelOf = (name: string): ResourceModel => {
  const model = models.find((candidate) => candidate.name === name);
  if (!model) throw new Error(`no model ${name}`);
  return model;
};

async function newCustomer(values: Row = {}): Promise<Row> {
  const response = await send({
    method: 'POST',
    url: '/api/customers',
    payload: {
      first_name: 'Race',
      last_name: `Probe ${Math.random().toString(36).slice(2)}`,
      ...values,
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  return data(response);
}

async function read(url: string): Promise<{ record: Row; etag: string | undefined }> {
  const response = await send({ method: 'GET', url });
  expect(response.statusCode, response.body).toBe(200);
  return { record: data(response), etag: response.headers.etag as string | undefined };
}

describe('versions', () => {
  it('every resource: version 1 on create, +1 on every write, ETag "<version>" on GET', async () => {
    const problems: string[] = [];
    for (const model of models.filter(createdByClients)) {
      const created = await createSample(send, model, { reference: references });
      const url = `/api/${model.name}/${created.id}`;
      if (created.version !== 1)
        problems.push(`${model.name}: created with version ${String(created.version)}`);
      const body = await sampleBody(model, { variant: 1, reference: references });
      const put = await send({ method: 'PUT', url, payload: body });
      if (put.statusCode !== 200) {
        problems.push(`${model.name}: PUT answered ${put.statusCode} ${put.body.slice(0, 200)}`);
        continue;
      }
      if (data(put).version !== 2)
        problems.push(`${model.name}: PUT gave version ${String(data(put).version)}`);
      const { record, etag } = await read(url);
      if (record.version !== 2)
        problems.push(`${model.name}: GET shows version ${String(record.version)}`);
      if (etag !== '"2"') problems.push(`${model.name}: ETag ${String(etag)} (expected "2")`);
    }
    expect(problems).toEqual([]);
  });

  it('a write based on an old version answers 409 with the current record and writes nothing', async () => {
    const customer = await newCustomer({ notes: 'first' });
    const url = `/api/customers/${customer.id}`;
    const first = await send({ method: 'PATCH', url, payload: { notes: 'second', version: 1 } });
    expect(first.statusCode, first.body).toBe(200);
    expect(data(first).version).toBe(2);
    const current = (await read(url)).record;

    for (const [payload, headers] of [
      [{ notes: 'stale body', version: 1 }, {}],
      [{ notes: 'stale header' }, { 'if-match': '"1"' }],
    ] as const) {
      const stale = await send({ method: 'PATCH', url, payload, headers });
      expect(stale.statusCode, stale.body).toBe(409);
      const answer = stale.json() as { message?: string; current?: Row };
      expect(typeof answer.message).toBe('string');
      expect(answer.current).toEqual(current);
    }
    const stalePut = await send({
      method: 'PUT',
      url,
      payload: { ...customer, notes: 'stale put', version: 1 },
    });
    expect(stalePut.statusCode, stalePut.body).toBe(409);
    expect((await read(url)).record).toEqual(current);
  });

  it('a write without any version still works (last write wins), and If-Match of the ETag passes', async () => {
    const customer = await newCustomer();
    const url = `/api/customers/${customer.id}`;
    const plain = await send({ method: 'PATCH', url, payload: { notes: 'no version' } });
    expect(plain.statusCode, plain.body).toBe(200);
    const { etag } = await read(url);
    expect(etag).toMatch(/^"\d+"$/);
    const matched = await send({
      method: 'PATCH',
      url,
      payload: { notes: 'with if-match' },
      headers: { 'if-match': String(etag) },
    });
    expect(matched.statusCode, matched.body).toBe(200);
    expect(data(matched).notes).toBe('with if-match');
  });
});

describe('versions on other writes', () => {
  it('a create starts at 1 whatever it sends; DELETE with a stale If-Match answers 409 and deletes nothing', async () => {
    const created = await send({
      method: 'POST',
      url: '/api/companies',
      payload: {
        ...(await sampleBody(modelOf('companies'), { reference: references })),
        version: 7,
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(data(created).version).toBe(1);
    expect(created.headers.etag).toBe('"1"');
    const url = `/api/companies/${data(created).id}`;
    const changed = await send({ method: 'PATCH', url, payload: { name_en: 'Changed' } });
    expect(changed.headers.etag).toBe('"2"');

    const stale = await send({ method: 'DELETE', url, headers: { 'if-match': '"1"' } });
    expect(stale.statusCode, stale.body).toBe(409);
    expect((stale.json() as { current?: Row }).current).toEqual((await read(url)).record);
    const deleted = await send({ method: 'DELETE', url, headers: { 'if-match': '"2"' } });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect((await send({ method: 'GET', url })).statusCode).toBe(404);
  });

  it('If-Match: * and a list naming the version pass; a weak or other tag is stale; a malformed one is a 400', async () => {
    const customer = await newCustomer();
    const url = `/api/customers/${customer.id}`;
    const patch = (ifMatch: string) =>
      send({ method: 'PATCH', url, payload: { notes: ifMatch }, headers: { 'if-match': ifMatch } });
    expect((await patch('*')).statusCode).toBe(200);
    expect((await patch('"1", "2"')).statusCode).toBe(200);
    expect((await patch('W/"3"')).statusCode).toBe(409);
    expect((await patch('"4"')).statusCode).toBe(409);
    for (const malformed of ['3', '"3', 'W/3', '"3" x']) {
      const response = await patch(malformed);
      expect(response.statusCode, `${malformed}: ${response.body}`).toBe(400);
    }
    const stored = (await read(url)).record;
    expect(stored.version).toBe(3);
    expect(stored.notes).toBe('"1", "2"');
  });

  it('a PATCH and a body version that disagree with If-Match: both must match', async () => {
    const customer = await newCustomer();
    const url = `/api/customers/${customer.id}`;
    const mixed = await send({
      method: 'PATCH',
      url,
      payload: { notes: 'mixed', version: 1 },
      headers: { 'if-match': '"2"' },
    });
    expect(mixed.statusCode, mixed.body).toBe(409);
    expect((await read(url)).record.version).toBe(1);
  });
});

describe('hand-written writes', () => {
  async function member(customerId: unknown): Promise<Row> {
    const response = await send({
      method: 'POST',
      url: '/api/household-members',
      payload: {
        customer_id: customerId,
        first_name: 'Kim',
        last_name: 'Member',
        relation: 'child',
      },
    });
    expect(response.statusCode, response.body).toBe(201);
    return data(response);
  }

  it('merge: raises the versions of what it changes and checks the versions sent (409 with the record that changed)', async () => {
    const keep = await newCustomer({ notes: 'kept' });
    const duplicate = await newCustomer({ notes: 'duplicate' });
    const moved = await member(duplicate.id);
    const merge = (body: Row, headers: Record<string, string> = {}) =>
      send({
        method: 'POST',
        url: `/api/customers/${keep.id}/merge`,
        payload: { duplicate_id: duplicate.id, ...body },
        headers,
      });

    const staleKeep = await merge({ version: 2 });
    expect(staleKeep.statusCode, staleKeep.body).toBe(409);
    expect((staleKeep.json() as { current?: Row }).current).toEqual(
      (await read(`/api/customers/${keep.id}`)).record,
    );
    expect((await merge({}, { 'if-match': '"2"' })).statusCode).toBe(409);
    const staleDuplicate = await merge({ version: 1, duplicate_version: 2 });
    expect(staleDuplicate.statusCode, staleDuplicate.body).toBe(409);
    expect((staleDuplicate.json() as { current?: Row }).current?.id).toBe(duplicate.id);
    // Nothing was merged by the refused attempts.
    expect((await read(`/api/household-members/${moved.id}`)).record.version).toBe(1);

    const merged = await merge({ version: 1, duplicate_version: 1 });
    expect(merged.statusCode, merged.body).toBe(200);
    expect(data(merged).version).toBe(2);
    const after = (await read(`/api/household-members/${moved.id}`)).record;
    expect(after.customer_id).toBe(keep.id);
    expect(after.version).toBe(2);
  });

  it('household conversion: a stale If-Match is a 409; concurrent conversions of one member make one customer', async () => {
    const household = await newCustomer();
    const first = await member(household.id);
    const url = `/api/household-members/${first.id}/convert`;
    const stale = await send({ method: 'POST', url, headers: { 'if-match': '"2"' } });
    expect(stale.statusCode, stale.body).toBe(409);
    expect((stale.json() as { current?: Row }).current?.id).toBe(first.id);
    const converted = await send({ method: 'POST', url, headers: { 'if-match': '"1"' } });
    expect(converted.statusCode, converted.body).toBe(201);
    expect((await read(`/api/household-members/${first.id}`)).record.version).toBe(2);

    const second = await member(household.id);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        send({ method: 'POST', url: `/api/household-members/${second.id}/convert` }),
      ),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([
      201,
      ...Array.from({ length: 9 }, () => 409),
    ]);
  });
});

describe('lost updates', () => {
  const WRITERS = 50;

  async function race(
    method: 'PUT' | 'PATCH',
    url: string,
    bodyOf: (read: Row, writer: number) => Row,
    headersOf: (etag: string | undefined) => Record<string, string>,
  ): Promise<void> {
    const { record, etag } = await read(url);
    const answers = await Promise.all(
      Array.from({ length: WRITERS }, (_, writer) =>
        send({ method, url, payload: bodyOf(record, writer), headers: headersOf(etag) }),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    const winners = answers.filter((answer) => answer.statusCode === 200);
    expect(
      { ok: winners.length, conflicts: statuses.filter((status) => status === 409).length },
      `statuses: ${JSON.stringify(statuses)}`,
    ).toEqual({ ok: 1, conflicts: WRITERS - 1 });
    const stored = (await read(url)).record;
    expect(stored).toEqual(data(winners[0]));
    expect(stored.version).toBe(Number(record.version) + 1);
  }

  it(`${WRITERS} concurrent PUTs built from one read (version in the body): exactly one wins`, async () => {
    const customer = await newCustomer();
    await race(
      'PUT',
      `/api/customers/${customer.id}`,
      (record, writer) => ({ ...record, notes: `writer ${writer}`, version: record.version }),
      () => ({}),
    );
  });

  it(`${WRITERS} concurrent PATCHes built from one read (If-Match): exactly one wins`, async () => {
    const customer = await newCustomer();
    await race(
      'PATCH',
      `/api/customers/${customer.id}`,
      (_record, writer) => ({ city: `Writer ${writer}` }),
      (etag): Record<string, string> => (etag ? { 'if-match': etag } : {}),
    );
  });

  it('the same for a reference-data resource (companies, PUT with version)', async () => {
    const company = await createSample(send, modelOf('companies'), { reference: references });
    await race(
      'PUT',
      `/api/companies/${company.id}`,
      (record, writer) => ({ ...record, name_en: `Writer ${writer}`, version: record.version }),
      () => ({}),
    );
  });
});

describe('rules across fields under concurrency', () => {
  it(`"no permit for a Swiss national" holds for concurrent PATCHes (30 races, ${ENGINE})`, async () => {
    const broken: Row[] = [];
    let refusals = 0;
    for (let group = 0; group < 6; group++) {
      const customers = await Promise.all(
        Array.from({ length: 5 }, () => newCustomer({ nationality: 'DE', permit_type: null })),
      );
      const answers = await Promise.all(
        customers.flatMap((customer) => [
          send({
            method: 'PATCH',
            url: `/api/customers/${customer.id}`,
            payload: { nationality: 'CH' },
          }),
          send({
            method: 'PATCH',
            url: `/api/customers/${customer.id}`,
            payload: { permit_type: 'C' },
          }),
        ]),
      );
      refusals += answers.filter((answer) => answer.statusCode === 422).length;
      for (const answer of answers) expect([200, 422]).toContain(answer.statusCode);
      for (const customer of customers) {
        const stored = (await read(`/api/customers/${customer.id}`)).record;
        if (stored.nationality === 'CH' && stored.permit_type) broken.push(stored);
      }
    }
    expect(
      broken.map((record) => `${record.id}: ${record.nationality} ${record.permit_type}`),
      `${refusals} PATCHes were refused`,
    ).toEqual([]);
  });
});

describe('PATCH of read-only and unknown fields', () => {
  it('a recipient patching a notification’s title gets 422 naming it; read_at still works', async () => {
    const users = await t.database.db.selectFrom('users').select(['id', 'email']).execute();
    const consultantId = Number(users.find((user) => user.email === CONSULTANT)?.id);
    const created = await send({
      method: 'POST',
      url: '/api/notifications',
      payload: { user_id: consultantId, title: 'Original title' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const url = `/api/notifications/${data(created).id}`;
    const patched = await t.request({
      method: 'PATCH',
      url,
      payload: { title: 'Changed by the recipient' },
      as: CONSULTANT,
    });
    expect(patched.statusCode, patched.body).toBe(422);
    expect(Object.keys((patched.json() as { errors?: Row }).errors ?? {})).toContain('title');
    expect((await read(url)).record.title).toBe('Original title');
    const marked = await t.request({
      method: 'PATCH',
      url,
      payload: { read_at: '2026-05-01T08:00:00.000Z' },
      as: CONSULTANT,
    });
    expect(marked.statusCode, marked.body).toBe(200);
  });

  it('a PATCH of a schema read-only field (customers.avatar, users.registration_status, id) is a 422 naming it', async () => {
    const customer = await newCustomer();
    const users = await t.database.db.selectFrom('users').select('id').orderBy('id').execute();
    for (const [url, field, value] of [
      [`/api/customers/${customer.id}`, 'avatar', 'avatars/forged.png'],
      [`/api/customers/${customer.id}`, 'created_at', '2001-01-01T00:00:00.000Z'],
      [`/api/users/${users[users.length - 1].id}`, 'registration_status', 'approved'],
    ] as const) {
      const before = (await read(url)).record;
      const response = await send({ method: 'PATCH', url, payload: { [field]: value } });
      expect(response.statusCode, `${url} ${field}: ${response.body}`).toBe(422);
      expect(Object.keys((response.json() as { errors?: Row }).errors ?? {})).toContain(field);
      expect((await read(url)).record).toEqual(before);
    }
  });

  it('a PATCH of an unknown field is a 422 naming it', async () => {
    const customer = await newCustomer();
    const response = await send({
      method: 'PATCH',
      url: `/api/customers/${customer.id}`,
      payload: { favourite_colour: 'green' },
    });
    expect(response.statusCode, response.body).toBe(422);
    expect(Object.keys((response.json() as { errors?: Row }).errors ?? {})).toContain(
      'favourite_colour',
    );
  });
});
