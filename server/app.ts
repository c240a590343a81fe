/**
 * Builds the Fastify app. First the core every route passes through, installed on the root:
 * validation and errors, access control (sessions, `config.access`, the route table) and the
 * OpenAPI document. Then the features, each one Fastify plugin `server/<feature>/index.ts`
 * registered with one line below: its routes, and the hooks of the resources it owns
 * (`app.resourceHooks`). See docs/ARCHITECTURE.md §2.
 */
// Fastify's own serializer factory (fast-json-stringify), what Fastify uses when given none.
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { AnySchema } from 'ajv';
import Fastify, {
  type FastifyInstance,
  type FastifySchemaCompiler,
  type FastifyServerOptions,
} from 'fastify';
import type { ResourceModel } from '../src/schema/model.ts';
import { accessControl } from './access/control.ts';
import account from './account/index.ts';
import audit from './audit/index.ts';
import auth, { DEFAULT_THROTTLE, type LoginThrottle } from './auth/index.ts';
import { DEFAULT_SESSION_POLICY, type SessionPolicy } from './auth/sessions.ts';
import { parseTrustProxy, trustProxyOption } from './config.ts';
import crud from './crud/index.ts';
import { RecordWriters, ResourceHookRegistry } from './crud/hooks.ts';
import appointments from './appointments/index.ts';
import commissions from './commissions/index.ts';
import leads from './leads/index.ts';
import contracts from './contracts/index.ts';
import customers from './customers/index.ts';
import type { Database, DB } from './db/index.ts';
import { frameworkErrors, installErrorHandler } from './http/errors.ts';
import { installOpenApi } from './http/openapi.ts';
import security from './http/security.ts';
import { bodyAjv, queryAjv } from './http/validation.ts';
import i18n from './i18n/index.ts';
import imports from './import/index.ts';
import jobs, { type JobsOptions } from './jobs/index.ts';
import mail from './mail/index.ts';
import notifications from './notifications/index.ts';
import offers from './offers/index.ts';
import comparison from './comparison/index.ts';
import globalCheck from './global-check/index.ts';
import signatures from './signatures/index.ts';
import { type ComparisonConfig, comparisonConfigFromEnv } from './comparison/adapter.ts';
import reminders from './reminders/index.ts';
import reports from './reports/index.ts';
import system from './system/index.ts';
import tasks from './tasks/index.ts';
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
  /**
   * Compile the request validators and the response serializers at first use and right after
   * listening, not while building (the server's start; see routeValidators, routeSerializers).
   * Default false: every schema compiled up front.
   */
  lazyValidators?: boolean;
  /**
   * How long one feature may take to register (Fastify's `pluginTimeout`, default 10 s). The
   * server builds the app while its database opens and migrates (server/main.ts), and features
   * that ask the database while registering wait for that: a first start may take longer.
   */
  pluginTimeout?: number;
  /** The car-comparison service (server/comparison/adapter.ts); default from FS24_URL. */
  comparison?: Partial<ComparisonConfig>;
}

/** A compiled validator as SchemaCompiler makes it (server/http/validation.ts). */
type Validator = ReturnType<typeof bodyAjv.compile>;

/**
 * The validators of the routes, one per distinct schema: the generic routes repeat the same
 * schemas (169 route parts, 61 distinct). Equal schemas (same JSON) share one validator; a
 * validator keeps no state between calls but the `errors` of the call that just returned, which
 * Fastify reads at once.
 *
 * Compiling the 61 takes about 0.6 s of a start. `lazy` (the server, server/main.ts) compiles each
 * at its first use instead, and all the others right after the server listens (`warmUp`, a few
 * milliseconds each between requests): a schema ajv refuses is then reported on the console at
 * start-up, and answers 500 if a request reaches it first. Without `lazy` (the tests) every
 * schema is compiled while the app is built, and a refused one stops it.
 */
