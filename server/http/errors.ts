/**
 * One error shape for the whole API (DESIGN.md §7): `{ message, key, args?, errors?: { "<field>":
 * ["…"] }, error_keys?: { "<field>": [{ message: <key>, args? }] } }` — English sentences for API
 * clients and logs, and beside each the translation key (`app.errors.<code>`, src/schema/errors.ts)
 * with its arguments, which the browser shows in the user's language.
 * Validation of a body answers 422, of a query or path 400; Fastify's own refusals (bad JSON, a
 * body too large, a wrong content type, a URL that cannot be decoded) keep their 4xx in the same
 * shape; anything unexpected answers 500 without internals, logged with the request's id, which
 * the answer carries too (`X-Request-Id` on every answer, `request_id` in a 5xx body).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  type ErrorArgs,
  type ErrorCode,
  type ErrorIssue,
  errorKey,
  errorText,
  type FieldErrors,
  issue,
  keyedMessage,
} from '../../src/schema/errors.ts';
import { fieldErrors } from './validation.ts';

export {
  type ErrorCode,
  type ErrorIssue,
  type FieldErrors,
  issue,
} from '../../src/schema/errors.ts';

export class ApiError extends Error {
  readonly issue: ErrorIssue;
  constructor(
    readonly statusCode: number,
    message: ErrorIssue | ErrorCode,
    readonly errors?: FieldErrors,
  ) {
    const found = typeof message === 'string' ? issue(message) : message;
    super(errorText(found));
    this.issue = found;
  }
}

/** The message of a 422 naming its fields. */
const invalidData = (errors: FieldErrors) =>
  issue('invalidData', { fields: namesOf(Object.keys(errors)) });

export const validationError = (errors: FieldErrors, message?: ErrorIssue | ErrorCode) =>
  new ApiError(422, message ?? invalidData(errors), errors);

export const notFound = (what = 'Record') => new ApiError(404, issue('notFound', { what }));

export const forbidden = (message: ErrorIssue | ErrorCode = 'forbidden') =>
  new ApiError(403, message);

/** Throws a 422 when any field has an error (checks that collect errors before answering). */
export function assertNoErrors(errors: FieldErrors, message?: ErrorIssue | ErrorCode): void {
  if (Object.keys(errors).length > 0) throw validationError(errors, message);
}

