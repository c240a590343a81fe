/**
 * Builds the Fastify app. First the core every route passes through, installed on the root:
 * validation and errors, access control (sessions, `config.access`, the route table) and the
 * OpenAPI document. Then the features, each one Fastify plugin `server/<feature>/index.ts`
 * registered with one line below: its routes, and the hooks of the resources it owns
 * (`app.resourceHooks`). See docs/ARCHITECTURE.md §2.
 */
import type { AnySchema } from 'ajv';
import Fastify, { type FastifyInstance, type FastifySchemaCompiler } from 'fastify';
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

/**
 * The validators of the routes, one per distinct schema: the generic routes repeat the same
 * schemas (169 route parts, 61 distinct), and compiling is most of what building the app costs.
 * Equal schemas (same JSON) compile to the same validator; a validator keeps no state between
 * calls but the `errors` of the call that just returned, which Fastify reads at once.
 */
function validatorCompiler(): FastifySchemaCompiler<unknown> {
  const compiled = new Map<string, ReturnType<FastifySchemaCompiler<unknown>>>();
  return ({ schema, httpPart }) => {
    const compiler = httpPart === 'body' ? bodyAjv : queryAjv;
    const text = plainJson(schema);
    if (text === undefined) return compiler.compile(schema as AnySchema);
    const key = `${compiler === bodyAjv ? 'body' : 'query'}\0${text}`;
    let validate = compiled.get(key);
    if (!validate) {
      validate = compiler.compile(schema as AnySchema);
      compiled.set(key, validate);
    }
    return validate;
  };
}

/** The schema as JSON text, or undefined when it holds anything JSON would not keep whole. */
function plainJson(schema: unknown): string | undefined {
  let plain = true;
  const text = JSON.stringify(schema, (_key, value: unknown) => {
    const type = typeof value;
    if (type === 'function' || type === 'symbol' || type === 'bigint' || type === 'undefined')
      plain = false;
    else if (type === 'object' && value !== null && !Array.isArray(value)) {
      const prototype = Object.getPrototypeOf(value) as unknown;
      if (prototype !== Object.prototype && prototype !== null) plain = false;
    }
    return value;
  });
  return plain ? text : undefined;
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

  app.setValidatorCompiler(validatorCompiler());
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