export function routeValidators(lazy: boolean) {
  const distinct = new Map<string, Validator>();
  const pending = new PutOff<Validator>('request');

  const compiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart, method, url }) => {
    const ajv = httpPart === 'body' ? bodyAjv : queryAjv;
    const compileNow = () => ajv.compile(schema as AnySchema);
    const text = plainJson(schema);
    const key =
      text === undefined ? undefined : `${httpPart === 'body' ? 'body' : 'query'}\0${text}`;
    const known = key === undefined ? undefined : distinct.get(key);
    if (known) return known;
    const validator = lazy
      ? lazyValidator(compileNow, pending, `${method} ${url} ${httpPart}`)
      : compileNow();
    if (key !== undefined) distinct.set(key, validator);
    return validator;
  };

  /** Compiles the validators no request has needed yet, yielding to requests between them. */
  const warmUp = () => pending.warmUp();
  /**
   * A route's own compiler (a route may bring one: crud's create routes do), made lazy as well
   * when `lazy`: compiled at first use or by the warm-up, not one per route while building.
   */
  const routeCompiler = <S>(own: FastifySchemaCompiler<S>): FastifySchemaCompiler<S> =>
    lazy
      ? (definition) =>
          lazyValidator(
            () => own(definition) as Validator,
            pending,
            `${definition.method} ${definition.url} ${definition.httpPart}`,
          )
      : own;
  return { compiler, routeCompiler, warmUp };
}

/**
 * Compilations put off until their first use or the warm-up after listening (routeValidators,
 * routeSerializers). `warmUp` compiles what no request has needed yet, one per event-loop turn so
 * requests run between them; a schema that does not compile is reported on the console.
 */
class PutOff<T> {
  private readonly pending = new Set<{ compile: () => T; route: string }>();

  /** `what`: whose schemas these are, for the console (request, response). */
  constructor(private readonly what: string) {}

  /** `compileNow` put off: answers a function that compiles it once and then answers it. */
  add(compileNow: () => T, route: string): () => T {
    let compiled: T | undefined;
    const entry = {
      route,
      compile: () => {
        if (compiled === undefined) {
          this.pending.delete(entry);
          compiled = compileNow();
        }
        return compiled;
      },
    };
    this.pending.add(entry);
    return entry.compile;
  }

  async warmUp(): Promise<void> {
    for (const entry of [...this.pending]) {
      await new Promise((resolve) => setImmediate(resolve));
      if (!this.pending.has(entry)) continue;
      try {
        entry.compile();
      } catch (error) {
        console.error(
          `The ${this.what} schema of ${entry.route} does not compile: ${(error as Error).message}`,
        );
      }
    }
  }
}

/** A validator compiled at its first call (or by warm-up). */
function lazyValidator(
  compileNow: () => Validator,
  pending: PutOff<Validator>,
  route: string,
): Validator {
  const compile = pending.add(compileNow, route);
  const validate = (data: unknown, dataCxt?: Parameters<Validator>[1]): data is unknown => {
    const compiled = compile();
    const valid = compiled(data, dataCxt);
    checked.errors = compiled.errors;
    return valid;
  };
  // Fastify hands the parent of the data (so ajv can coerce a root value) when it sees schemaEnv,
  // which every validator of SchemaCompiler has.
  const checked = Object.assign(validate, { errors: null as Validator['errors'], schemaEnv: {} });
  return checked as unknown as Validator;
}

/** A response serializer as Fastify's default compiler (fast-json-stringify) makes it. */
type Serializer = (data: unknown) => string;
/** Fastify's `schemaController.compilersFactory.buildSerializer`. */
type SerializerFactory = NonNullable<
  NonNullable<
    NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']
  >['buildSerializer']
>;

/**
 * The response serializers of the routes: Fastify's own (fast-json-stringify), one per distinct
 * response schema. Compiling them takes about 0.3 s of a start; `lazy` (the server) compiles each
 * at its first use instead, and the others right after listening (`warmUp`), as routeValidators
 * does with the request validators. A schema fast-json-stringify refuses is then reported on the
 * console at start-up, and answers 500 if a request reaches it first; without `lazy` (the tests)
 * it stops the build.
 */
