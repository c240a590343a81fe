/**
 * The resource model: what the server, the migration generator and the generated views read
 * from one entity schema. Pure functions, shared by server and browser.
 */
import sharedDefinitions from '../../schemas/definitions.json';
import { camelToSnake } from './case.ts';
import { INT_MAX } from './limits.ts';
import type {
  ReferenceFilter,
  ReferenceFilterValue,
  XPermissions,
  XProperty,
  XResource,
} from './vocabulary.ts';

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
  /** Only referenced records matching these list filters may be chosen (`x-reference-filter`). */
  referenceFilter?: ReferenceFilter;
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
      // Long text and images are not sorted by (nobody orders a list by its notes, and such
      // columns get no sort index), unless the schema says `x-sortable: true`.
      sortable:
        isScalar(kind) &&
        (prop['x-sortable'] ??
          !(prop['x-widget'] === 'textarea' || prop['x-widget'] === 'image')) !== false,
      reference: prop['x-reference'],
      referenceFilter: prop['x-reference-filter'],
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

/** Does a value fit a filterable field of the referenced model (its type, its enum)? */
function fitsFilterField(field: FieldModel, value: string | number | boolean): boolean {
  switch (field.kind) {
    case 'boolean':
      return typeof value === 'boolean';
    case 'enum':
    case 'enumArray':
      return typeof value === 'string' && (field.enumValues ?? []).includes(value);
    case 'integer':
    case 'reference':
    case 'references':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    default:
      // Text filters of a list match parts of words: not a rule a write can be held to.
      return false;
  }
}

/** The values of one `x-reference-filter` condition as a list (one value is a list of one). */
export const filterValues = (value: ReferenceFilterValue): (string | number | boolean)[] =>
  Array.isArray(value) ? value : [value];

/**
 * What is wrong with the `x-reference-filter`s of a set of models (empty when nothing): the
 * keyword must sit on a reference, name `x-filter` fields of the referenced model (so its list
 * accepts them as query parameters, which the picker sends), with values those fields can hold:
 * booleans, enum values, numbers or ids (a text filter of a list matches parts of words, which is
 * no rule for a write). A list of values means "any of"; a boolean takes one value.
 */
export function referenceFilterProblems(models: ResourceModel[]): string[] {
  const problems: string[] = [];
  const byName = new Map(models.map((model) => [model.name, model]));
  for (const model of models) {
    for (const field of model.fields) {
      const filter = field.referenceFilter;
      if (!filter) continue;
      const at = `${model.name}.${field.name}: x-reference-filter`;
      const target = field.reference ? byName.get(field.reference) : undefined;
      if (!target) {
        problems.push(`${at} needs an x-reference to a known resource`);
        continue;
      }
      for (const [name, value] of Object.entries(filter)) {
        const other = fieldByName(target, name);
        if (!other?.filter) {
          problems.push(`${at}: ${target.name}.${name} is not an x-filter field`);
          continue;
        }
        if (Array.isArray(value) && other.kind === 'boolean') {
          problems.push(`${at}: ${target.name}.${name} takes one value, not a list`);
        }
        for (const item of filterValues(value)) {
          if (!fitsFilterField(other, item)) {
            problems.push(
              `${at}: ${JSON.stringify(item)} is not a value of ${target.name}.${name}`,
            );
          }
        }
      }
    }
  }
  return problems;
}

/** The list's `sort` value that orders records by their labels in the user's language. */
export const LABEL_SORT = '_label';

/** The fields a record's label (the text that stands for it, `x-resource`) is made of. */
export function labelFields(model: ResourceModel): string[] {
  const { localizedName, representation = [], recordRepresentation } = model.resource;
  const names = new Set<string>();
  if (localizedName) {
    for (const field of model.fields)
      if (
        field.name.startsWith(localizedName) &&
        /^[A-Z][a-z]$/.test(field.name.slice(localizedName.length))
      )
        names.add(field.name);
  }
  for (const template of representation)
    for (const match of template.matchAll(/\{(\w+)\}/g)) names.add(match[1]);
  if (recordRepresentation) names.add(recordRepresentation);
  return [...names];
}

/** Do the model's records have a label (else they show as `#id`)? Lists then take `sort=_label`. */
export const hasRecordLabel = (model: ResourceModel): boolean => labelFields(model).length > 0;

/**
 * Does the list's `search` find records by their label? Not when the label is a translation of
 * the stored value (`x-translate`: products show "Hypothek" for the key `mortgage`), nor when a
 * field of it is not searched: a picker of such records loads them all and filters as you type.
 */
export function labelSearchable(model: ResourceModel): boolean {
  const search = new Set(model.resource.search ?? []);
  return (
    hasRecordLabel(model) &&
    labelFields(model).every(
      (name) => search.has(name) && !fieldByName(model, name)?.schema['x-translate'],
    )
  );
}
