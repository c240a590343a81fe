/**
 * Bearer-token sessions. Tokens are 256 random bits, handed out once and stored as SHA-256 hashes;
 * they expire after inactivity and absolutely, can be revoked, and stop working at once when the
 * user is disabled (every lookup joins the active user).
 */
import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { type ReportKind, reportsOf } from '../../src/schema/reports.ts';
import type { DB } from '../db/index.ts';
import { named } from '../db/named-statements.ts';
import { type Principal, permissionsOf } from './permissions.ts';

export interface SessionPolicy {
  idleMinutes: number;
  absoluteMinutes: number;
}

/** A working day: idle after 4 hours, and a new login every 12 hours at the latest. */
export const DEFAULT_SESSION_POLICY: SessionPolicy = { idleMinutes: 240, absoluteMinutes: 720 };

/** last_seen_at is written at most this often, so reads do not turn into writes. */
const TOUCH_EVERY_MS = 60_000;

export const hashToken = (token: string): string =>
  createHash('sha256').update(token).digest('hex');

export async function createSession(
  db: DB,
  userId: number,
  policy: SessionPolicy,
  client: { ip?: string; userAgent?: string },
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db
    .insertInto('sessions')
    .values({
      token_hash: hashToken(token),
      user_id: userId,
      expires_at: new Date(Date.now() + policy.absoluteMinutes * 60_000),
      ip: client.ip ?? null,
      user_agent: client.userAgent?.slice(0, 500) ?? null,
    })
    .execute();
  return token;
}

export interface SessionUser extends Principal {
  sessionId: number;
  subBrokerId: number | null;
  email: string;
  firstName: string;
  lastName: string;
  language: string | null;
  /** The reports the user may run (src/schema/reports.ts reportsOf). */
  reports: ReportKind[];
}

/**
 * The account may sign in now: active, and today within its active date range (users.dateFrom …
 * dateTo, either end open). Used by login and by every token lookup, so the range ends sessions too.
 */
export const accountUsable = sql<boolean>`u.is_active
  and (u.date_from is null or u.date_from <= current_date)
  and (u.date_to is null or u.date_to >= current_date)`;

/** The channel migration 0019 notifies when what a token stands for may have changed. */
export const PRINCIPALS_CHANNEL = 'gscrm_principals';

interface CachedSession {
  user: SessionUser;
  lastSeen: number;
  expiresAt: number;
  until: number;
}

/**
 * Principals of recently used tokens, for the embedded engine: one process per data folder, so
 * every change to accounts and sessions is committed here, and the database's notification
 * (migration 0019, `Database.listen`) empties this cache before the changing statement is
 * answered — a revoked session or a changed role is seen by the very next request, as without
 * the cache. It saves the session query (about 2 ms of the single PGlite thread, a third of a
 * list page's time there). Entries are kept at most `ttlMs` (an account's date range turns at
 * midnight without a write) and checked against their own expiry and idle time. PostgreSQL has
 * no such cache: several app servers would learn of each other's changes only later.
 */
export class PrincipalCache {
  private readonly entries = new Map<string, CachedSession>();
  /** Raised by every clear(): a lookup that began before it does not store what it read. */
  private generation = 0;

  constructor(
    private readonly ttlMs = 30_000,
    private readonly size = 10_000,
  ) {}

  clear(): void {
    this.entries.clear();
    this.generation++;
  }

  get current(): number {
    return this.generation;
  }

  get(hash: string): CachedSession | undefined {
    return this.entries.get(hash);
  }

  delete(hash: string): void {
    this.entries.delete(hash);
  }

  set(hash: string, entry: Omit<CachedSession, 'until'>, generation: number): void {
    if (generation !== this.generation) return;
    this.entries.delete(hash);
    this.entries.set(hash, { ...entry, until: Date.now() + this.ttlMs });
    // The oldest entry goes first (a Map keeps the order of insertion).
    if (this.entries.size > this.size) this.entries.delete(this.entries.keys().next().value!);
  }
}

const touch = (db: DB, sessionId: number) =>
  db
    .updateTable('sessions')
    .set({ last_seen_at: sql`now()` })
    .where('id', '=', sessionId)
    .execute();

export async function resolveSession(
  db: DB,
  token: string,
  policy: SessionPolicy,
  cache?: PrincipalCache,
): Promise<SessionUser | undefined> {
  const hash = hashToken(token);
  const now = Date.now();
  const cached = cache?.get(hash);
  if (
    cached &&
    cached.until > now &&
    cached.expiresAt > now &&
    cached.lastSeen > now - policy.idleMinutes * 60_000
  ) {
    if (now - cached.lastSeen > TOUCH_EVERY_MS) {
      await touch(db, cached.user.sessionId);
      cached.lastSeen = now;
    }
    return cached.user;
  }
  const generation = cache?.current ?? 0;
  const lookup = db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .leftJoin('external_users as e', 'e.user_id', 'u.id')
    .select([
      's.id as session_id',
      's.last_seen_at',
      's.expires_at',
      'u.id',
      'u.email',
      'u.first_name',
      'u.last_name',
      'u.role',
      'u.language',
      'u.additional_permissions',
      'u.reports',
      'e.sub_broker_id',
    ])
    .where('s.token_hash', '=', hash)
    .where('s.revoked_at', 'is', null)
    .where('s.expires_at', '>', sql<Date>`now()`)
    .where('s.last_seen_at', '>', sql<Date>`now() - make_interval(mins => ${policy.idleMinutes})`)
    .where(accountUsable)
    .compile();
  // Sent on every request: prepared once per PostgreSQL connection (../db/named-statements.ts).
  const [row] = (await db.executeQuery(named(lookup))).rows;
  if (!row) {
    cache?.delete(hash);
    return undefined;
  }
  let lastSeen = new Date(row.last_seen_at).getTime();
  if (Date.now() - lastSeen > TOUCH_EVERY_MS) {
    await touch(db, row.session_id);
    lastSeen = Date.now();
  }
  const user: SessionUser = {
    sessionId: row.session_id,
    id: row.id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    role: row.role,
    language: row.language,
    ...principalRights(row.role, row.additional_permissions, row.sub_broker_id),
    reports: reportsOf(row.role, row.reports, row.sub_broker_id !== null),
  };
  cache?.set(hash, { user, lastSeen, expiresAt: new Date(row.expires_at).getTime() }, generation);
  return user;
}

/**
 * Permissions and sub-broker of an account: its role's defaults plus its additional permissions,
 * except for external users (a sub-broker's accounts), who hold no permission at all.
 */
export function principalRights(
  role: string,
  additional: unknown,
  subBrokerId: number | null | undefined,
): Pick<SessionUser, 'permissions' | 'subBrokerId'> {
  const external = subBrokerId !== null && subBrokerId !== undefined;
  return {
    permissions: external ? [] : permissionsOf(role, (additional as string[] | null) ?? []),
    subBrokerId: external ? Number(subBrokerId) : null,
  };
}

export async function revokeSession(db: DB, sessionId: number): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ revoked_at: sql`now()` })
    .where('id', '=', sessionId)
    .execute();
}

export async function revokeUserSessions(db: DB, userId: number): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ revoked_at: sql`now()` })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .execute();
}
