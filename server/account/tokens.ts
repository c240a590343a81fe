/**
 * Single-use password tokens (reset mails and invitations): 256 random bits handed out once in a
 * link, stored as SHA-256, expiring (reset 1 hour, invitation 72 hours). A new token of a user
 * retires the older unused ones; using one retires it (atomically, so a token works once even when
 * two requests race).
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { hashToken } from '../auth/sessions.ts';
import type { DB } from '../db/index.ts';

export type TokenPurpose = 'reset' | 'invitation';

export const TOKEN_HOURS: Record<TokenPurpose, number> = { reset: 1, invitation: 72 };

export async function createPasswordToken(
  db: DB,
  userId: number,
  purpose: TokenPurpose,
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db
    .updateTable('password_tokens')
    .set({ used_at: sql`now()` })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .execute();
  await db
    .insertInto('password_tokens')
    .values({
      token_hash: hashToken(token),
      user_id: userId,
      purpose,
      expires_at: new Date(Date.now() + TOKEN_HOURS[purpose] * 3_600_000),
    })
    .execute();
  return token;
}

/**
 * The user of a token that still works, without using it up (the new password is checked against
 * its owner's name first, and a refused password leaves the link usable).
 */
export async function peekPasswordToken(
  db: DB,
  token: string,
): Promise<{ userId: number; purpose: TokenPurpose } | undefined> {
  const row = await db
    .selectFrom('password_tokens')
    .select(['user_id', 'purpose'])
    .where('token_hash', '=', hashToken(token))
    .where('used_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .executeTakeFirst();
  return row ? { userId: Number(row.user_id), purpose: row.purpose as TokenPurpose } : undefined;
}

/** Retires the token and answers its user, or undefined when it is unknown, used or expired. */
export async function consumePasswordToken(
  db: DB,
  token: string,
): Promise<{ userId: number; purpose: TokenPurpose } | undefined> {
  const row = await db
    .updateTable('password_tokens')
    .set({ used_at: sql`now()` })
    .where('token_hash', '=', hashToken(token))
    .where('used_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .returning(['user_id', 'purpose'])
    .executeTakeFirst();
  return row ? { userId: Number(row.user_id), purpose: row.purpose as TokenPurpose } : undefined;
}

/** Where links in mails point: PUBLIC_URL (set it in production), else this server on localhost. */
export function publicUrl(path: string): string {
  const base = (process.env.PUBLIC_URL ?? `http://localhost:${process.env.PORT ?? 8080}`).replace(
    /\/+$/,
    '',
  );
  return `${base}${path}`;
}
