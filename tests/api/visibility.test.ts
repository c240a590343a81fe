/**
 * The generic visibility of server/access/visibility.ts on small test-only models (inline schemas,
 * tables created here): x-owner, x-sub-broker, x-owner-via two levels deep, a via cycle, models
 * without markers, and the write rules (owner forced, no hand-over, references only to visible
 * records) for each kind of principal.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  enforceOwnership,
  markersOf,
  visibilityModeOf,
  visibilityScope,
  type VisibleRecords,
  visibleRecords,
} from '../../server/access/visibility.ts';
import type { Principal } from '../../server/auth/permissions.ts';
import type { WriteContext } from '../../server/crud/hooks.ts';
import { resourceDb } from '../../server/db/resource.ts';
import { ApiError } from '../../server/http/errors.ts';
import { buildResourceModel, type JsonSchema, type ResourceModel } from '../../src/schema/model.ts';
import { createTestApp, type TestApp } from './harness.ts';
import { errorText } from '../../src/schema/errors.ts';

const permissions = {
  read: 'authenticated',
  create: 'authenticated',
  update: 'authenticated',
  delete: 'authenticated',
} as const;
const schema = (id: string, properties: Record<string, JsonSchema>): JsonSchema => ({
  $id: id,
  title: id,
  type: 'object',
  additionalProperties: false,
  'x-permissions': permissions,
  properties,
});
const ref = (resource: string, marker?: string): JsonSchema => ({
  type: 'integer',
  minimum: 1,
  'x-reference': resource,
  ...(marker ? { [marker]: true } : {}),
});

const models: ResourceModel[] = [
  schema('t-clients', {
    ownerId: ref('users', 'x-owner'),
    brokerId: ref('sub-brokers', 'x-sub-broker'),
    name: { type: 'string', maxLength: 50 },
  }),
  schema('t-policies', {
    clientId: ref('t-clients', 'x-owner-via'),
    otherClientId: ref('t-clients'),
  }),
  schema('t-claims', { policyId: ref('t-policies', 'x-owner-via') }),
  schema('t-tasks', {
    ownerId: ref('users', 'x-owner'),
    clientId: ref('t-clients', 'x-owner-via'),
  }),
  schema('t-rates', { label: { type: 'string', maxLength: 50 } }),
  schema('t-loop-a', { bId: ref('t-loop-b', 'x-owner-via') }),
  schema('t-loop-b', { aId: ref('t-loop-a', 'x-owner-via') }),
  // Own branch, a via one level and two levels deep, and a via to records all visible.
  schema('t-visits', {
    ownerId: ref('users', 'x-owner'),
    clientId: ref('t-clients', 'x-owner-via'),
    claimId: ref('t-claims', 'x-owner-via'),
    rateId: ref('t-rates', 'x-owner-via'),
  }),
].map(buildResourceModel);
const model = (name: string) => models.find((candidate) => candidate.name === name)!;

const ADMIN: Principal = { id: 1, role: 'ADMIN', permissions: [] };
const CALLCENTER: Principal = { id: 2, role: 'BACKOFFICE-CALLCENTER', permissions: [] };
const ANNA: Principal = { id: 10, role: 'CONSULTANT', permissions: [] };
const BEN: Principal = { id: 11, role: 'CONSULTANT', permissions: [] };
const EXTERNAL: Principal = { id: 20, role: 'PARTNER', permissions: [], subBrokerId: 5 };
const EMPLOYEE: Principal = { id: 30, role: 'EMPLOYEE', permissions: [] };
const PARTNER: Principal = { id: 31, role: 'PARTNER', permissions: [] };

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: false });
  const db = t.database.db;
  await sql`create table t_clients (id integer primary key, owner_id integer, broker_id integer, name text)`.execute(
    db,
  );
  await sql`create table t_policies (id integer primary key, client_id integer, other_client_id integer)`.execute(
    db,
  );
  await sql`create table t_claims (id integer primary key, policy_id integer)`.execute(db);
  await sql`create table t_tasks (id integer primary key, owner_id integer, client_id integer)`.execute(
    db,
  );
  await sql`create table t_rates (id integer primary key, label text)`.execute(db);
  await sql`create table t_loop_a (id integer primary key, b_id integer)`.execute(db);
  await sql`create table t_loop_b (id integer primary key, a_id integer)`.execute(db);
  await sql`create table t_visits (id integer primary key, owner_id integer, client_id integer, claim_id integer, rate_id integer)`.execute(
    db,
  );
  // Clients: 1 Anna's, 2 Ben's, 3 Ben's but brought by sub-broker 5, 4 nobody's, 5 sub-broker 6.
  await sql`insert into t_clients values (1, 10, null, 'a'), (2, 11, null, 'b'), (3, 11, 5, 'c'), (4, null, null, 'd'), (5, null, 6, 'e')`.execute(
    db,
  );
  await sql`insert into t_policies values (1, 1, null), (2, 2, null), (3, 3, null), (4, null, null), (5, 5, 1)`.execute(
    db,
  );
  await sql`insert into t_claims values (1, 1), (2, 2), (3, 3), (4, 4), (5, null)`.execute(db);
  // Tasks: 1 Anna's on Ben's client, 2 nobody's on Anna's client, 3 Ben's on his own.
  await sql`insert into t_tasks values (1, 10, 2), (2, null, 1), (3, 11, 2)`.execute(db);
  await sql`insert into t_rates values (1, 'x'), (2, 'y')`.execute(db);
  // Visits: 1 Anna's, 2 on Ben's client, 3 on Anna's claim, 4 on the claim of sub-broker 5's
  // client, 5 with a rate, 6 Ben's on Anna's client, 7 and 8 nobody's.
  await sql`insert into t_visits values (1, 10, null, null, null), (2, null, 2, null, null), (3, null, null, 1, null), (4, null, null, 3, null), (5, null, null, null, 1), (6, 11, 1, null, null), (7, null, 4, 5, null), (8, null, null, null, null)`.execute(
    db,
  );
  await sql`insert into t_loop_a values (1, 1)`.execute(db);
  await sql`insert into t_loop_b values (1, 1)`.execute(db);
});
afterAll(async () => {
  await t?.close();
});

async function visible(name: string, principal: Principal): Promise<number[]> {
  const target = model(name);
  const scope = visibilityScope(target, models, principal);
  let query = resourceDb(t.database.db).selectFrom(target.table).select('id').orderBy('id');
  if (scope) query = query.where(scope);
  return (await query.execute()).map((row) => Number(row.id));
}

describe('modes and markers', () => {
  it('maps principals to modes', () => {
    expect(visibilityModeOf(ADMIN)).toBe('all');
    expect(visibilityModeOf({ id: 3, role: 'BACKOFFICE', permissions: [] })).toBe('all');
    expect(visibilityModeOf(CALLCENTER)).toBe('all');
    expect(visibilityModeOf(ANNA)).toBe('owner');
    expect(visibilityModeOf(EXTERNAL)).toBe('sub-broker');
    expect(visibilityModeOf(EMPLOYEE)).toBe('none');
    expect(visibilityModeOf(PARTNER)).toBe('none');
    expect(visibilityModeOf(undefined)).toBe('none');
  });

  it('reads the markers of a schema', () => {
    const markers = markersOf(model('t-clients'));
    expect(markers.owner?.column).toBe('owner_id');
    expect(markers.subBroker?.column).toBe('broker_id');
    expect(markersOf(model('t-policies')).via.map((field) => field.column)).toEqual(['client_id']);
    expect(markersOf(model('t-rates'))).toEqual({ via: [] });
  });
});

describe('visibility', () => {
  it('lets the admin route set see everything', async () => {
    for (const principal of [ADMIN, CALLCENTER]) {
      expect(await visible('t-clients', principal)).toEqual([1, 2, 3, 4, 5]);
      expect(await visible('t-claims', principal)).toEqual([1, 2, 3, 4, 5]);
    }
  });

  it('lets a consultant see its own records and what hangs off them, two levels deep', async () => {
    expect(await visible('t-clients', ANNA)).toEqual([1]);
    expect(await visible('t-policies', ANNA)).toEqual([1]);
    expect(await visible('t-claims', ANNA)).toEqual([1]);
    expect(await visible('t-clients', BEN)).toEqual([2, 3]);
    expect(await visible('t-policies', BEN)).toEqual([2, 3]);
    expect(await visible('t-claims', BEN)).toEqual([2, 3]);
  });

  it('treats owner and via as alternatives', async () => {
    // Task 1 is Anna's (on Ben's client), task 2 hangs off Anna's client, task 3 is Ben's.
    expect(await visible('t-tasks', ANNA)).toEqual([1, 2]);
    expect(await visible('t-tasks', BEN)).toEqual([1, 3]);
  });

  it('lets an external user see its sub-broker’s records and what hangs off them', async () => {
    expect(await visible('t-clients', EXTERNAL)).toEqual([3]);
    expect(await visible('t-policies', EXTERNAL)).toEqual([3]);
    expect(await visible('t-claims', EXTERNAL)).toEqual([3]);
    expect(await visible('t-clients', { ...EXTERNAL, subBrokerId: 6 })).toEqual([5]);
  });

  it('gives roles without a route set no marked record, but reference data', async () => {
    for (const principal of [EMPLOYEE, PARTNER]) {
      expect(await visible('t-clients', principal)).toEqual([]);
      expect(await visible('t-claims', principal)).toEqual([]);
      expect(await visible('t-rates', principal)).toEqual([1, 2]);
    }
    expect(await visible('t-rates', ANNA)).toEqual([1, 2]);
    expect(visibilityScope(model('t-rates'), models, ANNA)).toBeUndefined();
  });

  it('follows every via reference of a record, and a via to records all visible', async () => {
    expect(await visible('t-visits', ANNA)).toEqual([1, 3, 5, 6]);
    expect(await visible('t-visits', BEN)).toEqual([2, 4, 5, 6]);
    expect(await visible('t-visits', EXTERNAL)).toEqual([4, 5]);
    expect(await visible('t-visits', EMPLOYEE)).toEqual([]);
    expect(await visible('t-visits', ADMIN)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('gives lists the same records through joins, and counts them in two disjoint parts', async () => {
    const ids = async (from: VisibleRecords['all'], table: string) =>
      (
        await resourceDb(t.database.db)
          .selectFrom(from.as(table))
          .select(sql<number>`id`.as('id'))
          .orderBy('id')
          .execute()
      ).map((row) => Number(row.id));
    const principals = [ADMIN, CALLCENTER, ANNA, BEN, EXTERNAL, EMPLOYEE, PARTNER];
    let joined = 0;
    let split = 0;
    for (const target of models) {
      for (const principal of principals) {
        const expected = await visible(target.name, principal);
        const records = visibleRecords(target, models, principal);
        if (!records) continue;
        joined++;
        expect(await ids(records.all, target.table), `${target.name} ${principal.id}`).toEqual(
          expected,
        );
        if (!records.parts) continue;
        split++;
        const [own, others] = await Promise.all(
          records.parts.map((part) => ids(part, target.table)),
        );
        expect(own.filter((id) => others.includes(id))).toEqual([]);
        expect([...own, ...others].sort((a, b) => a - b)).toEqual(expected);
      }
    }
    // The two consultants and the external user on the four models with via references (a cycle
    // grants nothing: no joins); split where there is an owner column too (t-tasks, t-visits).
    expect(joined).toBe(12);
    expect(split).toBe(6);
  });

  it('grants nothing through a cycle of x-owner-via', async () => {
    expect(await visible('t-loop-a', ANNA)).toEqual([]);
    expect(await visible('t-loop-b', EXTERNAL)).toEqual([]);
    expect(await visible('t-loop-a', ADMIN)).toEqual([1]);
  });
});

describe('writes', () => {
  const context = (
    name: string,
    principal: Principal,
    mode: 'create' | 'update',
    existing?: Record<string, unknown>,
  ): WriteContext => ({
    db: t.database.db,
    model: model(name),
    models,
    principal: { ...principal, subBrokerId: principal.subBrokerId ?? null } as never,
    mode,
    existing,
  });
  const errorsOf = async (promise: Promise<unknown>) => {
    try {
      await promise;
    } catch (error) {
      if (error instanceof ApiError) {
        // The English sentences API clients read (the keys beside them are checked elsewhere).
        const errors = Object.fromEntries(
          Object.entries(error.errors ?? {}).map(([field, found]) => [field, found.map(errorText)]),
        );
        return { status: error.statusCode, errors };
      }
      throw error;
    }
    return undefined;
  };

  it('makes a consultant the owner of its new record, and an external user’s sub-broker', async () => {
    expect(
      await enforceOwnership({ owner_id: 11, name: 'x' }, context('t-clients', ANNA, 'create')),
    ).toEqual({ owner_id: 10, name: 'x' });
    expect(
      await enforceOwnership({ broker_id: 6 }, context('t-clients', EXTERNAL, 'create')),
    ).toEqual({ broker_id: 5 });
    expect(await enforceOwnership({ owner_id: 11 }, context('t-clients', ADMIN, 'create'))).toEqual(
      {
        owner_id: 11,
      },
    );
  });

  it('refuses handing a record over, but accepts the owner sent back unchanged', async () => {
    const existing = { id: 1, owner_id: 10, broker_id: null };
    expect(
      await errorsOf(
        enforceOwnership({ owner_id: 11 }, context('t-clients', ANNA, 'update', existing)),
      ),
    ).toEqual({ status: 422, errors: { owner_id: ['cannot be changed to another user'] } });
    expect(
      await enforceOwnership(
        { owner_id: 10, name: 'n' },
        context('t-clients', ANNA, 'update', existing),
      ),
    ).toEqual({ owner_id: 10, name: 'n' });
    const theirs = { id: 3, owner_id: 11, broker_id: 5 };
    expect(
      await errorsOf(
        enforceOwnership({ broker_id: 6 }, context('t-clients', EXTERNAL, 'update', theirs)),
      ),
    ).toEqual({ status: 422, errors: { broker_id: ['cannot be changed to another sub-broker'] } });
  });

  it('refuses references to records the writer cannot see, as unknown ids', async () => {
    expect(
      await errorsOf(enforceOwnership({ client_id: 2 }, context('t-policies', ANNA, 'create'))),
    ).toEqual({ status: 422, errors: { client_id: ['refers to unknown t-clients: 2'] } });
    expect(
      await errorsOf(enforceOwnership({ policy_id: 2 }, context('t-claims', ANNA, 'create'))),
    ).toEqual({ status: 422, errors: { policy_id: ['refers to unknown t-policies: 2'] } });
    // A plain reference (not x-owner-via) to customer data is checked too.
    expect(
      await errorsOf(
        enforceOwnership(
          { client_id: 1, other_client_id: 2 },
          context('t-policies', ANNA, 'create'),
        ),
      ),
    ).toEqual({ status: 422, errors: { other_client_id: ['refers to unknown t-clients: 2'] } });
    expect(await enforceOwnership({ client_id: 1 }, context('t-policies', ANNA, 'create'))).toEqual(
      { client_id: 1 },
    );
    expect(
      await errorsOf(enforceOwnership({ client_id: 1 }, context('t-policies', EXTERNAL, 'create'))),
    ).toMatchObject({ status: 422 });
    // An unchanged reference to something that moved away may be saved again.
    const existing = { id: 5, client_id: 5, other_client_id: 1 };
    expect(
      await enforceOwnership(
        { other_client_id: 1 },
        context('t-policies', BEN, 'update', existing),
      ),
    ).toEqual({ other_client_id: 1 });
  });

  it('requires a via reference when nothing else would make the new record visible', async () => {
    expect(await errorsOf(enforceOwnership({}, context('t-policies', ANNA, 'create')))).toEqual({
      status: 422,
      errors: { client_id: ['is required'] },
    });
    expect(await enforceOwnership({}, context('t-tasks', ANNA, 'create'))).toEqual({
      owner_id: 10,
    });
  });

  it('refuses every write of customer data to roles without it (403), not of reference data', async () => {
    expect(
      await errorsOf(enforceOwnership({ name: 'x' }, context('t-clients', EMPLOYEE, 'create'))),
    ).toMatchObject({
      status: 403,
    });
    expect(await enforceOwnership({ label: 'z' }, context('t-rates', EMPLOYEE, 'create'))).toEqual({
      label: 'z',
    });
  });
});
