/**
 * The provider API's answer envelopes (`{ data }`, `{ data, meta }`, `{ message }`) and paging,
 * shared by the generic CRUD routes and the hand-written routes.
 */
import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';

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
      total: {
        type: 'integer',
        description:
          "How many records match: exact when total_exact, else a lower bound (total_estimate more_than: there are more) or the planner's estimate (about).",
      },
      last_page: { type: 'integer' },
      total_exact: { type: 'boolean' },
      total_estimate: { type: 'string', enum: ['more_than', 'about'] },
      has_next_page: { type: 'boolean' },
      has_previous_page: { type: 'boolean' },
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

/**
 * Totals are counted exactly up to this many matching rows; beyond, a list answers "more than"
 * (or the planner's estimate, "about") and whether another page follows (docs/ARCHITECTURE.md,
 * Lists at any size). Counting 10,000 index entries costs a few milliseconds; counting a million
 * costs seconds.
 */
export const COUNT_CAP = 10_000;

/**
 * The cap of a list whose conditions test text (a search, a text filter): every row counted is
 * read and its folded text compared in every searched field, about 7 µs a row (customers, six
 * fields, two spellings of each word), so 200 rows cost what 10,000 index entries do. Beyond it
 * the list says "more than 200": a search that finds more is refined, not paged through.
 */
export const TEXT_COUNT_CAP = 200;

export interface ListMeta {
  current_page: number;
  per_page: number;
  /** Exact when `total_exact`; else a lower bound (`more_than`) or an estimate (`about`). */
  total: number;
  last_page: number;
  total_exact: boolean;
  total_estimate?: 'more_than' | 'about';
  has_next_page: boolean;
  has_previous_page: boolean;
}

/** The meta of a page whose total is known exactly. */
export const listMeta = (page: number, perPage: number, total: number): ListMeta => ({
  current_page: page,
  per_page: perPage,
  total,
  last_page: Math.max(1, Math.ceil(total / perPage)),
  total_exact: true,
  has_next_page: page * perPage < total,
  has_previous_page: page > 1,
});

/** Select expression of a count query: `total`. */
export const COUNT_TOTAL = sql<number>`count(*)`.as('total');

/**
 * What a list's page is read from. `rows(limit, offset)`: the rows in the list's order (asked
 * for one more than the page, to know whether another page follows). `count(cap)`: how many rows
 * match, counting no further than `cap` (countAtMost). `estimate()`: the planner's estimate of
 * all rows, only for a list without conditions (tableEstimate).
 */
export interface PageSource<T> {
  rows: (limit: number, offset: number) => Promise<T[]>;
  /**
   * Instead of `rows`, where a count is most likely wanted (a search, a filter): the rows and, in
   * the same statement, the count no further than `cap` (undefined when no row came back). One
   * round trip instead of two.
   */
  rowsCounted?: (
    limit: number,
    offset: number,
    cap: number,
  ) => Promise<{ rows: T[]; count: number | undefined }>;
  count: (cap: number) => Promise<number>;
  estimate?: () => Promise<number | undefined>;
  /** Count no further than this (default COUNT_CAP): lower where each row costs to test. */
  cap?: number;
}

/** An estimate shown as "about": two significant digits (123,456 → 120,000). */
const roundEstimate = (value: number): number => {
  const unit = 10 ** Math.max(0, Math.floor(Math.log10(value)) - 1);
  return Math.round(value / unit) * unit;
};

/**
 * `{ data, meta }` of one page. The total is exact while it is cheap: from the page itself when
 * it is the last one, else from a count that stops after COUNT_CAP rows. Beyond the cap the
 * answer says so (`total_exact: false`): `total` is the planner's estimate when the source has
 * one (`about`), else a lower bound (`more_than`: more rows than `total`); `has_next_page` always
 * says whether another page follows (react-admin's partial pagination).
 */
