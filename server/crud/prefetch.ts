/**
 * Referenced records sent with a list's page (react-admin's `meta.prefetched`): a list that shows
 * reference columns asks for them with `_prefetch=<column>` (repeated), and its answer carries
 * `meta.prefetched: { <resource>: [record, …] }`, the records those columns of the page name.
 * react-admin puts them in its query cache, so the reference cells render with the rows instead of
 * asking `getMany` for each referenced resource after the page arrived.
 *
 * The records are exactly those the same principal's `getMany` would answer
 * (`GET /api/<resource>?id=…`): only of resources the principal may read (their x-permissions
 * read rule), only inside the principal's scope of that resource (server/access/scope.ts), and
 * serialized with the resource's own response schema (no column the resource's routes do not send).
 * A record the principal may not read is left out, as `getMany` leaves it out; the cell then shows
 * what it shows for it today.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FieldModel, JsonSchema, ResourceModel } from '../../src/schema/model.ts';
import { recordScope } from '../access/scope.ts';
import { isAllowed } from '../auth/permissions.ts';
import { type ResourceRow, resourceDb } from '../db/resource.ts';
import { listMetaSchema } from '../http/lists.ts';
import { responseSchema } from '../http/validation.ts';
import { MAX_PER_PAGE } from './list.ts';

/** The query-string parameter naming the reference columns to prefetch. */
export const PREFETCH_PARAM = '_prefetch';

/** More distinct ids than this in one column of a page: that column is not prefetched. */
const MAX_IDS = MAX_PER_PAGE;

/** The reference columns of a model whose records can be prefetched (targets that are models). */
export function prefetchFields(model: ResourceModel, models: ResourceModel[]): FieldModel[] {
  return model.fields.filter(
    (field) =>
      (field.kind === 'reference' || field.kind === 'references') &&
      models.some((target) => target.name === field.reference),
  );
}

/** The list's query schema with `_prefetch` added, when the model has reference columns. */
export function withPrefetchParam(
  model: ResourceModel,
  models: ResourceModel[],
  schema: JsonSchema,
): JsonSchema {
  const fields = prefetchFields(model, models);
  if (fields.length === 0) return schema;
  return {
    ...schema,
    properties: {
      ...schema.properties,
      [PREFETCH_PARAM]: {
        type: 'array',
        maxItems: fields.length,
        uniqueItems: true,
        items: { type: 'string', enum: fields.map((field) => field.column) },
        description:
          "Reference columns whose records the answer carries in meta.prefetched (by resource), as the principal's getMany of them would answer them.",
      },
    },
  };
}

/** The list answer's `meta` schema, with `prefetched` when the model has reference columns. */
export function prefetchMetaSchema(model: ResourceModel, models: ResourceModel[]) {
  const targets = [...new Set(prefetchFields(model, models).map((field) => field.reference!))];
  if (targets.length === 0) return listMetaSchema();
  const records = (name: string) => models.find((target) => target.name === name)!;
  return listMetaSchema({
    prefetched: {
      type: 'object',
      description: 'Records the page names in the columns asked for with _prefetch, by resource.',
      additionalProperties: false,
      properties: Object.fromEntries(
        targets.map((name) => [
          name,
          { type: 'array', items: responseSchema(records(name).schema) },
        ]),
      ),
    },
  });
}

/** The distinct ids a column holds in the rows (a scalar reference or a list of them). */
function idsOf(rows: ResourceRow[], field: FieldModel): number[] {
  const ids = new Set<number>();
  for (const row of rows) {
    const value = row[field.column];
    for (const item of Array.isArray(value) ? value : [value]) {
      const id = typeof item === 'string' ? Number(item) : item;
      if (typeof id === 'number' && Number.isSafeInteger(id) && id > 0) ids.add(id);
    }
  }
  return [...ids];
}

/**
 * The records the page's rows name in the asked columns, by resource, read as the principal's
 * getMany would: undefined when nothing was asked for.
 */
export async function prefetchedRecords(
  app: Pick<FastifyInstance, 'db' | 'models' | 'resourceHooks'>,
  request: Pick<FastifyRequest, 'principal'>,
  model: ResourceModel,
  rows: ResourceRow[],
  columns: unknown,
): Promise<Record<string, ResourceRow[]> | undefined> {
  if (!Array.isArray(columns) || columns.length === 0) return undefined;
  const principal = request.principal;
  const idsByTarget = new Map<ResourceModel, Set<number>>();
  for (const field of prefetchFields(model, app.models)) {
    if (!columns.includes(field.column)) continue;
    const target = app.models.find((candidate) => candidate.name === field.reference)!;
    // The target's list route would refuse the principal: nothing of it.
    if (!isAllowed(target.permissions.read, principal)) continue;
    const ids = idsOf(rows, field);
    if (ids.length > MAX_IDS) continue;
    const known = idsByTarget.get(target) ?? new Set<number>();
    for (const id of ids) known.add(id);
    idsByTarget.set(target, known);
  }
  const prefetched: Record<string, ResourceRow[]> = {};
  await Promise.all(
    [...idsByTarget].map(async ([target, ids]) => {
      if (ids.size === 0 || ids.size > MAX_IDS) return;
      const context = { db: app.db, model: target, models: app.models, principal };
      const scope = recordScope(app.resourceHooks, context);
      const rows = await resourceDb(app.db)
        .selectFrom(target.table)
        .selectAll()
        .where('id', 'in', [...ids])
        .where(scope)
        .orderBy('id')
        .execute();
      // As the target's own routes answer them (its present hook).
      const present = app.resourceHooks.of(target.name).present;
      prefetched[target.name] = present && rows.length > 0 ? await present(rows, context) : rows;
    }),
  );
  return prefetched;
}

/**
 * A list answer with `meta.prefetched` when the query asked for it (`_prefetch`); the answer as it
 * was otherwise.
 */
export async function withPrefetched<A extends { data: ResourceRow[]; meta: object }>(
  app: Pick<FastifyInstance, 'db' | 'models' | 'resourceHooks'>,
  request: Pick<FastifyRequest, 'principal' | 'query'>,
  model: ResourceModel,
  answer: A,
): Promise<A> {
  const columns = (request.query as Record<string, unknown> | undefined)?.[PREFETCH_PARAM];
  const prefetched = await prefetchedRecords(app, request, model, answer.data, columns);
  return prefetched ? { ...answer, meta: { ...answer.meta, prefetched } } : answer;
}
