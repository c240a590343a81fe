/**
 * The planner's statistics kept fresh where nothing else does: PGlite runs no autovacuum, so a
 * table that grew since its last ANALYZE (or was never analysed) is planned from guesses — a
 * batch's read of 2,000 of 1.2 million ledger lines walked the whole primary key (280–460 ms)
 * instead of the contract index (16 ms once analysed).
 *
 * `refreshStatistics` analyses the tables of the app's schema that have grown by a fifth since
 * their last ANALYZE (their pages on disk against pg_class.relpages, which ANALYZE sets), and
 * the ones never analysed once they hold a few pages. On PostgreSQL autovacuum keeps relpages
 * current, so it rarely finds anything; it is safe there too, and inside a transaction. Run by
 * the 'db.statistics' job on PGlite (../jobs/index.ts), after the demo is seeded, and by bulk
 * writers (the commission recompute) as they go.
 */
import { sql } from 'kysely';
import type { DB } from './index.ts';

/** Tables below this many pages (8 kB each) are not worth an ANALYZE. */
const MIN_PAGES = 8;
/** Growth since the last ANALYZE that makes a table stale. */
const GROWTH = 1.2;

/** Analyses the stale tables; answers their names. */
export async function refreshStatistics(db: DB): Promise<string[]> {
  const { rows } = await sql<{ name: string; analysed: number; pages: string | number }>`
    select c.relname as name, c.relpages as analysed,
      pg_relation_size(c.oid) / current_setting('block_size')::int as pages
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = current_schema() and c.relkind = 'r'`.execute(db);
  const stale = rows
    .filter((row) => {
      const pages = Number(row.pages);
      return pages >= MIN_PAGES && pages > Math.max(Number(row.analysed), 0) * GROWTH;
    })
    .map((row) => row.name)
    .sort();
  for (const name of stale) await sql`analyze ${sql.id(name)}`.execute(db);
  return stale;
}
