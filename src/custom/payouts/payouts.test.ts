/**
 * The payout screens' pure pieces (./model.ts): what each status allows, the default filter, the
 * month paid out next, a user's name and the files' paths.
 */
import { describe, expect, it } from 'vitest';
import {
  actionsOf,
  DEFAULT_FILTER,
  exportFileName,
  exportPath,
  previousMonth,
  statementFileName,
  statementPath,
  userName,
} from './model.ts';

describe('a payout’s actions', () => {
  it('follows new → approved → paid; only a new payout is deleted', () => {
    expect(actionsOf('new')).toEqual(['approve', 'delete']);
    expect(actionsOf('approved')).toEqual(['pay']);
    expect(actionsOf('paid')).toEqual([]);
  });

  it('opens the list on the new payouts (spec §4)', () => {
    expect(DEFAULT_FILTER).toEqual({ status: 'new' });
  });
});

describe('months and names', () => {
  it('pays out the month before the day by default', () => {
    expect(previousMonth('2026-11-28')).toBe('2026-10');
    expect(previousMonth('2026-01-01')).toBe('2025-12');
    expect(previousMonth('2026-10-31')).toBe('2026-09');
  });

  it('names a user as the app does everywhere (first and last name, else the e-mail)', () => {
    expect(userName({ id: 4, firstName: 'Beat', lastName: 'Brunner', email: 'b@x.ch' })).toBe(
      'Beat Brunner',
    );
    expect(userName({ id: 4, firstName: null, lastName: null, email: 'b@x.ch' })).toBe('b@x.ch');
    expect(userName(undefined)).toBe('');
  });
});

describe('files', () => {
  it('asks for the statement and the month’s export in the user’s language', () => {
    expect(statementPath(7, 'fr')).toBe('payouts/7/statement.pdf?language=fr');
    expect(exportPath('2026-10', 'xlsx', 'de')).toBe(
      'payouts/export?period=2026-10&format=xlsx&language=de',
    );
    expect(statementFileName({ id: 7, period: '2026-10' })).toBe('payout-2026-10-7.pdf');
    expect(exportFileName('2026-10', 'csv')).toBe('payouts-2026-10.csv');
  });
});
