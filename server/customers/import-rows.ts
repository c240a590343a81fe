/**
 * CSV import of customers (docs/ARCHITECTURE.md §Customers): the same file is sent twice, first
 * for a preview (nothing is written), then for the import; the server keeps nothing in between.
 * The file and its options: ./import-file.ts; columns and values: ./import.ts.
 *
 * Every row is checked like a create through the API (schema, then server/customers/rules.ts);
 * each problem names its row, line, column and field. `importLeadSource` and
 * `importRecommendedBy` (options) apply to every imported row, `assignedTo` fills rows without a
 * consultant. Mode `all_or_nothing` writes nothing when any row is invalid; `skip_invalid` writes
 * the valid rows. Valid rows are written in one transaction, in batches.
 */
import type { FastifyInstance } from 'fastify';
import type { FieldModel } from '../../src/schema/model.ts';
import type { DB } from '../db/index.ts';
import { type ResourceRow, resourceDb } from '../db/resource.ts';
import { validationError } from '../http/errors.ts';
import { createAjvInstance, fieldErrors, inputSchema } from '../http/validation.ts';
import { modelOf } from './access.ts';
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
  message: string;
}

export interface Prepared {
  parsed: ParsedFile;
  mapping: Record<string, string | null>;
  suggested: Record<string, string | null>;
  /** Wire bodies of the valid rows, with their row numbers. */
  valid: Array<{ row: number; body: ResourceRow }>;
  errors: RowError[];
  invalidRows: number;
  preview: Array<{ row: number; line: number; values: ResourceRow; valid: boolean }>;
}

/** Parses, maps and checks every row; writes nothing. */
export async function prepareImport(
  app: FastifyInstance,
  buffer: Buffer,
  options: ImportOptions,
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
  const mappingErrors: Record<string, string[]> = {};
  const used = new Map<string, string>();
  for (const [header, field] of Object.entries(mapping)) {
    if (!parsed.headers.includes(header)) {
      mappingErrors[`mapping.${header}`] = ['is not a column of the file'];
      continue;
    }
    if (field === null || field === '') continue;
    if (!byName.has(field)) {
      mappingErrors[`mapping.${header}`] = [
        `"${field}" is not a customer field that can be imported`,
      ];
    } else if (used.has(field)) {
      mappingErrors[`mapping.${header}`] = [
        `"${field}" is already filled from column "${used.get(field)}"`,
      ];
    } else used.set(field, header);
  }
  for (const required of fields.filter((field) => field.required)) {
    if (!used.has(required.name)) {
      mappingErrors.mapping ??= [];
      mappingErrors.mapping.push(`no column is mapped to ${required.name} (required)`);
    }
  }
  if (Object.keys(mappingErrors).length > 0)
    throw validationError(mappingErrors, 'The column mapping is not complete.');

  const lookups = await loadLookups(app.db, model);
  if (options.import_lead_source && !lookups.leadSources.has(String(options.import_lead_source))) {
    throw validationError({
      import_lead_source: [`refers to unknown lead-sources: ${options.import_lead_source}`],
    });
  }
  if (options.assigned_to) {
    const user = lookups.users.get(String(options.assigned_to));
    if (!user)
      throw validationError({ assigned_to: [`refers to unknown users: ${options.assigned_to}`] });
    if (!user.active) throw validationError({ assigned_to: ['refers to a disabled user'] });
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
    const fail = (column: string | null, field: string | null, message: string) =>
      rowErrors.push({ row, line, column, field, message });
    if (values.length !== parsed.headers.length) {
      fail(
        null,
        null,
        `has ${values.length} values, the header line has ${parsed.headers.length} columns`,
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
        candidate.errors.push({
          row: candidate.row,
          line: candidate.line,
          column: columnOfField.get('recommended_by_customer_id') ?? null,
          field: 'recommended_by_customer_id',
          message: `refers to unknown customers: ${id}`,
        });
      }
    }
  }
  const valid: Prepared['valid'] = [];
  let invalidRows = 0;
  for (const candidate of candidates) {
    if (candidate.errors.length === 0) valid.push({ row: candidate.row, body: candidate.body });
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
  return { parsed, mapping, suggested, valid, errors, invalidRows, preview };
}

/** Inserts the valid rows in one transaction, batch by batch; answers the number written. */
export async function writeImport(
  db: DB,
  who: AuditContext,
  valid: Prepared['valid'],
  onProgress?: (done: number) => void,
): Promise<number> {
  const model = { json: new Set(['correspondence_languages', 'languages']) };
  await writeTransaction(db, who, async (trx) => {
    for (let start = 0; start < valid.length; start += BATCH) {
      const rows = valid.slice(start, start + BATCH).map(({ body }) => {
        const out: ResourceRow = {};
        for (const [key, value] of Object.entries(body)) {
          out[key] = model.json.has(key) && value !== null ? JSON.stringify(value) : value;
        }
        return out;
      });
      // The rows' columns are the customer model's fields mapped from the file (run-time names).
      await resourceDb(trx).insertInto('customers').values(rows).execute();
      onProgress?.(Math.min(valid.length, start + BATCH));
    }
  });
  return valid.length;
}
