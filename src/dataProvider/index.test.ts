/**
 * The data provider's calls (./index.ts): the URLs, query strings and bodies it builds for each
 * react-admin method, and the records it returns (see ./transport.test.ts for headers and errors).
 */
import { describe, expect, it, vi } from 'vitest';
import { createDataProvider, type HttpClient, listQuery } from './index.ts';
import {
  API,
  listAnswer,
  provider,
  rejectionOf,
  respondWith,
  startApiServer,
} from './providerTesting.ts';

const server = startApiServer();
const respond = (answer: unknown, status = 200) => respondWith(server, answer, status);

describe('getList', () => {
  it('builds page, per_page, sort, order, search and snake_cased filters', async () => {
    const seen = respond(listAnswer([]));
    await provider().getList('sub-products', {
      pagination: { page: 3, perPage: 50 },
      sort: { field: 'nameDe', order: 'DESC' },
      filter: {
        q: 'allianz leben',
        productId: 7,
        isActive: false,
        insuranceTypes: ['health', 'life'],
        createdAt_gte: '2024-01-01',
        emptyText: '',
        nothing: null,
        notSet: undefined,
        emptyList: [],
      },
    });
    expect(seen).toHaveLength(1);
    expect(seen[0].method).toBe('GET');
    expect(seen[0].url.pathname).toBe('/api/sub-products');
    expect(seen[0].url.search).toBe(
      '?page=3&per_page=50&sort=name_de&order=desc&search=allianz+leben&product_id=7' +
        '&is_active=false&insurance_types=health&insurance_types=life&created_at_gte=2024-01-01',
    );
    expect(seen[0].url.searchParams.get('search')).toBe('allianz leben');
  });

  it('camelCases the records deeply and returns meta.total as total', async () => {
    respond(
      listAnswer(
        [{ id: 1, name_de: 'Allianz', email_settings: { email_to: [{ email: 'a@b.ch' }] } }],
        41,
      ),
    );
    const result = await provider().getList('companies', {
      pagination: { page: 1, perPage: 25 },
      sort: { field: 'id', order: 'ASC' },
      filter: {},
    });
    expect(result).toEqual({
      data: [{ id: 1, nameDe: 'Allianz', emailSettings: { emailTo: [{ email: 'a@b.ch' }] } }],
      total: 41,
    });
  });

  it('answers partial pagination with the estimate when the total is not exact', async () => {
    const meta = {
      current_page: 2,
      per_page: 25,
      total: 10_000,
      last_page: 400,
      total_exact: false,
      total_estimate: 'more_than',
      has_next_page: true,
      has_previous_page: true,
    };
    respond({ data: [{ id: 1, last_name: 'Müller' }], meta });
    const params = { pagination: { page: 2, perPage: 25 }, filter: {} };
    expect(await provider().getList('customers', params)).toEqual({
      data: [{ id: 1, lastName: 'Müller' }],
      pageInfo: { hasNextPage: true, hasPreviousPage: true },
      meta: { total: 10_000, totalEstimate: 'more_than' },
    });
    respond({
      data: [],
      meta: { ...meta, total: 120_000, total_estimate: 'about', has_next_page: false },
    });
    expect(
      await provider().getManyReference('customers', {
        ...params,
        target: 'assignedTo',
        id: 4,
        sort: { field: 'id', order: 'ASC' },
      }),
    ).toEqual({
      data: [],
      pageInfo: { hasNextPage: false, hasPreviousPage: true },
      meta: { total: 120_000, totalEstimate: 'about' },
    });
  });

  it('reads an exact total as total, with or without total_exact (older servers)', async () => {
    respond({ data: [], meta: { total: 3, total_exact: true, has_next_page: false } });
    expect(await provider().getList('customers', { filter: {} })).toEqual({ data: [], total: 3 });
  });

  it('asks for meta.prefetch and hands the prefetched records on camelCased, by resource', async () => {
    const seen = respond({
      data: [{ id: 1, assigned_to: 4, lead_source: 2 }],
      meta: {
        total: 1,
        total_exact: true,
        prefetched: {
          users: [{ id: 4, first_name: 'Sara' }],
          'lead-sources': [{ id: 2, name_de: 'Messe' }],
        },
      },
    });
    const result = await provider().getList('customers', {
      pagination: { page: 1, perPage: 25 },
      filter: {},
      meta: { prefetch: ['assignedTo', 'leadSource'] },
    });
    expect(seen[0].url.search).toBe(
      '?page=1&per_page=25&_prefetch=assigned_to&_prefetch=lead_source',
    );
    expect(result).toEqual({
      data: [{ id: 1, assignedTo: 4, leadSource: 2 }],
      total: 1,
      meta: {
        prefetched: {
          users: [{ id: 4, firstName: 'Sara' }],
          'lead-sources': [{ id: 2, nameDe: 'Messe' }],
        },
      },
    });
    // Without meta.prefetch: no parameter, and the answer as before.
    const plain = respond(listAnswer([]));
    await provider().getList('customers', { filter: {}, meta: { other: true } });
    expect(plain[0].url.search).toBe('');
  });

  it('sends no pagination nor sort when react-admin gives none', async () => {
    const seen = respond(listAnswer([]));
    await provider().getList('companies', { filter: { isPartner: true } });
    expect(seen[0].url.search).toBe('?is_partner=true');
  });

  it('throws a clear error naming the resource when "data" is missing', async () => {
    respond({ items: [] });
    const error = await rejectionOf(provider().getList('companies', { filter: {} }));
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/getList on "companies" has no "data" list/);
  });

  it('throws a clear error naming the resource when "meta.total" is missing', async () => {
    respond({ data: [], meta: { current_page: 1 } });
    const error = await rejectionOf(provider().getList('products', { filter: {} }));
    expect((error as Error).message).toMatch(/getList on "products" has no "meta.total"/);
  });

  it('passes the abort signal to the HTTP client and lets an abort through unchanged', async () => {
    const controller = new AbortController();
    const abort = new DOMException('The operation was aborted.', 'AbortError');
    const httpClient = vi.fn<HttpClient>(async (_url, options) => {
      expect(options?.signal).toBe(controller.signal);
      throw abort;
    });
    const dataProvider = createDataProvider({ apiUrl: API, httpClient, getToken: () => null });
    expect(dataProvider.supportAbortSignal).toBe(true);
    const error = await rejectionOf(
      dataProvider.getList('companies', { filter: {}, signal: controller.signal }),
    );
    expect(error).toBe(abort);
    expect(httpClient).toHaveBeenCalledTimes(1);
  });
});