/** Adds an error to a field (a field's errors are kept in the order found, each once). */
export function addError(errors: FieldErrors, field: string, found: ErrorIssue): void {
  // A field may be named `constructor` or `__proto__` (a client's unknown field): an own property.
  if (!Object.hasOwn(errors, field)) {
    Object.defineProperty(errors, field, {
      value: [],
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  const list = errors[field];
  if (!list.some((known) => errorText(known) === errorText(found))) list.push(found);
}

/** The body of an error answer: English sentences and, beside them, the keys. */
export function errorBody(message: ErrorIssue, errors?: FieldErrors) {
  const { message: key, args } = keyedMessage(message);
  if (!errors) return { message: errorText(message), key, ...(args ? { args } : {}) };
  return {
    message: errorText(message),
    key,
    ...(args ? { args } : {}),
    errors: Object.fromEntries(
      Object.entries(errors).map(([field, found]) => [field, found.map(errorText)]),
    ),
    error_keys: Object.fromEntries(
      Object.entries(errors).map(([field, found]) => [field, found.map(keyedMessage)]),
    ),
  };
}

/** The English sentence and key of a code (for hand-made answers such as NDJSON error lines). */
export const errorLine = (code: ErrorCode, args?: ErrorArgs) => ({
  message: errorText(issue(code, args)),
  key: errorKey(code),
  ...(args ? { args } : {}),
});

/** The header naming a request in answers and logs (and accepted from a proxy in front of us). */
export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * An incoming request id is kept only when it looks like one (a UUID, a proxy's hex or base64url
 * token): short, no spaces, quotes or control characters, so it cannot forge log lines or headers.
 */
const SANE_REQUEST_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{7,63}$/;

/** The id of a request: the proxy's when sane, else a new UUID. */
export function requestIdOf(request: IncomingMessage): string {
  const incoming = request.headers[REQUEST_ID_HEADER];
  return typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/** At most this many field names in a validation answer's sentence (all are in `errors`). */
const NAMES_IN_MESSAGE = 10;

function byParameter(errors: FieldErrors): FieldErrors {
  const out: FieldErrors = {};
  for (const [key, found] of Object.entries(errors)) {
    const name = key.replace(/(\.\d+)+$/, '');
    for (const one of found) addError(out, name, one);
  }
  return out;
}

/** Field names for a message: the first ten, then "and N more". */
function namesOf(names: string[]): string {
  const shown = names.slice(0, NAMES_IN_MESSAGE).join(', ');
  const more =
    names.length > NAMES_IN_MESSAGE ? ` and ${names.length - NAMES_IN_MESSAGE} more` : '';
  return `${shown}${more}`;
}

function validationAnswer(error: FastifyError) {
  const context = error.validationContext ?? 'body';
  const found = fieldErrors(error.validation ?? []);
  // A query parameter taking a list (`lead_source=1&lead_source=x`) is named as sent, not by item.
  const errors = context === 'body' ? found : byParameter(found);
  const status = context === 'body' ? 422 : 400;
  const code: ErrorCode =
    context === 'body'
      ? 'invalidData'
      : context === 'querystring'
        ? 'invalidQuery'
        : context === 'params'
          ? 'invalidPath'
          : 'invalidHeader';
  const fields = namesOf(Object.keys(errors));
  return { status, body: errorBody(issue(code, { fields }), errors) };
}

/** Sentences of Fastify's own refusals (its messages name internals such as content-type parsers). */
const FRAMEWORK_MESSAGES = new Map<string, ErrorCode>([
  ['FST_ERR_CTP_INVALID_JSON_BODY', 'badJson'],
  ['FST_ERR_CTP_EMPTY_JSON_BODY', 'emptyJson'],
  ['FST_ERR_CTP_BODY_TOO_LARGE', 'bodyTooLarge'],
  ['FST_ERR_CTP_INVALID_MEDIA_TYPE', 'mediaType'],
  ['FST_ERR_CTP_INVALID_CONTENT_LENGTH', 'contentLength'],
  ['FST_ERR_BAD_URL', 'badAddress'],
  ['FST_ERR_MAX_PARAM_LENGTH', 'paramTooLong'],
  ['FST_ERR_ASYNC_CONSTRAINT', 'notRoutable'],
]);

/** Answers an unexpected failure: logged with the request id, which the answer carries. */
function internalError(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  request.log.error({ err: error, requestId: request.id }, 'request failed');
  return reply
    .status(500)
    .header(REQUEST_ID_HEADER, request.id)
    .send({ ...errorBody(issue('internal')), request_id: request.id });
}

/** The answer of any error a route, a hook, validation or Fastify itself raised. */
/** The 5xx an ApiError may carry on purpose: an outside service failed, not this server. */
const UPSTREAM_STATUSES = new Set([502, 503, 504]);

function answerError(error: FastifyError | ApiError, request: FastifyRequest, reply: FastifyReply) {
  reply.header(REQUEST_ID_HEADER, request.id);
  if (error instanceof ApiError) {
    // A service of ours that failed (502 Bad Gateway, 503 not configured, 504 timed out) is
    // answered as such, with its message; any other 5xx is an internal error.
    if (error.statusCode >= 500 && !UPSTREAM_STATUSES.has(error.statusCode))
      return internalError(error, request, reply);
    return reply.status(error.statusCode).send(errorBody(error.issue, error.errors));
  }
  if (error.validation) {
    const { status, body } = validationAnswer(error);
    return reply.status(status).send(body);
  }
  const status = error.statusCode;
  // Only a client's fault keeps its status; anything else (no status, 5xx, a mistaken 1xx-3xx) is ours.
  if (typeof status !== 'number' || status < 400 || status >= 500)
    return internalError(error, request, reply);
  // Another refusal of Fastify or a plugin keeps its English sentence under a generic key.
  const code = FRAMEWORK_MESSAGES.get(error.code);
  const body = code
    ? errorBody(issue(code))
    : { ...errorBody(issue('badRequest')), message: error.message };
  return reply.status(status).send(body);
}

/**
 * Fastify's `frameworkErrors` option: a URL it cannot decode (FST_ERR_BAD_URL) or a path parameter
 * over `maxParamLength` never reaches the router's hooks; without this they would answer Fastify's
 * own body, without our shape or headers. Give it to `Fastify({ frameworkErrors })`.
 */
export function frameworkErrors(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  void answerError(error, request, reply);
}

export function installErrorHandler(app: FastifyInstance): void {
  // Bodies are JSON only: Fastify's built-in text/plain parser would hand a body sent with the
  // wrong content type to validation as a string (422 "_: must be object") instead of a 415.
  app.removeContentTypeParser('text/plain');
  // Every request gets an id (a sane one from a proxy, else a UUID) for its logs and its answer.
  app.setGenReqId(requestIdOf);
  app.addHook('onSend', async (request, reply, payload) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    return payload;
  });
  app.setErrorHandler(answerError);
  app.setNotFoundHandler((request, reply) => {
    reply
      .status(404)
      .send(
        errorBody(issue('noRoute', { method: request.method, path: request.url.split('?')[0] })),
      );
  });
}
