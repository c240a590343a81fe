/**
 * What the data provider sends besides the call itself (the token, an injected HTTP client) and how
 * failures come back: react-admin HttpErrors, field errors of a 422 beside the inputs, a version
 * conflict's current record.
 */
import { http, HttpResponse } from 'msw';
import { HttpError } from 'react-admin';
import { describe, expect, it, vi } from 'vitest';
import { conflictOf } from './apiClient.ts';
import { createDataProvider, type HttpClient } from './index.ts';
import { API, provider, rejectionOf, respondWith, startApiServer } from './providerTesting.ts';

const server = startApiServer();
const respond = (answer: unknown, status = 200) => respondWith(server, answer, status);

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
    expect(error.message).toBe('app.errors.unreachable');
    expect(error.body).toMatchObject({ request: `GET ${API}/companies/1` });
    expect(error.cause).toBeInstanceOf(TypeError);
  });

  it('turns a version conflict into HttpError(message, 409, { current }) with current camelCased', async () => {
    respond(
      {
        message: 'The record was changed by someone else.',
        current: { id: 3, name_de: 'Theirs', email_settings: { email_to: [] }, version: 2 },
      },
      409,
    );
    const error = await rejectionOf(
      provider().update('companies', {
        id: 3,
        data: { nameDe: 'Mine', version: 1 },
        previousData: { id: 3, version: 1 },
      }),
    );
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(409);
    expect((error as HttpError).message).toBe('The record was changed by someone else.');
    const current = { id: 3, nameDe: 'Theirs', emailSettings: { emailTo: [] }, version: 2 };
    expect((error as HttpError).body).toEqual({
      message: 'The record was changed by someone else.',
      current,
    });
    expect(conflictOf(error)).toEqual(current);
  });

  it('a second save from the same read gets the conflict; resent with current.version it wins', async () => {
    // A server that keeps one record and checks the version like the real one (issue 10).
    let stored: Record<string, unknown> = { id: 3, name_de: 'Original', version: 1 };
    server.use(
      http.put(`${API}/companies/3`, async ({ request }) => {
        const body = (await request.json()) as Record<string, unknown>;
        if (body.version !== undefined && body.version !== stored.version) {
          return HttpResponse.json({ message: 'Changed.', current: stored }, { status: 409 });
        }
        const { version: _version, ...values } = body;
        stored = { ...stored, ...values, version: Number(stored.version) + 1 };
        return HttpResponse.json({ data: stored });
      }),
    );
    const read = { id: 3, nameDe: 'Original', version: 1 };
    const first = await provider().update('companies', {
      id: 3,
      data: { ...read, nameDe: 'First' },
      previousData: read,
    });
    expect(first.data).toEqual({ id: 3, nameDe: 'First', version: 2 });
    const mine = { ...read, nameDe: 'Second' };
    const error = await rejectionOf(
      provider().update('companies', { id: 3, data: mine, previousData: read }),
    );
    const current = conflictOf(error);
    expect(current).toEqual({ id: 3, nameDe: 'First', version: 2 });
    expect(stored.name_de).toBe('First');
    const overwritten = await provider().update('companies', {
      id: 3,
      data: { ...mine, version: current?.version },
      previousData: read,
    });
    expect(overwritten.data).toEqual({ id: 3, nameDe: 'Second', version: 3 });
  });

  it('reads no conflict from a 409 without a current record (a record still referenced)', async () => {
    respond({ message: 'Still used.' }, 409);
    const error = await rejectionOf(provider().delete('companies', { id: 1 }));
    expect((error as HttpError).status).toBe(409);
    expect(conflictOf(error)).toBeUndefined();
    expect(conflictOf(new Error('x'))).toBeUndefined();
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
