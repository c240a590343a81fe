/**
 * The react-admin data provider for the GS CRM provider API.
 *
 * REST dialect (base URL `apiUrl`, default '/api'; JSON; snake_case keys on the wire):
 *
 *   getList           GET    {api}/{resource}?page=1&per_page=25&sort=name_de&order=asc
 *                                             &search={q}&{filter_key}={value}
 *                            -> { data: [...], meta: { current_page, per_page, total, last_page,
 *                                 total_exact, total_estimate?, has_next_page, has_previous_page } }
 *   getOne            GET    {api}/{resource}/{id}                    -> { data: {...} }
 *   getMany           GET    {api}/{resource}?id=1&id=2&per_page=2     -> list envelope
 *   getManyReference  GET    {api}/{resource}?…list params…&{target_snake}={id}
 *   create            POST   {api}/{resource}        body: record minus version -> 201 { data }
 *   update            PUT    {api}/{resource}/{id}   body: params.data minus id, createdAt,
 *                                                          updatedAt, with the version it is
 *                                                          based on          -> { data }
 *   updateMany        PATCH  {api}/{resource}/{id}   body: params.data minus version, one
 *                                                          request per id
 *   delete            DELETE {api}/{resource}/{id}                        -> { data }
 *   deleteMany        DELETE {api}/{resource}/{id}   one request per id
 *
 * Keys: request bodies and query parameter names camelCase -> snake_case, answers snake_case ->
 * camelCase, deeply; values are never changed (see ./case.ts).
 *
 * Filters: `q` is sent as `search`; other keys are snake_cased (`createdAt_gte` ->
 * `created_at_gte`); arrays become repeated parameters (`status=a&status=b`); undefined, null and
 * '' (also inside arrays, and empty arrays) are dropped; booleans are 'true'/'false'; dates are
 * ISO strings; a nested object becomes dotted keys (`{ address: { city } }` -> `address.city`).
 *
 * Transport: the web app's one API client (./apiClient.ts). Auth: `Authorization: Bearer <token>`
 * when `getToken()` (default: localStorage 'token') gives one.
 *
 * Versions (optimistic concurrency, DESIGN.md §7): every record carries an integer `version`. An
 * update sends the version the edit is based on — `params.data.version` (the edited record; an
 * overwrite after a conflict sets it to the current one), else `params.previousData.version` — so
 * the server answers 409 `{ message, current }` instead of silently overwriting someone else's
 * change; that becomes `HttpError(message, 409, { current })` with `current` camelCased (read it
 * with `conflictOf`). A create sends none (the server starts at 1); updateMany none either (one body
 * for many records cannot name each one's version: last write wins).
 *
 * Errors: 422 `{ message, errors: { "email_to.email": ["…"] } }` becomes
 * `HttpError(message, 422, { errors: { "emailTo.email": "…" } })`, which react-admin 5 shows
 * beside the inputs (in pessimistic mutation mode); other statuses become
 * `HttpError(body.message || statusText, status, body)`; an unreachable server an `HttpError`
 * with status 0. An answer without `data` (or a list without `meta.total`) throws an Error that
 * names the method, the resource and what is missing.
 *
 * Prefetch (server/crud/prefetch.ts): a getList whose `meta.prefetch` names reference fields
 * (`{ meta: { prefetch: ['assignedTo'] } }`, what a list with reference columns asks) sends
 * `_prefetch=assigned_to` for each; the answer's `meta.prefetched` (`{ users: [...] }`, the records
 * the page names, as the user's getMany would answer them) is handed to react-admin camelCased as
 * `meta.prefetched`, which puts them in its query cache: the reference cells render with the rows.
 *
 * Totals (server/http/lists.ts): a list whose total is exact (`total_exact` true, or absent as from
 * older servers) answers `{ data, total }`. Beyond the server's cap it answers react-admin's partial
 * pagination, `{ data, pageInfo: { hasNextPage, hasPreviousPage }, meta: { total, totalEstimate } }`
 * with no `total`: `totalEstimate` 'about' (the planner's estimate of a whole table) or 'more_than'
 * (more rows than `total`), which the pager shows ("1–25 of about 100,000",
 * src/components/Pagers.tsx).
 */
import type { DataProvider, Identifier, RaRecord } from 'react-admin';
import { camelPathToSnake, isPlainObject, toCamelDeep, toSnakeDeep } from '../schema/case.ts';
import { type ApiClientOptions, createApiClient } from './apiClient.ts';

export {
  camelPathToSnake,
  camelToSnake,
  snakePathToCamel,
  snakeToCamel,
  toCamelDeep,
  toSnakeDeep,
} from '../schema/case.ts';
export type { FieldErrors, HttpClient, HttpRequestOptions, HttpResponse } from './httpClient.ts';
export {
  defaultHttpClient,
  readStoredToken,
  TOKEN_STORAGE_KEY,
  toFieldErrors,
} from './httpClient.ts';

/** Base URL (default '/api'), transport (default `fetchUtils.fetchJson`) and token source. */
export type DataProviderOptions = ApiClientOptions;

