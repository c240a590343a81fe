/**
 * Likely duplicates of a customer CSV import (issue 12), by the create form's rule
 * (./duplicates.ts): the check flags each valid row that looks like existing customers (which,
 * and why; one query per batch of rows) or like an earlier row of the same file; besides skipping
 * a row or importing it anyway (../import/plan.ts, shared by every import), the user may merge it
 * into an existing customer it looks like: that customer's empty fields are filled from the row; a
 * field both fill differently keeps the customer's value and is reported (./merge.ts `fillFrom`).
 */
import type { Expression, SqlBool } from 'kysely';
import { sql } from 'kysely';
import type { ResourceModel } from '../../src/schema/model.ts';
import type { DB } from '../db/index.ts';
import { type ResourceRow, resourceDb } from '../db/resource.ts';
import { type FieldErrors, issue } from '../http/errors.ts';
import type { CheckedRow, FlaggedRow, ImportPlan, MergeReport } from '../import/plan.ts';
import {
  type Duplicate,
  type DuplicateKeys,
  duplicateKeys,
  fileDuplicates,
  findExistingDuplicates,
} from './duplicates.ts';
import { type FieldConflict, fillFrom } from './merge.ts';
import { customerErrors } from './rules.ts';

/** The fields of an existing customer shown beside a flagged row (and the reasons). */
export type ExistingMatch = Pick<
  Duplicate,
  | 'id'
  | 'is_company'
  | 'organization'
  | 'first_name'
  | 'last_name'
  | 'date_of_birth'
  | 'email'
  | 'phone_number'
  | 'zip'
  | 'city'
  | 'reasons'
>;

const COMPARED = [
  'first_name',
  'last_name',
  'date_of_birth',
  'email',
  'phone_number',
  'organization',
] as const;

/**
 * Flags the valid rows (in file order): existing customers inside `scope` one query per `batch`
 * rows, earlier rows of the file in memory.
 */
export async function flagDuplicates(
  db: DB,
  rows: CheckedRow[],
  scope: Expression<SqlBool>,
  batch: number,
): Promise<Map<number, FlaggedRow>> {
  const keys: DuplicateKeys[] = rows.map(({ body }) => duplicateKeys(body));
  const inFile = fileDuplicates(keys);
  const flagged = new Map<number, FlaggedRow>();
  for (let start = 0; start < rows.length; start += batch) {
    const existing = await findExistingDuplicates(db, keys.slice(start, start + batch), scope);
    existing.forEach((matches, offset) => {
      const index = start + offset;
      const earlier = inFile[index];
      if (matches.length === 0 && earlier.length === 0) return;
      const { row, line, body } = rows[index];
      flagged.set(row, {
        row,
        line,
        values: Object.fromEntries(
          COMPARED.filter((column) => body[column] !== undefined).map((column) => [
            column,
            body[column],
          ]),
        ),
        matches: matches.map((match): ExistingMatch => ({
          id: match.id,
          is_company: match.is_company,
          organization: match.organization,
          first_name: match.first_name,
          last_name: match.last_name,
          date_of_birth: match.date_of_birth,
          email: match.email,
          phone_number: match.phone_number,
          zip: match.zip,
          city: match.city,
          reasons: match.reasons,
        })),
        file_rows: earlier.map((other) => ({ row: rows[other.index].row, reasons: other.reasons })),
      });
    });
  }
  return flagged;
}

export interface MergeOutcome {
  merged: MergeReport[];
  /** Rows whose merge would leave the customer invalid (not merged): field → messages. */
  refused: Array<{ row: number; line: number; errors: FieldErrors }>;
}

const conflictOf = (conflict: FieldConflict) => ({
  field: conflict.field,
  kept: conflict.kept,
  file: conflict.other,
});

/**
 * Merges rows into the existing customers they were matched with, inside the import's transaction:
 * the customers of a batch are locked in one query; rows merging into the same customer apply in
 * file order (the second sees what the first filled).
 */
export async function writeMerges(
  trx: DB,
  model: ResourceModel,
  merges: ImportPlan['merges'],
  batch: number,
  onProgress?: (done: number) => void,
): Promise<MergeOutcome> {
  const outcome: MergeOutcome = { merged: [], refused: [] };
  const resources = resourceDb(trx);
  const current = new Map<number, ResourceRow>();
  for (let start = 0; start < merges.length; start += batch) {
    const slice = merges.slice(start, start + batch);
    const wanted = [...new Set(slice.map((merge) => merge.into))].filter((id) => !current.has(id));
    if (wanted.length > 0) {
      const locked = await resources
        .selectFrom('customers')
        .selectAll()
        .where('id', 'in', wanted)
        .orderBy('id')
        .forUpdate()
        .execute();
      for (const row of locked) current.set(Number(row.id), row);
    }
    for (const merge of slice) {
      const existing = current.get(merge.into);
      if (!existing) {
        // Deleted since the check: nothing to merge into.
        outcome.refused.push({
          row: merge.row,
          line: merge.line,
          errors: { _: [issue('customerGone', { id: merge.into })] },
        });
        continue;
      }
      const fill = fillFrom(model, existing, merge.body);
      // The record as it would be (lists as lists, not the JSON text written to their columns).
      const after: ResourceRow = { ...existing };
      for (const column of fill.filled) {
        const value = merge.body[column];
        after[column] = Array.isArray(value) ? value : fill.changes[column];
      }
      const errors = customerErrors(after);
      if (Object.keys(errors).length > 0) {
        outcome.refused.push({ row: merge.row, line: merge.line, errors });
        continue;
      }
      if (Object.keys(fill.changes).length > 0) {
        const stored = await resources
          .updateTable('customers')
          .set({ ...fill.changes, updated_at: sql`now()` })
          .where('id', '=', merge.into)
          .returningAll()
          .executeTakeFirstOrThrow();
        current.set(merge.into, stored);
      }
      outcome.merged.push({
        row: merge.row,
        customer_id: merge.into,
        filled: fill.filled,
        conflicts: fill.conflicts.map(conflictOf),
      });
    }
    onProgress?.(Math.min(merges.length, start + batch));
  }
  return outcome;
}
