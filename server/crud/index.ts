/**
 * The generic CRUD feature: routes for every resource model (provider API, docs/ARCHITECTURE.md §3):
 *   GET    /api/<resource>?page&per_page&sort&order&search&<filters>  → { data: [...], meta }
 *   GET    /api/<resource>/:id                                       → { data }
 *   POST   /api/<resource>                                           → 201 { data }
 *   PUT    /api/<resource>/:id   (complete record; fields left out keep their value) → { data }
 *   PATCH  /api/<resource>/:id   (some fields)                       → { data }
 *   DELETE /api/<resource>/:id                                       → { data }
 * Everything on the wire is snake_case; bodies are validated against the schema before any write.
 * A resource's own rules come from the hooks its feature registered (./hooks.ts).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { ResourceModel } from '../../src/schema/model.ts';
import { recordScope } from '../access/scope.ts';
import { enforceOwnership } from '../access/visibility.ts';
import type { DB } from '../db/index.ts';
import { type ResourceRow, resourceDb } from '../db/resource.ts';
import { assertNoErrors, notFound } from '../http/errors.ts';
import { COUNT_TOTAL, dataSchema, listSchema, offsetOf, pageAnswer } from '../http/lists.ts';
import { type IdParams, idParams } from '../http/params.ts';
import { createAjvInstance, inputSchema, responseSchema } from '../http/validation.ts';
import type { HookContext, WriteContext } from './hooks.ts';
import { filterExpressions, type ListQuery, listQuerySchema } from './list.ts';
import { checkReferences, refuseIfListed, toColumns, translateDbError } from './write.ts';

/** Registers the routes of every schema resource. */
export default async function crud(app: FastifyInstance): Promise<void> {
  for (const model of app.models) resourceRoutes(app, model);
}

