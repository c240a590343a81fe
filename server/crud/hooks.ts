/**
 * Per-resource server rules that a schema cannot say: who sees which records (scope), rules across
 * fields or against the database (validate), values the server sets (prepare), and work after a
 * write (afterWrite, same transaction), and what a list accepts beyond the schema's filters
 * (listParameters, listConditions, searchAlso). The generic CRUD routes (./index.ts) call them.
 *
 * The feature that owns a resource registers its hooks from its own plugin
 * (`app.resourceHooks.add('customers', customerHooks)` in server/customers/index.ts), so a new
 * feature never edits a central list. The registry is sealed when the app is ready: hooks for a
 * resource no schema declares (a typo would leave a scope unapplied) stop the start.
 *
 * `RecordWriters` (`app.records`): the generic create of each resource, for a feature that makes
 * another resource's record inside its own transaction (an accepted offer its closure).
 */
import type { FastifyRequest } from 'fastify';
import type { Expression, SqlBool } from 'kysely';
import type { JsonSchema, ResourceModel } from '../../src/schema/model.ts';
import type { SessionUser } from '../auth/sessions.ts';
import type { DB } from '../db/index.ts';
import type { ResourceExpressionBuilder, ResourceRow } from '../db/resource.ts';
import { type FieldErrors } from '../http/errors.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Hooks of the resources, registered by the features that own them. */
    resourceHooks: ResourceHookRegistry;
  }
}

export interface HookContext {
  db: DB;
  model: ResourceModel;
  models: ResourceModel[];
  principal?: SessionUser;
}

export interface WriteContext extends HookContext {
  mode: 'create' | 'update';
  /**
   * The stored record, on update: locked until the write's transaction ends, so rules across
   * fields that merge it with the body see what will really be overwritten.
   */
  existing?: ResourceRow;
}

/**
 * A where-condition on the resource's table (the table is chosen at run time: server/db/resource.ts).
 * Hand-written queries on a named table apply it with `scopeExpression` (server/access/scope.ts).
 */
export type ScopeCondition = (eb: ResourceExpressionBuilder) => Expression<SqlBool>;

export interface ResourceHooks {
  /** Limits the records the principal may list, read, change and delete; undefined: all. */
  scope?(context: HookContext): ScopeCondition | undefined;
  /** Rules across fields or against the database: field errors (answered with 422), or none. */
  validate?(
    body: ResourceRow,
    context: WriteContext,
  ): Promise<FieldErrors | undefined> | FieldErrors | undefined;
  /** Column values the server sets or overrides before the write. */
  prepare?(values: ResourceRow, context: WriteContext): Promise<ResourceRow> | ResourceRow;
  /**
   * Query-string parameters of the resource's list beyond its schema's filters (wire name → JSON
   * schema, e.g. `assignment: { enum: [...] }`): declared on the list route, so validation refuses
   * bad values with 400 and OpenAPI documents them. listConditions reads them.
   */
  listParameters?: Record<string, JsonSchema>;
  /**
   * Where-conditions of a list request beyond the schema's filters (all must hold), from the
   * validated query (its listParameters included); none: an empty list. Keep them index-friendly
   * (`col in (select id from … where …)`): they run on every page and count.
   */
  listConditions?(query: Record<string, unknown>, context: HookContext): ScopeCondition[];
  /**
   * More places one word of `search=` may be found in besides the resource's own search document
   * (any of them may match; every word must match somewhere). `pattern` is the word folded and
   * escaped as a `like` pattern (`%word%`); compare it to folded text (`gscrm_fold`, or another
   * table's `search_document`), e.g. `customer_id in (select id from customers where
   * search_document like gscrm_fold(pattern))`.
   */
  searchAlso?(eb: ResourceExpressionBuilder, pattern: string): Expression<SqlBool>[];
  /**
   * What the principal may see of records about to be answered (list, read, write, conflict):
   * answers them with fields blanked (a lead's contact details its source hides from the role).
   * Runs once per answer on all its records. A write must then keep what it did not show
   * (`prepare` drops the blanked fields a client sends back).
   */
  present?(rows: ResourceRow[], context: HookContext): Promise<ResourceRow[]> | ResourceRow[];
  /** After a successful write, in the same transaction. */
  afterWrite?(
    row: ResourceRow,
    context: HookContext & { mode: 'create' | 'update' | 'delete'; existing?: ResourceRow },
  ): Promise<void> | void;
}

const NO_HOOKS: ResourceHooks = Object.freeze({});

/**
 * What another feature adds to a resource it does not own: more rules (validate, errors merged
 * with the owner's) and more work after a write (afterWrite, after the owner's, same
 * transaction). The leads feature closes a lead when an appointment is booked from it.
 */
export type ResourceExtension = Pick<ResourceHooks, 'validate' | 'afterWrite'>;

