/**
 * The validators behind every route, and the schema transforms from entity schema to wire
 * schemas. Strict mode stays on: our x- keywords are declared (src/schema/vocabulary.ts).
 *
 * Every schema goes through one compiler (`SchemaCompiler.compile`), which hardens it once for
 * every current and future route, so nothing a client sends reaches the database in a form
 * PostgreSQL refuses (docs/ARCHITECTURE.md, "Schema vocabulary"):
 * - every integer is bounded by its column type (INT_MIN..INT_MAX) unless it says tighter;
 * - numbers are finite (`strictNumbers`: no NaN, Infinity, 1e400);
 * - dates and date-times have a year PostgreSQL and ISO text agree on (0001–9999) and a real day;
 * - no text, and no key, anywhere in the data holds a NUL character (PostgreSQL text and jsonb
 *   refuse \u0000): 4xx naming the field;
 * - query and path values that should be numbers must be plain decimal text: ajv's coercion would
 *   read `0x10`, `1e3`, ` 1`, `+1`, `01` and `Infinity` as numbers, so `/api/companies/0x10`
 *   would act on record 16. Checked on the raw text, before coercion.
 * Phone numbers (`format: phone`) are also rewritten to E.164 on the way in (./phone.ts).
 */
import { Ajv, type AnySchema, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import sharedDefinitions from '../../schemas/definitions.json';
import {
  hasStorableYear,
  INT_MAX,
  INT_MIN,
  INTEGER_TEXT,
  NUMBER_TEXT,
  YEAR_MAX,
  YEAR_MIN,
} from '../../src/schema/limits.ts';
import { type JsonSchema, SHARED_DEFINITIONS, toWireSchema } from '../../src/schema/model.ts';
import {
  ERROR_TEXTS,
  type ErrorCode,
  type ErrorIssue,
  errorText,
  type FieldErrors,
  issue,
} from '../../src/schema/errors.ts';
import { declareVocabulary, type UrlKind } from '../../src/schema/vocabulary.ts';
import { addPhoneFormat, addPhoneNormalising } from './phone.ts';

/** The context Fastify hands a validate function (the parent of the data, for coercion). */
type DataValidationCxt = Parameters<ValidateFunction>[1];

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** ajv-formats' own date and date-time checks (calendar days, times, offsets), reused below. */
const formatsOnly = new Ajv({ strict: true });
addFormats.default(formatsOnly, ['date', 'date-time']);
const isIsoDate = formatsOnly.compile({ type: 'string', format: 'date' });
const isIsoDateTime = formatsOnly.compile({ type: 'string', format: 'date-time' });

/** A date-time whose text and instant (in UTC) both lie in the storable years. */
function isStorableDateTime(text: string): boolean {
  if (!hasStorableYear(text) || !isIsoDateTime(text)) return false;
  const year = new Date(text).getUTCFullYear();
  return year >= YEAR_MIN && year <= YEAR_MAX;
}

/**
 * Wire-only keyword of PATCH bodies (`inputSchema(…, { partial: true })`): a read-only field named
 * in a PATCH is refused, naming it, instead of being silently dropped.
 */
export const READ_ONLY_KEYWORD = 'x-read-only';

function createAjv(options: Options): Ajv {
  const ajv = new Ajv({
    strict: true,
    strictNumbers: true,
    allErrors: true,
    allowUnionTypes: true,
    ...options,
  });
  addFormats.default(ajv);
  // Stricter than ajv-formats: a year PostgreSQL can store and ISO text can say (0001–9999).
  ajv.addFormat('date', {
    type: 'string',
    validate: (text: string) => hasStorableYear(text) && isIsoDate(text),
  });
  ajv.addFormat('date-time', { type: 'string', validate: isStorableDateTime });
  // A time of day as stored in a `time` column (no time zone): HH:MM or HH:MM:SS.
  ajv.addFormat('time', /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/);
  ajv.addFormat('email-list', {
    type: 'string',
    validate: (value: string) =>
      value.trim() === '' || value.split(/[,;]/).every((part) => EMAIL.test(part.trim())),
  });
  // A valid phone number in any spelling, stored as E.164 (./phone.ts).
  addPhoneFormat(ajv);
  declareVocabulary(ajv);
  ajv.addKeyword({
    keyword: READ_ONLY_KEYWORD,
    schemaType: 'boolean',
    validate: (refuse: boolean) => !refuse,
    error: { message: ERROR_TEXTS.readOnly },
  });
  // Entity schemas may refer to the shared definitions (`definitions.json#/definitions/<name>`).
  ajv.addSchema(boundIntegers(sharedDefinitions as JsonSchema), SHARED_DEFINITIONS);
  return ajv;
}

// ---- schema hardening ---------------------------------------------------------------------------

/** Keywords whose value is one schema, a list of schemas, or a map of schemas. */
const ONE_SCHEMA = ['additionalProperties', 'additionalItems', 'contains', 'propertyNames', 'not'];
const SCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf'];
const SCHEMA_MAPS = ['properties', 'patternProperties', 'definitions', '$defs', 'dependencies'];
const CONDITIONAL = ['if', 'then', 'else'];

const isSchemaObject = (value: unknown): value is JsonSchema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isIntegerType = (type: unknown): boolean =>
  type === 'integer' || (Array.isArray(type) && type.includes('integer'));

const hardened = new WeakMap<object, JsonSchema>();

/**
 * A copy of the schema in which every integer is bounded by the `integer` column's range
 * (tighter bounds it declares stay). Cached per schema object, so compiling the same schema twice
 * hands ajv the same object (and a schema with an `$id` is not added twice).
 */
export function boundIntegers(schema: JsonSchema): JsonSchema {
  const cached = hardened.get(schema);
  if (cached) return cached;
  const out: JsonSchema = { ...schema };
  if (isIntegerType(schema.type)) {
    out.minimum = typeof schema.minimum === 'number' ? Math.max(schema.minimum, INT_MIN) : INT_MIN;
    out.maximum = typeof schema.maximum === 'number' ? Math.min(schema.maximum, INT_MAX) : INT_MAX;
  }
  addPhoneNormalising(schema, out);
  const child = (value: unknown): unknown => (isSchemaObject(value) ? boundIntegers(value) : value);
  for (const key of [...ONE_SCHEMA, ...CONDITIONAL])
    if (key in schema) out[key] = child(schema[key]);
  if ('items' in schema) {
    const items: unknown = schema.items;
    out.items = (Array.isArray(items) ? items.map(child) : child(items)) as JsonSchema;
  }
  for (const key of SCHEMA_LISTS) {
    const list = schema[key];
    if (Array.isArray(list)) out[key] = list.map(child);
  }
  for (const key of SCHEMA_MAPS) {
    const map = schema[key];
    if (isSchemaObject(map))
      out[key] = Object.fromEntries(Object.entries(map).map(([name, sub]) => [name, child(sub)]));
  }
  hardened.set(schema, out);
  return out;
}

// ---- checks of the data before ajv --------------------------------------------------------------

/** JSON pointer segment (as ajv writes `instancePath`). */
const pointer = (key: string | number) =>
  `/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`;

const NUL_MESSAGE = ERROR_TEXTS.nul;

/**
 * Every text and every key holding a NUL character, as errors at their paths. Iterative: a body of
 * 1 MiB may nest half a million levels deep.
 */
export function nulErrors(data: unknown): ErrorObject[] {
  const errors: ErrorObject[] = [];
  const stack: Array<{ value: unknown; path: string }> = [{ value: data, path: '' }];
  while (stack.length > 0) {
    const { value, path } = stack.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) errors.push(textError(path, 'nul', NUL_MESSAGE));
    } else if (Array.isArray(value)) {
      value.forEach((item, index) => stack.push({ value: item, path: path + pointer(index) }));
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, item] of Object.entries(value)) {
        if (key.includes('\u0000')) errors.push(textError(path + pointer(key), 'nul', NUL_MESSAGE));
        else stack.push({ value: item, path: path + pointer(key) });
      }
    }
  }
  return errors;
}

