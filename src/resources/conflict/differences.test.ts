/**
 * The fields a conflict dialog lists: writable fields the save sent whose value differs from the
 * current record, where '', null and a missing value count as the same empty value.
 */
import { describe, expect, it } from 'vitest';
import { buildResourceModel } from '../../schema/model.ts';
import { differingFields, sameValue } from './differences.ts';

const model = buildResourceModel({
  $id: 'widgets',
  title: 'Widget',
  type: 'object',
  additionalProperties: false,
  'x-permissions': { read: 'authenticated', create: 'nobody', update: 'nobody', delete: 'nobody' },
  properties: {
    name: { type: 'string' },
    notes: { type: 'string' },
    tags: { type: 'array', items: { type: 'string' } },
    address: { type: 'object', properties: { city: { type: 'string' }, zip: { type: 'string' } } },
    avatar: { type: 'string', readOnly: true },
  },
});

describe('differingFields', () => {
  it('lists changed writable fields the save sent, in the schema order', () => {
    const mine = {
      id: 1,
      version: 1,
      tags: ['a', 'b'],
      name: 'Mine',
      notes: '',
      address: { zip: '3000', city: 'Bern' },
      avatar: 'old.png',
    };
    const current = {
      id: 1,
      version: 2,
      name: 'Theirs',
      notes: null,
      tags: ['b', 'a'],
      address: { city: 'Bern', zip: '3000' },
      avatar: 'new.png',
    };
    expect(differingFields(model, mine, current).map((field) => field.name)).toEqual([
      'name',
      'tags',
    ]);
  });

  it('leaves out fields the save did not send', () => {
    expect(differingFields(model, { name: 'Same' }, { name: 'Same', notes: 'x' })).toEqual([]);
  });
});

describe('sameValue', () => {
  it('treats the kinds of empty alike and ignores key order, not list order', () => {
    expect(sameValue('', null)).toBe(true);
    expect(sameValue(undefined, null)).toBe(true);
    expect(sameValue({ a: 1, b: '' }, { a: 1 })).toBe(true);
    expect(sameValue([1, 2], [2, 1])).toBe(false);
    expect(sameValue(0, null)).toBe(false);
    expect(sameValue(false, null)).toBe(false);
  });
});
