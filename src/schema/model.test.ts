/**
 * The resource model's reference hints: `x-reference-filter` read into the field model and checked
 * against the referenced resource (referenceFilterProblems), and what a record's label is made of
 * (labelFields, labelSearchable), which the pickers and `sort=_label` rely on.
 */
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import {
  buildResourceModel,
  fieldByName,
  type JsonSchema,
  labelFields,
  labelSearchable,
  referenceFilterProblems,
} from './model.ts';
import type { ReferenceFilter } from './vocabulary.ts';

const read = (name: string): JsonSchema =>
  JSON.parse(
    fs.readFileSync(new URL(`../../schemas/${name}.schema.json`, import.meta.url), 'utf8'),
  );
const models = ['customers', 'lead-sources', 'products', 'users'].map((name) =>
  buildResourceModel(read(name)),
);
const model = (name: string) => {
  const found = models.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no ${name}`);
  return found;
};

/** A throwaway resource referring to users, with the given filter on its reference. */
function referring(filter: ReferenceFilter): JsonSchema {
  return {
    $id: 'assignments',
    title: 'Assignment',
    type: 'object',
    'x-permissions': {
      read: 'authenticated',
      create: 'authenticated',
      update: 'authenticated',
      delete: 'authenticated',
    },
    properties: {
      userId: { type: 'integer', minimum: 1, 'x-reference': 'users', 'x-reference-filter': filter },
    },
  };
}
const problemsOf = (filter: ReferenceFilter) =>
  referenceFilterProblems([...models, buildResourceModel(referring(filter))]);

describe('x-reference-filter in the model', () => {
  it('limits the customer’s consultant to active users of the roles that own customers', () => {
    const field = fieldByName(model('customers'), 'assignedTo');
    expect(field?.reference).toBe('users');
    expect(field?.referenceFilter).toEqual({
      isActive: true,
      role: ['CONSULTANT', 'BACKOFFICE', 'BACKOFFICE-CALLCENTER'],
    });
    for (const role of ['EMPLOYEE', 'PARTNER', 'ADMIN'])
      expect(field?.referenceFilter?.role).not.toContain(role);
  });

  it('leaves references without the hint unlimited', () => {
    expect(fieldByName(model('customers'), 'leadSource')?.referenceFilter).toBeUndefined();
  });

  it('accepts the schemas as they are (server/schemas.ts checks all at start)', () => {
    expect(referenceFilterProblems(models)).toEqual([]);
  });

  it('accepts booleans, enum values and lists of enum values of x-filter fields', () => {
    expect(problemsOf({ isActive: true, role: 'CONSULTANT' })).toEqual([]);
    expect(problemsOf({ role: ['CONSULTANT', 'BACKOFFICE'], districtIds: ['ZH'] })).toEqual([]);
  });

  it('refuses a field the referenced list cannot filter by', () => {
    expect(problemsOf({ email: 'a@b.ch' })).toEqual([
      'assignments.userId: x-reference-filter: users.email is not an x-filter field',
    ]);
    expect(problemsOf({ nope: true })).toEqual([
      'assignments.userId: x-reference-filter: users.nope is not an x-filter field',
    ]);
  });

  it('refuses values the field cannot hold, and a list for a yes/no field', () => {
    expect(problemsOf({ role: ['CONSULTANT', 'BOSS'] })).toEqual([
      'assignments.userId: x-reference-filter: "BOSS" is not a value of users.role',
    ]);
    expect(problemsOf({ isActive: 'yes' })).toEqual([
      'assignments.userId: x-reference-filter: "yes" is not a value of users.isActive',
    ]);
    expect(problemsOf({ isActive: ['yes'] })).toContain(
      'assignments.userId: x-reference-filter: users.isActive takes one value, not a list',
    );
  });

  it('refuses a filter on a field that refers to nothing', () => {
    const schema = referring({ isActive: true });
    const userId = schema.properties?.userId ?? {};
    delete userId['x-reference'];
    expect(referenceFilterProblems([...models, buildResourceModel(schema)])).toEqual([
      'assignments.userId: x-reference-filter needs an x-reference to a known resource',
    ]);
  });
});

describe('labels of records', () => {
  it('names the fields a label is made of', () => {
    expect(labelFields(model('lead-sources')).sort()).toEqual([
      'nameDe',
      'nameEn',
      'nameFr',
      'nameIt',
    ]);
    expect(labelFields(model('users'))).toEqual(['firstName', 'lastName', 'email']);
    expect(labelFields(model('products'))).toEqual(['key']);
  });

  it('says whether the list’s search finds records by their label', () => {
    expect(labelSearchable(model('lead-sources'))).toBe(true);
    expect(labelSearchable(model('users'))).toBe(true);
    expect(labelSearchable(model('customers'))).toBe(true);
    // Products show a translation of their key: a picker filters them itself.
    expect(labelSearchable(model('products'))).toBe(false);
  });
});
