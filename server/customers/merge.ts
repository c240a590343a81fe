/**
 * Merging a duplicate customer into the one that stays (back office only), in one transaction:
 * 1. everything that refers to the duplicate by a foreign key (household members, documents,
 *    referrals, and whatever later tables point at customers — found in the database catalogue,
 *    so new tables are covered without code here) and lists of customer ids in JSON columns now
 *    refer to the customer that stays;
 * 2. with `fill_empty` (default), empty fields of the customer that stays take the duplicate's
 *    values; notes and info comments are joined;
 * 3. the result is checked like any customer (server/customers/rules.ts), the duplicate is
 *    deleted, and an audit record (`customer.merged`) keeps what was moved and the deleted record.
 * Both customers are locked first; a merge based on versions the client read (`version` of the
 * customer that stays or If-Match, `duplicate_version`) answers 409 with the one that changed.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { audit } from '../auth/audit.ts';
import { assertExpectedVersion, type ExpectedVersion } from '../crud/write.ts';
import type { DB } from '../db/index.ts';
import { type ResourceRow, resourceDb } from '../db/resource.ts';
import { ApiError, issue, notFound, validationError } from '../http/errors.ts';
import { getStorage } from '../storage/index.ts';
import type { ResourceModel } from '../../src/schema/model.ts';
import { modelOf } from './access.ts';
import { phoneDigits } from './duplicates.ts';
import { checkCustomer, hasErrors } from './rules.ts';
import { writeTransaction } from '../audit/context.ts';

const JOINED = new Set(['notes', 'info_comment']);

const isEmpty = (value: unknown) =>
  value === null ||
  value === undefined ||
  (typeof value === 'string' && value.trim() === '') ||
  (Array.isArray(value) && value.length === 0);

/** A field both records fill, with different values: the one kept and the one not taken. */
export interface FieldConflict {
  field: string;
  kept: unknown;
  other: unknown;
}

export interface Fill {
  /** Column values to write on the record that stays (JSON columns as JSON text). */
  changes: ResourceRow;
  /** Columns filled (or joined) from the other record. */
  filled: string[];
  /** Columns both fill with different values: the record that stays keeps its own. */
  conflicts: FieldConflict[];
}

const NO_FILL: Fill = { changes: {}, filled: [], conflicts: [] };

/** Text compared case- and space-insensitively; dates as YYYY-MM-DD; phones by their digits. */
function comparable(column: string, value: unknown): string {
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'string') {
    const text = value.trim().toLowerCase();
    return column === 'phone_number' ? phoneDigits(text) : text;
  }
  return JSON.stringify(value);
}

/**
 * What the record that stays takes from another record of the same customer (the admin merge of
 * two customers, the CSV import's merge of a row into an existing customer): its empty fields take
 * the other's values, notes and info comments are joined, and a field both fill differently keeps
 * the stayer's value and is reported as a conflict. Read-only fields are left alone (the avatar,
 * a storage key, moves with the record).
 */
export function fillFrom(model: ResourceModel, kept: ResourceRow, other: ResourceRow): Fill {
  const fill: Fill = { changes: {}, filled: [], conflicts: [] };
  for (const field of model.fields) {
    if (field.readOnly && field.name !== 'avatar') continue;
    const mine = kept[field.column];
    const theirs = other[field.column];
    if (isEmpty(theirs)) continue;
    if (isEmpty(mine)) {
      fill.changes[field.column] =
        Array.isArray(theirs) || (theirs && typeof theirs === 'object' && !(theirs instanceof Date))
          ? JSON.stringify(theirs)
          : theirs;
      fill.filled.push(field.column);
    } else if (JOINED.has(field.column)) {
      if (mine === theirs || String(mine).includes(String(theirs))) continue;
      const max = field.schema.maxLength ?? 10_000;
      fill.changes[field.column] = [...`${mine}\n\n${theirs}`].slice(0, max).join('');
      fill.filled.push(field.column);
    } else if (comparable(field.column, mine) !== comparable(field.column, theirs)) {
      fill.conflicts.push({ field: field.column, kept: mine, other: theirs });
    }
  }
  return fill;
}

/** Foreign keys that point at customers(id): [table, column]. */
async function referencesToCustomers(db: DB): Promise<Array<{ table: string; column: string }>> {
  const result = await sql<{ table_name: string; column_name: string }>`
    select cl.relname as table_name, att.attname as column_name
    from pg_constraint con
    join pg_class cl on cl.oid = con.conrelid
    join pg_attribute att on att.attrelid = con.conrelid and att.attnum = any (con.conkey)
    where con.contype = 'f' and con.confrelid = 'customers'::regclass
    order by 1, 2`.execute(db);
  return result.rows.map((row) => ({ table: row.table_name, column: row.column_name }));
}

