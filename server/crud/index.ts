/**
 * The generic CRUD feature: routes for every resource model (provider API, docs/ARCHITECTURE.md §3):
 *   GET    /api/<resource>?page&per_page&sort&order&search&<filters>  → { data: [...], meta }
 *   GET    /api/<resource>/:id                                       → { data }, ETag "<version>"
 *   POST   /api/<resource>                                           → 201 { data }
 *   PUT    /api/<resource>/:id   (complete record; fields left out keep their value) → { data }
 *   PATCH  /api/<resource>/:id   (some fields)                       → { data }
 *   DELETE /api/<resource>/:id                                       → { data }
 * Everything on the wire is snake_case; bodies are validated against the schema before any write.
 * A resource's own rules come from the hooks its feature registered (./hooks.ts).
 *
 * Versions (DESIGN.md §7): PUT, PATCH and DELETE may name the version they are based on (`version`
 * in the body, or `If-Match: "<version>"`); the write locks the stored row, and when it is another
 * version answers 409 `{ message, current }` without writing. Without one the last write wins.
 * Because the row is locked, the validate hooks see the record as it is while nobody else can
 * change it: rules across fields hold under concurrent writes.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { expressionBuilder, type RawBuilder, type SqlBool, sql } from 'kysely';
import {
  hasRecordLabel,
  type JsonSchema,
  LABEL_SORT,
  type ResourceModel,
} from '../../src/schema/model.ts';
import { recordScope } from '../access/scope.ts';
import { enforceOwnership, visibilityScope, visibleRecords } from '../access/visibility.ts';
import type { DB } from '../db/index.ts';
import { type ResourceRow, type ResourceTables, resourceDb } from '../db/resource.ts';
import { assertNoErrors, notFound, validationError } from '../http/errors.ts';
import {
  countAtMost,
  countQuery,
  dataSchema,
  listSchema,
  PAGE_TOTAL,
  pageAnswer,
  takeCount,
  tableEstimate,
  TEXT_COUNT_CAP,
} from '../http/lists.ts';
import { type IdParams, idParams } from '../http/params.ts';
import { createAjvInstance, fieldErrors, inputSchema, responseSchema } from '../http/validation.ts';
import { writeTransaction } from '../audit/context.ts';
import type { HookContext, WriteContext } from './hooks.ts';
import {
  filterConditions,
  type ListExtras,
  type ListQuery,
  listQuerySchema,
  testsText,
} from './list.ts';
import { prefetchMetaSchema, withPrefetched, withPrefetchParam } from './prefetch.ts';
import { type ReferenceSort, referenceSortedRows } from './reference-sort.ts';
import {
  hasLabelCollation,
  type LabelLanguage,
  labelLanguage,
  labelSql,
  referencedLabelSql,
  referenceFilterErrors,
  sortKey,
} from './references.ts';
import {
  assertExpectedVersion,
  checkReferences,
  conflictSchema,
  type ExpectedVersion,
  etagOf,
  expectedVersion,
  refuseIfListed,
  toColumns,
  translateDbError,
  VersionConflict,
} from './write.ts';

/**
 * From this offset on a page is read by a deferred join: the ids of the page are found first
 * (ordered and skipped on the sort's index: `col, id`), then only those rows are read.
 */
const DEFERRED_JOIN_FROM = 200;

/** How long a whole table's count beyond the cap is kept (its list shows an estimate anyway). */
const WHOLE_COUNT_TTL = 30_000;

/** How many deep pages' first records a resource keeps, and for how long (see pageStarts). */
const PAGE_STARTS = 1000;
const PAGE_START_TTL = 60_000;

/** Fields never null besides the required ones: the id and the timestamps. */
const NOT_NULL = new Set(['id', 'createdAt', 'updatedAt']);

/** A query that can be ordered by the keys of a list's sort. */
interface OrderedQuery<Q> {
  orderBy(key: RawBuilder<unknown>, direction: 'asc' | 'desc'): Q;
}

/** Registers the routes of every schema resource. */
export default async function crud(app: FastifyInstance): Promise<void> {
  // Asked once the app is ready, not while registering: the routes are built while the embedded
  // database still opens (server/main.ts), and no request comes before ready.
  const collation = { known: false };
  app.addHook('onReady', async () => {
    collation.known = await hasLabelCollation(app.db);
  });
  for (const model of app.models) resourceRoutes(app, model, collation);
}

