/**
 * Every entity schema in schemas/ against the rules the server and the generators rely on:
 * compiles with the server's strict ajv, bounded strings and arrays, closed objects, known
 * references and vocabulary, and an x-resource that names real fields.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PERMISSIONS, ROLES } from '../../src/schema/permissions.ts';
import { listQuerySchema } from '../../server/crud/list.ts';
import {
  bodyAjv,
  createAjvInstance,
  inputSchema,
  queryAjv,
  responseSchema,
} from '../../server/http/validation.ts';
import { loadResourceModels, SCHEMAS_DIR } from '../../server/schemas.ts';
import { camelToSnake, snakeToCamel } from '../../src/schema/case.ts';
import {
  BASE_FIELDS,
  buildResourceModel,
  type JsonSchema,
  type ResourceModel,
} from '../../src/schema/model.ts';
import { PROPERTY_KEYWORDS, ROOT_KEYWORDS } from '../../src/schema/vocabulary.ts';
import { sampleBody } from '../api/samples.ts';

const files = fs
  .readdirSync(SCHEMAS_DIR)
  .filter((file) => file.endsWith('.schema.json'))
  .sort();
const raws = files.map((file) => ({
  file,
  stem: file.replace(/\.schema\.json$/, ''),
  schema: JSON.parse(fs.readFileSync(path.join(SCHEMAS_DIR, file), 'utf8')) as JsonSchema,
}));
const ids = new Set(raws.map((raw) => raw.schema.$id));
const DATE_FORMATS = ['date', 'date-time', 'time'];
const ACCESS_RULES: string[] = [...PERMISSIONS, 'authenticated', 'nobody'];

interface Node {
  path: string;
  schema: JsonSchema;
  /** Where the node sits: the root, a property (or definition, or items) of something. */
  place: 'root' | 'property';
}

/** Every schema node of a raw schema file: root, properties, items and definitions, recursively. */
function nodesOf(root: JsonSchema): Node[] {
  const out: Node[] = [];
  const visit = (schema: JsonSchema, at: string, place: Node['place']) => {
    out.push({ path: at, schema, place });
    for (const [key, child] of Object.entries(schema.properties ?? {}))
      visit(child, `${at}.${key}`, 'property');
    if (schema.items) visit(schema.items, `${at}[]`, 'property');
    for (const [key, child] of Object.entries(schema.definitions ?? {})) {
      visit(child, `${at}#${key}`, 'property');
    }
  };
  visit(root, root.$id ?? '?', 'root');
  return out;
}

/** Resolves a local $ref node to its definition (merged with its siblings). */
function resolved(node: JsonSchema, root: JsonSchema): JsonSchema {
  const match = typeof node.$ref === 'string' ? /^#\/definitions\/(.+)$/.exec(node.$ref) : null;
  return match ? { ...(root.definitions?.[match[1]] ?? {}), ...node } : node;
}

it('finds the schema files', () => {
  expect(files.length).toBeGreaterThanOrEqual(6);
  expect(loadResourceModels().map((model) => `${model.name}.schema.json`)).toEqual(files);
});

