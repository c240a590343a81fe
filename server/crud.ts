/**
 * Generic CRUD routes for one resource model (provider API, docs/ARCHITECTURE.md §API):
 *   GET    /api/<resource>?page&per_page&sort&order&search&<filters>  → { data: [...], meta }
 *   GET    /api/<resource>/:id                                       → { data }
 *   POST   /api/<resource>                                           → 201 { data }
 *   PUT    /api/<resource>/:id   (complete record; fields left out keep their value) → { data }
 *   PATCH  /api/<resource>/:id   (some fields)                       → { data }
 *   DELETE /api/<resource>/:id                                       → { data }
 * Everything on the wire is snake_case; bodies are validated against the schema before any write.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Expression, type SqlBool, sql } from 'kysely';
import type { FieldModel, JsonSchema, ResourceModel } from '../src/schema/model.ts';
import type { DB, Row } from './db/index.ts';
import { recordScope } from './access/scope.ts';
import { enforceOwnership } from './access/visibility.ts';
import { ApiError, notFound, validationError } from './http/errors.ts';
import type { HookContext, ScopeCondition, WriteContext } from './hooks.ts';
import { RESOURCE_HOOKS } from './hooks/index.ts';
import { createAjvInstance, inputSchema, responseSchema } from './http/validation.ts';
import { escapeLike, listMeta, listMetaSchema } from './http/lists.ts';

export const MAX_PER_PAGE = 500;
const MAX_INT = 2_147_483_647;

const JSON_KINDS = new Set(['references', 'enumArray', 'object', 'array']);
const RANGE_KINDS = new Set(['date', 'datetime', 'integer', 'number']);

/** The query-string parameters a list accepts; anything else is refused with 400. */
export function listQuerySchema(model: ResourceModel): JsonSchema {
  const sortable = model.fields.filter((field) => field.sortable).map((field) => field.column);
  const properties: Record<string, JsonSchema> = {
    page: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 1 },
    per_page: { type: 'integer', minimum: 1, maximum: MAX_PER_PAGE, default: 25 },
    sort: { type: 'string', enum: sortable },
    order: { type: 'string', enum: ['asc', 'desc', 'ASC', 'DESC'] },
    search: { type: 'string', maxLength: 200 },
    id: {
      type: 'array',
      maxItems: MAX_PER_PAGE,
      items: { type: 'integer', minimum: 1, maximum: MAX_INT },
    },
  };
  for (const field of model.fields.filter((f) => f.filter)) {
    const item = field.kind === 'enumArray' ? field.schema.items : field.schema;
    const {
      readOnly: _r,
      default: _d,
      'x-list': _l,
      'x-filter': _f,
      ...itemSchema
    } = (
      field.kind === 'references' ? { type: 'integer', minimum: 1, maximum: MAX_INT } : item
    ) as JsonSchema;
    if (field.kind === 'boolean') properties[field.column] = { type: 'boolean' };
    else if (field.kind === 'string') properties[field.column] = { type: 'string', maxLength: 200 };
    else
      properties[field.column] = {
        type: 'array',
        maxItems: 100,
        items: stripAnnotations(itemSchema),
      };
    // `<field>_null=true` finds records without a value, `false` those with one.
    if (!field.required) properties[`${field.column}_null`] = { type: 'boolean' };
    if (RANGE_KINDS.has(field.kind)) {
      const bound = stripAnnotations(field.schema);
      properties[`${field.column}_gte`] = bound;
      properties[`${field.column}_lte`] = bound;
    }
  }
  return { type: 'object', additionalProperties: false, properties };
}

function stripAnnotations(schema: JsonSchema): JsonSchema {
  return Object.fromEntries(
    Object.entries(schema).filter(
      ([key]) => !key.startsWith('x-') && key !== 'readOnly' && key !== 'default',
    ),
  ) as JsonSchema;
}

