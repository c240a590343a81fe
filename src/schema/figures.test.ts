/**
 * The contract figures (./figures.ts): the server computes them on save and the contract form
 * shows them live with the same function, so both agree to the centime.
 */
import { describe, expect, it } from 'vitest';
import { contractFigures } from './figures.ts';

describe('contract figures', () => {
  it('life: annual premium × payments a year, production sum × term', () => {
    expect(
      contractFigures({
        productGroup: 'life',
        paymentCycle: 'monthly',
        insurance: { premium: 588, termYears: 25 },
      }),
    ).toEqual({ annualPremium: 7056, productionSum: 176400, totalCommission: 0 });
  });

  it('life, single premium: spread over the term; the production sum is the premium', () => {
    expect(
      contractFigures({
        productGroup: 'life',
        paymentCycle: 'single',
        insurance: { premium: 50000, termYears: 20 },
      }),
    ).toMatchObject({ annualPremium: 2500, productionSum: 50000 });
  });

  it('counts in centimes: no binary rounding drift', () => {
    expect(
      contractFigures({
        productGroup: 'life',
        paymentCycle: 'quarterly',
        insurance: { premium: 0.1, termYears: 3 },
      }),
    ).toMatchObject({ annualPremium: 0.4, productionSum: 1.2 });
  });

  it('empty inputs (a form being filled): zeros, a term of at least one year', () => {
    expect(contractFigures({ productGroup: 'life', insurance: { premium: null } })).toEqual({
      annualPremium: 0,
      productionSum: 0,
      totalCommission: 0,
    });
    expect(
      contractFigures({ productGroup: 'life', paymentCycle: 'annual', insurance: { premium: 10 } }),
    ).toMatchObject({ productionSum: 10 });
  });
});
