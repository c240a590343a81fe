/**
 * Likely duplicates in a CSV import, the part every resource shares: the rows a resource flagged
 * (./resource.ts `flagDuplicates`: which existing records a valid row looks like, and why, or
 * which earlier row of the file), the user's choices — per row, or for all flagged rows at once:
 * skip it, import it anyway, or (where the resource merges: customers) merge it into one of the
 * records it looks like — and the plan those choices make.
 *
 * The server enforces the choice: a flagged row without one is not written (reported as
 * unresolved); a choice that cannot apply (a row the file does not have, a merge into a record the
 * row does not look like, a merge of a row that looks like no existing record, a merge where the
 * resource has none) answers 422 naming `duplicates.rows.<row>[.action|.into]` (or
 * `duplicates.all`) before anything is written.
 */
import type { ResourceRow } from '../db/resource.ts';
import { type FieldErrors, issue, validationError } from '../http/errors.ts';

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

/** A valid row of the file: its wire body, its row and line numbers. */
export interface CheckedRow {
  row: number;
  line: number;
  body: ResourceRow;
}

/** An existing record a row looks like: the fields shown beside the row, and why. */
export type ExistingMatch = ResourceRow & { id: number; reasons: string[] };

/** A valid row that looks like existing records or an earlier row of the file. */
export interface FlaggedRow {
  row: number;
  line: number;
  /** The row's values the rule compares (wire names). */
  values: ResourceRow;
  matches: ExistingMatch[];
  /** Earlier rows of the same file (valid ones) the row looks like. */
  file_rows: Array<{ row: number; reasons: string[] }>;
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

/**
 * The valid rows' fate under the choices; a choice that cannot apply answers 422 naming it.
 * `merges`: whether the resource merges a row into a record it looks like (customers do).
 */
export function planImport(
  rows: CheckedRow[],
  flagged: Map<number, FlaggedRow>,
  choices: DuplicateChoices | undefined,
  totalRows: number,
  merges = true,
): ImportPlan {
  const errors: FieldErrors = {};
  const perRow = choices?.rows ?? {};
  const allowed = merges ? ACTIONS : ACTIONS.filter((action) => action !== 'merge');
  const notOffered = () => [issue('enum', { values: allowed.join(', ') })];
  if (choices?.all && !allowed.includes(choices.all)) errors['duplicates.all'] = notOffered();
  for (const [key, choice] of Object.entries(perRow)) {
    if (Number(key) > totalRows)
      errors[`duplicates.rows.${key}`] = [issue('notARow', { rows: totalRows })];
    else if (!allowed.includes(choice.action))
      errors[`duplicates.rows.${key}.action`] = notOffered();
  }
  const plan: ImportPlan = { inserts: [], merges: [], skipped: [], unresolved: [] };
  for (const checked of rows) {
    const flag = flagged.get(checked.row);
    const own = perRow[String(checked.row)];
    const action = own?.action ?? (flag ? choices?.all : undefined);
    if (action === 'merge') {
      if (!merges) continue; // refused above
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

/**
 * A row merged into an existing record: what it filled, and what it could not. Customers are the
 * one resource that merges, and the answer names the record `customer_id`.
 */
export interface MergeReport {
  row: number;
  customer_id: number;
  filled: string[];
  conflicts: Array<{ field: string; kept: unknown; file: unknown }>;
}
