/**
 * The write side of the generic CRUD routes: wire bodies to column values, reference checks,
 * versions (optimistic concurrency), database errors turned into answers that name the field (422)
 * or the records in the way (409).
 */
import { type SqlBool, sql } from 'kysely';
import { type ResourceModel, VERSION_FIELD } from '../../src/schema/model.ts';
import type { DB } from '../db/index.ts';
import { type ResourceRow, resourceDb } from '../db/resource.ts';
import { errorText } from '../../src/schema/errors.ts';
import {
  ApiError,
  assertNoErrors,
  errorBody,
  type ErrorIssue,
  type FieldErrors,
  issue,
  validationError,
} from '../http/errors.ts';

/**
 * The version a write is based on (DESIGN.md §7): `version` in the body and/or the entity tags of
 * `If-Match`. Neither: no condition, the last write wins.
 */
export interface ExpectedVersion {
  /** The body's `version`. */
  version?: number;
  /** The entity tags of If-Match (`"3"`); absent for none or `*` (any stored version). */
  tags?: string[];
}

/** The entity tag of a stored record: its version, quoted (`ETag: "3"`). */
export const etagOf = (row: ResourceRow): string => `"${String(row[VERSION_FIELD])}"`;

const ENTITY_TAG = /^(W\/)?"[\x21\x23-\x7e]*"$/;

/**
 * Reads the expected version of a write from its body and If-Match header. A malformed If-Match
 * is refused (400) rather than ignored: the client asked for a condition, and dropping it would
 * let its write overwrite someone else's.
 */
export function expectedVersion(
  body: ResourceRow | undefined,
  ifMatch: string | string[] | undefined,
): ExpectedVersion {
  const expected: ExpectedVersion = {};
  const sent = body?.[VERSION_FIELD];
  if (typeof sent === 'number') expected.version = sent;
  const header = Array.isArray(ifMatch) ? ifMatch.join(',') : ifMatch;
  if (header !== undefined && header.trim() !== '*') {
    const tags = header.split(',').map((tag) => tag.trim());
    if (tags.some((tag) => !ENTITY_TAG.test(tag))) {
      throw new ApiError(400, 'ifMatch');
    }
    expected.tags = tags;
  }
  return expected;
}

/**
 * True when the stored record is not the version the write is based on. If-Match compares
 * strongly (RFC 9110 §13.1.1): a weak tag never matches.
 */
export function isStale(row: ResourceRow, expected: ExpectedVersion): boolean {
  if (expected.version !== undefined && expected.version !== row[VERSION_FIELD]) return true;
  return expected.tags !== undefined && !expected.tags.includes(etagOf(row));
}

/** A write based on an old version: answered 409 `{ message, current }`, nothing written. */
export class VersionConflict extends Error {
  readonly issue: ErrorIssue;
  constructor(
    readonly model: ResourceModel,
    /** The record as it is stored now (as GET /:id answers it). */
    readonly current: ResourceRow,
  ) {
    const found = issue('versionConflict', {
      what: model.title.toLowerCase(),
      version: Number(current[VERSION_FIELD]),
    });
    super(errorText(found));
    this.issue = found;
  }

  get answer() {
    return { ...errorBody(this.issue), current: this.current };
  }
}

/** Throws a VersionConflict when the (locked) stored record is not the expected version. */
export function assertExpectedVersion(
  model: ResourceModel,
  row: ResourceRow,
  expected: ExpectedVersion,
): void {
  if (isStale(row, expected)) throw new VersionConflict(model, row);
}

/** The 409 answer's schema (OpenAPI, serialisation): `current` as the route's record schema. */
export const conflictSchema = (record: object) => ({
  description: 'The write was based on an older version; nothing was written.',
  type: 'object',
  properties: {
    message: { type: 'string' },
    key: { type: 'string' },
    args: { type: 'object', additionalProperties: true },
    current: record,
  },
});

const JSON_KINDS = new Set(['references', 'enumArray', 'object', 'array']);

