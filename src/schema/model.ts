/**
 * The resource model: what the server, the migration generator and the generated views read
 * from one entity schema. Pure functions, shared by server and browser.
 */
import sharedDefinitions from '../../schemas/definitions.json';
import { camelToSnake } from './case.ts';
import { INT_MAX } from './limits.ts';
import type { XPermissions, XProperty, XResource } from './vocabulary.ts';

export interface JsonSchema extends XProperty {
  $schema?: string;
  $id?: string;
  $ref?: string;
  title?: string;
  description?: string;
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  readOnly?: boolean;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  definitions?: Record<string, JsonSchema>;
  'x-resource'?: XResource;
  'x-permissions'?: XPermissions;
  [keyword: string]: unknown;
}

export type FieldKind =
  | 'string'
  | 'integer'
  | 'number'
  | 'boolean'
  | 'date'
  | 'datetime'
  | 'time'
  | 'enum'
  | 'reference'
  | 'references'
  | 'enumArray'
  | 'object'
  | 'array';

export interface FieldModel {
  /** Property name as in the schema and in the browser (camelCase). */
  name: string;
  /** Column and wire name (snake_case). */
  column: string;
  kind: FieldKind;
  schema: JsonSchema;
  required: boolean;
  readOnly: boolean;
  list: boolean;
  filter: boolean;
  sortable: boolean;
  reference?: string;
  enumName?: string;
  enumValues?: string[];
}

export interface ResourceModel {
  /** Lower-case plural, e.g. 'lead-sources': REST path, react-admin resource, translation prefix. */
  name: string;
  table: string;
  title: string;
  /** The schema with local definitions inlined and the base fields added (camelCase). */
  schema: JsonSchema;
  /** Every property of the schema except the version (VERSION_FIELD), in the schema's order. */
  fields: FieldModel[];
  resource: XResource;
  permissions: XPermissions;
  ownerField?: string;
}

/**
 * The concurrency token of every record (DESIGN.md §7): 1 on create, +1 on every write (a database
 * trigger per table keeps it, whatever route writes). A client never sets it; it sends back the
 * version its edit is based on, and a write based on an older one answers 409 with the current
 * record.
 */
export const VERSION_FIELD = 'version';

/** Fields every table has; added by the machinery, never written by clients. */
export const BASE_FIELDS: Record<string, JsonSchema> = {
  id: { type: 'integer', minimum: 1, readOnly: true, 'x-list': true },
  createdAt: { type: 'string', format: 'date-time', readOnly: true },
  updatedAt: { type: 'string', format: 'date-time', readOnly: true },
  // Not readOnly: a PUT or PATCH carries it as the version it is based on (or If-Match does), so
  // API clients and OpenAPI readers must see it as part of a request. It is never stored from a
  // body, and a create ignores it.
  [VERSION_FIELD]: {
    type: 'integer',
    minimum: 1,
    maximum: INT_MAX,
    description:
      'Incremented by every write. Send back the version a change is based on (here or as If-Match: "<version>"); a stale one answers 409 with the current record.',
  },
};

export const tableName = (resource: string): string => resource.replace(/-/g, '_');

/** File of the definitions several schemas share (`definitions.json#/definitions/<name>`). */
export const SHARED_DEFINITIONS = 'definitions.json';

/**
 * Inline `#/definitions/<name>` (this schema's) and `definitions.json#/definitions/<name>` (shared)
 * references — the only kinds our schemas use — and drop `definitions`.
 */
export function inlineDefinitions(root: JsonSchema): JsonSchema {
  const local = root.definitions ?? {};
  const shared = (sharedDefinitions as JsonSchema).definitions ?? {};
  const walk = (node: unknown, seen: string[]): unknown => {
    if (Array.isArray(node)) return node.map((item) => walk(item, seen));
    if (!node || typeof node !== 'object') return node;
    const object = node as JsonSchema;
    if (typeof object.$ref === 'string') {
      const match = /^(definitions\.json)?#\/definitions\/([^/]+)$/.exec(object.$ref);
      const definitions = match?.[1] ? shared : local;
      if (!match || !definitions[match[2]]) {
        throw new Error(`${root.$id}: unsupported or unknown $ref ${object.$ref}`);
      }
      if (seen.includes(object.$ref)) throw new Error(`${root.$id}: recursive $ref ${object.$ref}`);
      const { $ref: _ref, ...siblings } = object;
      return walk({ ...definitions[match[2]], ...siblings }, [...seen, object.$ref]);
    }
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(object)) {
      if (key === 'definitions' && object === root) continue;
      // enum values and defaults are data, not schemas
      out[key] = key === 'enum' || key === 'default' || key === 'const' ? value : walk(value, seen);
    }
    return out;
  };
  return walk(root, []) as JsonSchema;
}

