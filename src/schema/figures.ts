/**
 * The figures the server computes for a contract, never trusted from the client (issue 14):
 * the annual premium, the production sum and the total commission. Pure and isomorphic: the
 * server's write hooks (server/contracts/hooks.ts, through server/contracts/figures.ts), the demo
 * data and the tests compute with it, and the contract form shows the same figures live while the
 * user types (the saved ones are still the server's). Money is computed in integer centimes and
 * answered in CHF with two decimals.
 */
import type { ProductGroup } from './catalogue.ts';

/** Payments a year per payment cycle; a single premium is spread over the term. */
export const PAYMENTS_PER_YEAR = {
  monthly: 12,
  quarterly: 4,
  semi_annual: 2,
  annual: 1,
  single: 0,
} as const;

export type PaymentCycle = keyof typeof PAYMENTS_PER_YEAR;

export interface FigureInput {
  productGroup: ProductGroup;
  paymentCycle?: PaymentCycle | null;
  insurance?: { premium?: number | null; termYears?: number | null } | null;
  supplementaryInsurances?: Array<{ premiumMonth?: number | null }> | null;
  coverage?: { amount?: number | null; lines?: Array<{ premium?: number | null }> | null } | null;
  commissions?: Array<{ comission?: number | null }> | null;
}

export interface Figures {
  annualPremium: number;
  productionSum: number;
  totalCommission: number;
}

const centimes = (chf: number | null | undefined): number => Math.round((chf ?? 0) * 100);
const chf = (cents: number): number => cents / 100;

/**
 * - annual premium: the premium × payments a year (a single premium divided by the term, at least
 *   one year), plus 12 × each supplementary monthly premium, plus each coverage line's premium
 *   (P&C lines carry annual premiums);
 * - production sum: life — annual premium × term (DOMAIN.md §2: net premium × term, product
 *   factor 1); finance — the amount; otherwise the annual premium;
 * - total commission: the sum of the commission lines (negative lines are corrections).
 */
export function contractFigures(input: FigureInput): Figures {
  const cycle = input.paymentCycle ?? 'monthly';
  const term = Math.max(1, input.insurance?.termYears ?? 1);
  const premium = centimes(input.insurance?.premium);
  const main = cycle === 'single' ? Math.round(premium / term) : premium * PAYMENTS_PER_YEAR[cycle];
  const supplementary = (input.supplementaryInsurances ?? []).reduce(
    (sum, line) => sum + centimes(line.premiumMonth) * 12,
    0,
  );
  const lines = (input.coverage?.lines ?? []).reduce(
    (sum, line) => sum + centimes(line.premium),
    0,
  );
  const annual = main + supplementary + lines;
  const production =
    input.productGroup === 'life'
      ? cycle === 'single'
        ? premium
        : annual * term
      : input.productGroup === 'finance'
        ? centimes(input.coverage?.amount)
        : annual;
  const commission = (input.commissions ?? []).reduce(
    (sum, line) => sum + centimes(line.comission),
    0,
  );
  return {
    annualPremium: chf(annual),
    productionSum: chf(production),
    totalCommission: chf(commission),
  };
}
