/**
 * Visibility for the hand-written customer routes: the same rule as the generic CRUD routes
 * (server/access/scope.ts: the schema markers plus the resource's own scope hook), so a record
 * these routes touch is exactly one the user could read through `GET /api/<resource>/:id`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ResourceModel } from '../../src/schema/model.ts';
import { recordScope } from '../access/scope.ts';
import type { SessionUser } from '../auth/sessions.ts';
import type { DB } from '../db/index.ts';
import { type ResourceRow, resourceDb } from '../db/resource.ts';
import type { ScopeCondition } from '../crud/hooks.ts';
import { ApiError, issue, notFound } from '../http/errors.ts';
import { dataSchema } from '../http/lists.ts';
import { responseSchema } from '../http/validation.ts';

export function modelOf(app: FastifyInstance, name: string): ResourceModel {
  const model = app.models.find((candidate) => candidate.name === name);
  if (!model) throw new Error(`no resource model ${name}`);
  return model;
}

/**
 * Response schema `{ data: <record> }` of a resource: the same as its generic routes answer (dates
 * as YYYY-MM-DD whatever the engine returns).
 */
export const recordAnswer = (app: FastifyInstance, resource: string) =>
  dataSchema(responseSchema(modelOf(app, resource).schema));

/** Where-condition of the records of `resource` the principal sees. */
export function scopeFor(
  app: FastifyInstance,
  resource: string,
  principal: SessionUser | undefined,
  db: DB = app.db,
): ScopeCondition {
  const model = modelOf(app, resource);
  return recordScope(app.resourceHooks, { db, model, models: app.models, principal });
}

/** The stored record, when it exists and the principal sees it. */
export async function visibleRow(
  app: FastifyInstance,
  request: FastifyRequest,
  resource: string,
  id: number,
  db: DB = app.db,
): Promise<ResourceRow | undefined> {
  const model = modelOf(app, resource);
  return resourceDb(db)
    .selectFrom(model.table)
    .selectAll()
    .where('id', '=', id)
    .where(scopeFor(app, resource, request.principal, db))
    .executeTakeFirst();
}

/** Like visibleRow, but answers 404 (the same as an id that does not exist). */
export async function requireVisible(
  app: FastifyInstance,
  request: FastifyRequest,
  resource: string,
  id: number,
  db: DB = app.db,
): Promise<ResourceRow> {
  const row = await visibleRow(app, request, resource, id, db);
  if (!row) throw notFound(modelOf(app, resource).title);
  return row;
}

/** Roles that merge customers (an admin task: it deletes one of the two). */
export const MERGE_ROLES = new Set(['ADMIN', 'BACKOFFICE']);
/** Roles that import customers (the back office of the admin area). */
export const IMPORT_ROLES = new Set(['ADMIN', 'BACKOFFICE', 'BACKOFFICE-CALLCENTER']);

export function requireRole(
  request: FastifyRequest,
  roles: ReadonlySet<string>,
  what: string,
): SessionUser {
  const principal = request.principal;
  if (!principal || principal.subBrokerId || !roles.has(principal.role)) {
    throw new ApiError(403, issue('backOfficeAction', { action: what }));
  }
  return principal;
}
