/**
 * The login throttle (issue 10): how many passwords may be tried, per account and per address,
 * decided before a password is evaluated and impossible to race.
 *
 * The rule (per rolling hour):
 * - **Account budget.** At most `perAccount` (100) passwords are evaluated per account from
 *   addresses the account never signed in from; then 429 until the oldest failure is an hour old.
 *   Rotating addresses (or forwarded headers) gains nothing: the budget belongs to the account.
 * - **Known addresses.** Addresses the account signed in from successfully within the last
 *   `KNOWN_ADDRESS_DAYS` (90) days have a budget of their own (`perKnownAddresses`, default
 *   `perAccount`), so strangers spending the account budget do not lock the owner out at home or at
 *   the office. An attacker cannot make an address known without the password.
 * - **A completed password reset clears the account's failures** (failures before the account's
 *   `password_changed_at` no longer count), and the reset flow itself is never stopped by this
 *   throttle: the reset mail is the owner's way in.
 * - **Per address: progressive delays, no hard lock.** Up to `perAddress` (300) failures from one
 *   address (for any accounts) cost nothing. Beyond, each further attempt from it must wait
 *   `baseMs × 2^(failures − perAddress)` (at most `maxMs`) after the address's last failure. A wait
 *   of up to `waitMs` the server sits out itself before evaluating (the user only notices a slow
 *   answer); a longer one answers 429 with `Retry-After`. An office behind one NAT is slowed while
 *   someone there keeps failing, never locked out; correct passwords never count against an
 *   address, and the attempts of one address are spaced even when sent in parallel.
 *
 * How it cannot be raced: an attempt is reserved before its password is evaluated, in a
 * transaction holding advisory locks on the account and on the address
 * (`pg_advisory_xact_lock(<class>, hashtext(…))`, always account first, so two logins never wait on
 * each other in a cycle). The reservation is a `login_attempts` row with `success = false`: it
 * counts as a failure for every attempt that comes after it, and is marked `success = true` only
 * when the password turned out right. PGlite runs one transaction at a time, PostgreSQL serialises
 * on the locks; several app servers share the rows.
 */
import { sql } from 'kysely';
import type { DB } from '../db/index.ts';

/** Progressive per-address delays (ms). */
export interface AddressDelay {
  /** The first delay once an address has used its failures. */
  baseMs: number;
  /** The longest delay between two attempts of one address. */
  maxMs: number;
  /** Delays up to this long are waited out by the server instead of answering 429. */
  waitMs: number;
}

export interface LoginThrottle {
  /** Evaluated passwords per account per hour from addresses it never signed in from. */
  perAccount: number;
  /** Failed attempts per address per hour before progressive delays start. */
  perAddress: number;
  /** Evaluated passwords per account per hour from its known addresses (default: perAccount). */
  perKnownAddresses?: number;
  /** Per-address delays (default DEFAULT_ADDRESS_DELAY). */
  delay?: Partial<AddressDelay>;
}

export const DEFAULT_ADDRESS_DELAY: AddressDelay = { baseMs: 1_000, maxMs: 60_000, waitMs: 2_000 };
export const DEFAULT_THROTTLE: LoginThrottle = { perAccount: 100, perAddress: 300 };
/** How long a successful sign-in makes its address a known one for the account. */
export const KNOWN_ADDRESS_DAYS = 90;

/** Advisory lock classes (the two-key form keeps them apart from other locks of the app). */
const ACCOUNT_LOCK = 10_001;
const ADDRESS_LOCK = 10_002;

export type Reservation =
  | {
      kind: 'evaluate';
      /** The reserved `login_attempts` row; mark it with recordSuccess when the password is right. */
      attemptId: number;
      /** How long to wait before evaluating (a progressive per-address delay), ms. */
      waitMs: number;
    }
  | { kind: 'throttled'; reason: 'account' | 'address'; retryAfterSeconds: number };

/** The delay an address has to respect after its `failures`-th failure of the hour (ms). */
export function addressDelayMs(failures: number, throttle: LoginThrottle): number {
  if (failures < throttle.perAddress) return 0;
  const delay = { ...DEFAULT_ADDRESS_DELAY, ...throttle.delay };
  const doublings = Math.min(failures - throttle.perAddress, 30);
  return Math.min(delay.maxMs, delay.baseMs * 2 ** doublings);
}

const secondsUntil = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/**
 * Reserves one evaluation of a password for `account` from `ip`, or answers why not. Call it before
 * verifying the password; the reservation counts as a failure until recordSuccess.
 */