function textError(
  instancePath: string,
  keyword: string,
  message: string,
  params: Record<string, unknown> = {},
): ErrorObject {
  return { instancePath, schemaPath: '#', keyword, params, message };
}

type NumberKind = 'integer' | 'number';

/** The properties of a query or path schema whose raw text must be decimal, by name. */
function numericProperties(schema: AnySchema): Map<string, NumberKind> {
  const out = new Map<string, NumberKind>();
  if (!isSchemaObject(schema)) return out;
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const node = property.type === 'array' && property.items ? property.items : property;
    const types = Array.isArray(node.type) ? node.type : [node.type];
    if (types.includes('integer')) out.set(name, 'integer');
    else if (types.includes('number')) out.set(name, 'number');
  }
  return out;
}

const DECIMAL_MESSAGES: Record<NumberKind, string> = {
  integer: ERROR_TEXTS.integerText,
  number: ERROR_TEXTS.numberText,
};

/** Query or path text that ajv would coerce loosely (`0x10`, `1e3`, ` 1`, `Infinity`). */
function looseNumberErrors(data: unknown, numeric: Map<string, NumberKind>): ErrorObject[] {
  if (numeric.size === 0 || typeof data !== 'object' || data === null) return [];
  const errors: ErrorObject[] = [];
  for (const [name, kind] of numeric) {
    if (!Object.hasOwn(data, name)) continue;
    const raw: unknown = (data as Record<string, unknown>)[name];
    const texts = (Array.isArray(raw) ? raw : [raw]).filter((item) => typeof item === 'string');
    const pattern = kind === 'integer' ? INTEGER_TEXT : NUMBER_TEXT;
    if (texts.some((text) => !pattern.test(text)))
      errors.push(textError(pointer(name), 'type', DECIMAL_MESSAGES[kind], { decimal: kind }));
  }
  return errors;
}