/** The hooks of every resource of one app (`app.resourceHooks`). */
export class ResourceHookRegistry {
  private readonly byResource = new Map<string, ResourceHooks>();
  private readonly extensions = new Map<string, Map<string, ResourceExtension>>();
  private readonly combined = new Map<string, ResourceHooks>();
  private readonly listSchemas = new Map<string, JsonSchema>();
  private sealed = false;

  /** Registers the hooks of a resource; one owner per resource. */
  add(resource: string, hooks: ResourceHooks): void {
    if (this.sealed) throw new Error(`Hooks of ${resource} registered after the app started`);
    if (this.byResource.has(resource)) throw new Error(`Hooks of ${resource} registered twice`);
    this.byResource.set(resource, hooks);
    const schema = this.listSchemas.get(resource);
    if (schema) addListParameters(resource, schema, hooks);
  }

  /**
   * The query-string schema of a resource's list route (the generic CRUD plugin, which registers
   * before the features): the hooks' listParameters are added to it, whichever comes first. Fastify
   * compiles route schemas when the app gets ready, after every feature registered.
   */
  listSchema(resource: string, schema: JsonSchema): JsonSchema {
    if (this.sealed) throw new Error(`List schema of ${resource} given after the app started`);
    this.listSchemas.set(resource, schema);
    const hooks = this.byResource.get(resource);
    if (hooks) addListParameters(resource, schema, hooks);
    return schema;
  }

  /** Adds another feature's rules and after-write work to a resource (one per name). */
  extend(resource: string, name: string, extension: ResourceExtension): void {
    if (this.sealed)
      throw new Error(`Extension ${name} of ${resource} added after the app started`);
    const own = this.extensions.get(resource) ?? new Map<string, ResourceExtension>();
    if (own.has(name)) throw new Error(`Extension ${name} of ${resource} added twice`);
    own.set(name, extension);
    this.extensions.set(resource, own);
    this.combined.delete(resource);
  }

  /** The hooks of a resource (none: an empty set), with the extensions of other features. */
  of(resource: string): ResourceHooks {
    const hooks = this.byResource.get(resource) ?? NO_HOOKS;
    const extensions = [...(this.extensions.get(resource)?.values() ?? [])];
    if (extensions.length === 0) return hooks;
    const known = this.combined.get(resource);
    if (known) return known;
    const validators = [hooks, ...extensions].flatMap((one) =>
      one.validate ? [one.validate] : [],
    );
    const afters = [hooks, ...extensions].flatMap((one) =>
      one.afterWrite ? [one.afterWrite] : [],
    );
    const combined: ResourceHooks = {
      ...hooks,
      validate: async (body, context) => {
        let errors: FieldErrors | undefined;
        for (const validate of validators) {
          const found = await validate(body, context);
          if (found) errors = mergeErrors(errors, found);
        }
        return errors;
      },
      afterWrite: async (row, context) => {
        for (const after of afters) await after(row, context);
      },
    };
    this.combined.set(resource, combined);
    return combined;
  }

  /** At start-up: every hooked resource must be a model of the app; no registration after. */
  seal(models: ResourceModel[]): void {
    const names = new Set(models.map((model) => model.name));
    const unknown = [...this.byResource.keys()].filter((resource) => !names.has(resource));
    if (unknown.length > 0) {
      throw new Error(`Resource hooks for resources without a schema: ${unknown.join(', ')}`);
    }
    this.sealed = true;
  }
}

function addListParameters(resource: string, schema: JsonSchema, hooks: ResourceHooks): void {
  const properties = (schema.properties ??= {});
  for (const [name, parameter] of Object.entries(hooks.listParameters ?? {})) {
    if (name in properties)
      throw new Error(`List parameter ${name} of ${resource} is already a list parameter`);
    properties[name] = parameter;
  }
}

function mergeErrors(into: FieldErrors | undefined, more: FieldErrors): FieldErrors {
  const out: FieldErrors = { ...into };
  for (const [field, issues] of Object.entries(more))
    out[field] = [...(out[field] ?? []), ...issues];
  return out;
}

/** What another feature may do with a resource's records inside its own transaction. */
export interface RecordWriter {
  /** Creates a record as POST /api/<resource> would (validation, hooks, ownership, audit). */
  create(trx: DB, request: FastifyRequest, body: ResourceRow): Promise<ResourceRow>;
}

/** The resources' writers by resource name (`app.records`). */
export class RecordWriters {
  private readonly writers = new Map<string, RecordWriter>();

  register(resource: string, writer: RecordWriter): void {
    this.writers.set(resource, writer);
  }

  of(resource: string): RecordWriter {
    const writer = this.writers.get(resource);
    if (!writer) throw new Error(`No resource ${resource}`);
    return writer;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    records: RecordWriters;
  }
}