/** Converts a validated wire body into column values: read-only fields dropped, JSON stringified. */
function toColumns(model: ResourceModel, body: Row): Row {
  const values: Row = {};
  for (const field of model.fields) {
    if (field.readOnly || !(field.column in body)) continue;
    const value = body[field.column];
    values[field.column] =
      JSON_KINDS.has(field.kind) && value !== null ? JSON.stringify(value) : value;
  }
  return values;
}

async function checkReferences(db: DB, model: ResourceModel, body: Row): Promise<void> {
  const errors: Record<string, string[]> = {};
  for (const field of model.fields) {
    if (!field.reference || body[field.column] === undefined || body[field.column] === null)
      continue;
    const ids =
      field.kind === 'references'
        ? (body[field.column] as number[])
        : [body[field.column] as number];
    if (ids.length === 0) continue;
    const found = await db
      .selectFrom(field.reference.replace(/-/g, '_'))
      .select('id')
      .where('id', 'in', ids)
      .execute();
    const known = new Set(found.map((row) => Number(row.id)));
    const missing = ids.filter((id) => !known.has(id));
    if (missing.length > 0)
      errors[field.column] = [`refers to unknown ${field.reference}: ${missing.join(', ')}`];
  }
  if (Object.keys(errors).length > 0) throw validationError(errors);
}

interface PgError {
  code?: string;
  constraint?: string;
  table?: string;
}

/** Maps constraint violations to answers that name the field. */
function translateDbError(model: ResourceModel, error: unknown): never {
  const pgError = error as PgError;
  const column = pgError.constraint?.replace(`${model.table}_`, '').replace(/_(key|fkey|idx)$/, '');
  if (pgError.code === '23505') {
    // An index on an expression (users_email_lower_key on lower(email)) names more than the column.
    const field = model.fields
      .filter((f) => column === f.column || column?.startsWith(`${f.column}_`))
      .sort((a, b) => b.column.length - a.column.length)[0];
    throw validationError({
      [field?.column ?? column ?? '_']: ['is already used by another record'],
    });
  }
  // 23503 foreign_key_violation, 23001 restrict_violation (ON DELETE RESTRICT)
  if (pgError.code === '23503' || pgError.code === '23001') {
    if (
      pgError.table === model.table &&
      column &&
      model.fields.some((field) => field.column === column)
    ) {
      throw validationError({ [column]: ['refers to a record that does not exist'] });
    }
    const users =
      pgError.table && pgError.table !== model.table
        ? ` (${pgError.table.replace(/_/g, '-')})`
        : '';
    throw new ApiError(
      409,
      `This ${model.title.toLowerCase()} is still used by other records${users} and cannot be deleted.`,
    );
  }
  throw error;
}

type ListQuery = Record<string, unknown> & {
  page: number;
  per_page: number;
  sort?: string;
  order?: string;
  search?: string;
  id?: number[];
};

