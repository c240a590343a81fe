// @vitest-environment jsdom
/**
 * The web app's one API client (./apiClient.ts): key convention and token on JSON calls, one error
 * type (HttpError) read the same way for every call, multipart uploads, NDJSON streams and files.
 */
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { HttpError } from 'react-admin';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createApiClient,
  errorDetails,
  fieldErrorOf,
  fieldErrorsOf,
  messageOf,
  statusOf,
} from './apiClient.ts';

const API = 'http://localhost/api';
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const client = (token: string | null = 'tok') =>
  createApiClient({ apiUrl: API, getToken: () => token });

async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject');
}

describe('json', () => {
  it('sends snake_case with the token and answers camelCase; raw keeps the keys', async () => {
    const seen: { auth: string | null; body: unknown }[] = [];
    server.use(
      http.post(`${API}/customers/7/merge`, async ({ request }) => {
        seen.push({ auth: request.headers.get('authorization'), body: await request.json() });
        return HttpResponse.json({ moved: { household_members: 2 }, filled: ['phone_number'] });
      }),
    );
    const answer = await client().json('POST', 'customers/7/merge', {
      body: { duplicateId: 9, fillEmpty: true },
    });
    expect(seen[0]).toEqual({ auth: 'Bearer tok', body: { duplicate_id: 9, fill_empty: true } });
    expect(answer).toEqual({ moved: { householdMembers: 2 }, filled: ['phone_number'] });
    const raw = await client().json('POST', 'customers/7/merge', { body: {}, raw: true });
    expect(raw).toEqual({ moved: { household_members: 2 }, filled: ['phone_number'] });
  });

  it('sends no token with auth: false', async () => {
    let auth: string | null = 'unset';
    server.use(
      http.get(`${API}/config`, ({ request }) => {
        auth = request.headers.get('authorization');
        return HttpResponse.json({ app_env: 'local' });
      }),
    );
    expect(await client().json('GET', 'config', { auth: false })).toEqual({ appEnv: 'local' });
    expect(auth).toBeNull();
  });
});

describe('errors', () => {
  it('carries the server’s keys: each field’s first keyed message and the answer’s key, in react-admin’s text form', async () => {
    server.use(
      http.post(`${API}/customers`, () =>
        HttpResponse.json(
          {
            message: 'The data is not valid: email, date_of_birth.',
            key: 'app.errors.invalidData',
            args: { fields: 'email, date_of_birth' },
            errors: {
              email: ['must match format "email"', 'must NOT have more than 254 characters'],
              date_of_birth: ['must match format "date"'],
            },
            error_keys: {
              email: [
                { message: 'app.errors.email' },
                { message: 'app.errors.maxLength', args: { limit: 254 } },
              ],
              date_of_birth: [{ message: 'app.errors.date' }],
            },
          },
          { status: 422 },
        ),
      ),
    );
    const error = await rejectionOf(client().json('POST', 'customers', { body: {} }));
    expect(messageOf(error)).toBe(
      '@@react-admin@@{"message":"app.errors.invalidData","args":{"fields":"email, date_of_birth"}}',
    );
    expect(fieldErrorsOf(error)).toEqual({
      email: '@@react-admin@@{"message":"app.errors.email"}',
      dateOfBirth: '@@react-admin@@{"message":"app.errors.date"}',
    });
    const translate = (text: string) => `«${text.replace(/^@@react-admin@@/, '')}»`;
    expect(errorDetails(error, translate)).toEqual([
      'email: «{"message":"app.errors.email"}»',
      'dateOfBirth: «{"message":"app.errors.date"}»',
    ]);
  });

  it('makes a 422 an HttpError with camelCase field errors, keeping other keys of the answer', async () => {
    server.use(
      http.post(`${API}/account/password`, () =>
        HttpResponse.json(
          {
            message: 'The new password is not valid.',
            errors: { new_password: ['is too short', 'has no digit'] },
            row_errors: [{ row: 1 }],
          },
          { status: 422 },
        ),
      ),
    );
    const error = await rejectionOf(client().json('POST', 'account/password', { body: {} }));
    expect(error).toBeInstanceOf(HttpError);
    expect(statusOf(error)).toBe(422);
    expect(messageOf(error)).toBe('The new password is not valid.');
    expect(fieldErrorOf(error, 'newPassword')).toBe('is too short; has no digit');
    expect(errorDetails(error, (text) => text)).toEqual([
      'newPassword: is too short; has no digit',
    ]);
    expect((error as HttpError).body).toEqual({
      errors: { newPassword: 'is too short; has no digit' },
      row_errors: [{ row: 1 }],
    });
  });

  it('reads field errors of another status the same way, and the status of a throttle', async () => {
    server.use(
      http.post(`${API}/account/forgot-password`, () =>
        HttpResponse.json({ message: 'Too many attempts.' }, { status: 429 }),
      ),
      http.get(`${API}/documents/1/download`, () =>
        HttpResponse.json(
          { message: 'Refused.', errors: { file: ['not accepted'] } },
          { status: 415 },
        ),
      ),
    );
    const throttled = await rejectionOf(client().json('POST', 'account/forgot-password'));
    expect(statusOf(throttled)).toBe(429);
    expect(fieldErrorOf(throttled, 'email')).toBeUndefined();
    const refused = await rejectionOf(client().blob('documents/1/download'));
    expect(statusOf(refused)).toBe(415);
    expect(messageOf(refused)).toBe('Refused.');
    expect(fieldErrorOf(refused, 'file')).toBe('not accepted');
  });

  it('gives an unreachable server status 0 and the fallback message', async () => {
    server.use(http.get(`${API}/auth/me`, () => HttpResponse.error()));
    const error = await rejectionOf(client().json('GET', 'auth/me'));
    expect(error).toBeInstanceOf(HttpError);
    expect(statusOf(error)).toBe(0);
    expect(messageOf(error)).toBe('ra.notification.http_error');
    expect(messageOf(error, 'app.login.unavailable')).toBe('app.login.unavailable');
  });
});

