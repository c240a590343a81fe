/**
 * CSV import of customers (docs/ARCHITECTURE.md §Customers): the same file is sent twice, first
 * for a preview (nothing is written), then for the import; the server keeps nothing in between.
 * The file and its options: ./import-file.ts; columns and values: ./import.ts.
 *
 * Every row is checked like a create through the API (schema, then server/customers/rules.ts);
 * each problem names its row, line, column and field. `importLeadSource` and
 * `importRecommendedBy` (options) apply to every imported row, `assignedTo` fills rows without a
 * consultant. Mode `all_or_nothing` writes nothing when any row is invalid; `skip_invalid` writes
 * the valid rows. Valid rows that look like existing customers or an earlier row are flagged and
 * written only as the user chose (./import-duplicates.ts). Valid rows are written in one
 * transaction, in batches.
 */
import type { FastifyInstance } from 'fastify';
import type { FieldModel } from '../../src/schema/model.ts';
import { type ResourceRow, resourceDb } from '../db/resource.ts';
import {
  type ErrorArgs,
  type ErrorIssue,
  errorText,
  keyedMessage,
} from '../../src/schema/errors.ts';
import { type FieldErrors, issue, validationError } from '../http/errors.ts';
import { createAjvInstance, fieldErrors, inputSchema } from '../http/validation.ts';
import { scopeExpression } from '../access/scope.ts';
import type { SessionUser } from '../auth/sessions.ts';
import { modelOf, scopeFor } from './access.ts';
import {
  type CheckedRow,
  type FlaggedRow,
  flagDuplicates,
  type ImportPlan,
  type MergeReport,
  writeMerges,
} from './import-duplicates.ts';
import { convert, importableFields, loadLookups, suggestField } from './import.ts';
import { type ImportOptions, type ParsedFile, parseCsv } from './import-file.ts';
import { customerErrors } from './rules.ts';
import { type AuditContext, writeTransaction } from '../audit/context.ts';

const BATCH = 1000;
const PREVIEW_ROWS = 20;
const MAX_REPORTED_ERRORS = 1000;

export interface RowError {
  /** 1-based number of the data row (the header is not counted). */
  row: number;
  /** Line of the file where the row starts. */
  line: number;
  /** The column the value came from, when there is one. */
  column: string | null;
  /** The customer field (wire name), or null for the row as a whole. */
  field: string | null;
  /** English, for API clients. */
  message: string;
  /** The translation key of the message (`app.errors.<code>`) and its arguments. */
  key: string;
  args?: ErrorArgs;
}

/** A row's error in the answer's shape: the English sentence and, beside it, its key. */
export const rowError = (
  at: Pick<RowError, 'row' | 'line' | 'column' | 'field'>,
  found: ErrorIssue,
): RowError => {
  const { message: key, args } = keyedMessage(found);
  return { ...at, message: errorText(found), key, ...(args ? { args } : {}) };
};

export interface Prepared {
  parsed: ParsedFile;
  mapping: Record<string, string | null>;
  suggested: Record<string, string | null>;
  /** Wire bodies of the valid rows, with their row and line numbers. */
  valid: CheckedRow[];
  /** Valid rows that look like existing customers or an earlier row (./import-duplicates.ts). */
  flagged: Map<number, FlaggedRow>;
  /** The first of them, for the answer. */
  duplicates: FlaggedRow[];
  errors: RowError[];
  invalidRows: number;
  preview: Array<{ row: number; line: number; values: ResourceRow; valid: boolean }>;
}

