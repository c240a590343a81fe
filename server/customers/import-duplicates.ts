/**
 * Likely duplicates in a customer CSV import (issue 12), by the create form's rule
 * (./duplicates.ts): the check flags each valid row that looks like existing customers (which,
 * and why; one query per batch of rows) or like an earlier row of the same file; the user
 * chooses per row, or for all flagged rows at once, to skip it, import it anyway, or merge it into
 * an existing customer it looks like (that customer's empty fields are filled from the row; a field
 * both fill differently keeps the customer's value and is reported — ./merge.ts `fillFrom`).
 *
 * The server enforces the choice: a flagged row without one is not written (reported as
 * unresolved); a choice that cannot apply (a row the file does not have, a merge into a customer
 * the row does not look like, a merge of a row that looks like no existing customer) answers 422
 * naming `duplicates.rows.<row>.<field>` before anything is written.
 */
import type { Expression, SqlBool } from 'kysely';
import { sql } from 'kysely';
import type { ResourceModel } from '../../src/schema/model.ts';
import type { DB } from '../db/index.ts';
import { type ResourceRow, resourceDb } from '../db/resource.ts';
import { type FieldErrors, issue, validationError } from '../http/errors.ts';
import {
  type Duplicate,
  type DuplicateKeys,
  type DuplicateReason,
  duplicateKeys,
  fileDuplicates,
  findExistingDuplicates,
} from './duplicates.ts';
import { type FieldConflict, fillFrom } from './merge.ts';
import { customerErrors } from './rules.ts';

export type DuplicateAction = 'skip' | 'import' | 'merge';

/** The user's choices (the `duplicates` import option); row numbers as in the check's answer. */
export interface DuplicateChoices {
  /** For every flagged row without a choice of its own. */
  all?: DuplicateAction;
  rows?: Record<string, { action: DuplicateAction; into?: number }>;
}

const ACTIONS: DuplicateAction[] = ['skip', 'import', 'merge'];

export const duplicateChoicesSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    all: { type: 'string', enum: ACTIONS },
    rows: {
      type: 'object',
      maxProperties: 200_000,
      propertyNames: { pattern: '^[1-9][0-9]{0,8}$' },
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        required: ['action'],
        properties: {
          action: { type: 'string', enum: ACTIONS },
          into: { type: 'integer', minimum: 1, maximum: 2_147_483_647 },
        },
      },
    },
  },
} as const;

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

/** A valid row that looks like existing customers or an earlier row of the file. */
export interface FlaggedRow {
  row: number;
  line: number;
  /** The row's values the rule compares (wire names). */
  values: ResourceRow;
  matches: ExistingMatch[];
  /** Earlier rows of the same file (valid ones) the row looks like. */
  file_rows: Array<{ row: number; reasons: DuplicateReason[] }>;
}

const COMPARED = [
  'first_name',
  'last_name',
  'date_of_birth',
  'email',
  'phone_number',
  'organization',
] as const;

export interface CheckedRow {
  row: number;
  line: number;
  body: ResourceRow;
}

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
        matches: matches.map((match) => ({
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

/** What the run does with the valid rows, after the choices. */
export interface ImportPlan {
  inserts: CheckedRow[];
  merges: Array<CheckedRow & { into: number }>;
  /** Flagged rows skipped by choice. */
  skipped: number[];
  /** Flagged rows without a choice: not written. */
  unresolved: number[];
}

/** The valid rows' fate under the choices; a choice that cannot apply answers 422 naming it. */
export function planImport(
  rows: CheckedRow[],
  flagged: Map<number, FlaggedRow>,
  choices: DuplicateChoices | undefined,
  totalRows: number,
): ImportPlan {
  const errors: FieldErrors = {};
  const perRow = choices?.rows ?? {};
  for (const key of Object.keys(perRow)) {
    if (Number(key) > totalRows)
      errors[`duplicates.rows.${key}`] = [issue('notARow', { rows: totalRows })];
  }
  const plan: ImportPlan = { inserts: [], merges: [], skipped: [], unresolved: [] };
  for (const checked of rows) {
    const flag = flagged.get(checked.row);
    const own = perRow[String(checked.row)];
    const action = own?.action ?? (flag ? choices?.all : undefined);
    if (action === 'merge') {
      const matches = flag?.matches ?? [];
      const into = own?.into ?? matches[0]?.id;
      if (matches.length === 0) {
        // "Merge all" leaves a row that only repeats an earlier row of the file unresolved.
        if (own) {
          errors[`duplicates.rows.${checked.row}.action`] = [issue('mergeWithoutMatch')];
        } else plan.unresolved.push(checked.row);
      } else if (!matches.some((match) => match.id === into)) {
        errors[`duplicates.rows.${checked.row}.into`] = [issue('notAMatch', { id: Number(into) })];
      } else plan.merges.push({ ...checked, into: Number(into) });
    } else if (action === 'skip') plan.skipped.push(checked.row);
    else if (action === 'import' || !flag) plan.inserts.push(checked);
    else plan.unresolved.push(checked.row);
  }
  if (Object.keys(errors).length > 0) throw validationError(errors, 'duplicateChoices');
  return plan;
}

/** A row merged into an existing customer: what it filled, and what it could not. */
export interface MergeReport {
  row: number;
  customer_id: number;
  filled: string[];
  conflicts: Array<{ field: string; kept: unknown; file: unknown }>;
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
