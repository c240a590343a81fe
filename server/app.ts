/**
 * Builds the Fastify app. First the core every route passes through, installed on the root:
 * validation and errors, access control (sessions, `config.access`, the route table) and the
 * OpenAPI document. Then the features, each one Fastify plugin `server/<feature>/index.ts`
 * registered with one line below: its routes, and the hooks of the resources it owns
 * (`app.resourceHooks`). See docs/ARCHITECTURE.md §2.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import type { ResourceModel } from '../src/schema/model.ts';
import { accessControl } from './access/control.ts';
import account from './account/index.ts';
import audit from './audit/index.ts';
import auth, { DEFAULT_THROTTLE, type LoginThrottle } from './auth/index.ts';
import { DEFAULT_SESSION_POLICY, type SessionPolicy } from './auth/sessions.ts';
import { parseTrustProxy, trustProxyOption } from './config.ts';
import crud from './crud/index.ts';
import { ResourceHookRegistry } from './crud/hooks.ts';
import customers from './customers/index.ts';
import type { Database, DB } from './db/index.ts';
import { frameworkErrors, installErrorHandler } from './http/errors.ts';
import { installOpenApi } from './http/openapi.ts';
import security from './http/security.ts';
import { bodyAjv, queryAjv } from './http/validation.ts';
import i18n from './i18n/index.ts';
import jobs, { type JobsOptions } from './jobs/index.ts';
import mail from './mail/index.ts';
import notifications from './notifications/index.ts';
import system from './system/index.ts';
import compression from './web/compression.ts';
import web from './web/index.ts';

declare module 'fastify' {
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
  /** Background jobs: `work` runs the workers here (the server process; off in API tests). */
  jobs?: JobsOptions;
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ? { level: process.env.LOG_LEVEL ?? 'info' } : false,
    bodyLimit: 1024 * 1024,
    trustProxy: trustProxyOption(parseTrustProxy(process.env.TRUST_PROXY)),
    frameworkErrors,
  });
  app.decorate('db', options.database.db);
  app.decorate('database', options.database);
  app.decorate('models', options.models);
  app.decorate('resourceHooks', new ResourceHookRegistry());
  app.addHook('onReady', async () => app.resourceHooks.seal(app.models));

  app.setValidatorCompiler(({ schema, httpPart }) =>
    httpPart === 'body' ? bodyAjv.compile(schema) : queryAjv.compile(schema),
  );
  installErrorHandler(app);
  await app.register(security); // server/http/security.ts: headers on every answer, before access
  await app.register(compression); // server/web/compression.ts: JSON answers compressed, not streams
  const policy = options.sessionPolicy ?? DEFAULT_SESSION_POLICY;
  accessControl(app, { policy }); // server/access/control.ts
  await installOpenApi(app);

  // Features: one line each.
  await app.register(system, { appEnv: options.appEnv });
  await app.register(auth, { policy, throttle: options.throttle ?? DEFAULT_THROTTLE });
  await app.register(jobs, options.jobs ?? {}); // before the features that send jobs
  await app.register(mail);
  await app.register(account);
  await app.register(i18n);
  await app.register(crud);
  await app.register(customers);
  await app.register(notifications);
  await app.register(audit);
  await app.register(web, { webRoot: options.webRoot });
  return app;
}
