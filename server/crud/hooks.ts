/**
 * Per-resource server rules that a schema cannot say: who sees which records (scope), rules across
 * fields or against the database (validate), values the server sets (prepare), and work after a
 * write (afterWrite, same transaction). The generic CRUD routes (./index.ts) call them.
 *
 * The feature that owns a resource registers its hooks from its own plugin
 * (`app.resourceHooks.add('customers', customerHooks)` in server/customers/index.ts), so a new
 * feature never edits a central list. The registry is sealed when the app is ready: hooks for a
 * resource no schema declares (a typo would leave a scope unapplied) stop the start.
 */
import type { Expression, SqlBool } from 'kysely';
import type { ResourceModel } from '../../src/schema/model.ts';
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
  /** After a successful write, in the same transaction. */
  afterWrite?(
    row: ResourceRow,
    context: HookContext & { mode: 'create' | 'update' | 'delete'; existing?: ResourceRow },
  ): Promise<void> | void;
}

const NO_HOOKS: ResourceHooks = Object.freeze({});

/** The hooks of every resource of one app (`app.resourceHooks`). */
export class ResourceHookRegistry {
  private readonly byResource = new Map<string, ResourceHooks>();
  private sealed = false;

  /** Registers the hooks of a resource; one owner per resource. */
  add(resource: string, hooks: ResourceHooks): void {
    if (this.sealed) throw new Error(`Hooks of ${resource} registered after the app started`);
    if (this.byResource.has(resource)) throw new Error(`Hooks of ${resource} registered twice`);
    this.byResource.set(resource, hooks);
  }

  /** The hooks of a resource (none: an empty set). */
  of(resource: string): ResourceHooks {
    return this.byResource.get(resource) ?? NO_HOOKS;
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
