import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { HttpError } from 'react-admin';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDataProvider, type HttpClient, listQuery } from './index.ts';

const API = 'http://localhost/api';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  vi.unstubAllGlobals();
});
afterAll(() => server.close());

interface Seen {
  method: string;
  url: URL;
  headers: Headers;
  body: unknown;
}

/** Answers every request with `answer` (JSON, `status`) and records what was sent. */
function respond(answer: unknown, status = 200): Seen[] {
  const seen: Seen[] = [];
  server.use(
    http.all(`${API}/*`, async ({ request }) => {
      const text = await request.text();
      seen.push({
        method: request.method,
        url: new URL(request.url),
        headers: request.headers,
        body: text ? JSON.parse(text) : undefined,
      });
      return HttpResponse.json(answer as Record<string, unknown>, { status });
    }),
  );
  return seen;
}

const provider = (token: string | null = null) =>
  createDataProvider({ apiUrl: API, getToken: () => token });

const listAnswer = (data: unknown[], total = data.length) => ({
  data,
  meta: { current_page: 1, per_page: 25, total, last_page: 1 },
});

/** The rejection of `promise`, failing the test if it resolves. */
async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject');
}

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

describe('authorization', () => {
  it('sends Authorization: Bearer <token> when there is a token', async () => {
    const seen = respond({ data: { id: 1 } });
    await provider('s3cr3t').getOne('users', { id: 1 });
    expect(seen[0].headers.get('authorization')).toBe('Bearer s3cr3t');
    expect(seen[0].headers.get('accept')).toBe('application/json');
  });

  it('sends no Authorization header without a token', async () => {
    const seen = respond({ data: { id: 1 } });
    await provider(null).getOne('users', { id: 1 });
    expect(seen[0].headers.has('authorization')).toBe(false);
  });

  it('reads the token from localStorage "token" by default', async () => {
    const getItem = vi.fn((key: string) => (key === 'token' ? 'from-storage' : null));
    vi.stubGlobal('localStorage', { getItem });
    const seen = respond({ data: { id: 1 } });
    await createDataProvider({ apiUrl: API }).getOne('users', { id: 1 });
    expect(getItem).toHaveBeenCalledWith('token');
    expect(seen[0].headers.get('authorization')).toBe('Bearer from-storage');
  });

  it('uses an injected httpClient with the same URL and headers', async () => {
    const httpClient = vi.fn<HttpClient>(async () => ({
      status: 200,
      headers: new Headers(),
      body: '',
      json: { data: { id: 2, name_de: 'X' } },
    }));
    const dataProvider = createDataProvider({
      apiUrl: 'https://crm.example/api/',
      httpClient,
      getToken: () => 't',
    });
    const result = await dataProvider.update('companies', {
      id: 2,
      data: { id: 2, nameDe: 'X' },
      previousData: { id: 2 },
    });
    expect(result.data).toEqual({ id: 2, nameDe: 'X' });
    const [url, options] = httpClient.mock.calls[0];
    expect(url).toBe('https://crm.example/api/companies/2');
    expect(options?.method).toBe('PUT');
    expect(options?.body).toBe('{"name_de":"X"}');
    expect(options?.headers?.get('Authorization')).toBe('Bearer t');
  });
});

describe('errors', () => {
  it('turns a 422 into HttpError with camelCased field errors beside the inputs', async () => {
    respond(
      {
        message: 'The data is not valid: name_de, email_to.email.',
        errors: {
          name_de: ['is required'],
          'email_to.email': ['must match format "email"', 'must NOT have more than 254 characters'],
          'email_settings.email_to.0.address': ['is required'],
          _: ['is already used by another record'],
        },
      },
      422,
    );
    const error = await rejectionOf(provider().create('companies', { data: {} }));
    expect(error).toBeInstanceOf(HttpError);
    const httpError = error as HttpError;
    expect(httpError.status).toBe(422);
    expect(httpError.message).toBe('The data is not valid: name_de, email_to.email.');
    expect(httpError.body).toEqual({
      errors: {
        nameDe: 'is required',
        'emailTo.email': 'must match format "email"; must NOT have more than 254 characters',
        'emailSettings.emailTo.0.address': 'is required',
        'root.serverError': 'is already used by another record',
      },
    });
  });

  it('gives a 422 without field errors an empty errors object (react-admin then notifies)', async () => {
    respond({ message: 'Nope.' }, 422);
    const error = (await rejectionOf(
      provider().update('companies', { id: 1, data: {}, previousData: { id: 1 } }),
    )) as HttpError;
    expect(error.status).toBe(422);
    expect(error.message).toBe('Nope.');
    expect(error.body).toEqual({ errors: {} });
  });

  it.each([400, 401, 403, 404, 409, 429, 500])(
    'turns %i into HttpError(body.message, status, body)',
    async (status) => {
      const answer = { message: `failure ${status}` };
      respond(answer, status);
      const error = (await rejectionOf(provider().getOne('companies', { id: 1 }))) as HttpError;
      expect(error).toBeInstanceOf(HttpError);
      expect(error.status).toBe(status);
      expect(error.message).toBe(`failure ${status}`);
      expect(error.body).toEqual(answer);
    },
  );

  it('uses the status text when the error body has no message', async () => {
    server.use(
      http.get(
        `${API}/companies/1`,
        () => new HttpResponse('oops', { status: 503, statusText: 'Service Unavailable' }),
      ),
    );
    const error = (await rejectionOf(provider().getOne('companies', { id: 1 }))) as HttpError;
    expect(error.status).toBe(503);
    expect(error.message).toBe('Service Unavailable');
  });

  it('turns a network failure into HttpError with status 0 and a clear message', async () => {
    server.use(http.get(`${API}/companies/1`, () => HttpResponse.error()));
    const error = (await rejectionOf(provider().getOne('companies', { id: 1 }))) as HttpError;
    expect(error).toBeInstanceOf(HttpError);
    expect(error.status).toBe(0);
    expect(error.message).toContain(`Cannot reach the server (GET ${API}/companies/1)`);
    expect(error.cause).toBeInstanceOf(TypeError);
  });

  it('rejects a partial failure of deleteMany with the HttpError of the failing id', async () => {
    server.use(
      http.delete(`${API}/companies/:id`, ({ params }) =>
        params.id === '2'
          ? HttpResponse.json({ message: 'Still used.' }, { status: 409 })
          : HttpResponse.json({ data: { id: Number(params.id) } }),
      ),
    );
    const error = (await rejectionOf(
      provider().deleteMany('companies', { ids: [1, 2, 3] }),
    )) as HttpError;
    expect(error.status).toBe(409);
    expect(error.message).toBe('Still used.');
  });
});
