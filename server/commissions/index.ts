/**
 * The commissions feature (issue 17; docs/ARCHITECTURE.md "Commissions"; DOMAIN.md §2):
 * - ./rules.ts — commission rules: validation (dates, ages, products of the rule's company), the
 *   refusal of two equally specific active rules for one case, matching and specificity, the
 *   "which rule applies?" tester (POST /api/commission-rules/test);
 * - ./engine.ts — the courtage and the people's lines of a closure, written to the append-only
 *   ledger (commission-lines) after every contract write: reversal + new lines on a change,
 *   clawback on a cancellation within the liability period; the pay terms valid at signing
 *   (./terms.ts, user-terms); the lines' release (pending → ready_present) and batch recompute;
 * - ./lines.ts — who sees which lines, the list's period filters, the summary, reversals by hand,
 *   assigned single payments;
 * - ./payouts.ts — payouts: gathering a user's ready lines, new → approved → paid, statements (PDF)
 *   and the period's export (CSV, XLSX);
 * - ./leaderboard.ts — the leaderboard's ranking and charts.
 * Registered after contracts and appointments, whose writes it follows.
 */
import type { FastifyInstance } from 'fastify';
import { leaderboardRoutes } from './leaderboard.ts';
import { payoutHooks, payoutRoutes } from './payouts.ts';

export default async function commissions(app: FastifyInstance): Promise<void> {
  app.resourceHooks.add('payouts', payoutHooks);
  await app.register(payoutRoutes);
  await app.register(leaderboardRoutes);
}
Object.defineProperty(commissions, Symbol.for('skip-override'), { value: true });