export async function reserveAttempt(
  db: DB,
  account: string,
  ip: string,
  throttle: LoginThrottle,
): Promise<Reservation> {
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${ACCOUNT_LOCK}, hashtext(${account}))`.execute(trx);
    await sql`select pg_advisory_xact_lock(${ADDRESS_LOCK}, hashtext(${ip}))`.execute(trx);

    const knownSince = sql<Date>`now() - make_interval(days => ${KNOWN_ADDRESS_DAYS})`;
    // Failures of the account since max(an hour ago, its last password change), split by whether
    // they came from a known address; and whether this address is a known one.
    const accountRow = await trx
      .selectFrom('login_attempts as a')
      .select((eb) => {
        const known = eb.exists(
          eb
            .selectFrom('login_attempts as k')
            .select('k.id')
            .whereRef('k.ip', '=', 'a.ip')
            .where('k.email', '=', account)
            .where('k.success', '=', true)
            .where('k.at', '>', knownSince),
        );
        return [
          sql<number>`count(*) filter (where not ${known})`.as('strangers'),
          sql<number>`count(*) filter (where ${known})`.as('known'),
          sql<number | null>`extract(epoch from min(a.at) filter (where not ${known})) * 1000`.as(
            'oldest_stranger_ms',
          ),
          sql<number | null>`extract(epoch from min(a.at) filter (where ${known})) * 1000`.as(
            'oldest_known_ms',
          ),
          sql<boolean>`exists (select 1 from login_attempts k where k.email = ${account} and k.ip = ${ip} and k.success and k.at > ${knownSince})`.as(
            'address_known',
          ),
          sql<number>`extract(epoch from clock_timestamp()) * 1000`.as('now_ms'),
        ];
      })
      .where('a.email', '=', account)
      .where('a.success', '=', false)
      .where(
        'a.at',
        '>',
        sql<Date>`greatest(now() - interval '1 hour', (
          select c.password_changed_at from user_credentials c join users u on u.id = c.user_id
          where lower(u.email) = ${account}))`,
      )
      .executeTakeFirstOrThrow();
    const now = Number(accountRow.now_ms);
    const known = Boolean(accountRow.address_known);
    const used = Number(known ? accountRow.known : accountRow.strangers);
    const budget = known
      ? (throttle.perKnownAddresses ?? throttle.perAccount)
      : throttle.perAccount;
    if (used >= budget) {
      const oldest = Number(known ? accountRow.oldest_known_ms : accountRow.oldest_stranger_ms);
      return {
        kind: 'throttled',
        reason: 'account',
        retryAfterSeconds: secondsUntil(oldest + 3_600_000 - now),
      };
    }

    const addressRow = await trx
      .selectFrom('login_attempts')
      .select([
        sql<number>`count(*)`.as('failures'),
        sql<number | null>`extract(epoch from max(at)) * 1000`.as('last_ms'),
      ])
      .where('ip', '=', ip)
      .where('success', '=', false)
      .where('at', '>', sql<Date>`now() - interval '1 hour'`)
      .executeTakeFirstOrThrow();
    const delay = addressDelayMs(Number(addressRow.failures), throttle);
    const slot = delay > 0 ? Math.max(now, Number(addressRow.last_ms) + delay) : now;
    const waitMs = Math.max(0, Math.round(slot - now));
    if (waitMs > { ...DEFAULT_ADDRESS_DELAY, ...throttle.delay }.waitMs) {
      return { kind: 'throttled', reason: 'address', retryAfterSeconds: secondsUntil(waitMs) };
    }
    const row = await trx
      .insertInto('login_attempts')
      .values({
        email: account,
        ip,
        success: false,
        // Once delays apply, an attempt is recorded at its slot (also one that need not wait), so
        // the next one of the address queues a whole delay behind it: the default `now()` is the
        // transaction's start, before the locks were taken, and could be earlier than the slot.
        ...(delay > 0 ? { at: sql<Date>`to_timestamp(${slot / 1000})` } : {}),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { kind: 'evaluate', attemptId: Number(row.id), waitMs };
  });
}

/** Marks a reserved attempt as a correct sign-in: it no longer counts as a failure. */
export async function recordSuccess(db: DB, attemptId: number): Promise<void> {
  await db
    .updateTable('login_attempts')
    .set({ success: true })
    .where('id', '=', attemptId)
    .execute();
}