/** Parses, maps and checks every row; writes nothing. */
export async function prepareImport(
  app: FastifyInstance,
  buffer: Buffer,
  options: ImportOptions,
  principal: SessionUser | undefined,
): Promise<Prepared> {
  const model = modelOf(app, 'customers');
  const parsed = await parseCsv(buffer, options);
  const fields = importableFields(model);
  const byName = new Map(fields.map((field) => [field.name, field]));
  const suggested = Object.fromEntries(
    parsed.headers.map((header) => [header, suggestField(model, header)]),
  );
  const mapping = options.mapping ?? suggested;

  // The mapping itself: known columns, known fields, each field once, the names there.
  const mappingErrors: FieldErrors = {};
  const used = new Map<string, string>();
  for (const [header, field] of Object.entries(mapping)) {
    if (!parsed.headers.includes(header)) {
      mappingErrors[`mapping.${header}`] = [issue('notAColumn')];
      continue;
    }
    if (field === null || field === '') continue;
    if (!byName.has(field)) {
      mappingErrors[`mapping.${header}`] = [issue('notImportable', { field })];
    } else if (used.has(field)) {
      mappingErrors[`mapping.${header}`] = [
        issue('mappedTwice', { field, column: used.get(field) ?? '' }),
      ];
    } else used.set(field, header);
  }
  for (const required of fields.filter((field) => field.required)) {
    if (!used.has(required.name)) {
      mappingErrors.mapping ??= [];
      mappingErrors.mapping.push(issue('requiredColumn', { field: required.name }));
    }
  }
  // A customer needs a name (server/customers/rules.ts): a person first and last name, a company
  // its organization; without a column for either, no row could be imported.
  if (!(used.has('firstName') && used.has('lastName')) && !used.has('organization')) {
    mappingErrors.mapping ??= [];
    mappingErrors.mapping.push(issue('nameColumns'));
  }
  if (Object.keys(mappingErrors).length > 0)
    throw validationError(mappingErrors, 'mappingIncomplete');

  const lookups = await loadLookups(app.db, model);
  if (options.import_lead_source && !lookups.leadSources.has(String(options.import_lead_source))) {
    throw validationError({
      import_lead_source: [
        issue('unknownReference', { resource: 'lead-sources', ids: options.import_lead_source }),
      ],
    });
  }
  if (options.assigned_to) {
    const user = lookups.users.get(String(options.assigned_to));
    if (!user)
      throw validationError({
        assigned_to: [issue('unknownReference', { resource: 'users', ids: options.assigned_to })],
      });
    if (!user.active) throw validationError({ assigned_to: [issue('disabledUser')] });
  }

  const validate = createAjvInstance.compile(inputSchema(model.schema));
  const columns = parsed.headers
    .map((header, index) => ({ header, index, field: byName.get(mapping[header] ?? '') }))
    .filter((column): column is { header: string; index: number; field: FieldModel } =>
      Boolean(column.field),
    );
  const columnOfField = new Map(columns.map((column) => [column.field.column, column.header]));

  const errors: RowError[] = [];
  const candidates: Array<{ row: number; line: number; body: ResourceRow; errors: RowError[] }> =
    [];
  const recommended = new Set<number>();
  for (const [index, { values, line }] of parsed.rows.entries()) {
    const row = index + 1;
    const rowErrors: RowError[] = [];
    const fail = (column: string | null, field: string | null, found: ErrorIssue) =>
      rowErrors.push(rowError({ row, line, column, field }, found));
    if (values.length !== parsed.headers.length) {
      fail(
        null,
        null,
        issue('rowLength', { values: values.length, columns: parsed.headers.length }),
      );
    }
    const body: ResourceRow = {};
    for (const { header, index: at, field } of columns) {
      const text = (values[at] ?? '').trim();
      if (text === '') continue;
      const value = convert(field, text, lookups);
      if (value.error) fail(header, field.column, value.error);
      else body[field.column] = value.value;
    }
    if (options.import_lead_source) body.lead_source = options.import_lead_source;
    if (options.import_recommended_by) body.recommended_by = options.import_recommended_by;
    if (options.assigned_to && body.assigned_to === undefined)
      body.assigned_to = options.assigned_to;
    if (!validate(body)) {
      for (const [field, messages] of Object.entries(fieldErrors(validate.errors ?? []))) {
        const wire = field.split('.')[0];
        for (const message of messages) fail(columnOfField.get(wire) ?? null, wire, message);
      }
    }
    if (rowErrors.length === 0) {
      for (const [field, messages] of Object.entries(customerErrors(body))) {
        for (const message of messages) fail(columnOfField.get(field) ?? null, field, message);
      }
    }
    if (typeof body.recommended_by_customer_id === 'number')
      recommended.add(body.recommended_by_customer_id);
    candidates.push({ row, line, body, errors: rowErrors });
  }
  // References to existing customers, checked in one query.
  if (recommended.size > 0) {
    const found = await app.db
      .selectFrom('customers')
      .select('id')
      .where('id', 'in', [...recommended])
      .execute();
    const known = new Set(found.map((row) => Number(row.id)));
    for (const candidate of candidates) {
      const id = candidate.body.recommended_by_customer_id;
      if (typeof id === 'number' && !known.has(id)) {
        candidate.errors.push(
          rowError(
            {
              row: candidate.row,
              line: candidate.line,
              column: columnOfField.get('recommended_by_customer_id') ?? null,
              field: 'recommended_by_customer_id',
            },
            issue('unknownReference', { resource: 'customers', ids: id }),
          ),
        );
      }
    }
  }
  const valid: Prepared['valid'] = [];
  let invalidRows = 0;
  for (const candidate of candidates) {
    if (candidate.errors.length === 0)
      valid.push({ row: candidate.row, line: candidate.line, body: candidate.body });
    else {
      invalidRows++;
      for (const error of candidate.errors)
        if (errors.length < MAX_REPORTED_ERRORS) errors.push(error);
    }
  }
  const preview = candidates.slice(0, PREVIEW_ROWS).map((candidate) => ({
    row: candidate.row,
    line: candidate.line,
    values: candidate.body,
    valid: candidate.errors.length === 0,
  }));
  // Likely duplicates among the valid rows: one query per batch (the create form's rule).
  const scope = scopeExpression(scopeFor(app, 'customers', principal));
  const flagged = await flagDuplicates(app.db, valid, scope, BATCH);
  const duplicates = [...flagged.values()].slice(0, MAX_REPORTED_ERRORS);
  return {
    parsed,
    mapping,
    suggested,
    valid,
    flagged,
    duplicates,
    errors,
    invalidRows,
    preview,
  };
}

