/**
 * CSV import of a resource's records (docs/ARCHITECTURE.md "CSV imports"): the same file is sent
 * twice, first for a preview (nothing is written), then for the import; the server keeps nothing
 * in between. The file and its options: ./file.ts; columns and values: ./columns.ts; what differs
 * between customers and leads: ./resource.ts.
 *
 * Every row is checked like a create through the API (the resource's JSON schema by ajv, then its
 * rules), and its person against the blacklist (server/leads/blacklist.ts, one query for the
 * file): each problem names its row, line, column and field. `importLeadSource` and
 * `importRecommendedBy` (options) apply to every imported row, `assignedTo` fills rows without an
 * assignee. Mode `all_or_nothing` writes nothing when any row is invalid; `skip_invalid` writes
 * the valid rows. Valid rows that look like existing records or an earlier row are flagged and
 * written only as the user chose (./plan.ts). Valid rows are written in one transaction, in
 * batches.
 */
import type { FastifyInstance } from 'fastify';
import { camelToSnake } from '../../src/schema/case.ts';
import type { FieldModel } from '../../src/schema/model.ts';
import {
  type ErrorArgs,
  type ErrorIssue,
  errorText,
  keyedMessage,
} from '../../src/schema/errors.ts';
import { type AuditContext, writeTransaction } from '../audit/context.ts';
import type { SessionUser } from '../auth/sessions.ts';
import { modelOf } from '../customers/access.ts';
import type { ResourceRow } from '../db/resource.ts';
import { type FieldErrors, issue, validationError } from '../http/errors.ts';
import { createAjvInstance, fieldErrors, inputSchema } from '../http/validation.ts';
import { blacklistMatches } from '../leads/blacklist.ts';
import { convert, loadLookups, suggestField, userSuitable } from './columns.ts';
import { type ImportOptions, type ParsedFile, parseCsv } from './file.ts';
import type { CheckedRow, FlaggedRow, ImportPlan, MergeReport } from './plan.ts';
import type { ImportContext, Progress, ResourceImport } from './resource.ts';

const BATCH = 1000;
const PREVIEW_ROWS = 20;
const MAX_REPORTED_ERRORS = 1000;

/** The import options that fill a field on every row (or, `assigned_to`, where the row has none). */
const OPTION_OF_FIELD: Record<
  string,
  'import_lead_source' | 'import_recommended_by' | 'assigned_to'
> = {
  leadSource: 'import_lead_source',
  recommendedBy: 'import_recommended_by',
  assignedTo: 'assigned_to',
};

export interface RowError {
  /** 1-based number of the data row (the header is not counted). */
  row: number;
  /** Line of the file where the row starts. */
  line: number;
  /** The column the value came from, when there is one. */
  column: string | null;
  /** The field (wire name), or null for the row as a whole. */
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
  context: ImportContext;
  parsed: ParsedFile;
  /** The fields a column may fill (camelCase), for the mapping's choices. */
  fields: string[];
  mapping: Record<string, string | null>;
  suggested: Record<string, string | null>;
  /** Wire bodies of the valid rows, with their row and line numbers. */
  valid: CheckedRow[];
  /** Valid rows that look like existing records or an earlier row (./plan.ts). */
  flagged: Map<number, FlaggedRow>;
  /** The first of them, for the answer. */
  duplicates: FlaggedRow[];
  errors: RowError[];
  invalidRows: number;
  preview: Array<{ row: number; line: number; values: ResourceRow; valid: boolean }>;
}

/** The mapping itself: known columns, importable fields, each field once, what a row needs. */
function mappingErrors(
  description: ResourceImport,
  parsed: ParsedFile,
  mapping: Record<string, string | null>,
  byName: Map<string, FieldModel>,
  options: ImportOptions,
): { used: Map<string, string>; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const used = new Map<string, string>();
  for (const [header, field] of Object.entries(mapping)) {
    if (!parsed.headers.includes(header)) {
      errors[`mapping.${header}`] = [issue('notAColumn')];
      continue;
    }
    if (field === null || field === '') continue;
    if (!byName.has(field)) {
      errors[`mapping.${header}`] = [issue('notImportable', { field })];
    } else if (used.has(field)) {
      errors[`mapping.${header}`] = [
        issue('mappedTwice', { field, column: used.get(field) ?? '' }),
      ];
    } else used.set(field, header);
  }
  for (const required of byName.values()) {
    if (!required.required || used.has(required.name)) continue;
    // A field an option fills for every row (a lead's source) needs the option without a column.
    const option = OPTION_OF_FIELD[required.name];
    if (option) {
      if (!options[option]) errors[option] = [issue('required')];
    } else {
      errors.mapping ??= [];
      errors.mapping.push(issue('requiredColumn', { field: required.name }));
    }
  }
  const needed = description.mappingIssues(new Set(used.keys()));
  if (needed.length > 0) (errors.mapping ??= []).push(...needed);
  return { used, errors };
}