describe('listQuery', () => {
  it('turns dates into ISO text and nested filter objects into dotted snake keys', () => {
    const query = listQuery({
      filter: {
        updatedAt_lte: new Date('2024-05-06T07:08:09Z'),
        emailSettings: { feedbackTo: 'x@y.ch', bcc: undefined },
        ids: [1, null, 2, ''],
      },
    });
    expect([...query]).toEqual([
      ['updated_at_lte', '2024-05-06T07:08:09.000Z'],
      ['email_settings.feedback_to', 'x@y.ch'],
      ['ids', '1'],
      ['ids', '2'],
    ]);
  });

  it('drops an empty search and an empty sort field', () => {
    const query = listQuery({ sort: { field: '', order: 'ASC' }, filter: { q: '' } });
    expect(query.toString()).toBe('');
  });
});

describe('getOne', () => {
  it('GETs /<resource>/<id> and camelCases the record', async () => {
    const seen = respond({ data: { id: 5, first_name: 'Anna', visible_roles: ['admin'] } });
    const result = await provider().getOne('users', { id: 5 });
    expect(seen[0].method).toBe('GET');
    expect(seen[0].url.href).toBe(`${API}/users/5`);
    expect(result).toEqual({ data: { id: 5, firstName: 'Anna', visibleRoles: ['admin'] } });
  });

  it('throws a clear error naming the resource when "data" is missing', async () => {
    respond({ id: 5 });
    const error = await rejectionOf(provider().getOne('users', { id: 5 }));
    expect((error as Error).message).toMatch(/getOne on "users" has no "data"/);
  });
});