// ---- the compilers --------------------------------------------------------------------------------

/**
 * An ajv instance behind a `compile` that hardens schema and data (see the top of this file).
 * `textInput`: the data is query or path text (coerced by ajv after the decimal check).
 */
export class SchemaCompiler {
  readonly ajv: Ajv;

  constructor(
    options: Options,
    private readonly textInput: boolean,
  ) {
    this.ajv = createAjv(options);
  }

  compile(schema: AnySchema): ValidateFunction {
    const inner = this.ajv.compile(isSchemaObject(schema) ? boundIntegers(schema) : schema);
    const numeric = this.textInput ? numericProperties(schema) : new Map<string, NumberKind>();
    // A type guard of `unknown` is what ajv's own validate functions are (ValidateFunction).
    function validate(data: unknown, dataCxt?: DataValidationCxt): data is unknown {
      // Before ajv: its coercion rewrites the raw text in place.
      const before = [...nulErrors(data), ...looseNumberErrors(data, numeric)];
      const valid = inner(data, dataCxt);
      const errors = [...before, ...(valid ? [] : (inner.errors ?? []))];
      checked.errors = errors.length > 0 ? errors : null;
      return errors.length === 0;
    }
    // Fastify passes the parent of the data (so ajv can coerce a root value) when it sees schemaEnv.
    const checked = Object.assign(validate, {
      errors: null as ErrorObject[] | null,
      schema: inner.schema,
      schemaEnv: inner.schemaEnv,
    });
    return checked;
  }
}