export interface Written {
  imported: number;
  merged: MergeReport[];
  /** Rows whose merge was refused (the customer would not be valid), as row errors. */
  refused: RowError[];
}

/**
 * Writes a plan in one transaction: the new customers batch by batch, then the merges into
 * existing ones (./import-duplicates.ts); answers what was written.
 */
export async function writeImport(
  app: FastifyInstance,
  who: AuditContext,
  plan: ImportPlan,
  onProgress?: (phase: 'importing' | 'merging', done: number, total: number) => void,
): Promise<Written> {
  const json = new Set(['correspondence_languages', 'languages']);
  const inserts = plan.inserts;
  return writeTransaction(app.db, who, async (trx) => {
    for (let start = 0; start < inserts.length; start += BATCH) {
      const rows = inserts.slice(start, start + BATCH).map(({ body }) => {
        const out: ResourceRow = {};
        for (const [key, value] of Object.entries(body)) {
          out[key] = json.has(key) && value !== null ? JSON.stringify(value) : value;
        }
        return out;
      });
      // The rows' columns are the customer model's fields mapped from the file (run-time names).
      await resourceDb(trx).insertInto('customers').values(rows).execute();
      onProgress?.('importing', Math.min(inserts.length, start + BATCH), inserts.length);
    }
    const outcome = await writeMerges(trx, modelOf(app, 'customers'), plan.merges, BATCH, (done) =>
      onProgress?.('merging', done, plan.merges.length),
    );
    const refused = outcome.refused.flatMap(({ row, line, errors }) =>
      Object.entries(errors).flatMap(([field, found]) =>
        found.map((one) =>
          rowError({ row, line, column: null, field: field === '_' ? null : field }, one),
        ),
      ),
    );
    return { imported: inserts.length, merged: outcome.merged, refused };
  });
}
