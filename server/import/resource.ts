/**
 * What one resource brings to the CSV import (docs/ARCHITECTURE.md "CSV imports"). The machinery
 * — the file and its options (./file.ts), columns and values (./columns.ts), the rows' checks and
 * the write's transaction (./rows.ts), the duplicates' choices (./plan.ts), the routes
 * (./routes.ts) — is the same for every resource; a resource says only what differs:
 * which fields a column may fill, what a row needs mapped, its rules beyond the schema, who the
 * person on the blacklist would be, how it finds likely duplicates, whether it merges, and how
 * its rows are written. Customers: server/customers/import.ts; leads: ./leads.ts.
 */
import type { FastifyInstance } from 'fastify';
import type { FieldModel, ResourceModel } from '../../src/schema/model.ts';
import type { SessionUser } from '../auth/sessions.ts';
import type { DB } from '../db/index.ts';
import type { ResourceRow } from '../db/resource.ts';
import type { ErrorIssue, FieldErrors } from '../http/errors.ts';
import type { PersonKeys } from '../leads/blacklist.ts';
import type { Lookups } from './columns.ts';
import type { ImportOptions } from './file.ts';
import type { CheckedRow, FlaggedRow, ImportPlan, MergeReport } from './plan.ts';

/** One import's run: the app, the resource's model, who imports, the options, the lookups. */
export interface ImportContext {
  app: FastifyInstance;
  model: ResourceModel;
  principal: SessionUser;
  options: ImportOptions;
  lookups: Lookups;
}

/** A row as the resource's rules see it: its wire body, and whether it passed the schema. */
export interface RuleRow {
  body: ResourceRow;
  /** No problem found so far (values and schema). */
  clean: boolean;
}

export type Progress = (phase: 'importing' | 'merging', done: number, total: number) => void;

/** What a resource's write did (inside the import's transaction). */
export interface ResourceWritten {
  imported: number;
  merged: MergeReport[];
  /** Rows the write refused (a merge that would leave the record invalid): field → problems. */
  refused: Array<{ row: number; line: number; errors: FieldErrors }>;
}

export interface ResourceImport {
  /** The resource (REST path, model name): routes are /api/<resource>/import[/preview]. */
  resource: string;
  /** Roles that may import (the handler answers 403 to others and to external users). */
  roles: ReadonlySet<string>;
  /** What the 403 says they may not do ("import customers"). */
  action: string;
  /** Fields a column may fill. */
  fields(model: ResourceModel): FieldModel[];
  /** Column names (normalised) for this resource's fields, before the common ones. */
  aliases?: Readonly<Record<string, string>>;
  /** What the mapping lacks for any row to be importable (the names a record needs). */
  mappingIssues(mapped: ReadonlySet<string>): ErrorIssue[];
  /** The import-wide options as this resource's rules see them (422 before any row). */
  optionErrors?(context: ImportContext): FieldErrors;
  /** Values the server sets on every row before the checks (wire names). */
  fixed?: ResourceRow;
  /**
   * The resource's rules beyond the schema, for all rows at once (queries batched over the file);
   * answers each row's problems by wire field, in the order of `rows`.
   */
  rules(rows: RuleRow[], context: ImportContext): Promise<Array<FieldErrors | undefined>>;
  /** The person a row describes, looked up on the blacklist (server/leads/blacklist.ts). */
  person(body: ResourceRow): PersonKeys;
  /** Valid rows that look like existing records or an earlier row (in file order). */
  flagDuplicates(
    context: ImportContext,
    rows: CheckedRow[],
    batch: number,
  ): Promise<Map<number, FlaggedRow>>;
  /** Whether a flagged row may be merged into a record it looks like. */
  merges: boolean;
  /** Writes the plan inside the import's transaction, `batch` rows per statement. */
  write(
    trx: DB,
    plan: ImportPlan,
    context: ImportContext,
    batch: number,
    onProgress?: Progress,
  ): Promise<ResourceWritten>;
}

/** Columns of a model stored as JSON (lists, objects): written as JSON text. */
export const jsonColumns = (model: ResourceModel): Set<string> =>
  new Set(
    model.fields
      .filter((field) => ['enumArray', 'references', 'object', 'array'].includes(field.kind))
      .map((field) => field.column),
  );

/** A row's body as columns to insert (lists and objects as JSON text). */
export function insertValues(body: ResourceRow, json: ReadonlySet<string>): ResourceRow {
  const out: ResourceRow = {};
  for (const [key, value] of Object.entries(body)) {
    out[key] = json.has(key) && value !== null ? JSON.stringify(value) : value;
  }
  return out;
}