/** Converts a validated wire body into column values: read-only fields dropped, JSON stringified. */
export function toColumns(model: ResourceModel, body: ResourceRow): ResourceRow {
  const values: ResourceRow = {};
  for (const field of model.fields) {
    if (field.readOnly || !(field.column in body)) continue;
    const value = body[field.column];
    values[field.column] =
      JSON_KINDS.has(field.kind) && value !== null ? JSON.stringify(value) : value;
  }
  return values;
}

/** Every `x-reference` of the body must name existing records (422 naming the field). */
export async function checkReferences(
  db: DB,
  model: ResourceModel,
  body: ResourceRow,
): Promise<void> {
  const errors: FieldErrors = {};
  for (const field of model.fields) {
    if (!field.reference || body[field.column] === undefined || body[field.column] === null)
      continue;
    const ids =
      field.kind === 'references'
        ? (body[field.column] as number[])
        : [body[field.column] as number];
    if (ids.length === 0) continue;
    const found = await resourceDb(db)
      .selectFrom(field.reference.replace(/-/g, '_'))
      .select('id')
      .where('id', 'in', ids)
      .execute();
    const known = new Set(found.map((row) => Number(row.id)));
    const missing = ids.filter((id) => !known.has(id));
    if (missing.length > 0)
      errors[field.column] = [
        issue('unknownReference', { resource: field.reference, ids: missing.join(', ') }),
      ];
  }
  assertNoErrors(errors);
}

interface PgError {
  code?: string;
  constraint?: string;
  table?: string;
  column?: string;
}

/** Maps constraint violations to answers that name the field. */
export function translateDbError(model: ResourceModel, error: unknown): never {
  const pgError = error as PgError;
  const column = pgError.constraint?.replace(`${model.table}_`, '').replace(/_(key|fkey|idx)$/, '');
  if (pgError.code === '23505') {
    // An index on an expression (users_email_lower_key on lower(email)) names more than the column.
    const field = model.fields
      .filter((f) => column === f.column || column?.startsWith(`${f.column}_`))
      .sort((a, b) => b.column.length - a.column.length)[0];
    throw validationError({
      [field?.column ?? column ?? '_']: [issue('unique')],
    });
  }
  // 23502 not_null_violation: a column the database requires (a hand-written `not null`).
  if (pgError.code === '23502' && pgError.table === model.table && pgError.column) {
    throw validationError({ [pgError.column]: [issue('required')] });
  }
  // 23503 foreign_key_violation, 23001 restrict_violation (ON DELETE RESTRICT)
  if (pgError.code === '23503' || pgError.code === '23001') {
    if (
      pgError.table === model.table &&
      column &&
      model.fields.some((field) => field.column === column)
    ) {
      throw validationError({ [column]: [issue('reference')] });
    }
    const users =
      pgError.table && pgError.table !== model.table
        ? ` (${pgError.table.replace(/_/g, '-')})`
        : '';
    throw new ApiError(409, issue('stillUsed', { what: model.title.toLowerCase(), users }));
  }
  throw error;
}

/**
 * Lists of references (jsonb arrays, e.g. a company's products) have no foreign keys: a record that
 * is still listed somewhere is refused like one a foreign key holds (409).
 */
export async function refuseIfListed(
  db: DB,
  models: ResourceModel[],
  target: ResourceModel,
  id: number,
): Promise<void> {
  for (const model of models) {
    for (const field of model.fields) {
      if (field.kind !== 'references' || field.reference !== target.name) continue;
      const used = await resourceDb(db)
        .selectFrom(model.table)
        .select('id')
        .where(sql<SqlBool>`${sql.ref(field.column)} @> ${JSON.stringify([id])}::jsonb`)
        .limit(1)
        .executeTakeFirst();
      if (used) {
        throw new ApiError(
          409,
          issue('stillUsed', { what: target.title.toLowerCase(), users: ` (${model.name})` }),
        );
      }
    }
  }
}