export interface MergeResult {
  data: ResourceRow;
  moved: Record<string, number>;
  filled: string[];
}

/** The versions a merge is based on, each checked on the locked record. */
export interface MergeVersions {
  keep: ExpectedVersion;
  duplicate: ExpectedVersion;
}

export async function mergeCustomers(
  app: FastifyInstance,
  request: FastifyRequest,
  keepId: number,
  duplicateId: number,
  fillEmpty: boolean,
  versions: MergeVersions = { keep: {}, duplicate: {} },
): Promise<MergeResult> {
  if (keepId === duplicateId) {
    throw validationError({ duplicate_id: [issue('otherCustomer')] });
  }
  const model = modelOf(app, 'customers');
  let removedAvatar: string | undefined;
  const result = await writeTransaction(app.db, request, async (trx) => {
    const rows = await trx
      .selectFrom('customers')
      .selectAll()
      .where('id', 'in', [keepId, duplicateId])
      // Always in id order, so two merges of the same pair cannot deadlock.
      .orderBy('id')
      .forUpdate()
      .execute();
    const keep = rows.find((row) => row.id === keepId);
    const duplicate = rows.find((row) => row.id === duplicateId);
    if (!keep) throw notFound(model.title);
    if (!duplicate)
      throw validationError({
        duplicate_id: [issue('unknownReference', { resource: 'customers', ids: duplicateId })],
      });
    assertExpectedVersion(model, keep, versions.keep);
    assertExpectedVersion(model, duplicate, versions.duplicate);

    // Tables and columns found at run time (catalogue, models): the resource view of the database.
    const resources = resourceDb(trx);
    const moved: Record<string, number> = {};
    for (const { table, column } of await referencesToCustomers(trx)) {
      let query = resources
        .updateTable(table)
        .set({ [column]: keepId })
        .where(column, '=', duplicateId);
      // The customer that stays cannot recommend itself: its link to the duplicate is dropped.
      if (table === 'customers') {
        await resources
          .updateTable('customers')
          .set({ [column]: null })
          .where('id', '=', keepId)
          .where(column, '=', duplicateId)
          .execute();
        query = query.where('id', '<>', keepId);
      }
      const updated = await query.executeTakeFirst();
      const count = Number(updated.numUpdatedRows ?? 0);
      if (count > 0) moved[`${table}.${column}`] = count;
    }
    // Lists of customer ids (x-reference customers on an array) in any resource.
    for (const other of app.models) {
      for (const field of other.fields) {
        if (field.kind !== 'references' || field.reference !== 'customers') continue;
        const updated = await resources
          .updateTable(other.table)
          .set({
            [field.column]: sql`(select coalesce(jsonb_agg(distinct case when value::int = ${duplicateId} then ${keepId} else value::int end), '[]'::jsonb) from jsonb_array_elements_text(${sql.ref(field.column)}))`,
          })
          .where(sql<boolean>`${sql.ref(field.column)} @> ${JSON.stringify([duplicateId])}::jsonb`)
          .executeTakeFirst();
        const count = Number(updated.numUpdatedRows ?? 0);
        if (count > 0) moved[`${other.table}.${field.column}`] = count;
      }
    }

    const { changes, filled } = fillEmpty ? fillFrom(model, keep, duplicate) : NO_FILL;
    if (duplicate.avatar && changes.avatar !== duplicate.avatar) removedAvatar = duplicate.avatar;
    const after: ResourceRow = { ...keep, ...changes };
    for (const key of ['correspondence_languages', 'languages']) {
      const written = after[key];
      if (typeof written === 'string') after[key] = JSON.parse(written);
    }
    const errors = await checkCustomer(trx, after);
    if (hasErrors(errors)) {
      throw new ApiError(422, 'mergeInvalid', errors);
    }
    const stored =
      Object.keys(changes).length > 0
        ? await resources
            .updateTable('customers')
            .set({ ...changes, updated_at: sql`now()` })
            .where('id', '=', keepId)
            .returningAll()
            .executeTakeFirstOrThrow()
        : keep;
    await trx.deleteFrom('customers').where('id', '=', duplicateId).execute();
    await audit(trx, 'customer.merged', {
      userId: request.principal?.id,
      ip: request.ip,
      resource: 'customers',
      recordId: keepId,
      details: { kept: keepId, removed: duplicateId, moved, filled, removedRecord: duplicate },
    });
    return { data: stored, moved, filled };
  });
  if (removedAvatar) await getStorage().remove(removedAvatar);
  return result;
}
