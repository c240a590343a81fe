/**
 * The Kysely `Database` generator (scripts/database-types.ts): column types from the catalogue,
 * jsonb typed from the schemas, hand-written tables, the failures that stop it, and — checked by
 * tsc — what the committed src/types/database.ts means to Kysely.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Insertable, Selectable, Updateable } from 'kysely';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  type ColumnInfo,
  columnType,
  jsonSchemaType,
  renderDatabaseTypes,
  tableOrigins,
} from './database-types.ts';
import { buildResourceModel } from '../src/schema/model.ts';
import type { Database } from '../src/types/database.ts';

const column = (table: string, name: string, udtName: string, extra: Partial<ColumnInfo> = {}) => ({
  table,
  column: name,
  udtName,
  nullable: true,
  hasDefault: false,
  generatedAlways: false,
  identity: false,
  ...extra,
});

/** A throwaway entity built by the same model builder as the real ones. */
const gadgets = buildResourceModel({
  $id: 'gadget-boxes',
  title: 'Gadget box',
  type: 'object',
  'x-permissions': { read: 'authenticated', create: 'nobody', update: 'nobody', delete: 'nobody' },
  required: ['label'],
  properties: {
    label: { type: 'string', maxLength: 10 },
    colours: {
      type: 'array',
      maxItems: 3,
      items: { type: 'string', enum: ['red', 'blue'] },
      default: [],
    },
    settings: {
      type: 'object',
      additionalProperties: false,
      required: ['maxSize'],
      properties: { maxSize: { type: 'integer' }, shownAt: { type: 'string' } },
    },
  },
});

const gadgetColumns: ColumnInfo[] = [
  column('gadget_boxes', 'id', 'int4', { nullable: false, identity: true }),
  column('gadget_boxes', 'created_at', 'timestamptz', { nullable: false, hasDefault: true }),
  column('gadget_boxes', 'updated_at', 'timestamptz', { nullable: false, hasDefault: true }),
  column('gadget_boxes', 'label', 'text', { nullable: false }),
  column('gadget_boxes', 'colours', 'jsonb', { hasDefault: true }),
  column('gadget_boxes', 'settings', 'jsonb'),
];
const ledgerColumns: ColumnInfo[] = [
  column('ledger', 'id', 'int8', { nullable: false, identity: true, generatedAlways: true }),
  column('ledger', 'payload', 'jsonb', { nullable: false }),
  column('ledger', 'amount', 'numeric'),
  column('ledger', 'day', 'date', { nullable: false }),
];

describe('column types', () => {
  it('follows the catalogue: nullability, defaults, identity, generated always', () => {
    expect(columnType(gadgetColumns[0])).toBe('Generated<number>');
    expect(columnType(gadgetColumns[1])).toBe('Generated<Timestamp>');
    expect(columnType(gadgetColumns[3])).toBe('string');
    expect(columnType(column('t', 'c', 'bool', { hasDefault: true }))).toBe(
      'Generated<boolean | null>',
    );
    expect(columnType(ledgerColumns[0])).toBe('GeneratedAlways<number>');
    expect(columnType(ledgerColumns[2])).toBe('number | null');
    expect(columnType(ledgerColumns[3])).toBe('string');
    expect(columnType(column('t', 'c', 'float8'))).toBe('number | null');
    expect(columnType(column('t', 'c', '_text', { nullable: false }))).toBe('string[]');
  });

  it('types jsonb with the given type, else as any JSON value', () => {
    expect(columnType(ledgerColumns[1])).toBe('Jsonb<JsonValue>');
    expect(columnType(gadgetColumns[4], "'red'[]")).toBe("Generated<Jsonb<'red'[]> | null>");
  });

  it('stops at a column type it does not know', () => {
    expect(() => columnType(column('t', 'shape', 'polygon'))).toThrow(/t\.shape.*polygon/);
    expect(() => columnType(column('t', 'shapes', '_polygon'))).toThrow(/t\.shapes/);
  });
});

describe('jsonSchemaType', () => {
  it('renders the JSON Schema subset the schemas use', () => {
    expect(jsonSchemaType({ type: 'array', items: { type: 'integer' } })).toBe('number[]');
    expect(jsonSchemaType({ type: 'array', items: { type: 'string', enum: ['a', 'b'] } })).toBe(
      '("a" | "b")[]',
    );
    expect(jsonSchemaType({ type: ['string', 'null'] })).toBe('string | null');
    expect(jsonSchemaType({ const: 3 })).toBe('3');
    expect(
      jsonSchemaType({
        type: 'object',
        additionalProperties: false,
        required: ['a'],
        properties: { a: { type: 'boolean' }, 'b-c': { type: 'number' } },
      }),
    ).toBe('{ a: boolean; "b-c"?: number; }');
  });

  it('keeps extra keys open unless additionalProperties is false', () => {
    expect(jsonSchemaType({ type: 'object' })).toBe('{ [key: string]: JsonValue; }');
    expect(
      jsonSchemaType({
        type: 'object',
        properties: { a: { type: 'string' } },
        additionalProperties: { type: 'integer' },
      }),
    ).toBe('{ a?: string; [key: string]: number | undefined; }');
  });

  it('does not guess what it does not know', () => {
    expect(jsonSchemaType({ oneOf: [{ type: 'string' }, { type: 'integer' }] })).toBe('JsonValue');
    expect(jsonSchemaType({})).toBe('JsonValue');
    expect(jsonSchemaType({ type: 'array' })).toBe('JsonValue[]');
  });
});

