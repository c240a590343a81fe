/**
 * The provider API's answer envelopes (`{ data }`, `{ data, meta }`, `{ message }`) and paging,
 * shared by the generic CRUD routes and the hand-written routes.
 */
import { sql } from 'kysely';

/** Query schema of `page` (1-based); `maximum` bounds the offset a client can ask for. */
export const pageSchema = (maximum = 1_000_000) =>
  ({ type: 'integer', minimum: 1, maximum, default: 1 }) as const;

/** Query schema of `per_page`. */
export const perPageSchema = (maximum: number, defaultValue: number) =>
  ({ type: 'integer', minimum: 1, maximum, default: defaultValue }) as const;

/** Paging of a validated query (the schemas above fill the defaults). */
export interface PageQuery {
  page: number;
  per_page: number;
}

/** Rows to skip for the page. */
export const offsetOf = (query: PageQuery): number => (query.page - 1) * query.per_page;

/** Response schema of `meta`; `extra` adds properties (e.g. the outbox's transport). */
export function listMetaSchema(extra: Record<string, unknown> = {}) {
  return {
    type: 'object',
    properties: {
      current_page: { type: 'integer' },
      per_page: { type: 'integer' },
      total: { type: 'integer' },
      last_page: { type: 'integer' },
      ...extra,
    },
  } as const;
}

/** Response schema of a list answer: `{ data: [item], meta }`. */
export const listSchema = (item: unknown, meta: unknown = listMetaSchema()) =>
  ({
    type: 'object',
    properties: { data: { type: 'array', items: item }, meta },
  }) as const;

/** Response schema of one record's answer: `{ data: item }`. */
export const dataSchema = (item: unknown) =>
  ({ type: 'object', properties: { data: item } }) as const;

/** Response schema of an answer that is only a sentence for the user: `{ message }`. */
export const MESSAGE_SCHEMA = {
  type: 'object',
  properties: { message: { type: 'string' } },
} as const;

export interface ListMeta {
  current_page: number;
  per_page: number;
  total: number;
  last_page: number;
}

export const listMeta = (page: number, perPage: number, total: number): ListMeta => ({
  current_page: page,
  per_page: perPage,
  total,
  last_page: Math.max(1, Math.ceil(total / perPage)),
});

/** Select expression of a list's count query: `total`. */
export const COUNT_TOTAL = sql<number>`count(*)`.as('total');

/** `{ data, meta }` of one page: the page's rows and the count of all (both queried at once). */
export async function pageAnswer<T>(
  query: PageQuery,
  rows: Promise<T[]>,
  count: Promise<{ total: unknown }>,
): Promise<{ data: T[]; meta: ListMeta }> {
  const [data, counted] = await Promise.all([rows, count]);
  return { data, meta: listMeta(query.page, query.per_page, Number(counted.total)) };
}

/** Escapes LIKE wildcards so user text matches literally. */
export const escapeLike = (text: string): string =>
  text.replace(/[\\%_]/g, (match) => `\\${match}`);
