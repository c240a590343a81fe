/**
 * Retention of the audit log (Swiss revFADP: access logs kept at least a year): rows older than
 * AUDIT_RETENTION_DAYS (default 400) are removed by `purgeAudit`, which the job queue schedules.
 * The only delete the log allows: the transaction declares itself maintenance first.
 */
import { sql } from 'kysely';
import type { DB } from '../db/index.ts';
import { systemContext, writeTransaction } from './context.ts';

export const DEFAULT_AUDIT_RETENTION_DAYS = 400;
/** A year and a day: the law's minimum for access logs, so a setting below it is refused. */
export const MIN_AUDIT_RETENTION_DAYS = 366;

/** AUDIT_RETENTION_DAYS as a number of days; refuses anything below the legal minimum. */
export function auditRetentionDays(value = process.env.AUDIT_RETENTION_DAYS): number {
  if (value === undefined || value.trim() === '') return DEFAULT_AUDIT_RETENTION_DAYS;
  const days = Number(value);
  if (!Number.isInteger(days) || days < MIN_AUDIT_RETENTION_DAYS) {
    throw new Error(
      `AUDIT_RETENTION_DAYS must be a whole number of days, at least ${MIN_AUDIT_RETENTION_DAYS} (got ${value})`,
    );
  }
  return days;
}

/** Lets the audit log's append-only trigger pass, for this transaction only. */
export async function allowAuditMaintenance(db: DB): Promise<void> {
  await sql`select set_config('gscrm.audit_maintenance', 'on', true)`.execute(db);
}

/** Removes the audit rows older than `days`; answers how many. */
export async function purgeAudit(db: DB, days = auditRetentionDays()): Promise<number> {
  if (!Number.isInteger(days) || days < 1) throw new Error('purgeAudit needs a number of days');
  return writeTransaction(db, systemContext('audit-retention'), async (trx) => {
    await allowAuditMaintenance(trx);
    const result = await trx
      .deleteFrom('audit_log')
      .where('at', '<', sql<Date>`now() - make_interval(days => ${days})`)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  });
}
