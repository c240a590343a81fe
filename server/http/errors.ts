/**
 * One error shape for the whole API: `{ message, errors?: { "<field>": ["…"] } }`.
 * Validation of a body answers 422, of a query or path 400; unknown failures answer 500 without
 * internals (they are logged).
 */
import type { FastifyError, FastifyInstance } from 'fastify';
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

export function installErrorHandler(app: FastifyInstance): void {
  // Bodies are JSON only: Fastify's built-in text/plain parser would hand a body sent with the
  // wrong content type to validation as a string (422 "_: must be object") instead of a 415.
  app.removeContentTypeParser('text/plain');
  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    if (error instanceof ApiError) {
      return reply.status(error.statusCode).send({ message: error.message, errors: error.errors });
    }
    if (error.validation) {
      const context = error.validationContext ?? 'body';
      const errors = fieldErrors(error.validation as never);
      const status = context === 'body' ? 422 : 400;
      const where =
        context === 'body'
          ? 'The data is not valid'
          : `Invalid ${context === 'querystring' ? 'query parameter' : 'path parameter'}`;
      return reply
        .status(status)
        .send({ message: `${where}: ${Object.keys(errors).join(', ')}.`, errors });
    }
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.status(500).send({ message: 'Internal server error.' });
    }
    return reply.status(status).send({ message: error.message });
  });
  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send({ message: `No route ${request.method} ${request.url.split('?')[0]}.` });
  });
}