/** Bodies of updates: no coercion, no defaults (a field left out keeps its stored value). */
export const bodyAjv = new SchemaCompiler(
  { coerceTypes: false, useDefaults: false, removeAdditional: false },
  false,
);
/** Bodies of creates: defaults from the schema fill what was left out. */
export const createAjvInstance = new SchemaCompiler(
  { coerceTypes: false, useDefaults: true, removeAdditional: false },
  false,
);
/** Query strings and path parameters arrive as text: coerce, and accept one value as a list. */
export const queryAjv = new SchemaCompiler(
  { coerceTypes: 'array', useDefaults: true, removeAdditional: false },
  true,
);

// ---- wire schemas -------------------------------------------------------------------------------

const SCALAR_TYPES = ['string', 'integer', 'number', 'boolean', 'object', 'array'];

/**
 * Input schema on the wire: snake_case names, optional fields may be null (a cleared input).
 * Read-only fields (the server sets them: ids, timestamps, a file's key set by its own route):
 * - in a complete record (create, PUT) they are accepted and always ignored — react-admin sends
 *   back the whole record it read, read-only fields included;
 * - in a PATCH (`partial`), which names only what it changes, naming one is refused (422
 *   "is read-only"), like an unknown field.
 */
export function inputSchema(schema: JsonSchema, options: { partial?: boolean } = {}): JsonSchema {
  const wire = toWireSchema(schema);
  const transform = (node: JsonSchema, isRoot: boolean): JsonSchema => {
    const out: JsonSchema = { ...node };
    if (node.properties) {
      const required = new Set(node.required ?? []);
      out.properties = Object.fromEntries(
        Object.entries(node.properties).map(([key, prop]) => {
          if (isRoot && options.partial && prop.readOnly)
            return [key, { [READ_ONLY_KEYWORD]: true }];
          const child = transform(prop, false);
          return [key, required.has(key) ? child : nullable(child)];
        }),
      );
      if (isRoot && options.partial) delete out.required;
    }
    if (node.items) out.items = transform(node.items, false);
    if (isRoot) {
      delete out.$schema;
      delete out.$id;
    }
    return out;
  };
  return transform(wire, true);
}

function nullable(schema: JsonSchema): JsonSchema {
  if (typeof schema.type !== 'string' || !SCALAR_TYPES.includes(schema.type)) return schema;
  const out: JsonSchema = { ...schema, type: [schema.type, 'null'] };
  if (schema.enum) out.enum = [...schema.enum, null];
  return out;
}

/** Response schema: every property may be null, nothing is required, no formats enforced. */
export function responseSchema(schema: JsonSchema): JsonSchema {
  const wire = toWireSchema(schema);
  const transform = (node: JsonSchema): JsonSchema => {
    const out: JsonSchema = {};
    if (node.type) out.type = typeof node.type === 'string' ? [node.type, 'null'] : node.type;
    if (node.description) out.description = node.description;
    if (node.enum) out.enum = [...node.enum, null];
    if (node.format && node.format !== 'email-list') out.format = node.format;
    if (node.properties) {
      out.properties = Object.fromEntries(
        Object.entries(node.properties).map(([key, prop]) => [key, transform(prop)]),
      );
      out.additionalProperties = false;
    }
    if (node.items) out.items = transform(node.items);
    return out;
  };
  return transform(wire);
}

/** An instancePath segment back to its key (`~1` is `/`, `~0` is `~`). */
const unescapeSegment = (segment: string) => segment.replace(/~1/g, '/').replace(/~0/g, '~');

/** What fieldErrors reads of an ajv error (also of Fastify's copy, `error.validation`). */
export interface ValidationIssue {
  keyword: string;
  instancePath: string;
  schemaPath: string;
  params: Record<string, unknown>;
  message?: string;
}