function resourceRoutes(app: FastifyInstance, model: ResourceModel): void {
  const { db } = app;
  const base = `/api/${model.name}`;
  const record = responseSchema(model.schema);
  const one = dataSchema(record);
  const tags = [model.name];
  const title = model.title.toLowerCase();
  const defaultSort = model.resource.defaultSort;
  const defaultSortColumn =
    model.fields.find((field) => field.name === defaultSort?.field)?.column ?? 'id';
  const access = model.permissions;
  // Looked up per request: the owning feature may register its hooks after this plugin.
  const hooks = () => app.resourceHooks.of(model.name);

  const contextOf = (request: FastifyRequest, database: DB = db): HookContext => ({
    db: database,
    model,
    models: app.models,
    principal: request.principal,
  });
  /**
   * The principal's visibility as a where-condition (always true when unrestricted): the generic
   * owner / sub-broker scope of the schema markers (server/access) and the resource's own hook.
   */
  const scopeOf = (context: HookContext) => recordScope(app.resourceHooks, context);

  const findOne = (context: HookContext, id: number) =>
    resourceDb(context.db)
      .selectFrom(model.table)
      .selectAll()
      .where('id', '=', id)
      .where(scopeOf(context))
      .executeTakeFirst();

  /** Validation hooks, references, prepare, write and afterWrite, in one transaction. */
  const write = (request: FastifyRequest, body: ResourceRow, id?: number) =>
    db
      .transaction()
      .execute(async (trx) => {
        const own = hooks();
        const base = contextOf(request, trx);
        const existing = id === undefined ? undefined : await findOne(base, id);
        if (id !== undefined && !existing) throw notFound(model.title);
        const context: WriteContext = {
          ...base,
          mode: id === undefined ? 'create' : 'update',
          existing,
        };
        const errors = await own.validate?.(body, context);
        if (errors) assertNoErrors(errors);
        await checkReferences(trx, model, body);
        let values = toColumns(model, body);
        if (own.prepare) values = await own.prepare(values, context);
        values = await enforceOwnership(values, context);
        const table = resourceDb(trx);
        const row =
          id === undefined
            ? await table
                .insertInto(model.table)
                .values(Object.keys(values).length > 0 ? values : { id: sql`default` })
                .returningAll()
                .executeTakeFirstOrThrow()
            : await table
                .updateTable(model.table)
                .set({ ...values, updated_at: sql`now()` })
                .where('id', '=', id)
                .returningAll()
                .executeTakeFirstOrThrow();
        await own.afterWrite?.(row, { ...base, mode: context.mode, existing });
        return row;
      })
      .catch((error: unknown) => translateDbError(model, error));

  app.get<{ Querystring: ListQuery }>(
    base,
    {
      config: { access: access.read },
      schema: {
        tags,
        summary: `List ${title} records`,
        querystring: listQuerySchema(model),
        response: { 200: listSchema(record) },
      },
    },
    async (request) => {
      const query = request.query;
      const filters = filterExpressions(model, query);
      const scope = scopeOf(contextOf(request));
      const where: typeof filters = (eb) => eb.and([filters(eb), scope(eb)]);
      const sortColumn = query.sort ?? defaultSortColumn;
      const direction = (
        query.order ?? (query.sort ? 'asc' : (defaultSort?.order ?? 'asc'))
      ).toLowerCase() as 'asc' | 'desc';
      const resources = resourceDb(db);
      return pageAnswer(
        query,
        resources
          .selectFrom(model.table)
          .selectAll()
          .where(where)
          .orderBy(sortColumn, direction)
          .orderBy('id', direction)
          .limit(query.per_page)
          .offset(offsetOf(query))
          .execute(),
        resources
          .selectFrom(model.table)
          .select(COUNT_TOTAL)
          .where(where)
          .executeTakeFirstOrThrow(),
      );
    },
  );

  app.get<{ Params: IdParams }>(
    `${base}/:id`,
    {
      config: { access: access.read },
      schema: { tags, summary: `One ${title}`, params: idParams, response: { 200: one } },
    },
    async (request) => {
      const row = await findOne(contextOf(request), request.params.id);
      if (!row) throw notFound(model.title);
      return { data: row };
    },
  );

  app.post<{ Body: ResourceRow }>(
    base,
    {
      config: { access: access.create },
      schema: {
        tags,
        summary: `Create a ${title}`,
        body: inputSchema(model.schema),
        response: { 201: one },
      },
      validatorCompiler: ({ schema }) => createAjvInstance.compile(schema),
    },
    async (request, reply) => {
      const row = await write(request, request.body);
      return reply.status(201).send({ data: row });
    },
  );

  const update = async (request: FastifyRequest<{ Params: IdParams; Body: ResourceRow }>) => ({
    data: await write(request, request.body, request.params.id),
  });

  app.put<{ Params: IdParams; Body: ResourceRow }>(
    `${base}/:id`,
    {
      config: { access: access.update },
      schema: {
        tags,
        summary: `Update a ${title} (complete record)`,
        params: idParams,
        body: inputSchema(model.schema),
        response: { 200: one },
      },
    },
    update,
  );

  app.patch<{ Params: IdParams; Body: ResourceRow }>(
    `${base}/:id`,
    {
      config: { access: access.update },
      schema: {
        tags,
        summary: `Update some fields of a ${title}`,
        params: idParams,
        body: inputSchema(model.schema, { partial: true }),
        response: { 200: one },
      },
    },
    update,
  );

  app.delete<{ Params: IdParams }>(
    `${base}/:id`,
    {
      config: { access: access.delete },
      schema: { tags, summary: `Delete a ${title}`, params: idParams, response: { 200: one } },
    },
    async (request) => {
      const { id } = request.params;
      const row = await db
        .transaction()
        .execute(async (trx) => {
          const context = contextOf(request, trx);
          const deleted = await resourceDb(trx)
            .deleteFrom(model.table)
            .where('id', '=', id)
            .where(scopeOf(context))
            .returningAll()
            .executeTakeFirst();
          // After the delete, so a foreign key names its table first; throwing rolls it back.
          if (deleted) {
            await refuseIfListed(trx, app.models, model, id);
            await hooks().afterWrite?.(deleted, {
              ...context,
              mode: 'delete',
              existing: deleted,
            });
          }
          return deleted;
        })
        .catch((error: unknown) => translateDbError(model, error));
      if (!row) throw notFound(model.title);
      return { data: row };
    },
  );
}