describe.each(raws.map((raw) => [raw.stem, raw] as const))('%s', (stem, { schema }) => {
  const nodes = nodesOf(schema);

  it('compiles with the server ajv (strict) and is draft-07', () => {
    expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
    expect(() => bodyAjv.compile(schema)).not.toThrow();
  });

  it('has $id equal to its file name, a title and a description', () => {
    expect(schema.$id).toBe(stem);
    expect(schema.title).toEqual(expect.any(String));
    expect(schema.title?.trim().length).toBeGreaterThan(0);
    expect(schema.type).toBe('object');
  });

  it('closes every object with additionalProperties: false', () => {
    const objects = nodes.filter(({ schema: node }) => node.type === 'object' || node.properties);
    expect(objects.length).toBeGreaterThan(0);
    for (const { path: at, schema: node } of objects) {
      expect(node.additionalProperties, at).toBe(false);
      expect(node.type, at).toBe('object');
    }
  });

  it('has x-permissions for read, create, update and delete with known rules', () => {
    const permissions = schema['x-permissions'];
    expect(Object.keys(permissions ?? {}).sort()).toEqual(['create', 'delete', 'read', 'update']);
    for (const rule of Object.values(permissions ?? {})) expect(ACCESS_RULES).toContain(rule);
  });

  it('bounds every string: maxLength, an enum or a date/time format', () => {
    for (const { path: at, schema: node } of nodes) {
      if (node.type !== 'string') continue;
      const bounded =
        node.maxLength !== undefined ||
        node.enum !== undefined ||
        DATE_FORMATS.includes(node.format ?? '');
      expect(bounded, `${at} is an unbounded string`).toBe(true);
      if (node.minLength !== undefined && node.maxLength !== undefined) {
        expect(node.minLength, at).toBeLessThanOrEqual(node.maxLength);
      }
    }
  });

  it('bounds every array with maxItems', () => {
    for (const { path: at, schema: node } of nodes) {
      if (node.type !== 'array') continue;
      expect(node.maxItems, `${at} has no maxItems`).toEqual(expect.any(Number));
      expect(node.items, `${at} has no items schema`).toBeDefined();
    }
  });

  it('refers only to existing schemas, from integers or lists of integers', () => {
    for (const { path: at, schema: node } of nodes) {
      const reference = node['x-reference'];
      if (reference === undefined) continue;
      expect(ids.has(reference), `${at} refers to unknown schema ${reference}`).toBe(true);
      const target = node.type === 'array' ? resolved(node.items ?? {}, schema) : node;
      expect(target.type, at).toBe('integer');
    }
  });

  it('uses only declared x- keywords, root keywords at the root only', () => {
    const declared: string[] = [...ROOT_KEYWORDS, ...PROPERTY_KEYWORDS];
    for (const { path: at, schema: node, place } of nodes) {
      for (const key of Object.keys(node).filter((k) => k.startsWith('x-'))) {
        expect(declared, `${at}: ${key}`).toContain(key);
        const isRoot = (ROOT_KEYWORDS as readonly string[]).includes(key);
        expect(isRoot ? 'root' : 'property', `${at}: ${key}`).toBe(place);
      }
    }
  });

  it('lists required fields that exist, and no base field', () => {
    for (const name of schema.required ?? [])
      expect(Object.keys(schema.properties ?? {})).toContain(name);
    for (const name of Object.keys(BASE_FIELDS))
      expect(Object.keys(schema.properties ?? {})).not.toContain(name);
  });

  it('has property names that map to snake_case and back without loss or clash', () => {
    const names = Object.keys(schema.properties ?? {});
    for (const name of names) {
      expect(name, name).toMatch(/^[a-z][a-zA-Z0-9]*$/);
      expect(snakeToCamel(camelToSnake(name))).toBe(name);
    }
    expect(new Set(names.map(camelToSnake)).size).toBe(names.length);
  });

  it('has defaults that are valid values of their field', () => {
    for (const { path: at, schema: node } of nodes) {
      if (node.default === undefined || node === schema) continue;
      const full = resolved(node, schema);
      const validate = bodyAjv.compile({ ...full, definitions: schema.definitions });
      expect(validate(node.default), `${at}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });
});

describe.each(raws.map((raw) => [raw.stem, raw] as const))(
  '%s resource model',
  (_stem, { schema }) => {
    let built: ResourceModel | undefined;
    let failure: unknown;
    try {
      built = buildResourceModel(schema);
    } catch (error) {
      failure = error;
    }
    const model = built ?? ({ fields: [], resource: {}, schema } as unknown as ResourceModel);

    it('builds', () => {
      expect(failure).toBeUndefined();
      expect(model.name).toBe(schema.$id);
      expect(model.fields.map((field) => field.name).slice(0, 3)).toEqual([
        'id',
        'createdAt',
        'updatedAt',
      ]);
    });

    it('has x-resource search and defaultSort fields that exist (search: text fields)', () => {
      const resource = model.resource;
      const field = (name: string) => model.fields.find((candidate) => candidate.name === name);
      expect(resource.search, 'x-resource.search').toBeDefined();
      for (const name of resource.search ?? []) {
        expect(field(name), `search field ${name}`).toBeDefined();
        expect(['string', 'enum'], `search field ${name}`).toContain(field(name)?.kind);
      }
      expect(resource.defaultSort, 'x-resource.defaultSort').toBeDefined();
      const sort = resource.defaultSort;
      expect(field(sort?.field ?? '')?.sortable, `defaultSort ${sort?.field}`).toBe(true);
      expect(['ASC', 'DESC']).toContain(sort?.order);
      if (resource.recordRepresentation) expect(field(resource.recordRepresentation)).toBeDefined();
      if (resource.localizedName) {
        for (const language of ['De', 'Fr', 'It', 'En']) {
          expect(
            field(`${resource.localizedName}${language}`),
            `${resource.localizedName}${language}`,
          ).toBeDefined();
        }
      }
    });

    it('puts x-filter, x-unique and x-owner on fields that support them', () => {
      const owners = model.fields.filter((field) => field.schema['x-owner']);
      expect(owners.length).toBeLessThanOrEqual(1);
      for (const owner of owners) expect(owner.reference).toBe('users');
      for (const field of model.fields.filter((f) => f.filter)) {
        expect(['object', 'array'], field.name).not.toContain(field.kind);
      }
      for (const field of model.fields.filter((f) => f.schema['x-unique'])) {
        expect(['object', 'array', 'references', 'enumArray'], field.name).not.toContain(
          field.kind,
        );
      }
    });

    it('gives the server compilable input, partial, response and list-query schemas', () => {
      expect(() => createAjvInstance.compile(inputSchema(model.schema))).not.toThrow();
      expect(() => bodyAjv.compile(inputSchema(model.schema, { partial: true }))).not.toThrow();
      expect(() => bodyAjv.compile(responseSchema(model.schema))).not.toThrow();
      expect(() => queryAjv.compile(listQuerySchema(model))).not.toThrow();
    });

    it('accepts the sample record of the API tests and refuses an unknown field', async () => {
      const validate = createAjvInstance.compile(inputSchema(model.schema));
      const body = await sampleBody(model, { reference: async () => 1 });
      expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
      expect(validate({ ...body, not_a_field: 1 })).toBe(false);
    });
  },
);

describe('strict ajv', () => {
  it('rejects an undeclared x- keyword, at the root and on a property', () => {
    expect(() => bodyAjv.compile({ type: 'object', 'x-bogus': true })).toThrow(
      /unknown keyword: "x-bogus"/,
    );
    expect(() =>
      bodyAjv.compile({ type: 'object', properties: { name: { type: 'string', 'x-lsit': true } } }),
    ).toThrow(/unknown keyword: "x-lsit"/);
    expect(() => queryAjv.compile({ type: 'string', 'x-other': 1 })).toThrow(/unknown keyword/);
    expect(() => createAjvInstance.compile({ type: 'string', 'x-other': 1 })).toThrow(
      /unknown keyword/,
    );
  });

  it('checks the type of a declared keyword, and accepts every declared one', () => {
    expect(() => bodyAjv.compile({ type: 'string', 'x-list': 'yes' })).toThrow(/x-list/);
    expect(() => bodyAjv.compile({ type: 'integer', 'x-reference': 3 })).toThrow(/x-reference/);
    const values: Record<string, unknown> = {
      'x-reference': 'users',
      'x-list': true,
      'x-filter': true,
      'x-widget': 'textarea',
      'x-enum': 'role',
      'x-translate': 'products',
      'x-unique': true,
      'x-index': true,
      'x-sortable': false,
      'x-owner': true,
      'x-owner-via': true,
      'x-sub-broker': true,
      'x-group': 'user',
      'x-url': 'web',
      'x-reference-filter': { isActive: true, role: ['CONSULTANT'] },
    };
    expect(Object.keys(values).sort()).toEqual([...PROPERTY_KEYWORDS].sort());
    // x-url validates text, so strict mode wants it on a string.
    const { 'x-url': url, ...others } = values;
    expect(() =>
      bodyAjv.compile({
        type: 'object',
        'x-resource': { search: [] },
        'x-permissions': { read: 'authenticated' },
        properties: {
          field: { type: 'integer', ...others },
          link: { type: 'string', 'x-url': url },
        },
      }),
    ).not.toThrow();
  });

  it('checks the shape of x-reference-filter (field → value or non-empty list)', () => {
    for (const filter of [{}, { role: [] }, { role: { nested: true } }, { role: [true] }, 'role'])
      expect(() =>
        bodyAjv.compile({ type: 'integer', 'x-reference': 'users', 'x-reference-filter': filter }),
      ).toThrow(/x-reference-filter/);
  });

  it('still rejects other unknown keywords (strict mode is on)', () => {
    expect(() => bodyAjv.compile({ type: 'string', maxLenght: 3 })).toThrow(/unknown keyword/);
  });
});

describe('one list of permission and role names (src/schema/permissions.ts)', () => {
  const users = raws.find((raw) => raw.schema.$id === 'users')!.schema;
  const properties = users.properties as Record<string, JsonSchema>;

  it("the users schema's additionalPermissions enum is exactly the list", () => {
    expect(properties.additionalPermissions.items?.enum).toEqual([...PERMISSIONS]);
  });

  it("the users schema's role enum is exactly the list of roles", () => {
    expect(properties.role.enum).toEqual([...ROLES]);
  });

  it('every x-permissions rule of every schema names a permission of the list', () => {
    for (const { schema } of raws) {
      const rules = Object.values((schema['x-permissions'] ?? {}) as Record<string, string>);
      for (const rule of rules) expect(ACCESS_RULES).toContain(rule);
    }
  });
});
