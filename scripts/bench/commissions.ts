/**
 * The commissions' benchmark (issue 17: "computing lines for 300,000 contracts (batch recompute)
 * and the my-commissions and leaderboard queries at that size"), for `npm run bench` (./run.ts).
 *
 * Recompute (`recomputeBook`, before the app starts, in this process on the loaded database): the
 * demo's rules and terms (server/demo/commissions.ts, seeded by loadBook) applied to every closure
 * of the generated book through the engine's own batch (server/commissions/routes.ts
 * `recomputeAll`, the code POST /api/commissions/recompute and the nightly job run), in slices so
 * progress shows. Reported: the closures settled, the lines written, the wall time, contracts per
 * second, and this process's peak resident memory while it ran (on PGlite the database lives in
 * this process, so its memory is counted; on PostgreSQL only the engine's side). Then a second
 * pass over the first `again` closures: a recompute after which nothing changed (what a rule
 * correction costs for the contracts it does not touch) must write nothing — a line it writes is a
 * finding.
 *
 * Query cases (`commissionCases`): the requests the screens send (src/custom/commissions,
 * src/custom/leaderboard), measured like every other case of ./run.ts.
 */
import { sql } from 'kysely';
import type { DB } from '../../server/db/index.ts';
import { recomputeAll } from '../../server/commissions/routes.ts';

export interface RecomputeResult {
  closures: number;
  seconds: number;
  contractsPerSecond: number;
  written: number;
  reversed: number;
  /** Lines in the ledger afterwards (the demo's included). */
  lines: number;
  /** This process's resident memory: before and the highest sampled while it ran (MB). */
  rssBeforeMb: number;
  rssPeakMb: number;
  /** The pass over the first closures again, nothing having changed. */
  again: { closures: number; seconds: number; contractsPerSecond: number; written: number };
}

const mb = (bytes: number) => bytes / 1024 / 1024;

/** Settles every closure of the book, then the first `again` once more (see the file's head). */
export async function recomputeBook(
  db: DB,
  log: (text: string) => void,
  options: { slice?: number; batch?: number; again?: number } = {},
): Promise<RecomputeResult> {
  const slice = options.slice ?? 20_000;
  const ids = (
    await db
      .selectFrom('contracts')
      .select('id')
      .where('contract_type', '=', 'closure')
      .orderBy('id')
      .execute()
  ).map((row) => row.id);
  const rssBefore = process.memoryUsage().rss;
  let peak = rssBefore;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 250);
  let written = 0;
  let reversed = 0;
  const started = performance.now();
  try {
    for (let at = 0; at < ids.length; at += slice) {
      const done = await recomputeAll(db, {
        ids: ids.slice(at, at + slice),
        batch: options.batch,
        reason: 'contractChanged',
      });
      written += done.written;
      reversed += done.reversed;
      const seconds = (performance.now() - started) / 1000;
      log(
        `  commissions: ${Math.min(at + slice, ids.length)} of ${ids.length} closures settled, ${written} lines, ${seconds.toFixed(0)} s`,
      );
    }
  } finally {
    clearInterval(sampler);
  }
  peak = Math.max(peak, process.memoryUsage().rss);
  const seconds = (performance.now() - started) / 1000;
  const [{ count }] = await sql<{
    count: number;
  }>`select count(*)::integer as count from commission_lines`
    .execute(db)
    .then((r) => r.rows);

  const againIds = ids.slice(0, options.again ?? 20_000);
  const againStarted = performance.now();
  const again = await recomputeAll(db, { ids: againIds, batch: options.batch });
  const againSeconds = (performance.now() - againStarted) / 1000;
  return {
    closures: ids.length,
    seconds,
    contractsPerSecond: ids.length / Math.max(seconds, 0.001),
    written,
    reversed,
    lines: count,
    rssBeforeMb: mb(rssBefore),
    rssPeakMb: mb(peak),
    again: {
      closures: againIds.length,
      seconds: againSeconds,
      contractsPerSecond: againIds.length / Math.max(againSeconds, 0.001),
      written: again.written + again.reversed,
    },
  };
}

/** A day inside the generated book's signing dates (2014-12 to 2025-12): its month and year. */
export const LEADERBOARD_DAY = '2024-06-15';

/**
 * The screens' requests: [name, path, who] — `consultant` is the consultant's user id (my
 * commissions asks with the user's own id, src/custom/commissions/MyCommissionsPage.tsx).
 */
export function commissionCases(
  consultantId: number,
): Array<[string, string, 'admin' | 'consultant']> {
  const mine = `/api/commission-lines?page=1&per_page=25&sort=period&order=DESC&user_id=${consultantId}`;
  const board = `/api/leaderboard?from=${LEADERBOARD_DAY}&insurance=overall&status=active`;
  return [
    ['my commissions (ready), consultant', `${mine}&statuses=ready_present`, 'consultant'],
    [
      'my commissions totals (ready)',
      `/api/commission-lines/summary?user_id=${consultantId}&statuses=ready_present`,
      'consultant',
    ],
    ['my commissions (all), consultant', mine, 'consultant'],
    [
      'commission lines page 1 (admin)',
      '/api/commission-lines?page=1&per_page=25&sort=period&order=DESC',
      'admin',
    ],
    ['commission totals, all (admin)', '/api/commission-lines/summary', 'admin'],
    ['leaderboard month, consultant', `${board}&range=month&section=leaderboard`, 'consultant'],
    ['leaderboard month charts', `${board}&range=month&section=charts`, 'consultant'],
    ['leaderboard quarter, consultant', `${board}&range=quarter&section=leaderboard`, 'consultant'],
    ['leaderboard year, consultant', `${board}&range=year&section=leaderboard`, 'consultant'],
    ['leaderboard year charts, admin', `${board}&range=year&section=charts`, 'admin'],
  ];
}