function filterExpressions(model: ResourceModel, query: ListQuery) {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- dynamic tables are untyped in Kysely.
  return (eb: any): Expression<SqlBool> => {
    const conditions: Expression<SqlBool>[] = [];
    if (query.id) conditions.push(eb('id', 'in', query.id));
    for (const field of model.fields) {
      const value = query[field.column];
      if (value !== undefined) conditions.push(fieldCondition(eb, field, value));
      const isNull = query[`${field.column}_null`];
      if (isNull !== undefined) {
        conditions.push(eb(field.column, isNull ? 'is' : 'is not', null));
      }
      for (const [suffix, op] of [
        ['_gte', '>='],
        ['_lte', '<='],
      ] as const) {
        const bound = query[`${field.column}${suffix}`];
        if (bound !== undefined) conditions.push(eb(field.column, op, bound));
      }
    }
    const words = (query.search ?? '').trim().split(/\s+/).filter(Boolean);
    const searchColumns = (model.resource.search ?? []).map(
      (name) => model.fields.find((field) => field.name === name)?.column ?? name,
    );
    if (words.length > 0 && searchColumns.length > 0) {
      for (const word of words) {
        const pattern = `%${escapeLike(word)}%`;
        conditions.push(eb.or(searchColumns.map((column) => eb(column, 'ilike', pattern))));
      }
    }
    return eb.and(conditions);
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- dynamic tables are untyped in Kysely.
function fieldCondition(eb: any, field: FieldModel, value: unknown): Expression<SqlBool> {
  if (field.kind === 'references' || field.kind === 'enumArray') {
    const values = value as unknown[];
    return eb.or(
      values.map(
        (item) => sql<SqlBool>`${sql.ref(field.column)} @> ${JSON.stringify([item])}::jsonb`,
      ),
    );
  }
  if (field.kind === 'string') return eb(field.column, 'ilike', `%${escapeLike(String(value))}%`);
  if (Array.isArray(value)) return eb(field.column, 'in', value);
  return eb(field.column, '=', value);
}

/**
 * Lists of references (jsonb arrays, e.g. a company's products) have no foreign keys: a record that
 * is still listed somewhere is refused like one a foreign key holds (409).
 */
async function refuseIfListed(db: DB, models: ResourceModel[], target: ResourceModel, id: number) {
  for (const model of models) {
    for (const field of model.fields) {
      if (field.kind !== 'references' || field.reference !== target.name) continue;
      const used = await db
        .selectFrom(model.table)
        .select('id')
        .where(sql<SqlBool>`${sql.ref(field.column)} @> ${JSON.stringify([id])}::jsonb`)
        .limit(1)
        .executeTakeFirst();
      if (used) {
        throw new ApiError(
          409,
          `This ${target.title.toLowerCase()} is still used by other records (${model.name}) and cannot be deleted.`,
        );
      }
    }
  }
}

const idParams = {
  type: 'object',
  additionalProperties: false,
  required: ['id'],
  properties: { id: { type: 'integer', minimum: 1, maximum: MAX_INT } },
};

export function crudRoutes(app: FastifyInstance, model: ResourceModel): void {
  const { db } = app;
  const base = `/api/${model.name}`;
  const record = responseSchema(model.schema);
  const one = { type: 'object', properties: { data: record } };
  const listSchema = listQuerySchema(model);
  const tags = [model.name];
  const defaultSort = model.resource.defaultSort;
  const defaultSortColumn =
    model.fields.find((field) => field.name === defaultSort?.field)?.column ?? 'id';
  const access = model.permissions;

  const hooks = RESOURCE_HOOKS[model.name] ?? {};
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
  const scopeOf = (context: HookContext): ScopeCondition => recordScope(context);

  const findOne = (context: HookContext, id: number) =>
    context.db
      .selectFrom(model.table)
      .selectAll()
      .where('id', '=', id)
      .where(scopeOf(context))
      .executeTakeFirst();

  /** Validation hooks, references, prepare, write and afterWrite, in one transaction. */
  const write = (request: FastifyRequest, body: Row, id?: number) =>
    db
      .transaction()
      .execute(async (trx) => {
        const base = contextOf(request, trx);
        const existing = id === undefined ? undefined : await findOne(base, id);
        if (id !== undefined && !existing) throw notFound(model.title);
        const context: WriteContext = {
          ...base,
          mode: id === undefined ? 'create' : 'update',
          existing,
        };
        const errors = await hooks.validate?.(body, context);
        if (errors && Object.keys(errors).length > 0) throw validationError(errors);
        await checkReferences(trx, model, body);
        let values = toColumns(model, body);
        if (hooks.prepare) values = await hooks.prepare(values, context);
        values = await enforceOwnership(values, context);
        const row =
          id === undefined
            ? await trx
                .insertInto(model.table)
                .values(Object.keys(values).length > 0 ? values : { id: sql`default` })
                .returningAll()
                .executeTakeFirstOrThrow()
            : await trx
                .updateTable(model.table)
                .set({ ...values, updated_at: sql`now()` })
                .where('id', '=', id)
                .returningAll()
                .executeTakeFirstOrThrow();
        await hooks.afterWrite?.(row, { ...base, mode: context.mode, existing });
        return row;
      })
      .catch((error: unknown) => translateDbError(model, error));

  app.get(
    base,
    {
      config: { access: access.read },
      schema: {
        tags,
        summary: `List ${model.title.toLowerCase()} records`,
        querystring: listSchema,
        response: {
          200: {
            type: 'object',
            properties: {
              data: { type: 'array', items: record },
              meta: listMetaSchema(),
            },
          },
        },
      },
    },
    async (request) => {
      const query = request.query as ListQuery;
      const filters = filterExpressions(model, query);
      const scope = scopeOf(contextOf(request));
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- dynamic tables are untyped in Kysely.
      const where = (eb: any) => eb.and([filters(eb), scope(eb)]);
      const sortColumn = query.sort ?? defaultSortColumn;
      const direction = (
        query.order ?? (query.sort ? 'asc' : (defaultSort?.order ?? 'asc'))
      ).toLowerCase() as 'asc' | 'desc';
      const [rows, countRow] = await Promise.all([
        db
          .selectFrom(model.table)
          .selectAll()
          .where(where)
          .orderBy(sortColumn, direction)
          .orderBy('id', direction)
          .limit(query.per_page)
          .offset((query.page - 1) * query.per_page)
          .execute(),
        db
          .selectFrom(model.table)
          .select(sql<number>`count(*)`.as('total'))
          .where(where)
          .executeTakeFirstOrThrow(),
      ]);
      const total = Number(countRow.total);
      return {
        data: rows,
        meta: listMeta(query.page, query.per_page, total),
      };
    },
  );

  app.get(
    `${base}/:id`,
    {
      config: { access: access.read },
      schema: {
        tags,
        summary: `One ${model.title.toLowerCase()}`,
        params: idParams,
        response: { 200: one },
      },
    },
    async (request) => {
      const { id } = request.params as { id: number };
      const row = await findOne(contextOf(request), id);
      if (!row) throw notFound(model.title);
      return { data: row };
    },
  );

  app.post(
    base,
    {
      config: { access: access.create },
      schema: {
        tags,
        summary: `Create a ${model.title.toLowerCase()}`,
        body: inputSchema(model.schema),
        response: { 201: one },
      },
      validatorCompiler: ({ schema }) => createAjvInstance.compile(schema),
    },
    async (request, reply) => {
      const row = await write(request, request.body as Row);
      return reply.status(201).send({ data: row });
    },
  );

  const update = async (request: FastifyRequest) => {
    const { id } = request.params as { id: number };
    return { data: await write(request, request.body as Row, id) };
  };

  app.put(
    `${base}/:id`,
    {
      config: { access: access.update },
      schema: {
        tags,
        summary: `Update a ${model.title.toLowerCase()} (complete record)`,
        params: idParams,
        body: inputSchema(model.schema),
        response: { 200: one },
      },
    },
    update,
  );

  app.patch(
    `${base}/:id`,
    {
      config: { access: access.update },
      schema: {
        tags,
        summary: `Update some fields of a ${model.title.toLowerCase()}`,
        params: idParams,
        body: inputSchema(model.schema, { partial: true }),
        response: { 200: one },
      },
    },
    update,
  );

  app.delete(
    `${base}/:id`,
    {
      config: { access: access.delete },
      schema: {
        tags,
        summary: `Delete a ${model.title.toLowerCase()}`,
        params: idParams,
        response: { 200: one },
      },
    },
    async (request) => {
      const { id } = request.params as { id: number };
      const row = await db
        .transaction()
        .execute(async (trx) => {
          const context = contextOf(request, trx);
          const deleted = await trx
            .deleteFrom(model.table)
            .where('id', '=', id)
            .where(scopeOf(context))
            .returningAll()
            .executeTakeFirst();
          // After the delete, so a foreign key names its table first; throwing rolls it back.
          if (deleted) {
            await refuseIfListed(trx, app.models, model, id);
            await hooks.afterWrite?.(deleted, { ...context, mode: 'delete', existing: deleted });
          }
          return deleted;
        })
        .catch((error: unknown) => translateDbError(model, error));
      if (!row) throw notFound(model.title);
      return { data: row };
    },
  );
}