describe('renderDatabaseTypes', () => {
  const text = renderDatabaseTypes({
    columns: [...ledgerColumns, ...gadgetColumns],
    models: [gadgets],
    origins: { gadget_boxes: 'server/migrations/0001_a.sql', ledger: 'server/migrations/0002.sql' },
  });

  it('writes one interface per table and the Database by table name', () => {
    expect(text).toContain('export interface GadgetBoxesTable {');
    expect(text).toContain('  label: string;');
    expect(text).toContain('  id: Generated<number>;');
    expect(text).toMatch(
      /export interface Database \{\n {2}gadget_boxes: GadgetBoxesTable;\n {2}ledger: LedgerTable;\n\}/,
    );
    expect(text).toContain('export type ResourceTableName = "gadget_boxes";');
    expect(text).toMatch(/^import type \{ ColumnType \} from 'kysely';$/m);
  });

  it('types a schema table’s jsonb from its schema, keys in snake_case as stored', () => {
    expect(text).toContain('  colours: Generated<Jsonb<("red" | "blue")[]> | null>;');
    expect(text).toContain('  settings: Jsonb<{ max_size: number; shown_at?: string; }> | null;');
  });

  it('says where each table comes from', () => {
    expect(text).toContain(
      '/** Resource `gadget-boxes` (`schemas/gadget-boxes.schema.json`). */\nexport interface GadgetBoxesTable',
    );
    expect(text).toContain(
      '/** Hand-written: `server/migrations/0002.sql`. */\nexport interface LedgerTable',
    );
    expect(text).toContain('  payload: Jsonb<JsonValue>;');
  });

  it('stops when a schema has no table or a field no column yet', () => {
    const input = { models: [gadgets], origins: {} };
    expect(() => renderDatabaseTypes({ ...input, columns: ledgerColumns })).toThrow(
      /gadget-boxes.*no table gadget_boxes.*gen:migration/,
    );
    const withoutLabel = gadgetColumns.filter((info) => info.column !== 'label');
    expect(() => renderDatabaseTypes({ ...input, columns: withoutLabel })).toThrow(
      /no column for label in table gadget_boxes/,
    );
  });
});

describe('tableOrigins', () => {
  it('names the first migration that creates each table', () => {
    expect(
      tableOrigins([
        {
          path: 'm/0001.sql',
          sql: 'create table "users" (id int);\nCREATE TABLE Sessions (x int);',
        },
        { path: 'm/0002.sql', sql: 'create table if not exists users (id int); create table b ()' },
      ]),
    ).toEqual({ users: 'm/0001.sql', sessions: 'm/0001.sql', b: 'm/0002.sql' });
  });
});

describe('the committed src/types/database.ts', () => {
  it('imports nothing but kysely types', () => {
    const source = fs.readFileSync(
      path.join(import.meta.dirname, '..', 'src', 'types', 'database.ts'),
      'utf8',
    );
    const imports = [...source.matchAll(/^import .* from '([^']+)';$/gm)].map((match) => match[1]);
    expect(imports).toEqual(['kysely']);
    expect(source).toMatch(/^import type /m);
  });

  // Checked by tsc (`npm run typecheck`); at run time these are no-ops.
  it('means to Kysely what the database does', () => {
    type Customer = Selectable<Database['customers']>;
    expectTypeOf<Customer['id']>().toEqualTypeOf<number>();
    expectTypeOf<Customer['created_at']>().toEqualTypeOf<Date>();
    expectTypeOf<Customer['date_of_birth']>().toEqualTypeOf<string | null>();
    expectTypeOf<Customer['is_company']>().toEqualTypeOf<boolean | null>();
    expectTypeOf<Customer['correspondence_languages']>().toEqualTypeOf<
      ('de' | 'fr' | 'it' | 'en')[] | null
    >();
    type NewCustomer = Insertable<Database['customers']>;
    expectTypeOf<NewCustomer>().toHaveProperty('first_name');
    // A company needs no person's name (migration 0015): the names are optional on insert.
    expectTypeOf<{ last_name: 'B' }>().toExtend<NewCustomer>();
    type NewUser = Insertable<Database['users']>;
    expectTypeOf<{
      first_name: 'A';
      last_name: 'B';
      email: 'a@b.ch';
      role: 'ADMIN';
    }>().toExtend<NewUser>();
    expectTypeOf<{ last_name: 'B'; email: 'a@b.ch'; role: 'ADMIN' }>().not.toExtend<NewUser>();
    expectTypeOf<NewCustomer['correspondence_languages']>().toEqualTypeOf<
      string | null | undefined
    >();
    expectTypeOf<Updateable<Database['sessions']>['revoked_at']>().toEqualTypeOf<
      Date | string | null | undefined
    >();
    // `generated always` identities are never written.
    expectTypeOf<Insertable<Database['audit_log']>>().not.toHaveProperty('id');
    expectTypeOf<Selectable<Database['audit_log']>['id']>().toEqualTypeOf<number>();
    expectTypeOf<Selectable<Database['users']>['finma_config']>().toEqualTypeOf<{
      life_insurance?: boolean;
      non_life_insurance?: boolean;
      registered_since?: string;
    } | null>();
  });
});
