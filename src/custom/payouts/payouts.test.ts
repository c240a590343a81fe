/**
 * The payout screens' pure pieces (./model.ts): what each status allows, the default filter, months,
 * money, the explanation's figures and the files' paths.
 */
import { describe, expect, it } from 'vitest';
import {
  actionsOf,
  chfOf,
  DEFAULT_FILTER,
  explainParams,
  explainTexts,
  exportFileName,
  exportPath,
  formatPeriod,
  isMonth,
  previousMonth,
  statementFileName,
  statementPath,
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

describe('months', () => {
  it('knows a month and the one before a day', () => {
    expect(isMonth('2026-11')).toBe(true);
    expect(isMonth('2026-13')).toBe(false);
    expect(isMonth('2026-1')).toBe(false);
    expect(isMonth(null)).toBe(false);
    expect(previousMonth('2026-11-28')).toBe('2026-10');
    expect(previousMonth('2026-01-01')).toBe('2025-12');
    expect(previousMonth('2026-10-31')).toBe('2026-09');
  });

  it('names a month in the language of the app’s dates (French in English, spec §1)', () => {
    expect(formatPeriod('2026-03', 'de')).toBe('März 2026');
    expect(formatPeriod('2026-03', 'en')).toBe('March 2026');
    expect(formatPeriod('2026-03', 'fr')).toBe('March 2026');
    expect(formatPeriod('2026-03', 'it')).toBe('marzo 2026');
    expect(formatPeriod('nonsense', 'de')).toBe('');
  });
});

describe('money and explanations', () => {
  it('reads centimes as CHF', () => {
    expect(chfOf(123405)).toBe(1234.05);
    expect(chfOf(-500)).toBe(-5);
    expect(chfOf(null)).toBeNull();
  });

  it('writes an explanation’s figures the Swiss way, amounts with two decimals', () => {
    expect(
      explainParams({ basis: 1234.5, factor: 16, amount: 1646, percent: 2.5, rule: 'KVG' }),
    ).toEqual({ basis: "1'234.50", factor: '16', amount: "1'646.00", percent: '2.5', rule: 'KVG' });
  });

  it('translates each step with its figures', () => {
    const seen: Array<[string, Record<string, unknown> | undefined]> = [];
    const translate = (key: string, options?: Record<string, unknown>) => {
      seen.push([key, options]);
      return `${key}:${String(options?.amount ?? '')}`;
    };
    expect(
      explainTexts(
        [
          { key: 'app.commissions.explain.flat', params: { amount: 250 } },
          { key: 'app.commissions.explain.rule' },
        ],
        translate,
      ),
    ).toEqual(['app.commissions.explain.flat:250.00', 'app.commissions.explain.rule:']);
    expect(seen[0][1]).toMatchObject({ _: 'app.commissions.explain.flat', amount: '250.00' });
    expect(explainTexts(null, translate)).toEqual([]);
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
