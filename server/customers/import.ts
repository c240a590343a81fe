/**
 * CSV import of customers (docs/ARCHITECTURE.md §Customers): the same file is sent twice, first
 * for a preview (nothing is written), then for the import; the server keeps nothing in between.
 *
 * File: UTF-8 (with or without BOM) or Windows-1252 (Excel's "CSV" on Swiss Windows), delimiter
 * `,` `;` or tab (detected from the header line unless given), a header line, at most
 * IMPORT_MAX_ROWS rows. Parsed by csv-parse. A binary file, a spreadsheet, an invalid encoding,
 * duplicate or empty column names answer 415/422 naming the file and the line.
 *
 * Mapping: column → customer field; suggested from the column names (field names, their labels
 * in de/fr/it/en, common aliases such as PLZ, NPA, Natel). Values: dates as YYYY-MM-DD or
 * DD.MM.YYYY, yes/no in four languages, enum values by code or label in any language, lead
 * sources by id or name, consultants by id or email, sub-brokers by id or name.
 *
 * Every row is checked like a create through the API (schema, then server/customers/rules.ts);
 * each problem names its row, line, column and field. `importLeadSource` and
 * `importRecommendedBy` (options) apply to every imported row, `assignedTo` fills rows without a
 * consultant. Mode `all_or_nothing` writes nothing when any row is invalid; `skip_invalid` writes
 * the valid rows. Valid rows are written in one transaction, in batches.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parse } from 'csv-parse';
import { fileTypeFromBuffer } from 'file-type';
import type { FieldModel, ResourceModel } from '../../src/schema/model.ts';
import type { DB, Row } from '../db/index.ts';
import { ApiError, validationError } from '../http/errors.ts';
import { createAjvInstance, fieldErrors, inputSchema } from '../http/validation.ts';
import { modelOf } from './access.ts';
import { enumLabel, fieldLabel, LANGUAGES, normalizeLabel } from './labels.ts';
import { customerErrors } from './rules.ts';

const MB = 1024 * 1024;
export const IMPORT_MAX_BYTES = Number(process.env.IMPORT_MAX_BYTES ?? 30 * MB);
export const IMPORT_MAX_ROWS = Number(process.env.IMPORT_MAX_ROWS ?? 200_000);
const BATCH = 1000;
const PREVIEW_ROWS = 20;
const MAX_REPORTED_ERRORS = 1000;

export type ImportMode = 'all_or_nothing' | 'skip_invalid';

export interface ImportOptions {
  mapping?: Record<string, string | null>;
  mode?: ImportMode;
  encoding?: 'utf-8' | 'windows-1252';
  delimiter?: ',' | ';' | '\t';
  import_lead_source?: number | null;
  import_recommended_by?: string | null;
  assigned_to?: number | null;
}

export const optionsSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    mapping: {
      type: 'object',
      maxProperties: 200,
      additionalProperties: { type: ['string', 'null'], maxLength: 100 },
    },
    mode: { type: 'string', enum: ['all_or_nothing', 'skip_invalid'] },
    encoding: { type: 'string', enum: ['utf-8', 'windows-1252'] },
    delimiter: { type: 'string', enum: [',', ';', '\t'] },
    import_lead_source: { type: ['integer', 'null'], minimum: 1, maximum: 2_147_483_647 },
    import_recommended_by: { type: ['string', 'null'], maxLength: 200 },
    assigned_to: { type: ['integer', 'null'], minimum: 1, maximum: 2_147_483_647 },
  },
};
const validateOptions = createAjvInstance.compile(optionsSchema);

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

/** Customer fields a column can fill (everything a client may write). */
export function importableFields(model: ResourceModel): FieldModel[] {
  return model.fields.filter((field) => !field.readOnly);
}