describe('getMany', () => {
  it('asks for the ids as repeated id parameters with per_page = number of ids', async () => {
    const seen = respond(listAnswer([{ id: 1 }, { id: 2 }]));
    const result = await provider().getMany('products', { ids: [1, 2] });
    expect(seen[0].url.pathname).toBe('/api/products');
    expect(seen[0].url.search).toBe('?id=1&id=2&per_page=2');
    expect(result).toEqual({ data: [{ id: 1 }, { id: 2 }] });
  });

  it('does not call the server for no ids', async () => {
    const seen = respond(listAnswer([]));
    expect(await provider().getMany('products', { ids: [] })).toEqual({ data: [] });
    expect(seen).toHaveLength(0);
  });
});

describe('getManyReference', () => {
  it('adds the target, snake_cased, as a filter', async () => {
    const seen = respond(listAnswer([{ id: 9, sub_product_id: 4 }], 12));
    const result = await provider().getManyReference('sub-product-variants', {
      target: 'subProductId',
      id: 4,
      pagination: { page: 2, perPage: 10 },
      sort: { field: 'sortOrder', order: 'ASC' },
      filter: { isActive: true },
    });
    expect(seen[0].url.search).toBe(
      '?page=2&per_page=10&sort=sort_order&order=asc&is_active=true&sub_product_id=4',
    );
    expect(result).toEqual({ data: [{ id: 9, subProductId: 4 }], total: 12 });
  });
});

describe('create', () => {
  it('POSTs the record with snake_case keys and camelCases the answer', async () => {
    const seen = respond(
      { data: { id: 10, name_de: 'Helvetia', email_to: [{ email: 'x@y.ch' }] } },
      201,
    );
    const result = await provider().create('companies', {
      data: { nameDe: 'Helvetia', emailTo: [{ email: 'x@y.ch' }] },
    });
    expect(seen[0].method).toBe('POST');
    expect(seen[0].url.href).toBe(`${API}/companies`);
    expect(seen[0].headers.get('content-type')).toBe('application/json');
    expect(seen[0].body).toEqual({ name_de: 'Helvetia', email_to: [{ email: 'x@y.ch' }] });
    expect(result).toEqual({
      data: { id: 10, nameDe: 'Helvetia', emailTo: [{ email: 'x@y.ch' }] },
    });
  });
});

describe('update', () => {
  it('PUTs params.data minus id, createdAt and updatedAt', async () => {
    const seen = respond({ data: { id: 3, name_de: 'Neu', updated_at: '2024-02-02' } });
    const result = await provider().update('companies', {
      id: 3,
      data: { id: 3, nameDe: 'Neu', isPartner: false, createdAt: '2024-01-01', updatedAt: 'x' },
      previousData: { id: 3, nameDe: 'Alt' },
    });
    expect(seen[0].method).toBe('PUT');
    expect(seen[0].url.href).toBe(`${API}/companies/3`);
    expect(seen[0].body).toEqual({ name_de: 'Neu', is_partner: false });
    expect(result).toEqual({ data: { id: 3, nameDe: 'Neu', updatedAt: '2024-02-02' } });
  });
});

