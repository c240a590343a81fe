/**
 * The complete record scope of a resource for a principal: the generic visibility of the schema
 * markers (./visibility.ts) and the resource's own scope hook (`app.resourceHooks`, registered by
 * the feature that owns the resource). The generic CRUD routes and the hand-written routes list,
 * read, change and delete only inside it; tests use it to know what a principal should see.
 */
import type { FastifyInstance } from 'fastify';
import { type Expression, expressionBuilder, type SqlBool } from 'kysely';
import type { ResourceModel } from '../../src/schema/model.ts';
import type { Principal } from '../auth/permissions.ts';
import type { SessionUser } from '../auth/sessions.ts';
import type { HookContext, ResourceHookRegistry, ScopeCondition } from '../crud/hooks.ts';
import type { DB } from '../db/index.ts';
import { type ResourceTables, resourceDb } from '../db/resource.ts';
import { combineScopes, visibilityScope } from './visibility.ts';

/** What a scope is computed from: the app (or anything holding the same three parts). */
export type ScopeSource = Pick<FastifyInstance, 'db' | 'models' | 'resourceHooks'>;

export function recordScope(hooks: ResourceHookRegistry, context: HookContext): ScopeCondition {
  return combineScopes(
    visibilityScope(context.model, context.models, context.principal),
    hooks.of(context.model.name).scope?.(context),
  );
}

/**
 * A scope as a plain condition, for a hand-written query on a named (typed) table: the scope's
 * builder is that of a resource table, which a typed query's builder is not.
 */
export const scopeExpression = (scope: ScopeCondition): Expression<SqlBool> =>
  scope(expressionBuilder<ResourceTables, string>());

const contextOf = (
  source: ScopeSource,
  model: ResourceModel,
  principal: Principal | undefined,
  db: DB,
): HookContext => ({
  db,
  model,
  models: source.models,
  principal: principal as SessionUser | undefined,
});

/** Ids of the given records the principal may see (in the order given). */
export async function visibleIds(
  source: ScopeSource,
  model: ResourceModel,
  principal: Principal,
  ids: number[],
): Promise<number[]> {
  if (ids.length === 0) return [];
  const scope = recordScope(source.resourceHooks, contextOf(source, model, principal, source.db));
  const rows = await resourceDb(source.db)
    .selectFrom(model.table)
    .select('id')
    .where('id', 'in', ids)
    .where(scope)
    .execute();
  const found = new Set(rows.map((row) => Number(row.id)));
  return ids.filter((id) => found.has(id));
}

/** How many records of the model the principal may see. */
export async function visibleCount(
  source: ScopeSource,
  model: ResourceModel,
  principal: Principal,
): Promise<number> {
  const scope = recordScope(source.resourceHooks, contextOf(source, model, principal, source.db));
  const row = await resourceDb(source.db)
    .selectFrom(model.table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where(scope)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
