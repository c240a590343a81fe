/**
 * The HTTP layer under the API client (./apiClient.ts) and so under the data provider: the
 * transport type (react-admin's `fetchUtils.fetchJson` shape), where the token comes from, how
 * failures become react-admin `HttpError`s — the one error type of the web app — and how screens
 * read them (message, status, field errors).
 */
import { fetchUtils, HttpError } from 'react-admin';
import { isPlainObject, snakePathToCamel, toCamelDeep } from '../schema/case.ts';

export interface HttpResponse {
  status: number;
  headers: Headers;
  body: string;
  /** The parsed body; `undefined` when the body is not JSON. */
  json: unknown;
}

export interface HttpRequestOptions {
  method?: string;
  headers?: Headers;
  body?: string;
  signal?: AbortSignal;
}

/**
 * Sends a request and resolves with the parsed answer for 2xx; rejects with an `HttpError`
 * (`message`, `status`, `body` = parsed JSON) for other statuses, and with anything else (usually
 * a `TypeError`) when the server cannot be reached.
 */
export type HttpClient = (url: string, options?: HttpRequestOptions) => Promise<HttpResponse>;

export const defaultHttpClient: HttpClient = (url, options) => fetchUtils.fetchJson(url, options);

export const TOKEN_STORAGE_KEY = 'token';

/** The token saved at login, or null (also when storage is missing or refused). */
export function readStoredToken(): string | null {
  try {
    return globalThis.localStorage?.getItem(TOKEN_STORAGE_KEY) ?? null;
  } catch {
    return null;
  }
}

/** Field errors as react-admin 5 shows them beside inputs: `{ "<source>": "message" }`. */
export type FieldErrors = Record<string, string>;

/** The server's key for errors of the record as a whole (no field). */
const ROOT_KEY = '_';
/** Where react-admin looks for a form-level server message (it is notified on submit). */
export const ROOT_ERROR_SOURCE = 'root.serverError';

/**
 * `{ "email_to.email": ["is required"] }` -> `{ "emailTo.email": "is required" }`: paths
 * camelCased segment by segment, the messages of one field joined by '; '.
 */
export function toFieldErrors(errors: unknown): FieldErrors {
  const out: FieldErrors = {};
  if (errors === null || typeof errors !== 'object' || Array.isArray(errors)) return out;
  for (const [key, value] of Object.entries(errors)) {
    const source = key === ROOT_KEY || key === '' ? ROOT_ERROR_SOURCE : snakePathToCamel(key);
    const messages = (Array.isArray(value) ? value : [value])
      .filter((message) => message !== null && message !== undefined && message !== '')
      .map(String);
    if (messages.length === 0) continue;
    const message = messages.join('; ');
    out[source] = out[source] ? `${out[source]}; ${message}` : message;
  }
  return out;
}

export function isAbortError(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { name?: unknown }).name === 'AbortError'
  );
}

function bodyMessage(body: unknown): string | undefined {
  if (body === null || typeof body !== 'object') return undefined;
  const message = (body as { message?: unknown }).message;
  return typeof message === 'string' && message !== '' ? message : undefined;
}

interface HttpErrorLike {
  message: string;
  status: number;
  body?: unknown;
}

function isHttpErrorLike(error: unknown): error is HttpErrorLike {
  return (
    error instanceof HttpError ||
    (error instanceof Error && typeof (error as { status?: unknown }).status === 'number')
  );
}

/**
 * What the API client throws for a failed request:
 * - an abort is passed on unchanged (react-query recognises it);
 * - 422: `HttpError(message, 422, { errors: FieldErrors })`, so react-admin shows each message
 *   beside its input (a record-level error goes to `root.serverError`); other keys of the answer
 *   besides `message` (e.g. the import's `row_errors`) are kept beside `errors`;
 * - 409 with the record as it is now (a version conflict, DESIGN.md §7):
 *   `HttpError(message, 409, { message, current })`, `current` camelCased (read with `conflictOf`);
 * - other statuses: `HttpError(body.message || statusText, status, body)`;
 * - no answer at all: `HttpError('Cannot reach the server …', 0, null)`.
 */
export function toProviderError(error: unknown, method: string, url: string): unknown {
  if (isAbortError(error)) return error;
  if (isHttpErrorLike(error)) {
    const body = error.body ?? null;
    const message = bodyMessage(body) ?? error.message;
    if (error.status === 422) {
      const { message: _message, errors, ...rest } = isPlainObject(body) ? body : {};
      return new HttpError(message || 'The data is not valid.', 422, {
        ...rest,
        errors: toFieldErrors(errors),
      });
    }
    if (error.status === 409 && isPlainObject(body) && isPlainObject(body.current)) {
      // A version conflict carries the record as it is now, camelCased like every record.
      return new HttpError(message || 'The record was changed in the meantime.', 409, {
        ...body,
        current: toCamelDeep(body.current),
      });
    }
    if (error instanceof HttpError && error.message === message && error.body === body) {
      return error;
    }
    return new HttpError(message || `HTTP error ${error.status}`, error.status, body);
  }
  const reason = error instanceof Error ? error.message : String(error);
  const networkError = new HttpError(
    `Cannot reach the server (${method} ${url}): ${reason || 'network error'}.`,
    0,
    null,
  );
  networkError.cause = error;
  return networkError;
}

/** The status of a failed call; 0 when the server could not be reached (or it is no HttpError). */
export const statusOf = (error: unknown): number => (error instanceof HttpError ? error.status : 0);

/** A record as the API answers it, camelCased: at least its id and version. */
export interface VersionedRecord extends Record<string, unknown> {
  id: number | string;
  version?: number;
}

/**
 * The current record of a version conflict (409 `{ message, current }`: someone else saved the
 * record since it was read), or undefined for any other failure — also for a 409 without a record
 * (e.g. a record still referenced).
 */
export function conflictOf(error: unknown): VersionedRecord | undefined {
  if (!(error instanceof HttpError) || error.status !== 409) return undefined;
  const current = (error.body as { current?: unknown } | null)?.current;
  return isPlainObject(current) &&
    (typeof current.id === 'number' || typeof current.id === 'string')
    ? (current as VersionedRecord)
    : undefined;
}

/**
 * The server's message of a failed call, for a notification; `fallback` (a translation key) when
 * the server could not be reached or said nothing.
 */
export function messageOf(error: unknown, fallback = 'ra.notification.http_error'): string {
  if (!(error instanceof HttpError) || error.status === 0) return fallback;
  return error.message || fallback;
}

/**
 * The field errors of a failed call, `{ "<camelCase.path>": "message" }`: a 422's as mapped above,
 * another status's (e.g. a refused upload's `file`) mapped the same way.
 */
export function fieldErrorsOf(error: unknown): FieldErrors {
  if (!(error instanceof HttpError)) return {};
  const errors = (error.body as { errors?: unknown } | null)?.errors;
  return error.status === 422 && isPlainObject(errors)
    ? (errors as FieldErrors)
    : toFieldErrors(errors);
}

/** The server's message for one field (camelCase path) of a failed call, or undefined. */
export const fieldErrorOf = (error: unknown, source: string): string | undefined =>
  fieldErrorsOf(error)[source];

/** The field errors as lines `<field>: <message>`, for an alert that lists them. */
export const errorDetails = (error: unknown): string[] =>
  Object.entries(fieldErrorsOf(error)).map(([source, message]) => `${source}: ${message}`);