/** Keys of `update` bodies that the server owns; not sent. */
const READ_ONLY_KEYS = ['id', 'createdAt', 'updatedAt'];
/** The optimistic-concurrency token of a record: sent only by `update`. */
const VERSION_KEY = 'version';

/** A record's version when it has a usable one (a positive integer). */
function versionOf(record: unknown): number | undefined {
  const version = isPlainObject(record) ? record[VERSION_KEY] : undefined;
  return typeof version === 'number' && Number.isInteger(version) && version > 0
    ? version
    : undefined;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** How a list's total is known when it is not exact (server/http/lists.ts `total_estimate`). */
export type TotalEstimate = 'about' | 'more_than';

/** The `meta` of a list whose total is not exact: the estimate or lower bound, and its kind. */
export interface EstimatedTotal {
  total: number;
  totalEstimate: TotalEstimate;
}

type ListEnvelope =
  | { data: unknown[]; total: number }
  | {
      data: unknown[];
      pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean };
      meta: EstimatedTotal;
    };

interface Sort {
  field: string;
  order: string;
}

interface Pagination {
  page: number;
  perPage: number;
}

function withoutKeys(data: unknown, keys: string[]): Record<string, unknown> {
  if (!isPlainObject(data)) return {};
  return Object.fromEntries(Object.entries(data).filter(([key]) => !keys.includes(key)));
}

/** One filter value as query text, or undefined when it is to be dropped. */
function filterText(value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.toISOString();
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value);
}

function appendFilter(query: URLSearchParams, key: string, value: unknown): void {
  if (isPlainObject(value)) {
    for (const [childKey, childValue] of Object.entries(value)) {
      appendFilter(query, `${key}.${camelPathToSnake(childKey)}`, childValue);
    }
    return;
  }
  for (const item of Array.isArray(value) ? value : [value]) {
    const text = filterText(item);
    if (text !== undefined) query.append(key, text);
  }
}

/** The reference fields a getList asks to have prefetched (`meta.prefetch`), if any. */
function prefetchOf(meta: unknown): string[] {
  const prefetch = isPlainObject(meta) ? meta.prefetch : undefined;
  return Array.isArray(prefetch)
    ? prefetch.filter((field): field is string => typeof field === 'string' && field !== '')
    : [];
}

/** `meta.prefetched` of an answer, each resource's records camelCased (its keys are names). */
function prefetchedOf(json: unknown): Record<string, RaRecord[]> | undefined {
  const meta = isPlainObject(json) ? json.meta : undefined;
  const prefetched = isPlainObject(meta) ? meta.prefetched : undefined;
  if (!isPlainObject(prefetched)) return undefined;
  return Object.fromEntries(
    Object.entries(prefetched)
      .filter((entry): entry is [string, unknown[]] => Array.isArray(entry[1]))
      .map(([resource, records]) => [resource, toCamelDeep(records) as RaRecord[]]),
  );
}

/** The query string of a list: pagination, sort, search and filters, in that order. */
export function listQuery(params: {
  pagination?: Pagination;
  sort?: Sort;
  filter?: unknown;
}): URLSearchParams {
  const query = new URLSearchParams();
  const { pagination, sort } = params;
  if (pagination) {
    query.set('page', String(pagination.page));
    query.set('per_page', String(pagination.perPage));
  }
  if (sort?.field) {
    query.set('sort', camelPathToSnake(sort.field));
    query.set('order', sort.order.toLowerCase() === 'desc' ? 'desc' : 'asc');
  }
  const filter = isPlainObject(params.filter) ? params.filter : {};
  const search = filterText(filter.q);
  if (search !== undefined) query.set('search', search);
  for (const [key, value] of Object.entries(filter)) {
    if (key === 'q') continue;
    appendFilter(query, camelPathToSnake(key), value);
  }
  return query;
}

