/** The household coverage view's rules (./coverage-rules.ts): columns, deadlines, ages and gaps. */
import { describe, expect, it } from 'vitest';
import {
  ageOn,
  columnsOf,
  COVERAGE_COLUMNS,
  coverageGaps,
  GAP_RULES,
  nextDeadline,
} from './coverage-rules.ts';

describe('columnsOf', () => {
  it('places combined products in both columns, the broker mandate in none, the rest in other', () => {
    expect(columnsOf(3).map((column) => column.key)).toEqual([
      'health_basic',
      'health_supplementary',
    ]);
    expect(columnsOf(11).map((column) => column.key)).toEqual(['liability', 'household_contents']);
    expect(columnsOf(28)).toEqual([]);
    expect(columnsOf(12).map((column) => column.key)).toEqual(['other']);
    expect(columnsOf(24).map((column) => column.key)).toEqual(['finance']);
  });

  it('names only columns the gap rules can find', () => {
    const keys = new Set(COVERAGE_COLUMNS.map((column) => column.key));
    for (const rule of GAP_RULES) expect(keys.has(rule.column), rule.key).toBe(true);
  });
});

describe('nextDeadline', () => {
  const basic = { kind: 'yearly', month: 11, day: 30 } as const;
  const car = { kind: 'beforeEnd', months: 3 } as const;

  it('answers the next yearly deadline on or after today', () => {
    expect(nextDeadline(basic, '2026-11-23', null)).toBe('2026-11-30');
    expect(nextDeadline(basic, '2026-11-30', null)).toBe('2026-11-30');
    expect(nextDeadline(basic, '2026-12-01', null)).toBe('2027-11-30');
    // None once the contract ends before it.
    expect(nextDeadline(basic, '2026-12-01', '2027-06-30')).toBeNull();
  });

  it('answers months before the end, across a year and at the end of short months', () => {
    expect(nextDeadline(car, '2026-11-23', '2027-06-30')).toBe('2027-03-30');
    // Already past: none.
    expect(nextDeadline(car, '2026-11-23', '2027-02-01')).toBeNull();
    expect(nextDeadline(car, '2026-01-01', '2027-05-31')).toBe('2027-02-28');
    expect(nextDeadline(car, '2026-01-01', '2027-01-15')).toBe('2026-10-15');
    expect(nextDeadline(car, '2026-11-23', null)).toBeNull();
    expect(nextDeadline(undefined, '2026-11-23', '2027-01-01')).toBeNull();
  });
});

describe('ageOn', () => {
  it('counts whole years', () => {
    expect(ageOn('1980-11-23', '2026-11-23')).toBe(46);
    expect(ageOn('1980-11-24', '2026-11-23')).toBe(45);
    expect(ageOn(null, '2026-11-23')).toBeNull();
  });
});

describe('coverageGaps', () => {
  it('asks basic health of everybody, liability and contents once, 3a of adults of working age', () => {
    const gaps = coverageGaps([
      { key: 'a', age: 40, columns: new Set(['health_basic', 'liability']) },
      { key: 'b', age: 10, columns: new Set() },
      { key: 'c', age: 70, columns: new Set(['health_basic']) },
      { key: 'd', age: null, columns: new Set(['health_basic', 'pillar_3a']) },
    ]);
    expect(gaps).toEqual([
      { rule: 'no_health_basic', column: 'health_basic', person: 'b' },
      { rule: 'no_household_contents', column: 'household_contents' },
      { rule: 'no_pillar_3a', column: 'pillar_3a', person: 'a' },
    ]);
  });
});
