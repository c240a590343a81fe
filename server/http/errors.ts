/**
 * One error shape for the whole API: `{ message, errors?: { "<field>": ["…"] } }`.
 * Validation of a body answers 422, of a query or path 400; Fastify's own refusals (bad JSON, a
 * body too large, a wrong content type, a URL that cannot be decoded) keep their 4xx in the same
 * shape; anything unexpected answers 500 without internals, logged with the request's id, which
 * the answer carries too (`X-Request-Id` on every answer, `request_id` in a 5xx body).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fieldErrors } from './validation.ts';

export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly errors?: Record<string, string[]>,
  ) {
    super(message);
  }
}

export const validationError = (
  errors: Record<string, string[]>,
  message = 'The data is not valid.',
) => new ApiError(422, message, errors);

export const notFound = (what = 'Record') => new ApiError(404, `${what} not found.`);

export const forbidden = (message = 'You do not have permission to do this.') =>
  new ApiError(403, message);

/** Throws a 422 when any field has an error (checks that collect errors before answering). */
export function assertNoErrors(errors: Record<string, string[]>, message?: string): void {
  if (Object.keys(errors).length > 0) throw validationError(errors, message);
}

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

function byParameter(errors: Record<string, string[]>): Record<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [key, messages] of Object.entries(errors)) {
    const name = key.replace(/(\.\d+)+$/, '');
    out.set(name, [...new Set([...(out.get(name) ?? []), ...messages])]);
  }
  return Object.fromEntries(out);
}

function validationAnswer(error: FastifyError) {
  const context = error.validationContext ?? 'body';
  const found = fieldErrors(error.validation ?? []);
  // A query parameter taking a list (`lead_source=1&lead_source=x`) is named as sent, not by item.
  const errors = context === 'body' ? found : byParameter(found);
  const status = context === 'body' ? 422 : 400;
  const where =
    context === 'body'
      ? 'The data is not valid'
      : `Invalid ${context === 'querystring' ? 'query parameter' : context === 'params' ? 'path parameter' : 'header'}`;
  const names = Object.keys(errors);
  const shown = names.slice(0, NAMES_IN_MESSAGE).join(', ');
  const more =
    names.length > NAMES_IN_MESSAGE ? ` and ${names.length - NAMES_IN_MESSAGE} more` : '';
  return { status, body: { message: `${where}: ${shown}${more}.`, errors } };
}

/** Sentences of Fastify's own refusals (its messages name internals such as content-type parsers). */
const FRAMEWORK_MESSAGES = new Map<string, string>([
  ['FST_ERR_CTP_INVALID_JSON_BODY', 'The body is not valid JSON.'],
  ['FST_ERR_CTP_EMPTY_JSON_BODY', 'The body is empty; send a JSON object.'],
  ['FST_ERR_CTP_BODY_TOO_LARGE', 'The body is too large.'],
  ['FST_ERR_CTP_INVALID_MEDIA_TYPE', 'Send the body as application/json.'],
  ['FST_ERR_CTP_INVALID_CONTENT_LENGTH', 'The body is not as long as its Content-Length says.'],
  ['FST_ERR_BAD_URL', 'The address is not valid (it cannot be decoded).'],
  ['FST_ERR_MAX_PARAM_LENGTH', 'A part of the address is too long.'],
  ['FST_ERR_ASYNC_CONSTRAINT', 'The request cannot be routed.'],
]);

/** Answers an unexpected failure: logged with the request id, which the answer carries. */
function internalError(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  request.log.error({ err: error, requestId: request.id }, 'request failed');
  return reply
    .status(500)
    .header(REQUEST_ID_HEADER, request.id)
    .send({ message: 'Internal server error.', request_id: request.id });
}

/** The answer of any error a route, a hook, validation or Fastify itself raised. */
function answerError(error: FastifyError | ApiError, request: FastifyRequest, reply: FastifyReply) {
  reply.header(REQUEST_ID_HEADER, request.id);
  if (error instanceof ApiError) {
    if (error.statusCode >= 500) return internalError(error, request, reply);
    return reply.status(error.statusCode).send({ message: error.message, errors: error.errors });
  }
  if (error.validation) {
    const { status, body } = validationAnswer(error);
    return reply.status(status).send(body);
  }
  const status = error.statusCode;
  // Only a client's fault keeps its status; anything else (no status, 5xx, a mistaken 1xx-3xx) is ours.
  if (typeof status !== 'number' || status < 400 || status >= 500)
    return internalError(error, request, reply);
  const message = FRAMEWORK_MESSAGES.get(error.code) ?? error.message;
  return reply.status(status).send({ message });
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
    reply.status(404).send({ message: `No route ${request.method} ${request.url.split('?')[0]}.` });
  });
}