function fieldKind(schema: JsonSchema): FieldKind {
  const type = schema.type;
  if (type === 'string') {
    if (schema.enum) return 'enum';
    if (schema.format === 'date') return 'date';
    if (schema.format === 'date-time') return 'datetime';
    if (schema.format === 'time') return 'time';
    return 'string';
  }
  if (type === 'integer') return schema['x-reference'] ? 'reference' : 'integer';
  if (type === 'number') return 'number';
  if (type === 'boolean') return 'boolean';
  if (type === 'object') return 'object';
  if (type === 'array') {
    if (schema['x-reference']) return 'references';
    if (schema.items?.type === 'string' && schema.items.enum) return 'enumArray';
    return 'array';
  }
  throw new Error(`unsupported property type ${JSON.stringify(type)}`);
}

const SCALAR_KINDS: FieldKind[] = [
  'string',
  'integer',
  'number',
  'boolean',
  'date',
  'datetime',
  'time',
  'enum',
  'reference',
];
export const isScalar = (kind: FieldKind): boolean => SCALAR_KINDS.includes(kind);

export function buildResourceModel(raw: JsonSchema): ResourceModel {
  const name = raw.$id;
  if (!name || !/^[a-z][a-z0-9-]*$/.test(name)) {
    throw new Error(`schema $id must be the lower-case plural resource name, got ${name}`);
  }
  const inlined = inlineDefinitions(raw);
  const properties = { ...BASE_FIELDS, ...(inlined.properties ?? {}) };
  const schema: JsonSchema = { ...inlined, properties };
  const required = new Set(schema.required ?? []);
  const permissions = schema['x-permissions'];
  if (!permissions) throw new Error(`${name}: x-permissions is required`);
  let ownerField: string | undefined;
  // The version is part of every wire schema (answered, and accepted as the expected version) but
  // no field: no input, label, column written from a body, filter or view shows or sets it.
  const fieldEntries = Object.entries(properties).filter(([field]) => field !== VERSION_FIELD);
  const fields = fieldEntries.map(([field, prop]): FieldModel => {
    let kind: FieldKind;
    try {
      kind = fieldKind(prop);
    } catch (error) {
      throw new Error(`${name}.${field}: ${(error as Error).message}`);
    }
    if (prop['x-owner']) ownerField = field;
    const enumSchema = kind === 'enumArray' ? prop.items : prop;
    return {
      name: field,
      column: camelToSnake(field),
      kind,
      schema: prop,
      required: required.has(field),
      readOnly: prop.readOnly === true,
      list: prop['x-list'] === true,
      filter: prop['x-filter'] === true,
      sortable: isScalar(kind) && prop['x-sortable'] !== false,
      reference: prop['x-reference'],
      enumName: enumSchema?.['x-enum'] ?? (enumSchema?.enum ? `${name}.${field}` : undefined),
      enumValues: enumSchema?.enum as string[] | undefined,
    };
  });
  return {
    name,
    table: tableName(name),
    title: schema.title ?? name,
    schema,
    fields,
    resource: schema['x-resource'] ?? {},
    permissions,
    ownerField,
  };
}

/** Deep copy of a schema with every property name (and `required` entry) in snake_case. */
export function toWireSchema(schema: JsonSchema): JsonSchema {
  const out: JsonSchema = { ...schema };
  if (schema.properties) {
    out.properties = Object.fromEntries(
      Object.entries(schema.properties).map(([key, value]) => [
        camelToSnake(key),
        toWireSchema(value),
      ]),
    );
  }
  if (schema.required) out.required = schema.required.map(camelToSnake);
  if (schema.items) out.items = toWireSchema(schema.items);
  return out;
}

export const fieldByName = (model: ResourceModel, name: string): FieldModel | undefined =>
  model.fields.find((field) => field.name === name);
