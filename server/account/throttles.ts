/**
 * Throttles of the account flows, counted in the audit log so several app servers share them
 * (per hour): registrations 10 per address; reset requests 20 per address and 5 mails per account;
 * failed resets 50 per address; failed password changes 10 per user.
 */
import { sql } from 'kysely';
import type { DB } from '../db/index.ts';

export const THROTTLES = {
  registerPerAddress: 10,
  resetRequestsPerAddress: 20,
  resetMailsPerAccount: 5,
  failedResetsPerAddress: 50,
  failedPasswordChangesPerUser: 10,
};

/** The answer (429) once a throttle is reached. */
/** The answer of a throttled account request (429). */
export const TOO_MANY = 'tooManyAttempts';

/** Events of the last hour in the audit log, by address or by user / email detail. */
export async function recentEvents(
  db: DB,
  event: string,
  where: { ip?: string; userId?: number; email?: string },
): Promise<number> {
  let query = db
    .selectFrom('audit_log')
    .select(sql<number>`count(*)`.as('n'))
    .where('event', '=', event)
    .where('at', '>', sql<Date>`now() - interval '1 hour'`);
  if (where.ip !== undefined) query = query.where('ip', '=', where.ip);
  if (where.userId !== undefined) query = query.where('user_id', '=', where.userId);
  if (where.email !== undefined)
    query = query.where(sql`details->>'email'`, '=', where.email.toLowerCase());
  const row = await query.executeTakeFirstOrThrow();
  return Number(row.n);
}
