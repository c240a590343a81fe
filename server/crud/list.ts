/**
 * The list query of the generic CRUD routes: which query-string parameters a resource's list
 * accepts (from its schema: filters, ranges, sort columns) and the where-condition they make.
 */
import { type Expression, type SqlBool, sql } from 'kysely';
import { ID_SCHEMA } from '../../src/schema/limits.ts';
import type { FieldModel, JsonSchema, ResourceModel } from '../../src/schema/model.ts';
import type { ResourceExpressionBuilder } from '../db/resource.ts';
import { foldSearchText, searchWords } from '../../src/schema/search.ts';
import { type PageQuery, pageSchema, perPageSchema } from '../http/lists.ts';
import type { ScopeCondition } from './hooks.ts';
import { foldedContains, type SearchAlso, searchCondition } from './search.ts';

export const MAX_PER_PAGE = 500;

const RANGE_KINDS = new Set(['date', 'datetime', 'integer', 'number']);

/** A validated list query: paging, sort, search, ids and the model's filters by column. */
export type ListQuery = Record<string, unknown> &
  PageQuery & {
    sort?: string;
    order?: string;
    search?: string;
    id?: number[];
  };

/** The query-string parameters a list accepts; anything else is refused with 400. */
export function listQuerySchema(model: ResourceModel): JsonSchema {
  const sortable = model.fields.filter((field) => field.sortable).map((field) => field.column);
  const properties: Record<string, JsonSchema> = {
    page: pageSchema(),
    per_page: perPageSchema(MAX_PER_PAGE, 25),
    sort: { type: 'string', enum: sortable },
    order: { type: 'string', enum: ['asc', 'desc', 'ASC', 'DESC'] },
    search: { type: 'string', maxLength: 200 },
    id: { type: 'array', maxItems: MAX_PER_PAGE, items: ID_SCHEMA },
  };
  for (const field of model.fields.filter((f) => f.filter)) {
    const item = field.kind === 'enumArray' ? field.schema.items : field.schema;
    const {
      readOnly: _r,
      default: _d,
      'x-list': _l,
      'x-filter': _f,
      ...itemSchema
    } = (field.kind === 'references' ? ID_SCHEMA : item) as JsonSchema;
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

/** The list's filters, ids and search words (./search.ts) as one where-condition. */
export function filterExpressions(model: ResourceModel, query: ListQuery, extras?: ListExtras) {
  return (eb: ResourceExpressionBuilder): Expression<SqlBool> =>
    eb.and(filterConditions(model, query, eb, extras));
}

/** Whether the list's conditions compare text (search words or a text filter): costly per row. */
export function testsText(model: ResourceModel, query: ListQuery): boolean {
  if (searchWords(query.search).length > 0) return true;
  return model.fields.some((field) => field.kind === 'string' && query[field.column] !== undefined);
}

/**
 * What a resource's hooks add to its lists (./hooks.ts): conditions of its own list parameters,
 * and more places a search word may be found in.
 */
export interface ListExtras {
  conditions?: ScopeCondition[];
  searchAlso?: SearchAlso;
}

/** The list's filters, ids and search words, each one condition (none: the whole table). */
export function filterConditions(
  model: ResourceModel,
  query: ListQuery,
  eb: ResourceExpressionBuilder,
  extras: ListExtras = {},
): Expression<SqlBool>[] {
  const conditions: Expression<SqlBool>[] = [];
  if (query.id) conditions.push(eb('id', 'in', query.id));
  // The schema's filters only: a list parameter a feature declares under a field's name (the
  // signature requests' `status`, which counts an expired open request as expired) is its own.
  for (const field of model.fields.filter((f) => f.filter)) {
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
  const search = searchCondition(eb, model, query.search, extras.searchAlso);
  if (search) conditions.push(search);
  for (const condition of extras.conditions ?? []) conditions.push(condition(eb));
  return conditions;
}

function fieldCondition(
  eb: ResourceExpressionBuilder,
  field: FieldModel,
  value: unknown,
): Expression<SqlBool> {
  if (field.kind === 'references' || field.kind === 'enumArray') {
    const values = value as unknown[];
    return eb.or(
      values.map(
        (item) => sql<SqlBool>`${sql.ref(field.column)} @> ${JSON.stringify([item])}::jsonb`,
      ),
    );
  }
  // Folded like the search (`zurich` finds Zürich), on the same indexes.
  if (field.kind === 'string')
    return foldedContains(eb, field.column, foldSearchText(String(value)));
  if (Array.isArray(value)) return eb(field.column, 'in', value);
  return eb(field.column, '=', value);
}
