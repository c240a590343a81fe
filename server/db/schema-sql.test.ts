/**
 * The migration generator (server/db/schema-sql.ts): table models from schemas, additive diffs,
 * the version column and its trigger, and the committed snapshot staying in step with schemas/.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from './migrate.ts';
import {
  auditSql,
  diffSql,
  q,
  type Snapshot,
  snapshotOf,
  UnsupportedChangeError,
  VERSION_FUNCTION_SQL,
  versionTriggerSql,
} from './schema-sql.ts';
import { loadResourceModels } from '../schemas.ts';
import { buildResourceModel, type JsonSchema } from '../../src/schema/model.ts';

const PERMISSIONS = { read: 'authenticated', create: 'nobody', update: 'nobody', delete: 'nobody' };

function schema(
  id: string,
  properties: Record<string, JsonSchema>,
  required: string[] = [],
): JsonSchema {
  return {
    $id: id,
    title: id,
    type: 'object',
    additionalProperties: false,
    'x-permissions': PERMISSIONS,
    required,
    properties,
  } as JsonSchema;
}

const snapshot = (...schemas: JsonSchema[]): Snapshot =>
  snapshotOf(schemas.map(buildResourceModel));
const EMPTY: Snapshot = { tables: {} };

const things = schema(
  'things',
  {
    name: { type: 'string', maxLength: 100 },
    group: { type: 'string', enum: ['a', 'b'], 'x-filter': true },
    code: { type: 'string', maxLength: 20, 'x-unique': true },
    count: { type: 'integer', default: 3 },
  },
  ['name'],
);
const parts = schema('parts', {
  thingId: { type: 'integer', 'x-reference': 'things' },
  tags: {
    type: 'array',
    maxItems: 5,
    items: { type: 'string', enum: ['x', 'y'] },
    default: [],
    'x-filter': true,
  },
});

describe('snapshotOf', () => {
  it('models base columns, types, not-null, defaults, references and indexes', () => {
    const { tables } = snapshot(things, parts);
    expect(Object.keys(tables)).toEqual(['parts', 'things']);
    expect(tables.things.columns).toEqual({
      id: { type: 'integer', notNull: true, primaryKey: true },
      created_at: { type: 'timestamptz', notNull: true, default: 'now()' },
      updated_at: { type: 'timestamptz', notNull: true, default: 'now()' },
      version: { type: 'integer', notNull: true, default: '1' },
      name: { type: 'text', notNull: true },
      group: { type: 'text', notNull: false },
      code: { type: 'text', notNull: false },
      count: { type: 'integer', notNull: false, default: '3' },
    });
    expect(tables.parts.columns.thing_id).toEqual({
      type: 'integer',
      notNull: false,
      references: 'things',
    });
    expect(tables.parts.columns.tags).toEqual({
      type: 'jsonb',
      notNull: false,
      default: `'[]'::jsonb`,
    });
    // A sort index (column, id) for every sortable column but the id, the unique one and references.
    expect(Object.keys(tables.things.indexes).sort()).toEqual([
      'things_code_key',
      'things_count_idx',
      'things_created_at_idx',
      'things_group_idx',
      'things_name_idx',
      'things_updated_at_idx',
    ]);
    expect(tables.things.indexes.things_group_idx).toBe(
      'create index if not exists "things_group_idx" on "things" ("group", "id")',
    );
    expect(tables.things.indexes.things_code_key).toBe(
      'create unique index "things_code_key" on "things" ("code")',
    );
    expect(tables.parts.indexes.parts_tags_idx).toContain('using gin ("tags")');
    expect(tables.parts.indexes.parts_thing_id_idx).toBe(
      'create index if not exists "parts_thing_id_idx" on "parts" ("thing_id", "id")',
    );
  });
});

describe('audit triggers', () => {
  it('log every write, or only updates and deletes of a ledger (x-resource.auditInserts false)', () => {
    const ledger = schema('ledger', { amount: { type: 'integer' } });
    ledger['x-resource'] = { auditInserts: false };
    const [, logged] = auditSql(EMPTY, snapshot(things));
    expect(logged).toContain('after insert or update or delete on "things"');
    const [, unlogged] = auditSql(EMPTY, snapshot(ledger));
    expect(unlogged).toContain('after update or delete on "ledger"');
    // Turning it off later replaces the trigger.
    const changed = auditSql(
      snapshot({ ...ledger, 'x-resource': {} } as JsonSchema),
      snapshot(ledger),
    );
    expect(changed.slice(1)).toEqual([
      'drop trigger if exists "ledger_audit" on "ledger"',
      unlogged,
    ]);
  });
});

describe('list indexes (docs/ARCHITECTURE.md, Lists at any size)', () => {
  const people = schema('people', {
    lastName: { type: 'string', maxLength: 100 },
    notes: { type: 'string', maxLength: 10000 },
    zip: { type: 'string', maxLength: 10, 'x-filter': true },
    phone: { type: 'string', maxLength: 20, format: 'phone' },
    ownerId: { type: 'integer', 'x-reference': 'things', 'x-owner': true },
    thingId: { type: 'integer', 'x-reference': 'things' },
    hidden: { type: 'integer', 'x-sortable': false },
  });
  people['x-resource'] = {
    search: ['lastName', 'zip', 'phone'],
    defaultSort: { field: 'createdAt', order: 'DESC' },
  };
  const { indexes } = snapshot(people).tables.people;

  it('indexes every sortable column as (column, id), long text and references aside', () => {
    expect(indexes.people_last_name_idx).toBe(
      'create index if not exists "people_last_name_idx" on "people" ("last_name", "id")',
    );
    expect(indexes.people_created_at_idx).toContain('("created_at", "id")');
    expect(indexes.people_zip_idx).toContain('("zip", "id")');
    expect(indexes.people_notes_idx).toBeUndefined();
    expect(indexes.people_hidden_idx).toBeUndefined();
    // Sorted by the referenced record's label, group by group: each group's rows in id order.
    expect(indexes.people_thing_id_idx).toBe(
      'create index if not exists "people_thing_id_idx" on "people" ("thing_id", "id")',
    );
  });

  it('indexes the records’ own label where it is their own text, in the label collation', () => {
    const labelled = schema('people', {
      organization: { type: 'string', maxLength: 100 },
      firstName: { type: 'string', maxLength: 100 },
      lastName: { type: 'string', maxLength: 100 },
    });
    labelled['x-resource'] = {
      representation: ['{organization}', '{firstName} {lastName}'],
      recordRepresentation: 'lastName',
    };
    expect(snapshot(labelled).tables.people.indexes.people_label_idx).toBe(
      `do $gscrm$ begin if exists (select 1 from pg_collation where collname = 'und-x-icu') then create index if not exists "people_label_idx" on "people" (((case when trim(coalesce("organization", '')) <> '' then coalesce("organization", '') when trim(coalesce("first_name", '')) <> '' and trim(coalesce("last_name", '')) <> '' then coalesce("first_name", '') || ' ' || coalesce("last_name", '') else "last_name" end) collate "und-x-icu"), "id"); end if; end $gscrm$`,
    );
    // A label with a date in it is no immutable expression: not indexed.
    const dated = schema('people', {
      lastName: { type: 'string', maxLength: 100 },
      born: { type: 'string', format: 'date' },
    });
    dated['x-resource'] = { representation: ['{lastName} {born}'] };
    expect(snapshot(dated).tables.people.indexes.people_label_idx).toBeUndefined();
  });

  it('leads an index with the owner column in the default order', () => {
    expect(indexes.people_owner_id_created_at_idx).toBe(
      'create index if not exists "people_owner_id_created_at_idx" on "people" ("owner_id", "created_at", "id")',
    );
  });

  it('carries the visibility columns in the default order’s index when owner and via both decide', () => {
    const visits = schema('visits', {
      ownerId: { type: 'integer', 'x-reference': 'things', 'x-owner': true },
      personId: { type: 'integer', 'x-reference': 'people', 'x-owner-via': true },
      day: { type: 'string', format: 'date' },
    });
    visits['x-resource'] = { defaultSort: { field: 'day', order: 'DESC' } };
    const own = snapshot(visits).tables.visits.indexes;
    expect(own.visits_day_idx).toBe(
      'create index if not exists "visits_day_idx" on "visits" ("day", "id") include ("owner_id", "person_id")',
    );
    expect(own.visits_created_at_idx).toBe(
      'create index if not exists "visits_created_at_idx" on "visits" ("created_at", "id")',
    );
    // An owner alone (its own index serves): no columns carried.
    expect(indexes.people_created_at_idx).not.toContain('include');
  });

  it('gives every searched text field a trigram index on its folded value', () => {
    expect(indexes.people_last_name_fold_trgm_idx).toBe(
      'create index if not exists "people_last_name_fold_trgm_idx" on "people" using gin (gscrm_fold("last_name") gin_trgm_ops)',
    );
    expect(indexes.people_zip_fold_trgm_idx).toContain('gscrm_fold("zip")');
    // Phone numbers are compared as stored (E.164).
    expect(indexes.people_phone_trgm_idx).toContain('using gin ("phone" gin_trgm_ops)');
  });

  it('keeps the folded search document of the text fields in a stored column, trigram-indexed', () => {
    const { columns } = snapshot(people).tables.people;
    expect(columns.search_document).toEqual({
      type: 'text',
      notNull: false,
      generated: `coalesce(gscrm_fold("last_name"), '') || ' ' || coalesce(gscrm_fold("zip"), '')`,
    });
    expect(indexes.people_search_idx).toBe(
      'create index if not exists "people_search_idx" on "people" using gin ("search_document" gin_trgm_ops)',
    );
    // No text field searched (phone numbers only, or nothing): no document.
    const phones = { ...people, 'x-resource': { search: ['phone'] } } as JsonSchema;
    expect(snapshot(phones).tables.people.columns.search_document).toBeUndefined();
    expect(snapshot(things).tables.things.columns.search_document).toBeUndefined();
  });
});

describe('diffSql', () => {
  it('answers nothing when nothing changed', () => {
    expect(diffSql(snapshot(things, parts), snapshot(things, parts))).toEqual([]);
  });

  it('creates a new table, then its foreign keys, then its indexes', () => {
    const statements = diffSql(EMPTY, snapshot(things, parts));
    expect(statements[0]).toBe(
      [
        'create table "parts" (',
        '  "id" integer generated by default as identity primary key,',
        '  "created_at" timestamptz not null default now(),',
        '  "updated_at" timestamptz not null default now(),',
        '  "version" integer not null default 1,',
        '  "thing_id" integer,',
        `  "tags" jsonb default '[]'::jsonb`,
        ')',
      ].join('\n'),
    );
    expect(statements[1]).toMatch(/^create table "things" \(/);
    expect(statements[1]).toContain('"name" text not null');
    expect(statements[1]).toContain('"count" integer default 3');
    expect(statements[2]).toBe(
      'alter table "parts" add constraint "parts_thing_id_fkey" foreign key ("thing_id") references "things" (id) on delete restrict',
    );
    expect(
      statements.slice(3, 13).every((statement) => /^create (unique )?index /.test(statement)),
    ).toBe(true);
    // Last, the version function and one trigger per new table.
    expect(statements.slice(13)).toEqual([
      VERSION_FUNCTION_SQL,
      versionTriggerSql('parts'),
      versionTriggerSql('things'),
    ]);
    expect(versionTriggerSql('parts')).toBe(
      'create trigger "parts_version" before update on "parts" for each row execute function gscrm_next_version()',
    );
    expect(statements).toHaveLength(3 + 10 + 3);
  });

  it('gives a table made before versions its version column (1 for the rows there are) and trigger', () => {
    const before = snapshot(things, parts);
    for (const table of Object.values(before.tables)) delete table.columns.version;
    expect(diffSql(before, snapshot(things, parts))).toEqual([
      'alter table "parts" add column "version" integer not null default 1',
      'alter table "things" add column "version" integer not null default 1',
      VERSION_FUNCTION_SQL,
      versionTriggerSql('parts'),
      versionTriggerSql('things'),
    ]);
  });

  it('adds a new column', () => {
    const after = schema(
      'things',
      { ...things.properties, color: { type: 'string', maxLength: 20 } },
      ['name'],
    );
    expect(diffSql(snapshot(things), snapshot(after))).toEqual([
      'alter table "things" add column "color" text',
      'create index if not exists "things_color_idx" on "things" ("color", "id")',
    ]);
  });

  it('adds a required column without default as nullable, with a comment', () => {
    const after = schema(
      'things',
      { ...things.properties, color: { type: 'string', maxLength: 20 } },
      ['name', 'color'],
    );
    const statements = diffSql(snapshot(things), snapshot(after));
    expect(statements[0]).toBe('alter table "things" add column "color" text');
    expect(statements[1]).toMatch(/^-- things\.color is required.*stays nullable/);
    expect(statements[2]).toMatch(/^create index if not exists "things_color_idx"/);
    expect(statements).toHaveLength(3);
  });

  it('adds a required column with a default as not null', () => {
    const after = schema(
      'things',
      { ...things.properties, size: { type: 'integer', default: 1 } },
      ['name', 'size'],
    );
    expect(diffSql(snapshot(things), snapshot(after))).toEqual([
      'alter table "things" add column "size" integer not null default 1',
      'create index if not exists "things_size_idx" on "things" ("size", "id")',
    ]);
  });

  it('adds a new reference column with its foreign key and index', () => {
    const after = schema('parts', {
      ...parts.properties,
      otherId: { type: 'integer', 'x-reference': 'things' },
    });
    expect(diffSql(snapshot(things, parts), snapshot(things, after))).toEqual([
      'alter table "parts" add column "other_id" integer',
      'alter table "parts" add constraint "parts_other_id_fkey" foreign key ("other_id") references "things" (id) on delete restrict',
      'create index if not exists "parts_other_id_idx" on "parts" ("other_id", "id")',
    ]);
  });

  it('never drops a removed column or table: a comment only', () => {
    const { count: _count, ...rest } = things.properties ?? {};
    const statements = diffSql(snapshot(things, parts), snapshot(schema('things', rest, ['name'])));
    expect(statements).toEqual([
      '-- things.count is no longer in the schemas; the column and its data are kept',
      '-- table parts is no longer in the schemas; it and its data are kept',
    ]);
    expect(statements.join('\n')).not.toMatch(/\bdrop\b/i);
  });

  it('refuses a type change (UnsupportedChangeError)', () => {
    const after = schema(
      'things',
      { ...things.properties, count: { type: 'string', maxLength: 5 } },
      ['name'],
    );
    expect(() => diffSql(snapshot(things), snapshot(after))).toThrow(UnsupportedChangeError);
    expect(() => diffSql(snapshot(things), snapshot(after))).toThrow(
      /things\.count.*integer to text/,
    );
  });

  it('sets, changes and drops a default', () => {
    const changed = schema(
      'things',
      { ...things.properties, count: { type: 'integer', default: 5 } },
      ['name'],
    );
    expect(diffSql(snapshot(things), snapshot(changed))).toEqual([
      'alter table "things" alter column "count" set default 5',
    ]);
    const text = schema(
      'things',
      { ...things.properties, name: { type: 'string', maxLength: 100, default: "it's" } },
      ['name'],
    );
    expect(diffSql(snapshot(things), snapshot(text))).toEqual([
      `alter table "things" alter column "name" set default 'it''s'`,
    ]);
    const dropped = schema('things', { ...things.properties, count: { type: 'integer' } }, [
      'name',
    ]);
    expect(diffSql(snapshot(things), snapshot(dropped))).toEqual([
      'alter table "things" alter column "count" drop default',
    ]);
  });

  it('leaves not-null as it was when required changes, with a comment', () => {
    const statements = diffSql(
      snapshot(things),
      snapshot(schema('things', things.properties ?? {}, [])),
    );
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(/^-- things\.name: required changed to false/);
  });

  it('creates an index added to an existing column', () => {
    const note = { type: 'string', maxLength: 2000 } as const;
    const before = schema('things', { ...things.properties, note }, ['name']);
    const after = schema('things', { ...things.properties, note: { ...note, 'x-index': true } }, [
      'name',
    ]);
    expect(diffSql(snapshot(before), snapshot(after))).toEqual([
      'create index "things_note_idx" on "things" ("note")',
    ]);
  });

  it('builds an index again when its definition changed', () => {
    const before = snapshot(things);
    before.tables.things.indexes.things_group_idx =
      'create index "things_group_idx" on "things" ("group")';
    expect(diffSql(before, snapshot(things))).toEqual([
      'drop index if exists "things_group_idx"',
      'create index if not exists "things_group_idx" on "things" ("group", "id")',
    ]);
  });

  it('makes a generated column again, with its indexes, when its expression changed', () => {
    const searched = (fields: string[]) =>
      ({ ...things, 'x-resource': { search: fields } }) as JsonSchema;
    const documentIndex =
      'create index if not exists "things_search_idx" on "things" using gin ("search_document" gin_trgm_ops)';
    expect(diffSql(snapshot(things), snapshot(searched(['name'])))).toEqual([
      `alter table "things" add column "search_document" text generated always as (coalesce(gscrm_fold("name"), '')) stored`,
      'create index if not exists "things_name_fold_trgm_idx" on "things" using gin (gscrm_fold("name") gin_trgm_ops)',
      documentIndex,
    ]);
    // Dropping the column drops its index: the unchanged index statement runs again.
    expect(diffSql(snapshot(searched(['name'])), snapshot(searched(['name', 'code'])))).toEqual([
      'alter table "things" drop column if exists "search_document"',
      `alter table "things" add column "search_document" text generated always as (coalesce(gscrm_fold("name"), '') || ' ' || coalesce(gscrm_fold("code"), '')) stored`,
      'create index if not exists "things_code_fold_trgm_idx" on "things" using gin (gscrm_fold("code") gin_trgm_ops)',
      documentIndex,
    ]);
  });

  it('quotes every identifier (a field named group, a quote in a name)', () => {
    const statements = diffSql(EMPTY, snapshot(things)).join('\n');
    expect(statements).toContain('"group" text');
    expect(statements).toContain(
      'create index if not exists "things_group_idx" on "things" ("group", "id")',
    );
    expect(statements).not.toMatch(/[^"]\bgroup\b[^"]/);
    expect(q('odd"name')).toBe('"odd""name"');
  });
});

describe('generated SQL on PostgreSQL (PGlite)', () => {
  let pg: PGlite;
  beforeAll(async () => {
    // What the hand-written migrations give the generated ones: pg_trgm (0011), gscrm_fold (0016).
    pg = new PGlite({ extensions: { pg_trgm } });
    await pg.waitReady;
    await pg.exec('create extension if not exists pg_trgm');
    await pg.exec(fs.readFileSync(path.join(MIGRATIONS_DIR, '0016_search_fold_ascii.sql'), 'utf8'));
  }, 60_000);
  afterAll(async () => {
    await pg.close();
  });

  it('creates every table of schemas/, then applies an additive change', async () => {
    const models = loadResourceModels();
    for (const statement of diffSql(EMPTY, snapshotOf(models))) await pg.exec(statement);
    await pg.exec(diffSql(EMPTY, snapshot(things)).join(';\n'));
    await pg.exec(`insert into "things" ("name", "group") values ('one', 'a')`);
    const after = schema(
      'things',
      {
        ...things.properties,
        color: { type: 'string', maxLength: 9 },
        size: { type: 'integer', default: 1 },
      },
      ['name', 'color', 'size'],
    );
    await pg.exec(diffSql(snapshot(things), snapshot(after)).join(';\n'));
    const result = await pg.query<{
      name: string;
      color: string | null;
      size: number;
      count: number;
    }>('select name, color, size, count from things');
    expect(result.rows).toEqual([{ name: 'one', color: null, size: 1, count: 3 }]);
    const tables = await pg.query<{ table_name: string }>(
      `select table_name from information_schema.tables where table_schema = 'public' order by 1`,
    );
    expect(tables.rows.map((row) => row.table_name)).toEqual(
      [...models.map((model) => model.table), 'things'].sort(),
    );
    // Hundreds of statements on PGlite: 4–6 s alone, more on a busy CI machine.
  }, 60_000);

  it('raises the version on every update, whatever the update sets it to', async () => {
    const version = async () =>
      (await pg.query<{ version: number }>(`select version from things where name = 'one'`)).rows[0]
        .version;
    expect(await version()).toBe(1);
    await pg.exec(`update things set color = 'red' where name = 'one'`);
    expect(await version()).toBe(2);
    await pg.exec(`update things set version = 1 where name = 'one'`);
    expect(await version()).toBe(3);
    // An update that changes nothing is still a write.
    await pg.exec(`update things set color = color where name = 'one'`);
    expect(await version()).toBe(4);
  });
});

describe('committed snapshot', () => {
  it('equals the snapshot of schemas/ (run `npm run gen:migration` when this fails)', () => {
    const committed = JSON.parse(
      fs.readFileSync(path.join(MIGRATIONS_DIR, 'snapshot.json'), 'utf8'),
    ) as Snapshot;
    expect(committed).toEqual(snapshotOf(loadResourceModels()));
  });
});
