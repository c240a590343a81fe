/**
 * The ajv instances behind every route, and the schema transforms from entity schema to wire
 * schemas. Strict mode stays on: our x- keywords are declared (src/schema/vocabulary.ts).
 */
import { Ajv, type ErrorObject, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import sharedDefinitions from '../../schemas/definitions.json';
import { type JsonSchema, SHARED_DEFINITIONS, toWireSchema } from '../../src/schema/model.ts';
import { declareVocabulary } from '../../src/schema/vocabulary.ts';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function createAjv(options: Options): Ajv {
  const ajv = new Ajv({ strict: true, allErrors: true, allowUnionTypes: true, ...options });
  addFormats.default(ajv);
  // A time of day as stored in a `time` column (no time zone): HH:MM or HH:MM:SS.
  ajv.addFormat('time', /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/);
  ajv.addFormat('email-list', {
    type: 'string',
    validate: (value: string) =>
      value.trim() === '' || value.split(/[,;]/).every((part) => EMAIL.test(part.trim())),
  });
  declareVocabulary(ajv);
  // Entity schemas may refer to the shared definitions (`definitions.json#/definitions/<name>`).
  ajv.addSchema(sharedDefinitions as object, SHARED_DEFINITIONS);
  return ajv;
}

/** Bodies of updates: no coercion, no defaults (a field left out keeps its stored value). */
export const bodyAjv = createAjv({
  coerceTypes: false,
  useDefaults: false,
  removeAdditional: false,
});
/** Bodies of creates: defaults from the schema fill what was left out. */
export const createAjvInstance = createAjv({
  coerceTypes: false,
  useDefaults: true,
  removeAdditional: false,
});
/** Query strings and path parameters arrive as text: coerce, and accept one value as a list. */
export const queryAjv = createAjv({
  coerceTypes: 'array',
  useDefaults: true,
  removeAdditional: false,
});

const SCALAR_TYPES = ['string', 'integer', 'number', 'boolean', 'object', 'array'];

/**
 * Input schema on the wire: snake_case names, read-only fields accepted but ignored (clients send
 * back what they read), optional fields may be null (a cleared input).
 */
export function inputSchema(schema: JsonSchema, options: { partial?: boolean } = {}): JsonSchema {
  const wire = toWireSchema(schema);
  const transform = (node: JsonSchema, isRoot: boolean): JsonSchema => {
    const out: JsonSchema = { ...node };
    if (node.properties) {
      const required = new Set(node.required ?? []);
      out.properties = Object.fromEntries(
        Object.entries(node.properties).map(([key, prop]) => {
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

/** Turns ajv errors into `{ "<field.path>": ["message"] }`, naming the field. */
export function fieldErrors(errors: ErrorObject[], prefix = ''): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const error of errors) {
    if (error.keyword === 'type' && error.schemaPath.includes('/anyOf/')) continue;
    const path = error.instancePath.split('/').filter(Boolean);
    let message = error.message ?? 'is invalid';
    if (error.keyword === 'required') {
      path.push(String(error.params.missingProperty));
      message = 'is required';
    } else if (error.keyword === 'additionalProperties') {
      path.push(String(error.params.additionalProperty));
      message = 'is not a known field';
    } else if (error.keyword === 'enum') {
      const allowed = (error.params.allowedValues as unknown[]).filter((value) => value !== null);
      message = `must be one of: ${allowed.join(', ')}`;
    }
    const key = [prefix, ...path].filter(Boolean).join('.') || '_';
    out[key] ??= [];
    if (!out[key].includes(message)) out[key].push(message);
  }
  return out;
}