export async function pageAnswer<T>(
  query: PageQuery,
  source: PageSource<T>,
): Promise<{ data: T[]; meta: ListMeta }> {
  const size = query.per_page;
  const offset = offsetOf(query);
  const cap = source.cap ?? COUNT_CAP;
  let fetched: T[];
  let countedWith: number | undefined;
  if (source.rowsCounted) {
    ({ rows: fetched, count: countedWith } = await source.rowsCounted(size + 1, offset, cap + 1));
  } else {
    fetched = await source.rows(size + 1, offset);
  }
  const hasNext = fetched.length > size;
  const data = hasNext ? fetched.slice(0, size) : fetched;
  // The last page (or the only one) tells the total: no count needed.
  if (!hasNext && (data.length > 0 || offset === 0)) {
    return { data, meta: listMeta(query.page, size, offset + data.length) };
  }
  const counted = countedWith ?? (await source.count(cap + 1));
  if (counted <= cap) return { data, meta: listMeta(query.page, size, counted) };
  const seen = offset + data.length + (hasNext ? 1 : 0);
  const estimate = await source.estimate?.();
  const about = estimate !== undefined && estimate > cap && estimate >= seen;
  const total = about
    ? Math.max(roundEstimate(estimate), seen)
    : Math.max(cap, hasNext ? offset + data.length : 0);
  return {
    data,
    meta: {
      current_page: query.page,
      per_page: size,
      total,
      last_page: Math.max(query.page + (hasNext ? 1 : 0), Math.ceil(total / size)),
      total_exact: false,
      total_estimate: about ? 'about' : 'more_than',
      has_next_page: hasNext,
      has_previous_page: query.page > 1,
    },
  };
}

/**
 * `count(cap)` of a PageSource: how many rows `from` selects, counting no further than `cap`
 * (`select count(*) from (select 1 … limit cap)`; without a cap, all of them). `from`: the list's
 * query with its joins and conditions, without select, order or paging — or the same rows as
 * disjoint parts (see countQuery).
 */
export function countAtMost(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any table, any query
  db: Kysely<any>,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any table, any query
  from: SelectQueryBuilder<any, any, any> | SelectQueryBuilder<any, any, any>[],
): (cap?: number) => Promise<number> {
  return async (cap) => {
    const row = await countQuery(db, from, cap).executeTakeFirstOrThrow();
    return Number(row.total);
  };
}

/**
 * `select count(*) as total from (select 1 … limit cap)`: countAtMost's statement. Several
 * queries are disjoint parts of the rows, counted in their order (`select 1 from a union all
 * select 1 from b limit cap`): a part read cheaply from an index first, and the next ones are
 * never read when it alone reaches the cap (a consultant's own appointments before those of
 * their customers; server/access/visibility.ts, visibleRecords).
 */
export function countQuery(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any table, any query
  db: Kysely<any>,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any table, any query
  from: SelectQueryBuilder<any, any, any> | SelectQueryBuilder<any, any, any>[],
  cap?: number,
) {
  const parts = (Array.isArray(from) ? from : [from]).map((part) =>
    part.select(sql<number>`1`.as('one')),
  );
  const rows = parts.slice(1).reduce((all, part) => all.unionAll(part), parts[0]);
  return db
    .selectFrom((cap === undefined ? rows : rows.limit(cap)).as('capped'))
    .select(COUNT_TOTAL);
}

/** The column a page's rows carry their capped count in (`rowsCounted`), taken off again. */
export const PAGE_TOTAL = 'gscrm_page_total';

/** The rows of a `rowsCounted` statement without PAGE_TOTAL, and the count they carried. */
export function takeCount<T extends Record<string, unknown>>(
  rows: T[],
): { rows: T[]; count: number | undefined } {
  const count = rows.length > 0 ? Number(rows[0][PAGE_TOTAL]) : undefined;
  for (const row of rows) delete row[PAGE_TOTAL];
  return { rows, count };
}

/**
 * The planner's estimate of a table's rows (pg_class.reltuples, kept by ANALYZE and autovacuum),
 * or undefined when the table was never analyzed.
 */
export async function tableEstimate(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any database
  db: Kysely<any>,
  table: string,
): Promise<number | undefined> {
  const { rows } = await sql<{ estimate: number | string | null }>`
    select reltuples as estimate from pg_class where oid = to_regclass(${table})`.execute(db);
  const estimate = Number(rows[0]?.estimate ?? -1);
  return estimate > 0 ? Math.round(estimate) : undefined;
}

/** Escapes LIKE wildcards so user text matches literally. */
export const escapeLike = (text: string): string =>
  text.replace(/[\\%_]/g, (match) => `\\${match}`);
