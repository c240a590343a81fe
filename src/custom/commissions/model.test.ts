/**
 * The commission screens' pure pieces (./model.ts): centimes as CHF, months, the line lists'
 * filters and the summary's query as the API reads them, an explain step's figures, the rule
 * form's factor and body, the tester's body and the specificity in words.
 */
import { describe, expect, it } from 'vitest';
import {
  apiLineFilter,
  explainParams,
  explainText,
  formatCentimes,
  formatMonth,
  periodReversed,
  premiumAmountKeys,
  ruleBody,
  specificityKeys,
  subProductOwners,
  summaryOf,
  summaryQuery,
  testerBody,
} from './model.ts';

/** Keys as themselves, with the options named, so a test sees what was asked. */
const translate = (key: string, options: Record<string, unknown> = {}) => {
  const named = Object.entries(options)
    .filter(([name]) => name !== '_')
    .map(([name, value]) => `${name}=${String(value)}`);
  return named.length > 0 ? `${key}(${named.join(';')})` : key;
};

describe('amounts', () => {
  it('shows centimes as Swiss francs, negative ones with their sign, nothing for no amount', () => {
    expect(formatCentimes(123450)).toBe("CHF 1'234.50");
    expect(formatCentimes(-4235)).toBe('CHF -42.35');
    expect(formatCentimes(5)).toBe('CHF 0.05');
    expect(formatCentimes(0)).toBe('CHF 0.00');
    expect(formatCentimes(null)).toBe('');
    expect(formatCentimes(undefined)).toBe('');
  });
});

describe('months', () => {
  it('names a month in the language (French dates in English, spec §1)', () => {
    expect(formatMonth('2026-11', 'en')).toBe('Nov 2026');
    expect(formatMonth('2026-03', 'de')).toBe('März 2026');
    expect(formatMonth('2026-03', 'fr')).toBe('Mar 2026');
    expect(formatMonth('2026-13', 'de')).toBe('');
    expect(formatMonth(null, 'de')).toBe('');
  });
});

describe('the line lists’ filters', () => {
  it('sends whole months, one or several statuses, and drops blanks', () => {
    expect(
      apiLineFilter({
        periodFrom: '2026-01',
        periodUntil: '2026-1',
        status: ['ready_present', 'pending'],
        kind: '',
        userId: 4,
        productId: null,
        companyId: [],
      }),
    ).toEqual({ periodFrom: '2026-01', status: ['ready_present', 'pending'], userId: 4 });
  });

  it('asks the summary with the list’s filters in the API’s words', () => {
    expect(
      summaryQuery({
        status: ['ready_present', 'in_payout'],
        periodFrom: '2026-01',
        periodUntil: '2026-06',
        userId: 4,
        kind: 'consultant',
      }),
    ).toBe(
      'status=ready_present&status=in_payout&period_from=2026-01&period_until=2026-06&user_id=4&kind=consultant',
    );
    expect(summaryQuery({})).toBe('');
  });

  it('knows a period whose end lies before its start', () => {
    expect(periodReversed({ periodFrom: '2026-06', periodUntil: '2026-01' })).toBe(true);
    expect(periodReversed({ periodFrom: '2026-06', periodUntil: '2026-06' })).toBe(false);
    expect(periodReversed({ periodFrom: '2026-06' })).toBe(false);
  });

  it('reads the summary’s amounts by status as the API spells them', () => {
    expect(
      summaryOf({
        data: {
          count: 3,
          total: 25000,
          by_status: { ready_present: 30000, reversed: -5000 },
          by_kind: { team_lead: 1000 },
          stars: 2.5,
        },
      }),
    ).toEqual({
      count: 3,
      total: 25000,
      byStatus: { ready_present: 30000, reversed: -5000 },
      byKind: { team_lead: 1000 },
      stars: 2.5,
    });
    expect(summaryOf({ data: {} })).toEqual({
      count: 0,
      total: 0,
      byStatus: {},
      byKind: {},
      stars: null,
    });
  });
});