const ALIASES: Record<string, string> = {
  vorname: 'firstName',
  prenom: 'firstName',
  nome: 'firstName',
  firstname: 'firstName',
  givenname: 'firstName',
  nachname: 'lastName',
  name: 'lastName',
  familienname: 'lastName',
  nom: 'lastName',
  cognome: 'lastName',
  surname: 'lastName',
  plz: 'zip',
  postleitzahl: 'zip',
  npa: 'zip',
  cap: 'zip',
  postcode: 'zip',
  zipcode: 'zip',
  ort: 'city',
  ortschaft: 'city',
  wohnort: 'city',
  localite: 'city',
  localita: 'city',
  ville: 'city',
  strasse: 'street',
  rue: 'street',
  via: 'street',
  adresse: 'street',
  hausnummer: 'addressNumber',
  nr: 'addressNumber',
  no: 'addressNumber',
  numero: 'addressNumber',
  telefon: 'phoneNumber',
  tel: 'phoneNumber',
  telephone: 'phoneNumber',
  telefono: 'phoneNumber',
  natel: 'phoneNumber',
  handy: 'phoneNumber',
  mobile: 'phoneNumber',
  mobil: 'phoneNumber',
  phone: 'phoneNumber',
  mail: 'email',
  emailadresse: 'email',
  courriel: 'email',
  geburtsdatum: 'dateOfBirth',
  geburtstag: 'dateOfBirth',
  datedenaissance: 'dateOfBirth',
  datadinascita: 'dateOfBirth',
  birthdate: 'dateOfBirth',
  geschlecht: 'gender',
  sexe: 'gender',
  sesso: 'gender',
  firma: 'organization',
  unternehmen: 'organization',
  entreprise: 'organization',
  societe: 'organization',
  ditta: 'organization',
  azienda: 'organization',
  company: 'organization',
  zivilstand: 'maritalStatus',
  etatcivil: 'maritalStatus',
  statocivile: 'maritalStatus',
  nationalitat: 'nationality',
  staatsangehorigkeit: 'nationality',
  nationalite: 'nationality',
  nazionalita: 'nationality',
  land: 'country',
  pays: 'country',
  paese: 'country',
  bewilligung: 'permitType',
  aufenthaltsbewilligung: 'permitType',
  permis: 'permitType',
  permesso: 'permitType',
  bemerkung: 'notes',
  bemerkungen: 'notes',
  notizen: 'notes',
  remarques: 'notes',
  osservazioni: 'notes',
};

/** Field (camelCase) a column name stands for, or null. */
export function suggestField(model: ResourceModel, header: string): string | null {
  const key = normalizeLabel(header);
  if (!key) return null;
  const fields = importableFields(model);
  for (const field of fields) {
    if (normalizeLabel(field.name) === key || normalizeLabel(field.column) === key)
      return field.name;
  }
  for (const language of LANGUAGES) {
    for (const field of fields) {
      if (normalizeLabel(fieldLabel(language, model.name, field.name)) === key) return field.name;
    }
  }
  const alias = ALIASES[key];
  return alias && fields.some((field) => field.name === alias) ? alias : null;
}

const YES = new Set([
  '1',
  'true',
  'yes',
  'y',
  'ja',
  'j',
  'oui',
  'o',
  'si',
  'sì',
  'x',
  'wahr',
  'vrai',
  'vero',
]);
const NO = new Set(['0', 'false', 'no', 'n', 'nein', 'non', 'falsch', 'faux', 'falso']);