export function routeSerializers(lazy: boolean) {
  const pending = new PutOff<Serializer>('response');
  const defaults: SerializerFactory = SerializerSelector();

  const buildSerializer: SerializerFactory = (externalSchemas, serializerOptions) => {
    const compileWith = defaults(externalSchemas, serializerOptions);
    const distinct = new Map<string, Serializer>();
    return (route) => {
      const text = plainJson(route.schema);
      const known = text === undefined ? undefined : distinct.get(text);
      if (known) return known;
      const compileNow = () => compileWith(route) as Serializer;
      const serializer: Serializer = lazy
        ? (() => {
            const compile = pending.add(
              compileNow,
              `${route.method} ${route.url} ${route.httpStatus}`,
            );
            return (data: unknown) => compile()(data);
          })()
        : compileNow();
      if (text !== undefined) distinct.set(text, serializer);
      return serializer;
    };
  };

  /** Compiles the serializers no answer has needed yet, yielding to requests between them. */
  const warmUp = () => pending.warmUp();
  return { buildSerializer, warmUp };
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
  const lazy = options.lazyValidators ?? false;
  const serializers = routeSerializers(lazy);
  const app = Fastify({
    logger: options.logger ? { level: process.env.LOG_LEVEL ?? 'info' } : false,
    bodyLimit: 1024 * 1024,
    trustProxy: trustProxyOption(parseTrustProxy(process.env.TRUST_PROXY)),
    frameworkErrors,
    ...(options.pluginTimeout === undefined ? {} : { pluginTimeout: options.pluginTimeout }),
    schemaController: { compilersFactory: { buildSerializer: serializers.buildSerializer } },
  });
  app.decorate('db', options.database.db);
  app.decorate('database', options.database);
  app.decorate('models', options.models);
  app.decorate('resourceHooks', new ResourceHookRegistry());
  app.decorate('records', new RecordWriters());
  app.decorate('comparison', { ...comparisonConfigFromEnv(), ...options.comparison });
  app.addHook('onReady', async () => app.resourceHooks.seal(app.models));

  const validators = routeValidators(lazy);
  app.setValidatorCompiler(validators.compiler);
  if (lazy) {
    app.addHook('onRoute', (route) => {
      if (route.validatorCompiler)
        route.validatorCompiler = validators.routeCompiler(route.validatorCompiler);
    });
    app.addHook('onListen', async () => {
      setImmediate(() => void validators.warmUp().then(serializers.warmUp));
    });
  }
  installErrorHandler(app);
  await app.register(security); // server/http/security.ts: headers on every answer, before access
  await app.register(compression); // server/web/compression.ts: JSON answers compressed, not streams
  const policy = options.sessionPolicy ?? DEFAULT_SESSION_POLICY;
  accessControl(app, { policy }); // server/access/control.ts
  await installOpenApi(app);
  // The server builds the app while its database opens (server/main.ts): a turn of the event loop
  // between features lets the start's own database steps go on (Fastify loads plugins in one
  // chain of ticks, which would hold them up until a feature waits for the database).
  const yieldTurn = async () => {
    if (lazy) await new Promise((resolve) => setImmediate(resolve));
  };
  await yieldTurn();

  // Features: one line each. Those that need no database while they register come first: the
  // server builds the app while its database opens (server/main.ts), and the job queue's start
  // waits for the database.
  await app.register(system, { appEnv: options.appEnv });
  await yieldTurn();
  await app.register(auth, { policy, throttle: options.throttle ?? DEFAULT_THROTTLE });
  await yieldTurn();
  await app.register(account);
  await yieldTurn();
  await app.register(i18n);
  await yieldTurn();
  await app.register(crud);
  await yieldTurn();
  await app.register(customers);
  await yieldTurn();
  await app.register(contracts);
  await yieldTurn();
  await app.register(notifications);
  await yieldTurn();
  await app.register(jobs, options.jobs ?? {}); // before the features that define jobs
  await app.register(mail);
  await app.register(appointments); // after jobs and mail: sends notifications and mails
  await app.register(leads); // after appointments: extends their hooks and feedback
  await app.register(imports); // CSV imports of customers and leads: after both
  await app.register(commissions); // after contracts and appointments: follows their writes
  await app.register(offers); // after commissions: an accepted offer's closure is settled
  await app.register(comparison); // after offers: chosen results become offers
  await app.register(globalCheck); // after offers and comparison: gaps become reminders or leads
  await app.register(signatures); // after contracts and commissions: a signed mandate settles
  await app.register(reminders);
  await app.register(tasks);
  await app.register(reports);
  await app.register(audit);
  await app.register(web, { webRoot: options.webRoot });
  return app;
}
