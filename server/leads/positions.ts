/**
 * Where a card sits in its board column (issue 16; DOMAIN.md §3): `leads.position` is a fractional
 * index (fractional-indexing), compared byte by byte (the column's "C" collation), so a moved card
 * takes a key between its neighbours' and no other card is rewritten — one write per drop.
 *
 * Every placement first takes the column's transaction-scoped advisory lock, so two moves into
 * one column never compute the same key (the unique index (status, position) would refuse the
 * second). Moves into different columns do not wait for each other.
 */
import { generateKeyBetween, generateNKeysBetween } from 'fractional-indexing';
import { sql } from 'kysely';
import type { LeadStatus } from '../../src/schema/leads.ts';
import type { DB } from '../db/index.ts';

/** Holds the column until the transaction ends (call inside the write's transaction). */
export async function lockColumn(db: DB, status: LeadStatus): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${`gscrm.lead-column.${status}`}))`.execute(db);
}

/** The first card's position in a column (none: the column is empty). */
async function firstPosition(db: DB, status: LeadStatus): Promise<string | null> {
  const row = await db
    .selectFrom('leads')
    .select('position')
    .where('status', '=', status)
    .where('position', 'is not', null)
    .orderBy('position')
    .limit(1)
    .executeTakeFirst();
  return row?.position ?? null;
}

/** `count` positions at the top of a column, in order (the column must be locked). */
export async function topPositions(db: DB, status: LeadStatus, count: number): Promise<string[]> {
  if (count <= 0) return [];
  return generateNKeysBetween(null, await firstPosition(db, status), count);
}

/** A position at the top of a column (the column must be locked). */
export async function topPosition(db: DB, status: LeadStatus): Promise<string> {
  return generateKeyBetween(null, await firstPosition(db, status));
}

/**
 * A position right below `after` in a column, before the card that follows it now (the column
 * must be locked); undefined when `after` is not in that column (the board the client saw is
 * stale). The moved card itself is left out: dropping a card just below itself keeps its place.
 */
export async function positionBelow(
  db: DB,
  status: LeadStatus,
  afterId: number,
  movedId: number,
): Promise<string | undefined> {
  const after = await db
    .selectFrom('leads')
    .select('position')
    .where('id', '=', afterId)
    .where('status', '=', status)
    .executeTakeFirst();
  if (!after?.position) return undefined;
  const next = await db
    .selectFrom('leads')
    .select('position')
    .where('status', '=', status)
    .where('position', '>', after.position)
    .where('id', '<>', movedId)
    .orderBy('position')
    .limit(1)
    .executeTakeFirst();
  return generateKeyBetween(after.position, next?.position ?? null);
}