/**
 * The list's query schema with `sort=_label` added when its records have a label (the pickers
 * of references ask for it).
 */
function withLabelSort(model: ResourceModel, schema: JsonSchema): JsonSchema {
  const sort = schema.properties?.sort;
  if (!sort || !hasRecordLabel(model)) return schema;
  return {
    ...schema,
    properties: {
      ...schema.properties,
      sort: {
        ...sort,
        enum: [...(sort.enum ?? []), LABEL_SORT],
        description: `A column (a reference column sorts by the label of the record it names, in the user's language), or ${LABEL_SORT}: the records' own labels.`,
      },
    },
  };
}

/**
 * The routes of one resource. `collation.known`: the database knows the collation labels sort
 * with (./references.ts), set when the app is ready.
 */
function resourceRoutes(
  app: FastifyInstance,
  model: ResourceModel,
  collation: { known: boolean },
): void {
  const { db } = app;
  const base = `/api/${model.name}`;
  const record = responseSchema(model.schema);
  const one = dataSchema(record);
  const conflict = conflictSchema(record);
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
  /** Whether the scope restricts the principal's records at all (a scope hook always may). */
  const isRestricted = (context: HookContext) =>
    visibilityScope(model, app.models, context.principal) !== undefined ||
    hooks().scope !== undefined;
  /**
   * The count of the whole table when it went beyond the cap, and the planner's estimate, kept a
   * while: its list then answers "about <estimate>" with the page's statement alone. A smaller
   * table is counted each time.
   */
  let wholeCount: { count: number; until: number; estimate?: number } | undefined;

  /**
   * The first record of deep pages served lately (its sort column and id), by principal, list
   * query and page: the same page again, or the next one (its first record was read with the
   * page before), is read from there on the sort's index (keyset) instead of skipping the rows
   * before it. Kept a short while, so a page may show the records it showed a moment ago while
   * others were added before it; a jump to a page not yet seen uses the deferred join.
   */
  const pageStarts = new Map<string, { key: [unknown, unknown]; until: number }>();
  const rememberStart = (page: string, row: ResourceRow | undefined, column: string) => {
    if (!row) return;
    pageStarts.delete(page);
    pageStarts.set(page, { key: [row[column], row.id], until: Date.now() + PAGE_START_TTL });
    // The oldest entry goes first (a Map keeps the order of insertion).
    if (pageStarts.size > PAGE_STARTS) pageStarts.delete(pageStarts.keys().next().value as string);
  };

  /**
   * Keyset paging of a list: only when it is sorted by a column without nulls (a row comparison
   * leaves nulls out) and not by a label; the order always ends with the id.
   */
  const keysetOf = (query: ListQuery, direction: 'asc' | 'desc', principal?: number) => {
    if (query.sort === LABEL_SORT) return undefined;
    const column = query.sort ?? defaultSortColumn;
    const field = model.fields.find((candidate) => candidate.column === column);
    if (!field || field.kind === 'reference' || (!NOT_NULL.has(field.name) && !field.required)) {
      return undefined;
    }
    const { page: _page, ...rest } = query;
    const list = `${principal ?? ''}:${JSON.stringify(rest)}`;
    const keys =
      column === 'id'
        ? sql`${sql.ref(`${model.table}.id`)}`
        : sql`(${sql.ref(`${model.table}.${column}`)}, ${sql.ref(`${model.table}.id`)})`;
    // The start's value is read again from its row: timestamps have microseconds, JavaScript's
    // Date only milliseconds (the value read before stands in if the row is gone meanwhile).
    const startValue = (value: unknown, id: unknown) =>
      sql`coalesce((select ${sql.ref(`page_start.${column}`)} from ${sql.table(model.table)} as page_start where page_start.id = ${id}), ${value})`;
    return {
      column,
      page: (page: number) => `${list}:${page}`,
      from: ([value, id]: [unknown, unknown]) =>
        sql<SqlBool>`${keys} ${sql.raw(direction === 'asc' ? '>=' : '<=')} ${
          column === 'id' ? sql`${id}` : sql`(${startValue(value, id)}, ${id})`
        }`,
    };
  };

  /** The records as the principal may see them (the resource's present hook). */
  const present = async (request: FastifyRequest, rows: ResourceRow[]): Promise<ResourceRow[]> => {
    const own = hooks().present;
    return own && rows.length > 0 ? own(rows, contextOf(request)) : rows;
  };
  const presentOne = async (request: FastifyRequest, row: ResourceRow): Promise<ResourceRow> =>
    (await present(request, [row]))[0] as ResourceRow;

  const findOne = (context: HookContext, id: number) =>
    resourceDb(context.db)
      .selectFrom(model.table)
      .selectAll()
      .where('id', '=', id)
      .where(scopeOf(context))
      .executeTakeFirst();

  /**
   * The stored record, locked until the transaction ends (404 outside the principal's scope), and
   * checked against the version the write is based on. A concurrent writer waits here and then
   * reads what the first one committed. An update takes the row lock an UPDATE takes itself (no
   * key update: rows referring to it may still be inserted); a delete the full one.
   */
  const lockCurrent = async (
    context: HookContext,
    id: number,
    expected: ExpectedVersion,
    forDelete = false,
  ): Promise<ResourceRow> => {
    const query = resourceDb(context.db)
      .selectFrom(model.table)
      .selectAll()
      .where('id', '=', id)
      .where(scopeOf(context));
    const row = await (forDelete ? query.forUpdate() : query.forNoKeyUpdate()).executeTakeFirst();
    if (!row) throw notFound(model.title);
    assertExpectedVersion(model, row, expected);
    return row;
  };

  /** Validation hooks, references, prepare, write and afterWrite, in the caller's transaction. */
  const writeIn = async (
    trx: DB,
    request: FastifyRequest,
    body: ResourceRow,
    id?: number,
    expected: ExpectedVersion = {},
  ): Promise<ResourceRow> => {
    const own = hooks();
    const base = contextOf(request, trx);
    const existing = id === undefined ? undefined : await lockCurrent(base, id, expected);
    const context: WriteContext = {
      ...base,
      mode: id === undefined ? 'create' : 'update',
      existing,
    };
    const errors = await own.validate?.(body, context);
    if (errors) assertNoErrors(errors);
    await checkReferences(trx, model, body);
    assertNoErrors(await referenceFilterErrors(trx, app.models, model, body, existing));
    let values = toColumns(model, body);
    const sent = { ...values };
    if (own.prepare) values = await own.prepare(values, context);
    values = await enforceOwnership(values, context, sent);
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
    if (!own.afterWrite) return row;
    await own.afterWrite(row, { ...base, mode: context.mode, existing });
    // The work after the write may have changed the record again (the commission engine keeps a
    // contract's commissions): the answer is the record as it now stands, with its version.
    return (
      (await table
        .selectFrom(model.table)
        .selectAll()
        .where('id', '=', row.id as number)
        .executeTakeFirst()) ?? row
    );
  };

  /** `writeIn` in a transaction of its own. */
  const write = (
    request: FastifyRequest,
    body: ResourceRow,
    id?: number,
    expected: ExpectedVersion = {},
  ) =>
    writeTransaction(db, request, (trx) => writeIn(trx, request, body, id, expected)).catch(
      (error: unknown) => translateDbError(model, error),
    );

  // Another feature's write of this resource inside its own transaction (an accepted offer makes
  // its closure): the body checked as POST checks it, then the same pipeline.
  let validateCreate: ReturnType<typeof createAjvInstance.compile> | undefined;
  app.records.register(model.name, {
    async create(trx, request, body) {
      validateCreate ??= createAjvInstance.compile(inputSchema(model.schema));
      const checked = structuredClone(body);
      if (!validateCreate(checked)) throw validationError(fieldErrors(validateCreate.errors ?? []));
      return writeIn(trx, request, checked).catch((error: unknown) =>
        translateDbError(model, error),
      );
    },
  });

  /**
   * The sort of a list request: a column, a reference column by the label of the record it names
   * (in the user's language), or `_label` (the records' own labels); always ending with the id,
   * so pages never repeat or skip a record among equal keys.
   */
  const sortOf = (query: ListQuery, language: LabelLanguage) => {
    const direction = (
      query.order ?? (query.sort ? 'asc' : (defaultSort?.order ?? 'asc'))
    ).toLowerCase() as 'asc' | 'desc';
    const keys: RawBuilder<unknown>[] = [];
    /** A sort by a reference column's label: read by referenceSortedRows. */
    let reference: Pick<ReferenceSort, 'field' | 'target' | 'rowLabel' | 'targetLabel'> | undefined;
    if (query.sort === LABEL_SORT) {
      const label = labelSql(model, model.table, language);
      if (label) keys.push(sortKey(label, collation.known));
    } else {
      const column = query.sort ?? defaultSortColumn;
      const field = model.fields.find((candidate) => candidate.column === column);
      const target = app.models.find((candidate) => candidate.name === field?.reference);
      const label =
        field?.kind === 'reference' && target
          ? referencedLabelSql(model, field, target, language)
          : undefined;
      const targetLabel = target && labelSql(target, 'gscrm_target', language);
      if (label && field && target && targetLabel) {
        const rowLabel = sortKey(label, collation.known);
        keys.push(rowLabel);
        reference = {
          field,
          target,
          rowLabel,
          targetLabel: sortKey(targetLabel, collation.known),
        };
      }
      keys.push(sql.ref(`${model.table}.${column}`));
    }
    keys.push(sql.ref(`${model.table}.id`));
    return { keys, direction, reference };
  };

  app.get<{ Querystring: ListQuery }>(
    base,
    {
      config: { access: access.read },
      schema: {
        tags,
        summary: `List ${title} records`,
        // The resource's hooks may add parameters (listParameters, ./hooks.ts).
        querystring: app.resourceHooks.listSchema(
          model.name,
          withPrefetchParam(model, app.models, withLabelSort(model, listQuerySchema(model))),
        ),
        response: { 200: listSchema(record, prefetchMetaSchema(model, app.models)) },
      },
    },
    async (request) => {
      const query = request.query;
      const context = contextOf(request);
      // Conditions only where there are some: the list of a whole table is cheapest to page and
      // may answer the table's estimate as its total.
      const own = hooks();
      const extras: ListExtras = {
        conditions: own.listConditions?.(query, context),
        searchAlso: own.searchAlso,
      };
      const filters = filterConditions(
        model,
        query,
        expressionBuilder<ResourceTables, string>(),
        extras,
      );
      // The principal's visibility through referenced records (x-owner-via) comes as the list's
      // FROM: the visible records as a derived table with the references joined, which the
      // planner costs with the page's LIMIT (server/access/visibility.ts, visibleRecords). Else,
      // and for the resource's own scope hook, a where-condition.
      const visible = visibleRecords(model, app.models, request.principal);
      const scope = visible
        ? hooks().scope?.(context)
        : isRestricted(context)
          ? scopeOf(context)
          : undefined;
      const whole = filters.length === 0 && !scope && !visible;
      const resources = resourceDb(db);
      const matching = (records = visible?.all) => {
        const from = records
          ? resources.selectFrom(records.as(model.table))
          : resources.selectFrom(model.table);
        if (whole) return from;
        return from.where((eb) => {
          const conditions = filterConditions(model, query, eb, extras);
          return eb.and(scope ? [...conditions, scope(eb)] : conditions);
        });
      };
      // Counted in disjoint parts when the visibility has some (the records' own columns first).
      const counting = () => visible?.parts?.map((part) => matching(part)) ?? matching();
      const { keys, direction, reference } = sortOf(
        query,
        labelLanguage(request.principal?.language),
      );
      const keyset = keysetOf(query, direction, request.principal?.id);
      const ordered = <Q extends OrderedQuery<Q>>(from: Q): Q =>
        keys.reduce((rows, key) => rows.orderBy(key, direction), from);
      const rows = async (limit: number, offset: number): Promise<ResourceRow[]> => {
        if (reference) {
          return referenceSortedRows(
            { ...reference, db: resources, model, direction, matching },
            limit,
            offset,
          );
        }
        const deep = offset >= DEFERRED_JOIN_FROM;
        const start = deep && keyset ? pageStarts.get(keyset.page(query.page)) : undefined;
        let found: ResourceRow[];
        if (keyset && start && start.until > Date.now()) {
          // A page whose first record is known: from there on the sort's index (keyset).
          found = await ordered(matching().selectAll().where(keyset.from(start.key)))
            .limit(limit)
            .execute();
        } else if (!deep) {
          found = await ordered(matching().selectAll()).limit(limit).offset(offset).execute();
        } else {
          // A deep page: the ids skipped over come from the sort's index alone (no whole rows
          // read and thrown away), then the page's rows are read by id.
          const page = ordered(
            matching().select(sql<number>`${sql.ref(`${model.table}.id`)}`.as('id')),
          )
            .limit(limit)
            .offset(offset)
            .as('page');
          found = await ordered(
            resources
              .selectFrom(model.table)
              .innerJoin(page, 'page.id', `${model.table}.id`)
              .selectAll(model.table),
          ).execute();
        }
        if (keyset && offset + query.per_page >= DEFERRED_JOIN_FROM) {
          rememberStart(keyset.page(query.page), found[0], keyset.column);
          rememberStart(keyset.page(query.page + 1), found[query.per_page], keyset.column);
        }
        return found;
      };
      const answer = await pageAnswer(query, {
        rows,
        // With conditions the count is most likely wanted: sent with the page, one round trip.
        rowsCounted:
          whole || reference
            ? undefined
            : async (limit, offset, cap) => {
                if (offset >= DEFERRED_JOIN_FROM)
                  return { rows: await rows(limit, offset), count: undefined };
                const total = countQuery(resources, counting(), cap);
                return takeCount(
                  await ordered(matching().selectAll().select(total.as(PAGE_TOTAL)))
                    .limit(limit)
                    .offset(offset)
                    .execute(),
                );
              },
        count: async (cap) => {
          if (whole && wholeCount && wholeCount.until > Date.now()) return wholeCount.count;
          const count = await countAtMost(resources, counting())(cap);
          if (whole) {
            wholeCount = count >= cap ? { count, until: Date.now() + WHOLE_COUNT_TTL } : undefined;
          }
          return count;
        },
        estimate: whole
          ? async () => {
              const known = wholeCount && wholeCount.until > Date.now() ? wholeCount : undefined;
              if (known?.estimate !== undefined) return known.estimate;
              const estimate = await tableEstimate(resources, model.table);
              if (known) known.estimate = estimate;
              return estimate;
            }
          : undefined,
        cap: testsText(model, query) ? TEXT_COUNT_CAP : undefined,
      });
      answer.data = await present(request, answer.data);
      // `_prefetch`: the records the page's reference columns name, as getMany answers them.
      return withPrefetched(app, request, model, answer);
    },
  );

  app.get<{ Params: IdParams }>(
    `${base}/:id`,
    {
      config: { access: access.read },
      schema: { tags, summary: `One ${title}`, params: idParams, response: { 200: one } },
    },
    async (request, reply) => {
      const row = await findOne(contextOf(request), request.params.id);
      if (!row) throw notFound(model.title);
      return reply.header('etag', etagOf(row)).send({ data: await presentOne(request, row) });
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
      return reply
        .status(201)
        .header('etag', etagOf(row))
        .send({ data: await presentOne(request, row) });
    },
  );

  /** A write based on an old version answers 409 with the current record. */
  const answerConflict = async (request: FastifyRequest, reply: FastifyReply, error: unknown) => {
    if (error instanceof VersionConflict) {
      const answer = error.answer;
      return reply
        .status(409)
        .send({ ...answer, current: await presentOne(request, answer.current) });
    }
    throw error;
  };

  const update = async (
    request: FastifyRequest<{ Params: IdParams; Body: ResourceRow }>,
    reply: FastifyReply,
  ) => {
    const expected = expectedVersion(request.body, request.headers['if-match']);
    try {
      const row = await write(request, request.body, request.params.id, expected);
      return reply.header('etag', etagOf(row)).send({ data: await presentOne(request, row) });
    } catch (error) {
      return answerConflict(request, reply, error);
    }
  };

  app.put<{ Params: IdParams; Body: ResourceRow }>(
    `${base}/:id`,
    {
      config: { access: access.update },
      schema: {
        tags,
        summary: `Update a ${title} (complete record)`,
        params: idParams,
        body: inputSchema(model.schema),
        response: { 200: one, 409: conflict },
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
        response: { 200: one, 409: conflict },
      },
    },
    update,
  );

  app.delete<{ Params: IdParams }>(
    `${base}/:id`,
    {
      config: { access: access.delete },
      schema: {
        tags,
        summary: `Delete a ${title} (If-Match: only that version)`,
        params: idParams,
        response: { 200: one, 409: conflict },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const expected = expectedVersion(undefined, request.headers['if-match']);
      const remove = () =>
        writeTransaction(db, request, async (trx) => {
          const context = contextOf(request, trx);
          if (expected.tags) await lockCurrent(context, id, expected, true);
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
        }).catch((error: unknown) => translateDbError(model, error));
      try {
        const row = await remove();
        if (!row) throw notFound(model.title);
        return reply.send({ data: await presentOne(request, row) });
      } catch (error) {
        return answerConflict(request, reply, error);
      }
    },
  );
}
