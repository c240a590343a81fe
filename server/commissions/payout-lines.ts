/**
 * The ledger side of payouts (issue 17; ./payouts.ts): which lines a payout gathers and what
 * becomes of them. A payout of a user for a month takes every line of that user that is ready
 * (status ready_present, in no payout) and counts for that month or an earlier one; those lines
 * become in_payout (frozen) with the payout's id. Deleting a new payout gives them back
 * (ready_present, no payout); paying it marks them paid.
 *
 * Concurrency: everything that gathers a user's lines first takes the user's payout lock
 * (`lockPayoutUser`, a transaction-scoped advisory lock), then reads the lines `for update`: two
 * payouts created at once for one user (the same month or two) run one after the other, and the
 * second sees only what the first left. A line reversed meanwhile is locked by whichever comes
 * first; the other sees its new status.
 */
import { sql } from 'kysely';
import type { Principal } from '../auth/permissions.ts';
import type { DB } from '../db/index.ts';

/** The permission that sees and runs every payout (the others see their own). */
export const MANAGE_COMMISSIONS = 'manage-commissions';

export const mayManageCommissions = (principal: Principal | undefined): boolean =>
  principal?.permissions.includes(MANAGE_COMMISSIONS) ?? false;

/** The status of a line a payout may take, and of the lines it holds until paid. */
export const READY = 'ready_present';
export const IN_PAYOUT = 'in_payout';
export const PAID = 'paid';

/** The payout statuses, in their order. */
export const PAYOUT_STATUSES = ['new', 'approved', 'paid'] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

/**
 * Takes the user's payout lock until the transaction ends: whoever gathers or releases a user's
 * lines (a payout's create, the monthly run, the engine when it picks a line's month) holds it.
 */
export async function lockPayoutUser(db: DB, userId: number): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${`gscrm.payout-user.${userId}`}))`.execute(db);
}

/** `lockPayoutUser` of several users at once, in id order (two batches never wait crosswise). */
export async function lockPayoutUsers(db: DB, userIds: number[]): Promise<void> {
  const users = [...new Set(userIds)].sort((a, b) => a - b);
  if (users.length === 0) return;
  await sql`select pg_advisory_xact_lock(hashtext('gscrm.payout-user.' || k.id::text))
    from unnest(${users}::int[]) as k(id) order by k.id`.execute(db);
}

/** Whether the user has a payout for the month (any status). */
export async function hasPayout(db: DB, userId: number, period: string): Promise<boolean> {
  const found = await db
    .selectFrom('payouts')
    .select('id')
    .where('user_id', '=', userId)
    .where('period', '=', period)
    .executeTakeFirst();
  return found !== undefined;
}

export interface ReadyLines {
  ids: number[];
  /** Centimes: the sum of the lines, rounded to 0.05 CHF. */
  total: number;
}

/** Rounds centimes to 0.05 CHF (half away from zero). */
export const toFiveCentimes = (centimes: number): number =>
  Math.sign(centimes) * Math.round(Math.abs(centimes) / 5) * 5;

/**
 * The user's ready lines up to the month (inclusive), locked until the transaction ends. Call it
 * holding the user's payout lock.
 */
export async function readyLines(db: DB, userId: number, period: string): Promise<ReadyLines> {
  const rows = await db
    .selectFrom('commission_lines')
    .select(['id', 'amount'])
    .where('user_id', '=', userId)
    .where('status', '=', READY)
    .where('payout_id', 'is', null)
    .where('period', '<=', period)
    .orderBy('id')
    .forUpdate()
    .execute();
  const sum = rows.reduce((total, row) => total + Number(row.amount), 0);
  return { ids: rows.map((row) => Number(row.id)), total: toFiveCentimes(sum) };
}

/** How many ids one statement names (well below the protocol's 65,535 parameters). */
const ID_CHUNK = 5000;

/** Puts the (locked) lines into the payout: in_payout, frozen. */
export async function attachLines(db: DB, payoutId: number, ids: number[]): Promise<void> {
  for (let at = 0; at < ids.length; at += ID_CHUNK) {
    await db
      .updateTable('commission_lines')
      .set({ status: IN_PAYOUT, payout_id: payoutId, updated_at: sql`now()` })
      .where('id', 'in', ids.slice(at, at + ID_CHUNK))
      .execute();
  }
}

/** Gives a deleted payout's lines back: ready again, in no payout. */
export async function releaseLines(db: DB, payoutId: number): Promise<void> {
  await db
    .updateTable('commission_lines')
    .set({ status: READY, payout_id: null, updated_at: sql`now()` })
    .where('payout_id', '=', payoutId)
    .execute();
}

/** A paid payout's lines are paid. */
export async function payLines(db: DB, payoutId: number): Promise<void> {
  await db
    .updateTable('commission_lines')
    .set({ status: PAID, updated_at: sql`now()` })
    .where('payout_id', '=', payoutId)
    .where('status', '=', IN_PAYOUT)
    .execute();
}

/**
 * The users that have ready lines up to the month and no payout for it yet (the monthly run),
 * in id order (the order their locks are taken in).
 */
export async function usersToPay(db: DB, period: string): Promise<number[]> {
  const rows = await db
    .selectFrom('commission_lines as l')
    .select('l.user_id')
    .distinct()
    .where('l.user_id', 'is not', null)
    .where('l.status', '=', READY)
    .where('l.payout_id', 'is', null)
    .where('l.period', '<=', period)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('payouts as p')
            .select('p.id')
            .whereRef('p.user_id', '=', 'l.user_id')
            .where('p.period', '=', period),
        ),
      ),
    )
    .orderBy('l.user_id')
    .execute();
  return rows.map((row) => Number(row.user_id));
}