describe('forms and files', () => {
  it('uploads a multipart form with the token and answers camelCase', async () => {
    let received: { auth: string | null; name: unknown } | undefined;
    server.use(
      http.post(`${API}/customers/3/documents`, async ({ request }) => {
        const form = await request.formData();
        received = { auth: request.headers.get('authorization'), name: form.get('document_name') };
        return HttpResponse.json({ data: { id: 5, document_name: 'Police' } }, { status: 201 });
      }),
    );
    const form = new FormData();
    form.append('document_name', 'Police');
    const answer = await client().upload('customers/3/documents', form);
    expect(received).toEqual({ auth: 'Bearer tok', name: 'Police' });
    expect(answer).toEqual({ data: { id: 5, documentName: 'Police' } });
  });

  it('streams NDJSON lines and resolves with the summary', async () => {
    server.use(
      http.post(
        `${API}/customers/import`,
        () =>
          new HttpResponse(
            '{"type":"progress","phase":"checked","done":3,"total":3}\n' +
              '{"type":"summary","total_rows":3,"imported":2,"skipped":1,"row_errors":[]}\n',
            { headers: { 'content-type': 'application/x-ndjson' } },
          ),
      ),
    );
    const lines: unknown[] = [];
    const last = await client().stream('customers/import', new FormData(), {
      onLine: (line) => lines.push(line),
    });
    expect(lines).toHaveLength(2);
    expect(lines[0]).toEqual({ type: 'progress', phase: 'checked', done: 3, total: 3 });
    expect(last).toEqual({ type: 'summary', totalRows: 3, imported: 2, skipped: 1, rowErrors: [] });
  });

  it('rejects a stream that ends with an error line like an error answer', async () => {
    const line = {
      type: 'error',
      status: 422,
      message: '1 of 3 rows have errors; nothing was imported.',
      errors: { file: ['1 rows have errors'] },
      row_errors: [{ row: 2, line: 3, column: 'PLZ', field: 'zip', message: 'needs 4 digits' }],
    };
    server.use(
      http.post(`${API}/customers/import`, () => new HttpResponse(`${JSON.stringify(line)}\n`)),
    );
    const error = await rejectionOf(client().stream('customers/import', new FormData()));
    expect(statusOf(error)).toBe(422);
    expect(messageOf(error)).toBe(line.message);
    expect(errorDetails(error, (text) => text)).toEqual(['file: 1 rows have errors']);
    expect((error as HttpError).body).toMatchObject({ row_errors: line.row_errors });
  });

  it('fetches a file with the token and the name the server gives it', async () => {
    let auth: string | null = null;
    server.use(
      http.get(`${API}/documents/4/download`, ({ request }) => {
        auth = request.headers.get('authorization');
        return new HttpResponse('%PDF', {
          headers: { 'content-disposition': `attachment; filename*=UTF-8''Police%20Hausrat.pdf` },
        });
      }),
    );
    const file = await client().blob('documents/4/download');
    expect(auth).toBe('Bearer tok');
    expect(file.fileName).toBe('Police Hausrat.pdf');
    expect(await file.blob.text()).toBe('%PDF');
  });
});
