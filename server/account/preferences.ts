/** Stored user preferences (table user_preferences), completed with the defaults. */
import {
  type Preferences,
  type PreferencesWire,
  preferencesFromWire,
  preferencesToWire,
  withDefaults,
} from '../../src/schema/preferences.ts';
import type { DB } from '../db/index.ts';

export async function loadPreferences(db: DB, userId: number): Promise<Preferences> {
  const row = await db
    .selectFrom('user_preferences')
    .select('preferences')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return withDefaults((row?.preferences as Partial<Preferences> | undefined) ?? null);
}

/** Merges a (validated) wire document into the stored preferences; answers the result. */
export async function savePreferences(
  db: DB,
  userId: number,
  wire: PreferencesWire,
): Promise<Preferences> {
  const next = preferencesFromWire(wire, await loadPreferences(db, userId));
  const text = JSON.stringify(next);
  await db
    .insertInto('user_preferences')
    .values({ user_id: userId, preferences: text })
    .onConflict((oc) =>
      oc.column('user_id').doUpdateSet({ preferences: text, updated_at: new Date() }),
    )
    .execute();
  return next;
}

export const preferencesWire = (preferences: Preferences): PreferencesWire =>
  preferencesToWire(preferences);
