/**
 * The HTTP layer under the API client (./apiClient.ts) and so under the data provider: the
 * transport type (react-admin's `fetchUtils.fetchJson` shape), where the token comes from, how
 * failures become react-admin `HttpError`s — the one error type of the web app — and how screens
 * read them (message, status, field errors).
 */
import { fetchUtils, HttpError } from 'react-admin';
import { isPlainObject, snakePathToCamel, toCamelDeep } from '../schema/case.ts';
import { argsOf, encodeKeyed, type KeyedMessage } from '../schema/errors.ts';

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

/**
 * Field errors as react-admin 5 shows them beside inputs: `{ "<source>": "message" }`, the message
 * the server's translation key with its arguments in react-admin's text form (`encodeKeyed`), which
 * react-admin's ValidationError and the app's translate() show in the user's language.
 */
export type FieldErrors = Record<string, string>;

/** The server's key for errors of the record as a whole (no field). */
const ROOT_KEY = '_';
/** Where react-admin looks for a form-level server message (it is notified on submit). */
export const ROOT_ERROR_SOURCE = 'root.serverError';

const isKeyed = (value: unknown): value is KeyedMessage =>
  isPlainObject(value) && typeof value.message === 'string';

/** The first keyed message of a field (the one a form shows beside it). */
function firstKeyed(value: unknown): KeyedMessage | undefined {
  const list: unknown[] = Array.isArray(value) ? value : [value];
  return list.find(isKeyed);
}

/**
 * `{ "email_to.email": ["is required"] }` with `error_keys` `{ "email_to.email": [{ message:
 * "app.errors.required" }] }` -> `{ "emailTo.email": "@@react-admin@@{…}" }`: paths camelCased
 * segment by segment, each field's first keyed message (the server lists the most basic first);
 * a field without a key keeps its sentences, joined by '; '.
 */
export function toFieldErrors(errors: unknown, errorKeys?: unknown): FieldErrors {
  const out: FieldErrors = {};
  if (errors === null || typeof errors !== 'object' || Array.isArray(errors)) return out;
  const keys = isPlainObject(errorKeys) ? errorKeys : {};
  for (const [key, value] of Object.entries(errors)) {
    const source = key === ROOT_KEY || key === '' ? ROOT_ERROR_SOURCE : snakePathToCamel(key);
    const keyed = Object.hasOwn(keys, key) ? firstKeyed(keys[key]) : undefined;
    if (keyed) {
      out[source] ??= encodeKeyed(keyed);
      continue;
    }
    const messages = (Array.isArray(value) ? value : [value])
      .filter((message) => message !== null && message !== undefined && message !== '')
      .map(String);
    if (messages.length === 0) continue;
    const message = messages.join('; ');
    out[source] = out[source] ? `${out[source]}; ${message}` : message;
  }
  return out;
}

/**
 * The message of an answer as the app shows it: its key and arguments (`encodeKeyed`, translated
 * by the app's translate()), else the English sentence.
 */
function bodyMessage(body: unknown): string | undefined {
  if (!isPlainObject(body)) return undefined;
  if (typeof body.key === 'string' && body.key !== '') {
    const values = argsOf(body.args);
    return encodeKeyed(values ? { message: body.key, args: values } : { message: body.key });
  }
  const message = body.message;
  return typeof message === 'string' && message !== '' ? message : undefined;
}

export function isAbortError(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { name?: unknown }).name === 'AbortError'
  );
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
      // The message (English and its key) is the error's message; the body keeps the rest.
      const {
        message: _message,
        key: _key,
        args: _args,
        errors,
        error_keys: errorKeys,
        ...rest
      } = isPlainObject(body) ? body : {};
      return new HttpError(message || 'app.errors.invalidData', 422, {
        ...rest,
        errors: toFieldErrors(errors, errorKeys),
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
  // The message is a translation key (the user reads it); what failed stays in the cause.
  const networkError = new HttpError('app.errors.unreachable', 0, {
    request: `${method} ${url}`,
    reason: reason || 'network error',
  });
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
  const body = error.body as { errors?: unknown; error_keys?: unknown } | null;
  const errors = body?.errors;
  return error.status === 422 && isPlainObject(errors)
    ? (errors as FieldErrors)
    : toFieldErrors(errors, body?.error_keys);
}

/** The server's message for one field (camelCase path) of a failed call, or undefined. */
export const fieldErrorOf = (error: unknown, source: string): string | undefined =>
  fieldErrorsOf(error)[source];

/**
 * The field errors as lines `<field>: <message>`, each message in the user's language (`translate`
 * is react-admin's; it reads the keyed form), for an alert that lists them.
 */
export const errorDetails = (
  error: unknown,
  translate: (key: string, options?: Record<string, unknown>) => string,
): string[] =>
  Object.entries(fieldErrorsOf(error)).map(
    ([source, message]) => `${source}: ${translate(message, { _: message })}`,
  );