/** The import-wide options: known lead source, known active assignee of a suitable role. */
function optionErrors(context: ImportContext, byName: Map<string, FieldModel>): FieldErrors {
  const { options, lookups } = context;
  const errors: FieldErrors = {};
  if (options.import_lead_source && !lookups.leadSources.has(String(options.import_lead_source))) {
    errors.import_lead_source = [
      issue('unknownReference', { resource: 'lead-sources', ids: options.import_lead_source }),
    ];
  }
  if (options.assigned_to) {
    const user = lookups.users.get(String(options.assigned_to));
    if (!user)
      errors.assigned_to = [
        issue('unknownReference', { resource: 'users', ids: options.assigned_to }),
      ];
    else if (!user.active) errors.assigned_to = [issue('disabledUser')];
    else if (!userSuitable(byName.get('assignedTo'), user))
      errors.assigned_to = [issue('unsuitableReference', { ids: options.assigned_to })];
  }
  return errors;
}

/** Parses, maps and checks every row; writes nothing. */
export async function prepareImport(
  app: FastifyInstance,
  description: ResourceImport,
  buffer: Buffer,
  options: ImportOptions,
  principal: SessionUser,
): Promise<Prepared> {
  const model = modelOf(app, description.resource);
  const parsed = await parseCsv(buffer, options);
  const fields = description.fields(model);
  const byName = new Map(fields.map((field) => [field.name, field]));
  const suggested = Object.fromEntries(
    parsed.headers.map((header) => [
      header,
      suggestField(model, fields, header, description.aliases),
    ]),
  );
  const mapping = options.mapping ?? suggested;

  const checked = mappingErrors(description, parsed, mapping, byName, options);
  if (Object.keys(checked.errors).length > 0)
    throw validationError(checked.errors, 'mappingIncomplete');

  const lookups = await loadLookups(app.db, model);
  const context: ImportContext = { app, model, principal, options, lookups };
  // Known references first; then the resource's rules on them (a lead source the role may see).
  const refused = optionErrors(context, byName);
  if (Object.keys(refused).length === 0)
    Object.assign(refused, description.optionErrors?.(context));
  if (Object.keys(refused).length > 0) throw validationError(refused);

  const validate = createAjvInstance.compile(inputSchema(model.schema));
  const columns = parsed.headers
    .map((header, index) => ({ header, index, field: byName.get(mapping[header] ?? '') }))
    .filter((column): column is { header: string; index: number; field: FieldModel } =>
      Boolean(column.field),
    );
  const columnOfField = new Map(columns.map((column) => [column.field.column, column.header]));

  const candidates: Array<{ row: number; line: number; body: ResourceRow; errors: RowError[] }> =
    [];
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
    const body: ResourceRow = { ...description.fixed };
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
    candidates.push({ row, line, body, errors: rowErrors });
  }

  // The resource's rules, then the blacklist: each over the whole file at once.
  const failAt = (candidate: (typeof candidates)[number], errors: FieldErrors | undefined) => {
    for (const [field, messages] of Object.entries(errors ?? {})) {
      for (const message of messages) {
        candidate.errors.push(
          rowError(
            {
              row: candidate.row,
              line: candidate.line,
              column: columnOfField.get(field) ?? null,
              field,
            },
            message,
          ),
        );
      }
    }
  };
  const ruled = await description.rules(
    candidates.map((candidate) => ({ body: candidate.body, clean: candidate.errors.length === 0 })),
    context,
  );
  candidates.forEach((candidate, index) => failAt(candidate, ruled[index]));
  const listed = await blacklistMatches(
    app.db,
    candidates.map((candidate) => description.person(candidate.body)),
  );
  for (const [index, match] of listed) {
    failAt(candidates[index], {
      [camelToSnake(match.field)]: [issue('blacklisted', { value: match.value })],
    });
  }

  const errors: RowError[] = [];
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
  // Likely duplicates among the valid rows: one query per batch.
  const flagged = await description.flagDuplicates(context, valid, BATCH);
  const duplicates = [...flagged.values()].slice(0, MAX_REPORTED_ERRORS);
  return {
    context,
    parsed,
    fields: fields.map((field) => field.name),
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
  /** Rows the write refused (a merge that would leave the record invalid), as row errors. */
  refused: RowError[];
}

/** Writes a plan in one transaction (the resource's write, batch by batch); answers what was written. */
export async function writeImport(
  description: ResourceImport,
  context: ImportContext,
  who: AuditContext,
  plan: ImportPlan,
  onProgress?: Progress,
): Promise<Written> {
  return writeTransaction(context.app.db, who, async (trx) => {
    const outcome = await description.write(trx, plan, context, BATCH, onProgress);
    const refused = outcome.refused.flatMap(({ row, line, errors }) =>
      Object.entries(errors).flatMap(([field, found]) =>
        found.map((one) =>
          rowError({ row, line, column: null, field: field === '_' ? null : field }, one),
        ),
      ),
    );
    return { imported: outcome.imported, merged: outcome.merged, refused };
  });
}