describe('explain', () => {
  it('writes amounts with two decimals, other figures as they are, Swiss', () => {
    expect(
      explainParams(
        { basis: 1234.5, factor: 16, amount: 19752, percent: 2.5, stars: 3, rate: 150 },
        translate,
        'de',
      ),
    ).toEqual({
      basis: "1'234.50",
      factor: '16',
      amount: "19'752.00",
      percent: '2.5',
      stars: '3',
      rate: '150.00',
    });
  });

  it('names enum values, months and days in the language; names and reasons stay', () => {
    expect(
      explainParams(
        {
          cycle: 'monthly',
          group: 'health',
          kind: 'team_lead',
          from: '2026-10',
          until: '2026-12-01',
          rule: 'KVG 2026',
          reason: 'Doppelt',
        },
        translate,
        'en',
      ),
    ).toEqual({
      cycle: 'enums.paymentCycle.monthly',
      group: 'enums.productGroup.health',
      kind: 'enums.commissionLineKind.team_lead',
      from: 'Oct 2026',
      until: 'Dec 1, 2026',
      rule: 'KVG 2026',
      reason: 'Doppelt',
    });
  });

  it('translates a step with its figures', () => {
    expect(
      explainText(
        {
          key: 'app.commissions.explain.monthlyPremium',
          params: { basis: 85.4, factor: 12, amount: 1024.8 },
        },
        translate,
        'de',
      ),
    ).toBe("app.commissions.explain.monthlyPremium(basis=85.40;factor=12;amount=1'024.80)");
    expect(explainText({ key: 'app.commissions.explain.salaried' }, translate, 'de')).toBe(
      'app.commissions.explain.salaried',
    );
  });
});

describe('the rule form', () => {
  it('names the factor after the basis, and has none for a flat rate', () => {
    expect(premiumAmountKeys('monthly_premium')?.label).toBe('app.commissionRules.factor.monthly');
    expect(premiumAmountKeys('annual_premium')?.label).toBe('app.commissionRules.factor.annual');
    expect(premiumAmountKeys('production_sum')?.label).toBe(
      'app.commissionRules.factor.production',
    );
    expect(premiumAmountKeys('flat')).toBeUndefined();
    expect(premiumAmountKeys(undefined)?.help).toBe('app.commissionRules.factor.chooseBasis');
  });

  it('sends only the amount the basis uses, and lists as lists', () => {
    expect(
      ruleBody({ calculationBasis: 'flat', premiumAmount: 16, flatRate: 200, productIds: null }),
    ).toEqual({
      calculationBasis: 'flat',
      premiumAmount: null,
      flatRate: 200,
      productIds: [],
      subProductIds: [],
      subProductVariantIds: [],
    });
    expect(
      ruleBody({ calculationBasis: 'annual_premium', premiumAmount: 15, flatRate: 200 }),
    ).toMatchObject({ premiumAmount: 15, flatRate: null });
  });

  it('offers the sub-products of basic and supplementary for the health bundle', () => {
    expect(subProductOwners([3]).sort()).toEqual([1, 2, 3]);
    expect(subProductOwners([7, 9])).toEqual([7, 9]);
    expect(subProductOwners([])).toEqual([]);
  });
});

describe('the tester', () => {
  it('sends the contract alone, or the case’s filled fields', () => {
    expect(testerBody('contract', { contractId: 12, productId: 2 })).toEqual({ contractId: 12 });
    expect(
      testerBody('case', {
        contractId: 12,
        signingDate: '2026-03-01',
        category: 'private',
        clientAge: null,
        companyId: 9,
        productId: 2,
        subProductId: undefined,
        premium: 100,
        paymentCycle: 'monthly',
        annualPremium: null,
      }),
    ).toEqual({
      signingDate: '2026-03-01',
      category: 'private',
      companyId: 9,
      productId: 2,
      premium: 100,
      paymentCycle: 'monthly',
    });
    // A payment cycle says nothing without a premium.
    expect(
      testerBody('case', {
        signingDate: '2026-03-01',
        productId: 4,
        paymentCycle: 'monthly',
        annualPremium: 1200,
      }),
    ).toEqual({ signingDate: '2026-03-01', productId: 4, annualPremium: 1200 });
  });

  it('names the specificity: level, and the insurer', () => {
    expect(specificityKeys(7)).toEqual({
      level: 'app.commissionRules.tester.level.variant',
      withCompany: true,
    });
    expect(specificityKeys(2)).toEqual({
      level: 'app.commissionRules.tester.level.product',
      withCompany: false,
    });
    expect(specificityKeys(1)).toEqual({
      level: 'app.commissionRules.tester.level.any',
      withCompany: true,
    });
    expect(specificityKeys(4).level).toBe('app.commissionRules.tester.level.subProduct');
  });
});