/** A date as YYYY-MM-DD from YYYY-MM-DD, D.M.YYYY or D/M/YYYY; undefined when not a real date. */
export function parseDate(text: string): string | undefined {
  let match = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(text);
  let year: number;
  let month: number;
  let day: number;
  if (match) [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  else {
    match = /^(\d{1,2})[./](\d{1,2})[./](\d{4})$/.exec(text);
    if (!match) return undefined;
    [day, month, year] = [Number(match[1]), Number(match[2]), Number(match[3])];
  }
  const date = new Date(Date.UTC(year, month - 1, day));
  if (
    date.getUTCFullYear() !== year ||
    date.getUTCMonth() !== month - 1 ||
    date.getUTCDate() !== day
  )
    return undefined;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** Lookups for enum values and references, loaded once per import. */
interface Lookups {
  enums: Map<string, Map<string, string>>;
  leadSources: Map<string, number>;
  users: Map<string, { id: number; active: boolean }>;
  subBrokers: Map<string, number>;
}

function enumLookup(field: FieldModel): Map<string, string> {
  const values = field.enumValues ?? [];
  const map = new Map<string, string>();
  for (const value of values) {
    map.set(normalizeLabel(value), value);
    for (const language of LANGUAGES) {
      const label = enumLabel(language, field.enumName ?? '', value);
      if (label !== value) map.set(normalizeLabel(label), value);
    }
  }
  return map;
}

async function loadLookups(db: DB, model: ResourceModel): Promise<Lookups> {
  const enums = new Map<string, Map<string, string>>();
  for (const field of model.fields) if (field.enumValues) enums.set(field.name, enumLookup(field));
  const leadSources = new Map<string, number>();
  for (const row of await db
    .selectFrom('lead_sources')
    .select(['id', 'name_de', 'name_fr', 'name_it', 'name_en'])
    .execute()) {
    leadSources.set(String(row.id), Number(row.id));
    for (const name of [row.name_de, row.name_fr, row.name_it, row.name_en]) {
      if (typeof name === 'string' && name.trim())
        leadSources.set(normalizeLabel(name), Number(row.id));
    }
  }
  const users = new Map<string, { id: number; active: boolean }>();
  for (const row of await db.selectFrom('users').select(['id', 'email', 'is_active']).execute()) {
    const entry = { id: Number(row.id), active: row.is_active !== false };
    users.set(String(row.id), entry);
    users.set(String(row.email).toLowerCase(), entry);
  }
  const subBrokers = new Map<string, number>();
  for (const row of await db.selectFrom('sub_brokers').select(['id', 'name']).execute()) {
    subBrokers.set(String(row.id), Number(row.id));
    subBrokers.set(normalizeLabel(String(row.name)), Number(row.id));
  }
  return { enums, leadSources, users, subBrokers };
}

export interface ParsedFile {
  headers: string[];
  rows: Array<{ values: string[]; line: number }>;
  delimiter: string;
  encoding: string;
}

const fileError = (status: number, message: string) =>
  new ApiError(status, message, { file: [message] });

/** Bytes → text: BOM removed, UTF-8 checked strictly (the line of the first bad byte named). */
export function decode(buffer: Buffer, encoding: 'utf-8' | 'windows-1252' = 'utf-8'): string {
  if (encoding === 'windows-1252') return new TextDecoder('windows-1252').decode(buffer);
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(buffer);
  } catch {
    let line = 1;
    let at = 0;
    // Find the first byte sequence that is not UTF-8, to name its line.
    while (at < buffer.length) {
      const byte = buffer[at];
      const length =
        byte < 0x80 ? 1 : byte >> 5 === 6 ? 2 : byte >> 4 === 14 ? 3 : byte >> 3 === 30 ? 4 : 0;
      const valid =
        length > 0 &&
        at + length <= buffer.length &&
        [...buffer.subarray(at + 1, at + length)].every((next) => next >> 6 === 2);
      if (!valid) break;
      if (byte === 0x0a) line++;
      at += length;
    }
    throw fileError(
      422,
      `The file is not valid UTF-8 (line ${line}). Save it as "CSV UTF-8", or choose the encoding Windows-1252.`,
    );
  }
}

function detectDelimiter(text: string): ',' | ';' | '\t' {
  const firstLine = text.slice(0, text.search(/\r?\n/) >= 0 ? text.search(/\r?\n/) : undefined);
  const outside = firstLine.replace(/"[^"]*"/g, '');
  const counts = ([',', ';', '\t'] as const).map(
    (char) => [char, outside.split(char).length - 1] as const,
  );
  const best = counts.reduce((a, b) => (b[1] > a[1] ? b : a));
  return best[1] > 0 ? best[0] : ',';
}

/** Checks the bytes are CSV text and parses them (header + rows). */
export async function parseCsv(buffer: Buffer, options: ImportOptions): Promise<ParsedFile> {
  if (buffer.length === 0) throw fileError(422, 'The file is empty.');
  const detected = await fileTypeFromBuffer(buffer);
  if (detected) {
    throw fileError(
      415,
      `This is a ${detected.ext.toUpperCase()} file, not CSV. Save it as CSV (UTF-8) and import that.`,
    );
  }
  if (buffer.subarray(0, 8192).includes(0)) {
    throw fileError(415, 'This is not a text file. Import a CSV file (UTF-8).');
  }
  const encoding = options.encoding ?? 'utf-8';
  let text = decode(buffer, encoding);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const delimiter = options.delimiter ?? detectDelimiter(text);
  const parser = parse(text, {
    delimiter,
    relax_column_count: true,
    skip_empty_lines: true,
    trim: true,
    info: true,
    max_record_size: 100_000,
  });
  let headers: string[] | undefined;
  const rows: ParsedFile['rows'] = [];
  try {
    for await (const { record, info } of parser as AsyncIterable<{
      record: string[];
      info: { lines: number };
    }>) {
      if (!headers) {
        headers = record.map((name) => name.trim());
        continue;
      }
      if (record.every((value) => value === '')) continue;
      if (rows.length >= IMPORT_MAX_ROWS) {
        throw fileError(413, `The file has more than ${IMPORT_MAX_ROWS} rows; split it.`);
      }
      rows.push({ values: record, line: info.lines });
    }
  } catch (error) {
    if (error instanceof ApiError) throw error;
    const csvError = error as { code?: string; lines?: number; message: string };
    throw fileError(
      422,
      `The file is not valid CSV${csvError.lines ? ` (line ${csvError.lines})` : ''}: ${csvError.message.replace(/^Invalid Record Length: |^[A-Za-z ]+: /, '')}`,
    );
  }
  if (!headers || headers.length === 0) throw fileError(422, 'The file has no header line.');
  const empty = headers.findIndex((name) => name === '');
  if (empty >= 0) throw fileError(422, `Column ${empty + 1} of the header line has no name.`);
  const seen = new Map<string, number>();
  for (const [index, name] of headers.entries()) {
    const first = seen.get(name.toLowerCase());
    if (first !== undefined) {
      throw fileError(422, `Columns ${first + 1} and ${index + 1} are both named "${name}".`);
    }
    seen.set(name.toLowerCase(), index);
  }
  return { headers, rows, delimiter, encoding };
}

export interface Prepared {
  parsed: ParsedFile;
  mapping: Record<string, string | null>;
  suggested: Record<string, string | null>;
  /** Wire bodies of the valid rows, with their row numbers. */
  valid: Array<{ row: number; body: Row }>;
  errors: RowError[];
  invalidRows: number;
  preview: Array<{ row: number; line: number; values: Row; valid: boolean }>;
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
  const candidates: Array<{ row: number; line: number; body: Row; errors: RowError[] }> = [];
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
    const body: Row = {};
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

function convert(
  field: FieldModel,
  text: string,
  lookups: Lookups,
): { value?: unknown; error?: string } {
  switch (field.kind) {
    case 'boolean': {
      const key = text.toLowerCase();
      if (YES.has(key)) return { value: true };
      if (NO.has(key)) return { value: false };
      return { error: `"${text}" is not yes or no` };
    }
    case 'date': {
      const value = parseDate(text);
      return value ? { value } : { error: `"${text}" is not a date (YYYY-MM-DD or DD.MM.YYYY)` };
    }
    case 'enum': {
      const value = lookups.enums.get(field.name)?.get(normalizeLabel(text));
      return value ? { value } : { error: `"${text}" is not a known value` };
    }
    case 'enumArray': {
      const out: string[] = [];
      for (const part of text
        .split(/[,;/|]/)
        .map((item) => item.trim())
        .filter(Boolean)) {
        const value = lookups.enums.get(field.name)?.get(normalizeLabel(part));
        if (!value) return { error: `"${part}" is not a known value` };
        if (!out.includes(value)) out.push(value);
      }
      return { value: out };
    }
    case 'reference': {
      if (field.reference === 'lead-sources') {
        const id = lookups.leadSources.get(/^\d+$/.test(text) ? text : normalizeLabel(text));
        return id ? { value: id } : { error: `"${text}" is not a known lead source` };
      }
      if (field.reference === 'users') {
        const user = lookups.users.get(text.toLowerCase());
        if (!user) return { error: `"${text}" is not a known user (id or email)` };
        return user.active ? { value: user.id } : { error: `"${text}" is a disabled user` };
      }
      if (field.reference === 'sub-brokers') {
        const id = lookups.subBrokers.get(/^\d+$/.test(text) ? text : normalizeLabel(text));
        return id ? { value: id } : { error: `"${text}" is not a known sub-broker` };
      }
      return /^\d{1,9}$/.test(text) ? { value: Number(text) } : { error: `"${text}" is not an id` };
    }
    default:
      return { value: text };
  }
}

/** Inserts the valid rows in one transaction, batch by batch; answers the number written. */
export async function writeImport(
  db: DB,
  valid: Prepared['valid'],
  onProgress?: (done: number) => void,
): Promise<number> {
  const model = { json: new Set(['correspondence_languages', 'languages']) };
  await db.transaction().execute(async (trx) => {
    for (let start = 0; start < valid.length; start += BATCH) {
      const rows = valid.slice(start, start + BATCH).map(({ body }) => {
        const out: Row = {};
        for (const [key, value] of Object.entries(body)) {
          out[key] = model.json.has(key) && value !== null ? JSON.stringify(value) : value;
        }
        return out;
      });
      await trx.insertInto('customers').values(rows).execute();
      onProgress?.(Math.min(valid.length, start + BATCH));
    }
  });
  return valid.length;
}

/** Reads the multipart request of a preview or an import: the CSV (part `file`) and `options`. */
export async function receiveImport(
  request: FastifyRequest,
): Promise<{ buffer: Buffer; fileName: string; options: ImportOptions }> {
  if (!request.isMultipart()) {
    throw new ApiError(415, 'Send the CSV as multipart/form-data (parts "file" and "options").', {
      file: ['is required'],
    });
  }
  let buffer: Buffer | undefined;
  let fileName = '';
  let optionsText: string | undefined;
  const parts = request.parts({
    limits: { fileSize: IMPORT_MAX_BYTES, files: 1, fields: 5, fieldSize: 100_000, parts: 10 },
  });
  for await (const part of parts) {
    if (part.type === 'file') {
      buffer = await part.toBuffer();
      fileName = part.filename ?? '';
      if (part.file.truncated) {
        throw fileError(413, `The file is too large: at most ${IMPORT_MAX_BYTES / MB} MB.`);
      }
    } else if (part.fieldname === 'options') optionsText = String(part.value ?? '');
  }
  if (!buffer) throw validationError({ file: ['is required'] });
  let options: unknown = {};
  if (optionsText) {
    try {
      options = JSON.parse(optionsText);
    } catch {
      throw validationError({ options: ['is not valid JSON'] });
    }
  }
  if (!validateOptions(options)) {
    throw validationError(
      fieldErrors(validateOptions.errors ?? []),
      'The import options are not valid.',
    );
  }
  return { buffer, fileName, options: options as ImportOptions };
}
