/**
 * The system feature: what monitoring and the web app ask before anything else.
 *   GET /api/health   ready when the server and its database are (503 otherwise)
 *   GET /api/config   the environment the web app shows as a strip (public, before sign-in)
 */
import type { FastifyInstance } from 'fastify';

export interface SystemOptions {
  /** dev | staging | local | production. */
  appEnv?: string;
}

export default async function system(app: FastifyInstance, options: SystemOptions): Promise<void> {
  app.get(
    '/api/health',
    {
      config: { access: 'public' },
      schema: { tags: ['system'], summary: 'Ready when the server and its database are.' },
    },
    async (_request, reply) => {
      try {
        // Not `select 1` through app.db: on PGlite (one connection) it would wait behind any
        // running query; ping() answers at once while the database is busy working.
        await app.database.ping();
        return { status: 'ok', database: app.database.engine };
      } catch {
        return reply
          .status(503)
          .send({ status: 'unavailable', message: 'The database does not answer.' });
      }
    },
  );

  app.get(
    '/api/config',
    {
      config: { access: 'public' },
      schema: {
        tags: ['system'],
        summary: 'What the web app needs before sign-in: the environment (strip colour).',
        response: {
          200: { type: 'object', properties: { app_env: { type: 'string' } } },
        },
      },
    },
    async () => ({ app_env: options.appEnv ?? 'production' }),
  );
}