/** The code of an ajv keyword (the keyword's own name where it is one). */
const KEYWORD_CODES: Record<string, ErrorCode> = {
  maxLength: 'maxLength',
  minLength: 'minLength',
  maxItems: 'maxItems',
  minItems: 'minItems',
  uniqueItems: 'duplicateItems',
  maximum: 'maximum',
  minimum: 'minimum',
  exclusiveMaximum: 'exclusiveMaximum',
  exclusiveMinimum: 'exclusiveMinimum',
  pattern: 'pattern',
  type: 'type',
  nul: 'nul',
  [READ_ONLY_KEYWORD]: 'readOnly',
};

/** Formats with a sentence of their own; any other names the format. */
const FORMAT_CODES: Record<string, ErrorCode> = {
  email: 'email',
  'email-list': 'email',
  date: 'date',
  'date-time': 'dateTime',
  // A time of day (appointments, reminders): 24:30, 7:5 …
  time: 'notAtThatTime',
  uri: 'uri',
  phone: 'phone',
};

const URL_CODES: Record<UrlKind, ErrorCode> = {
  web: 'urlWeb',
  app: 'urlApp',
  'web-or-app': 'urlWebOrApp',
};

const DECIMAL_CODES: Record<NumberKind, ErrorCode> = {
  integer: 'integerText',
  number: 'numberText',
};

const isUrlKind = (kind: unknown): kind is UrlKind =>
  typeof kind === 'string' && Object.hasOwn(URL_CODES, kind);

/** One ajv error as an issue; ajv's own sentence stays the English text. */
function issueOf(error: ValidationIssue): ErrorIssue {
  const text = error.message;
  const params = error.params;
  const limit =
    typeof params.limit === 'number' || typeof params.limit === 'string' ? params.limit : undefined;
  switch (error.keyword) {
    case 'required':
      return issue('required');
    case 'additionalProperties':
      return issue('unknownField');
    case 'enum': {
      const allowed = (params.allowedValues as unknown[]).filter((value) => value !== null);
      return issue('enum', { values: allowed.join(', ') });
    }
    case 'format': {
      const format = String(params.format);
      const code = FORMAT_CODES[format];
      return code ? { ...issue(code), text } : { ...issue('format', { format }), text };
    }
    case 'x-url':
      return isUrlKind(params.kind) ? issue(URL_CODES[params.kind]) : { ...issue('invalid'), text };
    case 'type': {
      const decimal = (Object.keys(DECIMAL_CODES) as NumberKind[]).find(
        (kind) => params.decimal === kind,
      );
      if (decimal) return issue(DECIMAL_CODES[decimal]);
      return { ...issue('type', { type: String(params.type) }), text };
    }
    case 'pattern':
      return { ...issue('pattern', { pattern: String(params.pattern) }), text };
  }
  const code = KEYWORD_CODES[error.keyword];
  if (!code) return { ...issue('invalid'), ...(text ? { text } : {}) };
  return { ...issue(code, limit === undefined ? undefined : { limit }), ...(text ? { text } : {}) };
}

/**
 * Turns ajv errors into `{ "<field.path>": [issue] }`, naming the field. Built in a Map: a
 * field may be called `constructor` or `__proto__` (an unknown field a client sent), which a
 * plain object would answer from its prototype.
 */
export function fieldErrors(errors: ValidationIssue[], prefix = ''): FieldErrors {
  const out = new Map<string, ErrorIssue[]>();
  for (const error of errors) {
    if (error.keyword === 'type' && error.schemaPath.includes('/anyOf/')) continue;
    const path = error.instancePath.split('/').filter(Boolean).map(unescapeSegment);
    if (error.keyword === 'required') path.push(String(error.params.missingProperty));
    else if (error.keyword === 'additionalProperties')
      path.push(String(error.params.additionalProperty));
    const found = issueOf(error);
    const key = [prefix, ...path].filter(Boolean).join('.') || '_';
    const list = out.get(key) ?? [];
    if (!list.some((known) => errorText(known) === errorText(found))) list.push(found);
    out.set(key, list);
  }
  return Object.fromEntries(out);
}
