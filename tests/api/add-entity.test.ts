/**
 * README "Add an entity", proved: one more schema file in a copy of `schemas/` (nothing else — no
 * route-table entry, no server code) gives a migration from the generator's own diff, the API routes
 * with validation, references and permissions, and the OpenAPI description. The generated views of
 * such a resource are proved in src/resources/views.test.tsx.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { MIGRATIONS_DIR } from '../../server/db/migrate.ts';
import { diffSql, type Snapshot, snapshotOf } from '../../server/db/schema-sql.ts';
import { loadResourceModels, SCHEMAS_DIR } from '../../server/schemas.ts';
import { schemaKeys } from '../../src/schema/labels.ts';
import { ADMIN, CONSULTANT, createTestApp, DEMO_PASSWORD, type TestApp } from './harness.ts';

/** The one file a developer writes (README step 1). */
const GADGETS = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'gadgets',
  title: 'Gadget',
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  'x-permissions': {
    read: 'authenticated',
    create: 'manage-companies',
    update: 'manage-companies',
    delete: 'manage-companies',
  },
  'x-resource': {
    recordRepresentation: 'name',
    search: ['name'],
    defaultSort: { field: 'name', order: 'ASC' },
  },
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 100, 'x-list': true },
    status: { type: 'string', enum: ['new', 'used'], 'x-filter': true, 'x-list': true },
    priceChf: { type: 'number', minimum: 0, maximum: 1_000_000, 'x-widget': 'chf' },
    companyId: { type: 'integer', 'x-reference': 'companies', 'x-filter': true },
  },
};

let t: TestApp;
let app: Awaited<ReturnType<typeof buildApp>>;
let dir: string;
let migration: string[];

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gscrm-schemas-'));
  fs.cpSync(SCHEMAS_DIR, dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'gadgets.schema.json'), JSON.stringify(GADGETS, null, 2));
  const models = loadResourceModels(dir);

  // README step 2: the migration is the generator's diff from the committed snapshot.
  const snapshot = JSON.parse(
    fs.readFileSync(path.join(MIGRATIONS_DIR, 'snapshot.json'), 'utf8'),
  ) as Snapshot;
  migration = diffSql(snapshot, snapshotOf(models));

  t = await createTestApp();
  for (const statement of migration) await sql.raw(statement).execute(t.database.db);
  app = await buildApp({ database: t.database, models });
});

afterAll(async () => {
  await app?.close();
  await t?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const login = async (email: string) => {
  const response = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password: DEMO_PASSWORD },
  });
  return `Bearer ${(response.json() as { token: string }).token}`;
};

describe('a new entity from one schema file', () => {
  it('gets exactly one new table from the migration generator', () => {
    expect(migration.join('\n')).toMatch(/create table "gadgets"/i);
    expect(migration.filter((statement) => /create table/i.test(statement))).toHaveLength(1);
  });

  it('has translation keys for its name, fields and enum values', () => {
    const model = loadResourceModels(dir).find((candidate) => candidate.name === 'gadgets')!;
    expect(schemaKeys(model)).toEqual(
      expect.arrayContaining([
        'resources.gadgets.name_one',
        'resources.gadgets.fields.priceChf',
        'enums.gadgets.status.used',
      ]),
    );
  });

  it('serves create, list with filter and search, read, update and delete', async () => {
    const admin = await login(ADMIN);
    const created = await app.inject({
      method: 'POST',
      url: '/api/gadgets',
      headers: { authorization: admin },
      payload: { name: 'Zeiterfassung', status: 'new', price_chf: 120.5, company_id: 1 },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = (created.json() as { data: { id: number } }).data.id;

    const list = await app.inject({
      url: '/api/gadgets?status=new&search=zeit',
      headers: { authorization: admin },
    });
    expect(list.statusCode).toBe(200);
    expect((list.json() as { data: { id: number }[] }).data.map((row) => row.id)).toEqual([id]);

    const patched = await app.inject({
      method: 'PATCH',
      url: `/api/gadgets/${id}`,
      headers: { authorization: admin },
      payload: { status: 'used' },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect((patched.json() as { data: { status: string } }).data.status).toBe('used');

    const removed = await app.inject({
      method: 'DELETE',
      url: `/api/gadgets/${id}`,
      headers: { authorization: admin },
    });
    expect(removed.statusCode).toBe(200);
    const gone = await app.inject({ url: `/api/gadgets/${id}`, headers: { authorization: admin } });
    expect(gone.statusCode).toBe(404);
  });

  it('validates against the schema and checks references (422 naming the field)', async () => {
    const admin = await login(ADMIN);
    const bad = await app.inject({
      method: 'POST',
      url: '/api/gadgets',
      headers: { authorization: admin },
      payload: { name: 'X', status: 'broken', company_id: 999_999 },
    });
    expect(bad.statusCode).toBe(422);
    const errors = (bad.json() as { errors: Record<string, string[]> }).errors;
    expect(Object.keys(errors)).toEqual(expect.arrayContaining(['status']));

    const unknownCompany = await app.inject({
      method: 'POST',
      url: '/api/gadgets',
      headers: { authorization: admin },
      payload: { name: 'X', company_id: 999_999 },
    });
    expect(unknownCompany.statusCode).toBe(422);
    expect((unknownCompany.json() as { errors: Record<string, string[]> }).errors).toHaveProperty(
      'company_id',
    );
  });

  it('enforces its x-permissions (a consultant reads, but may not create)', async () => {
    const consultant = await login(CONSULTANT);
    const read = await app.inject({ url: '/api/gadgets', headers: { authorization: consultant } });
    expect(read.statusCode).toBe(200);
    const create = await app.inject({
      method: 'POST',
      url: '/api/gadgets',
      headers: { authorization: consultant },
      payload: { name: 'Nope' },
    });
    expect(create.statusCode).toBe(403);
  });

  it('is described in the OpenAPI document', async () => {
    const document = (await app.inject({ url: '/api/docs/json' })).json() as {
      paths: Record<string, unknown>;
    };
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/api/gadgets', '/api/gadgets/{id}']),
    );
  });
});
