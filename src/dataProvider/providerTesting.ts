/**
 * Test plumbing of the data provider's tests: an msw server for `API`, an answer that records what
 * was sent, the provider under test and the rejection of a promise. Not a test file itself.
 */
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { createDataProvider } from './index.ts';

export const API = 'http://localhost/api';

/** The msw server of one test file, listening around its tests. */
export function startApiServer() {
  const server = setupServer();
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => {
    server.resetHandlers();
    vi.unstubAllGlobals();
  });
  afterAll(() => server.close());
  return server;
}

export interface Seen {
  method: string;
  url: URL;
  headers: Headers;
  body: unknown;
}

/** Answers every request with `answer` (JSON, `status`) and records what was sent. */
export function respondWith(
  server: ReturnType<typeof setupServer>,
  answer: unknown,
  status = 200,
): Seen[] {
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

export const provider = (token: string | null = null) =>
  createDataProvider({ apiUrl: API, getToken: () => token });

export const listAnswer = (data: unknown[], total = data.length) => ({
  data,
  meta: { current_page: 1, per_page: 25, total, last_page: 1 },
});

/** The rejection of `promise`, failing the test if it resolves. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject');
}
