/**
 * The commissions feature (issue 17; docs/ARCHITECTURE.md "Commissions"; DOMAIN.md §2):
 * - ./rules.ts — commission rules: their rules when saved (dates, ages, the catalogue, no two
 *   equally specific active rules for one case) and loading them for matching (matching,
 *   specificity and the courtage are src/schema/commissions.ts);
 * - ./engine.ts — the courtage and the people's lines of a closure, settled into the append-only
 *   ledger (commission-lines) after every contract write: reversal + new lines on a change,
 *   clawback on a cancellation within the liability period, by the pay terms valid at signing
 *   (./terms.ts, user-terms, kept by every user write); the daily release of started contracts;
 * - ./routes.ts — the "which rule applies?" tester and the batch recompute;
 * - ./sums.ts — the ledger's totals by owner, month, status and kind (kept by a trigger), which
 *   the summary reads;
 * - ./lines.ts — who sees which lines, the list's month range, the summary, reversals by hand,
 *   assigned single payments;
 * - ./payouts.ts — payouts: gathering a user's ready lines, new → approved → paid, statements (PDF)
 *   and the period's export (CSV, XLSX);
 * - ./leaderboard.ts — the leaderboard's ranking and charts.
 * Registered after contracts and appointments, whose writes it follows.
 */
import type { FastifyInstance } from 'fastify';
import { idOf } from '../db/values.ts';
import { releaseStarted, settleContract, settleDeletedContract } from './engine.ts';
import { leaderboardRoutes } from './leaderboard.ts';
import { commissionLineHooks, lineRoutes, singlePaymentHooks } from './lines.ts';
import { payoutHooks, payoutRoutes } from './payouts.ts';
import { anniversariesDue, engineRoutes, recomputeAll } from './routes.ts';
import { commissionRuleHooks } from './rules.ts';
import { compactCommissionSums } from './sums.ts';
import { recordTerms } from './terms.ts';

declare module '../jobs/queue.ts' {
  interface JobPayloads {
    /** Nightly: pending lines of started contracts become payable; portfolio years are added. */
    'commissions.daily': Record<string, never>;
  }
}

export const DAILY_CRON = '30 3 * * *';

export default async function commissions(app: FastifyInstance): Promise<void> {
  app.resourceHooks.add('commission-rules', commissionRuleHooks);
  app.resourceHooks.add('commission-lines', commissionLineHooks);
  app.resourceHooks.add('assigned-single-payments', singlePaymentHooks);
  app.resourceHooks.add('payouts', payoutHooks);
  // A closure's lines follow every write of it, in the same transaction.
  app.resourceHooks.extend('contracts', 'commissions', {
    async afterWrite(row, context) {
      const id = idOf(row.id);
      if (id === null) return;
      const by = context.principal?.id ?? null;
      if (context.mode === 'delete') await settleDeletedContract(context.db, id, by);
      else await settleContract(context.db, id, { by });
    },
  });
  app.resourceHooks.extend('users', 'commissions', { afterWrite: recordTerms });
  app.jobs.define(
    'commissions.daily',
    { retryLimit: 2, retryDelay: 60, expireInSeconds: 3600 },
    async () => {
      await releaseStarted(app.db);
      // Contract years that began: their closures settled again for the portfolio lines.
      const ids = await anniversariesDue(app.db);
      if (ids.length > 0) await recomputeAll(app.db, { ids, reason: 'contractChanged' });
      else await compactCommissionSums(app.db);
    },
  );
  app.jobs.schedule('commissions.daily', DAILY_CRON, {});
  await app.register(engineRoutes);
  await app.register(lineRoutes);
  await app.register(payoutRoutes);
  await app.register(leaderboardRoutes);
}
Object.defineProperty(commissions, Symbol.for('skip-override'), { value: true });
