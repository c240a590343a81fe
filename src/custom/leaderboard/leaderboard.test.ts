/**
 * The leaderboard's pure pieces (./model.ts): the defaults (spec §4, §9), the filters in the page's
 * address and in the API's query, medals and the charts' bucket names.
 */
import { describe, expect, it } from 'vitest';
import {
  apiQuery,
  bucketLabel,
  customIncomplete,
  DEFAULTS,
  filtersOf,
  medalOf,
  neighbour,
  searchOf,
} from './model.ts';

describe('filters', () => {
  it('default to the current month, overall, the ranking and active users', () => {
    expect(filtersOf(new URLSearchParams())).toEqual({
      range: 'month',
      from: '',
      until: '',
      insurance: 'overall',
      status: 'active',
      section: 'leaderboard',
    });
    expect(apiQuery(DEFAULTS).toString()).toBe(
      'range=month&insurance=overall&status=active&section=leaderboard',
    );
    // The defaults leave the address clean.
    expect(searchOf(DEFAULTS).toString()).toBe('');
  });

  it('read the address, ignoring what they do not know', () => {
    const filters = filtersOf(
      new URLSearchParams('range=quarter&insurance=life&status=all&section=charts&from=2026-01-01'),
    );
    expect(filters).toEqual({
      range: 'quarter',
      from: '2026-01-01',
      until: '',
      insurance: 'life',
      status: 'all',
      section: 'charts',
    });
    expect(filtersOf(new URLSearchParams('range=decade&insurance=cars&section=x'))).toEqual(
      DEFAULTS,
    );
    expect(searchOf(filters).toString()).toBe(
      'range=quarter&insurance=life&status=all&section=charts&from=2026-01-01',
    );
    // A day of the quarter to show goes to the server; the current one needs none.
    expect(apiQuery(filters).toString()).toBe(
      'range=quarter&from=2026-01-01&insurance=life&status=all&section=charts',
    );
  });

  it('send a custom range’s days, and only once both are there in order', () => {
    const custom = filtersOf(new URLSearchParams('range=custom&from=2026-03-01&until=2026-05-31'));
    expect(customIncomplete(custom)).toBe(false);
    expect(apiQuery(custom).toString()).toBe(
      'range=custom&from=2026-03-01&until=2026-05-31&insurance=overall&status=active&section=leaderboard',
    );
    expect(searchOf(custom).toString()).toBe('range=custom&from=2026-03-01&until=2026-05-31');
    expect(customIncomplete({ ...custom, until: '' })).toBe(true);
    expect(customIncomplete({ ...custom, until: '2026-02-28' })).toBe(true);
    expect(customIncomplete({ ...DEFAULTS })).toBe(false);
    // A day that is not one is no day.
    expect(filtersOf(new URLSearchParams('range=custom&from=1.3.2026')).from).toBe('');
  });
});

describe('the period before and after', () => {
  it('is asked for by the day before the one shown starts or after it ends', () => {
    expect(neighbour({ from: '2026-11-01', until: '2026-11-30' }, -1)).toBe('2026-10-31');
    expect(neighbour({ from: '2026-11-01', until: '2026-11-30' }, 1)).toBe('2026-12-01');
    expect(neighbour({ from: '2026-01-01', until: '2026-12-31' }, 1)).toBe('2027-01-01');
    expect(neighbour({ from: '2024-03-01', until: '2024-03-31' }, -1)).toBe('2024-02-29');
  });
});

describe('the ranking and the charts', () => {
  it('give medals to the first three', () => {
    expect([1, 2, 3, 4, 0].map(medalOf)).toEqual([
      'gold',
      'silver',
      'bronze',
      undefined,
      undefined,
    ]);
  });

  it('name months in the language of the dates and ISO weeks by their number', () => {
    const week = (number: number, year: number) => `KW ${number} ${year}`;
    expect(bucketLabel('2026-11', 'de', week)).toBe('Nov. 26');
    expect(bucketLabel('2026-03', 'it', week)).toBe('mar 26');
    expect(bucketLabel('2026-W07', 'de', week)).toBe('KW 7 2026');
    expect(bucketLabel('2026-11-02', 'de', week)).toBe('2026-11-02');
  });
});
