import { describe, expect, it } from 'vitest';
import {
  bucketKindOf,
  bucketsOf,
  daysOf,
  isoWeek,
  mondayOf,
  periodOf,
} from './leaderboard-range.ts';

describe('the leaderboard periods', () => {
  it('name ISO weeks by the year of their Thursday', () => {
    expect(isoWeek('2005-01-02')).toBe('2004-W53');
    expect(isoWeek('2005-01-03')).toBe('2005-W01');
    expect(isoWeek('2020-12-31')).toBe('2020-W53');
    expect(isoWeek('2021-01-03')).toBe('2020-W53');
    expect(isoWeek('2024-12-30')).toBe('2025-W01');
    expect(isoWeek('2026-11-23')).toBe('2026-W48');
    expect(mondayOf('2026-11-29')).toBe('2026-11-23');
  });

  it('take the week, month, quarter and year around a day', () => {
    expect(periodOf('week', '2005-03-13')).toEqual({ from: '2005-03-07', until: '2005-03-13' });
    expect(periodOf('week', '2025-01-01')).toEqual({ from: '2024-12-30', until: '2025-01-05' });
    expect(periodOf('month', '2024-02-10')).toEqual({ from: '2024-02-01', until: '2024-02-29' });
    expect(periodOf('quarter', '2026-11-28')).toEqual({ from: '2026-10-01', until: '2026-12-31' });
    expect(periodOf('quarter', '2026-01-01')).toEqual({ from: '2026-01-01', until: '2026-03-31' });
    expect(periodOf('year', '2026-06-15')).toEqual({ from: '2026-01-01', until: '2026-12-31' });
  });

  it('split up to a quarter into ISO weeks, longer ranges into months', () => {
    const quarter = periodOf('quarter', '2026-11-28');
    expect(daysOf(quarter)).toBe(92);
    expect(bucketKindOf(quarter)).toBe('week');
    expect(bucketsOf({ from: '2020-12-28', until: '2021-01-11' })).toEqual([
      '2020-W53',
      '2021-W01',
      '2021-W02',
    ]);
    expect(bucketKindOf({ from: '2026-01-01', until: '2026-04-03' })).toBe('month');
    expect(bucketsOf({ from: '2025-11-15', until: '2026-02-01' }, 'month')).toEqual([
      '2025-11',
      '2025-12',
      '2026-01',
      '2026-02',
    ]);
  });
});
