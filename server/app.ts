/**
 * Builds the Fastify app: validation and errors, the access hook every route goes through,
 * auth, generic CRUD per schema, OpenAPI docs, and the built web app.
 */
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { ResourceModel } from '../src/schema/model.ts';
import type { AccessRule } from '../src/schema/vocabulary.ts';
import { accessControl } from './access/routes.ts';
import { accountRoutes } from './account/routes.ts';
import { isAllowed } from './auth/permissions.ts';
import { authRoutes, DEFAULT_THROTTLE, type LoginThrottle } from './auth/routes.ts';
import {
  DEFAULT_SESSION_POLICY,
  resolveSession,
  type SessionPolicy,
  type SessionUser,
} from './auth/sessions.ts';
import { crudRoutes } from './crud.ts';
import { customerRoutes } from './customers/routes.ts';
import type { Database, DB } from './db/index.ts';
import { ApiError, installErrorHandler } from './http/errors.ts';
import { mailRoutes } from './mail/index.ts';
import { localizationRoutes } from './i18n/routes.ts';
import { bodyAjv, queryAjv } from './http/validation.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route; every /api route must say (checked at start-up). */
    access?: AccessRule | 'public';
  }
  interface FastifyRequest {
    principal?: SessionUser;
  }
  interface FastifyInstance {
    db: DB;
    database: Database;
    models: ResourceModel[];
  }
}

export interface AppOptions {
  database: Database;
  models: ResourceModel[];
  /** Folder of the built web app; served with an SPA fallback when it exists. */
  webRoot?: string;
  sessionPolicy?: SessionPolicy;
  throttle?: LoginThrottle;
  logger?: boolean;
  /** dev | staging | local | production: the environment strip the web app shows. */
  appEnv?: string;
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ? { level: process.env.LOG_LEVEL ?? 'info' } : false,
    bodyLimit: 1024 * 1024,
    trustProxy: process.env.TRUST_PROXY === '1',
  });
  app.decorate('db', options.database.db);
  app.decorate('database', options.database);
  app.decorate('models', options.models);
  app.decorateRequest('principal', undefined);

  app.setValidatorCompiler(({ schema, httpPart }) =>
    httpPart === 'body' ? bodyAjv.compile(schema) : queryAjv.compile(schema),
  );
  installErrorHandler(app);

  // Fail closed: an API route that does not declare who may call it stops the server from starting.
  app.addHook('onRoute', (route) => {
    if (
      route.url.startsWith('/api/') &&
      !route.url.startsWith('/api/docs') &&
      !route.config?.access
    ) {
      throw new Error(`Route ${route.method} ${route.url} declares no config.access`);
    }
  });

  const policy = options.sessionPolicy ?? DEFAULT_SESSION_POLICY;
  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config?.access;
    if (!access) return;
    const header = request.headers.authorization;
    const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
    if (token) request.principal = await resolveSession(app.db, token, policy);
    if (access === 'public') return;
    if (!request.principal) {
      throw new ApiError(
        401,
        token ? 'Your session has expired. Please sign in again.' : 'Please sign in.',
      );
    }
    if (!isAllowed(access, request.principal)) {
      throw new ApiError(403, 'You do not have permission to do this.');
    }
  });
  accessControl(app); // route table; external users' limits (server/access/routes.ts)

  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'GS CRM API',
        version: '0.1.0',
        description:
          'Provider API of GS CRM. Keys are snake_case; send `Authorization: Bearer <token>` from POST /api/auth/login.',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
    transform: ({ schema, url }) => ({ schema: stripExtensions(schema) as typeof schema, url }),
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });

  app.get(
    '/api/health',
    {
      config: { access: 'public' },
      schema: { tags: ['system'], summary: 'Ready when the server and its database are.' },
    },
    async (_request, reply) => {
      try {
        await sql`select 1`.execute(app.db);
        return { status: 'ok', database: options.database.engine };
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

  authRoutes(app, { policy, throttle: options.throttle ?? DEFAULT_THROTTLE });
  await mailRoutes(app); // outbox and delivery (server/mail)
  accountRoutes(app); // register, password flows, settings, user admin actions (server/account)
  localizationRoutes(app);
  for (const model of options.models) crudRoutes(app, model);
  await app.register(customerRoutes); // documents, import, export, merge (server/customers)

  const webRoot = options.webRoot;
  if (webRoot && fs.existsSync(path.join(webRoot, 'index.html'))) {
    await app.register(fastifyStatic, {
      root: webRoot,
      wildcard: false,
      index: false,
      maxAge: '1h',
    });
    const index = fs.readFileSync(path.join(webRoot, 'index.html'));
    app.get('/*', { config: { access: undefined } }, (request, reply) => {
      if (request.url.startsWith('/api/')) {
        return reply
          .status(404)
          .send({ message: `No route ${request.method} ${request.url.split('?')[0]}.` });
      }
      const file = path.join(webRoot, decodeURIComponent(request.url.split('?')[0]));
      if (file.startsWith(webRoot) && fs.existsSync(file) && fs.statSync(file).isFile()) {
        return reply.sendFile(path.relative(webRoot, file), {
          maxAge: file.includes('/assets/') ? '365d' : 0,
          immutable: file.includes('/assets/'),
        });
      }
      return reply.header('cache-control', 'no-cache').type('text/html').send(index);
    });
  }
  return app;
}

/** OpenAPI has no place for our x- keywords; keep them out of the published document. */
function stripExtensions(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripExtensions);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !key.startsWith('x-'))
      .map(([key, child]) => [
        key,
        key === 'enum' || key === 'default' ? child : stripExtensions(child),
      ]),
  );
}
