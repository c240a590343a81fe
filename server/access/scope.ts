/**
 * The complete record scope of a resource for a principal: the generic visibility of the schema
 * markers (./visibility.ts) and the resource's own scope hook (server/hooks/index.ts). The generic
 * CRUD routes list, read, change and delete only inside it; tests use it to know what a principal
 * should see.
 */
import type { ResourceModel } from '../../src/schema/model.ts';
import type { Principal } from '../auth/permissions.ts';
import type { DB } from '../db/index.ts';
import type { HookContext, ScopeCondition } from '../hooks.ts';
import { RESOURCE_HOOKS } from '../hooks/index.ts';
import { combineScopes, visibilityScope } from './visibility.ts';

export function recordScope(context: HookContext): ScopeCondition {
  return combineScopes(
    visibilityScope(context.model, context.models, context.principal),
    RESOURCE_HOOKS[context.model.name]?.scope?.(context),
  );
}

/** Ids of the given records the principal may see (in the order given). */
export async function visibleIds(
  db: DB,
  model: ResourceModel,
  models: ResourceModel[],
  principal: Principal,
  ids: number[],
): Promise<number[]> {
  if (ids.length === 0) return [];
  const scope = recordScope({
    db,
    model,
    models,
    principal: principal as HookContext['principal'],
  });
  const rows = await db
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
  db: DB,
  model: ResourceModel,
  models: ResourceModel[],
  principal: Principal,
): Promise<number> {
  const scope = recordScope({
    db,
    model,
    models,
    principal: principal as HookContext['principal'],
  });
  const row = await db
    .selectFrom(model.table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where(scope)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
