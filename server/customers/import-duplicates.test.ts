/**
 * The pure pieces of the CSV import's duplicates: the one comparison rule (keys, reasons), rows of
 * the same file, the plan a choice makes, and what a merge takes from a row.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../http/errors.ts';
import { loadResourceModels } from '../schemas.ts';
import { duplicateKeys, fileDuplicates, reasonsBetween } from './duplicates.ts';
import { type CheckedRow, type FlaggedRow, planImport } from '../import/plan.ts';
import { fillFrom } from './merge.ts';

const customers = loadResourceModels().find((model) => model.name === 'customers');
if (!customers) throw new Error('no customers schema');

const anna = {
  first_name: 'Anna',
  last_name: 'Muster',
  date_of_birth: '1975-03-12',
  email: 'anna@example.ch',
  phone_number: '+41 79 555 12 34',
};

describe('the duplicate rule', () => {
  it('compares names case-insensitively with the birth date, emails, and phones by digits', () => {
    const row = duplicateKeys({
      first_name: ' anna',
      last_name: 'MUSTER ',
      date_of_birth: '1975-03-12',
      email: 'ANNA@example.ch',
      phone_number: '079 555 12 34',
    });
    expect(reasonsBetween(row, duplicateKeys(anna))).toEqual([
      'name_and_birth_date',
      'email',
      'phone',
    ]);
    expect(reasonsBetween(row, duplicateKeys({ ...anna, date_of_birth: '1975-03-13' }))).toEqual([
      'email',
      'phone',
    ]);
    // No key from a short phone or a name without a birth date.
    expect(duplicateKeys({ first_name: 'A', last_name: 'B', phone_number: '12 34' })).toEqual({});
  });

  it('flags a row repeating an earlier row of the file, naming the first one', () => {
    const sets = [anna, { ...anna, email: 'other@example.ch' }, { email: 'ANNA@example.ch' }, {}];
    expect(fileDuplicates(sets.map(duplicateKeys))).toEqual([
      [],
      [{ index: 0, reasons: ['name_and_birth_date', 'phone'] }],
      [{ index: 0, reasons: ['email'] }],
      [],
    ]);
  });
});

describe('the plan of a run', () => {
  const rows: CheckedRow[] = [1, 2, 3, 4].map((row) => ({ row, line: row + 1, body: {} }));
  const flag = (row: number, ids: number[]): FlaggedRow => ({
    row,
    line: row + 1,
    values: {},
    matches: ids.map((id) => ({
      id,
      is_company: false,
      organization: null,
      first_name: 'Anna',
      last_name: 'Muster',
      date_of_birth: null,
      email: null,
      phone_number: null,
      zip: null,
      city: null,
      reasons: ['email'],
    })),
    file_rows: ids.length === 0 ? [{ row: 1, reasons: ['email'] }] : [],
  });
  const flagged = new Map([
    [2, flag(2, [7, 9])],
    [3, flag(3, [])],
  ]);

  it('leaves flagged rows without a choice unwritten and applies per-row and all choices', () => {
    expect(planImport(rows, flagged, undefined, 4)).toMatchObject({
      inserts: [{ row: 1 }, { row: 4 }],
      merges: [],
      unresolved: [2, 3],
    });
    const plan = planImport(
      rows,
      flagged,
      { all: 'merge', rows: { '2': { action: 'merge', into: 9 } } },
      4,
    );
    expect(plan.merges).toMatchObject([{ row: 2, into: 9 }]);
    // Merge for all: a row repeating the file has no customer to merge into; it stays undecided.
    expect(plan.unresolved).toEqual([3]);
    expect(planImport(rows, flagged, { all: 'merge' }, 4).merges).toMatchObject([
      { row: 2, into: 7 },
    ]);
    expect(planImport(rows, flagged, { all: 'import' }, 4).inserts).toHaveLength(4);
    expect(planImport(rows, flagged, { rows: { '1': { action: 'skip' } } }, 4).skipped).toEqual([
      1,
    ]);
  });

  it('refuses choices that cannot apply, naming the row', () => {
    const refused = (choices: Parameters<typeof planImport>[2]) => {
      try {
        planImport(rows, flagged, choices, 4);
      } catch (error) {
        if (error instanceof ApiError) return Object.keys(error.errors ?? {});
        throw error;
      }
      return [];
    };
    expect(refused({ rows: { '2': { action: 'merge', into: 8 } } })).toEqual([
      'duplicates.rows.2.into',
    ]);
    expect(refused({ rows: { '3': { action: 'merge' } } })).toEqual(['duplicates.rows.3.action']);
    expect(refused({ rows: { '5': { action: 'skip' } } })).toEqual(['duplicates.rows.5']);
  });

  it('offers no merge where the resource does not merge (leads)', () => {
    const refused = (choices: Parameters<typeof planImport>[2]) => {
      try {
        planImport(rows, flagged, choices, 4, false);
      } catch (error) {
        if (error instanceof ApiError) return Object.keys(error.errors ?? {});
        throw error;
      }
      return [];
    };
    expect(refused({ rows: { '2': { action: 'merge', into: 9 } } })).toEqual([
      'duplicates.rows.2.action',
    ]);
    expect(refused({ all: 'merge' })).toEqual(['duplicates.all']);
    expect(planImport(rows, flagged, { all: 'skip' }, 4, false)).toMatchObject({
      inserts: [{ row: 1 }, { row: 4 }],
      skipped: [2, 3],
    });
  });
});

describe('a merge', () => {
  it('fills empty fields, joins notes and keeps differing values as conflicts', () => {
    const fill = fillFrom(
      customers,
      { ...anna, city: null, zip: '3000', notes: 'alt', email: 'Anna@Example.ch' },
      { ...anna, city: 'Bern', zip: '3011', notes: 'neu', phone_number: '079 555 12 34' },
    );
    expect(fill.changes).toMatchObject({ city: 'Bern', notes: 'alt\n\nneu' });
    expect(fill.filled).toEqual(expect.arrayContaining(['city', 'notes']));
    expect(fill.conflicts).toEqual([{ field: 'zip', kept: '3000', other: '3011' }]);
  });
});
