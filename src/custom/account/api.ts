/**
 * Calls of the account screens (server/account/routes.ts): JSON with the bearer token when signed
 * in; a failure becomes an `AccountApiError` with the status and the server's field errors
 * (snake_case keys, as the API names them).
 */
import { getToken } from '../../auth/session.ts';

export class AccountApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors: Record<string, string[]> = {},
  ) {
    super(message);
  }
}

export async function accountApi<T = unknown>(
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  body?: unknown,
): Promise<T> {
  const headers = new Headers();
  const token = getToken();
  if (token) headers.set('authorization', `Bearer ${token}`);
  if (body !== undefined) headers.set('content-type', 'application/json');
  let response: Response;
  try {
    response = await fetch(`/api/${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new AccountApiError(0, 'app.login.unavailable');
  }
  const text = await response.text();
  const json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  if (!response.ok) {
    throw new AccountApiError(
      response.status,
      String(json.message ?? response.statusText),
      (json.errors as Record<string, string[]> | undefined) ?? {},
    );
  }
  return json as T;
}

/** The first server message of a field, or undefined. */
export const fieldError = (error: unknown, field: string): string | undefined =>
  error instanceof AccountApiError ? error.errors[field]?.join('; ') : undefined;
