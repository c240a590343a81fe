import { describe, expect, it } from 'vitest';
import { figuresOf, protocolMissing } from './hooks.ts';
import { jsonValue, listOf, objectOf, subProductOwners } from './rules.ts';

describe('contract rules (pure parts)', () => {
  it('lets basic + supplementary (3) name sub-products of basic (1) and supplementary (2)', () => {
    expect(subProductOwners(3).sort()).toEqual([1, 2, 3]);
    expect(subProductOwners(1)).toEqual([1]);
    expect(subProductOwners(7)).toEqual([7]);
  });

  it('marks only health closures without a protocol', () => {
    expect(protocolMissing('closure', 'health', false)).toBe(true);
    expect(protocolMissing('closure', 'health', true)).toBe(false);
    expect(protocolMissing('non-closure', 'health', false)).toBe(false);
    expect(protocolMissing('closure', 'life', false)).toBe(false);
    expect(protocolMissing(undefined, 'health', false)).toBe(true);
  });

  it('reads jsonb values as the wire, the database and column values give them', () => {
    expect(objectOf('{"premium":1}')).toEqual({ premium: 1 });
    expect(objectOf({ premium: 1 })).toEqual({ premium: 1 });
    expect(objectOf('[1]')).toEqual({});
    expect(objectOf(null)).toEqual({});
    expect(listOf('[{"a":1},2,null]')).toEqual([{ a: 1 }]);
    expect(jsonValue('not json')).toBe('not json');
  });

  it('computes the figures from wire keys', () => {
    expect(
      figuresOf(
        {
          payment_cycle: 'quarterly',
          insurance: JSON.stringify({ premium: 100.5, term_years: 5 }),
          supplementary_insurances: [{ premium_month: 10 }],
          coverage: { lines: [{ coverage: 'x', premium: 20 }] },
          commissions: [{ comission: 50 }, { comission: -5.25 }],
        },
        'life',
      ),
    ).toEqual({ annualPremium: 542, productionSum: 2710, totalCommission: 44.75 });
  });
});