export function createDataProvider(options: DataProviderOptions = {}): DataProvider {
  const client = createApiClient(options);

  const resourcePath = (resource: string, id?: Identifier, query?: URLSearchParams): string => {
    let path = resource;
    if (id !== undefined) path += `/${encodeURIComponent(String(id))}`;
    const search = query?.toString();
    return search ? `${path}?${search}` : path;
  };

  /** Sends one request; resolves with the parsed JSON answer, rejects with an HttpError. */
  const send = (
    method: Method,
    path: string,
    extra: { body?: unknown; signal?: AbortSignal } = {},
  ): Promise<unknown> =>
    client.request(method, path, {
      body: extra.body === undefined ? undefined : toSnakeDeep(extra.body),
      signal: extra.signal,
    });

  const missing = (what: string, call: string, resource: string, expected: string): Error =>
    new Error(
      `The answer to ${call} on "${resource}" has no ${what}. The GS CRM data provider expects ` +
        `${expected}; check the API route for "${resource}".`,
    );

  /** `{ data: {...} }` -> the record, camelCased. */
  const recordOf = (json: unknown, call: string, resource: string): RaRecord => {
    const data = isPlainObject(json) ? json.data : undefined;
    if (!isPlainObject(data)) throw missing('"data"', call, resource, '{ "data": { ... } }');
    return toCamelDeep(data) as RaRecord;
  };

  /** `{ data: [...], meta: { total } }` -> camelCased records and the total. */
  const listOf = (json: unknown, call: string, resource: string): ListEnvelope => {
    const expected = '{ "data": [ ... ], "meta": { "total": <number>, ... } }';
    const data = isPlainObject(json) ? json.data : undefined;
    if (!Array.isArray(data)) throw missing('"data" list', call, resource, expected);
    const meta = isPlainObject(json) ? json.meta : undefined;
    const total = isPlainObject(meta) ? meta.total : undefined;
    if (typeof total !== 'number') throw missing('"meta.total"', call, resource, expected);
    const records = toCamelDeep(data) as unknown[];
    if (!isPlainObject(meta) || meta.total_exact !== false) return { data: records, total };
    return {
      data: records,
      pageInfo: {
        hasNextPage: meta.has_next_page === true,
        hasPreviousPage: meta.has_previous_page === true,
      },
      meta: {
        total,
        totalEstimate: meta.total_estimate === 'about' ? 'about' : 'more_than',
      },
    };
  };

  return {
    supportAbortSignal: true,

    getList: async <RecordType extends RaRecord>(
      resource: string,
      params: Parameters<DataProvider['getList']>[1],
    ) => {
      const query = listQuery(params);
      for (const field of prefetchOf(params.meta))
        query.append('_prefetch', camelPathToSnake(field));
      const url = resourcePath(resource, undefined, query);
      const json = await send('GET', url, { signal: params.signal });
      const { data, ...rest } = listOf(json, 'getList', resource);
      const prefetched = prefetchedOf(json);
      if (!prefetched) return { data: data as RecordType[], ...rest };
      const meta = 'meta' in rest ? rest.meta : {};
      return { data: data as RecordType[], ...rest, meta: { ...meta, prefetched } };
    },

    getOne: async <RecordType extends RaRecord>(
      resource: string,
      params: Parameters<DataProvider['getOne']>[1],
    ) => {
      const json = await send('GET', resourcePath(resource, params.id), { signal: params.signal });
      return { data: recordOf(json, 'getOne', resource) as RecordType };
    },

    getMany: async <RecordType extends RaRecord>(
      resource: string,
      params: Parameters<DataProvider['getMany']>[1],
    ) => {
      if (params.ids.length === 0) return { data: [] };
      const query = new URLSearchParams();
      for (const id of params.ids) query.append('id', String(id));
      query.set('per_page', String(params.ids.length));
      const json = await send('GET', resourcePath(resource, undefined, query), {
        signal: params.signal,
      });
      return { data: listOf(json, 'getMany', resource).data as RecordType[] };
    },

    getManyReference: async <RecordType extends RaRecord>(
      resource: string,
      params: Parameters<DataProvider['getManyReference']>[1],
    ) => {
      const query = listQuery(params);
      query.set(camelPathToSnake(params.target), String(params.id));
      const json = await send('GET', resourcePath(resource, undefined, query), {
        signal: params.signal,
      });
      const { data, ...rest } = listOf(json, 'getManyReference', resource);
      return { data: data as RecordType[], ...rest };
    },

    create: async <_RecordType extends Omit<RaRecord, 'id'>, ResultRecordType extends RaRecord>(
      resource: string,
      params: Parameters<DataProvider['create']>[1],
    ) => {
      const body = withoutKeys(params.data ?? {}, [VERSION_KEY]);
      const json = await send('POST', resourcePath(resource), { body });
      return { data: recordOf(json, 'create', resource) as ResultRecordType };
    },

    update: async <RecordType extends RaRecord>(
      resource: string,
      params: Parameters<DataProvider['update']>[1],
    ) => {
      const body = withoutKeys(params.data, [...READ_ONLY_KEYS, VERSION_KEY]);
      const version = versionOf(params.data) ?? versionOf(params.previousData);
      if (version !== undefined) body[VERSION_KEY] = version;
      const json = await send('PUT', resourcePath(resource, params.id), { body });
      return { data: recordOf(json, 'update', resource) as RecordType };
    },

    updateMany: async (resource: string, params: Parameters<DataProvider['updateMany']>[1]) => {
      const body = withoutKeys(params.data, [...READ_ONLY_KEYS, VERSION_KEY]);
      await Promise.all(
        params.ids.map(async (id) => {
          const json = await send('PATCH', resourcePath(resource, id), { body });
          recordOf(json, 'updateMany', resource);
        }),
      );
      return { data: params.ids };
    },

    delete: async <RecordType extends RaRecord>(
      resource: string,
      params: Parameters<DataProvider['delete']>[1],
    ) => {
      const json = await send('DELETE', resourcePath(resource, params.id));
      return { data: recordOf(json, 'delete', resource) as RecordType };
    },

    deleteMany: async (resource: string, params: Parameters<DataProvider['deleteMany']>[1]) => {
      await Promise.all(
        params.ids.map(async (id) => {
          const json = await send('DELETE', resourcePath(resource, id));
          recordOf(json, 'deleteMany', resource);
        }),
      );
      return { data: params.ids };
    },
  };
}

export default createDataProvider;