describe('versions (optimistic concurrency)', () => {
  it('PUTs the version of the edited record (params.data), not stripped with the read-only keys', async () => {
    const seen = respond({ data: { id: 3, name_de: 'Neu', version: 5 } });
    const result = await provider().update('companies', {
      id: 3,
      data: { id: 3, nameDe: 'Neu', version: 4, createdAt: 'x', updatedAt: 'y' },
      previousData: { id: 3, nameDe: 'Alt', version: 4 },
    });
    expect(seen[0].body).toEqual({ name_de: 'Neu', version: 4 });
    expect(result.data.version).toBe(5);
  });

  it('takes the version of previousData when the data has none', async () => {
    const seen = respond({ data: { id: 3, version: 8 } });
    await provider().update('companies', {
      id: 3,
      data: { nameDe: 'Neu' },
      previousData: { id: 3, nameDe: 'Alt', version: 7 },
    });
    expect(seen[0].body).toEqual({ name_de: 'Neu', version: 7 });
  });

  it("prefers the data's version (an overwrite after a conflict) to previousData's", async () => {
    const seen = respond({ data: { id: 3, version: 10 } });
    await provider().update('companies', {
      id: 3,
      data: { nameDe: 'Mine', version: 9 },
      previousData: { id: 3, nameDe: 'Alt', version: 7 },
    });
    expect(seen[0].body).toEqual({ name_de: 'Mine', version: 9 });
  });

  it('sends no version when neither has a usable one (last write wins)', async () => {
    const seen = respond({ data: { id: 3 } });
    await provider().update('companies', {
      id: 3,
      data: { nameDe: 'Neu', version: null },
      previousData: { id: 3, version: 'x' },
    });
    expect(seen[0].body).toEqual({ name_de: 'Neu' });
  });

  it('sends no version on create nor on updateMany', async () => {
    const seen = respond({ data: { id: 3, version: 1 } }, 201);
    await provider().create('companies', { data: { nameDe: 'Kopie', version: 6 } });
    await provider().updateMany('companies', {
      ids: [1, 2],
      data: { isPartner: true, version: 6 },
    });
    expect(seen.map((request) => request.body)).toEqual([
      { name_de: 'Kopie' },
      { is_partner: true },
      { is_partner: true },
    ]);
  });
});

describe('updateMany', () => {
  it('PATCHes each id with params.data and returns the ids', async () => {
    const seen = respond({ data: { id: 1, is_active: false } });
    const result = await provider().updateMany('products', {
      ids: [1, 2],
      data: { isActive: false },
    });
    expect(seen.map((request) => `${request.method} ${request.url.pathname}`).sort()).toEqual([
      'PATCH /api/products/1',
      'PATCH /api/products/2',
    ]);
    expect(seen.map((request) => request.body)).toEqual([
      { is_active: false },
      { is_active: false },
    ]);
    expect(result).toEqual({ data: [1, 2] });
  });
});

describe('delete and deleteMany', () => {
  it('DELETEs one record and camelCases the answer', async () => {
    const seen = respond({ data: { id: 4, name_de: 'Weg' } });
    const result = await provider().delete('companies', { id: 4 });
    expect(seen[0].method).toBe('DELETE');
    expect(seen[0].url.href).toBe(`${API}/companies/4`);
    expect(seen[0].body).toBeUndefined();
    expect(result).toEqual({ data: { id: 4, nameDe: 'Weg' } });
  });

  it('sends one DELETE per id and returns the ids', async () => {
    const seen = respond({ data: { id: 0 } });
    const result = await provider().deleteMany('companies', { ids: [7, 8, 9] });
    expect(seen.map((request) => `${request.method} ${request.url.pathname}`).sort()).toEqual([
      'DELETE /api/companies/7',
      'DELETE /api/companies/8',
      'DELETE /api/companies/9',
    ]);
    expect(result).toEqual({ data: [7, 8, 9] });
  });

  it('throws a clear error when a delete answer lacks "data"', async () => {
    respond({});
    const error = await rejectionOf(provider().delete('companies', { id: 4 }));
    expect((error as Error).message).toMatch(/delete on "companies" has no "data"/);
  });
});
