/**
 * The start-up sync of the release's texts (server/i18n/sync.ts) skips its work when neither the
 * release's texts nor the tables changed since the last sync, and runs in full otherwise: after
 * another release, an admin's edit (kept), a deleted key (added again), on both engines.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncTranslations } from '../../server/i18n/sync.ts';
import { releaseTexts } from '../../server/i18n/source.ts';
import { loadResourceModels } from '../../server/schemas.ts';
import { createTestApp, type TestApp } from './harness.ts';

let t: TestApp;
beforeAll(async () => {
  // A new database (not the prepared image, whose texts are synced already).
  t = await createTestApp({ seed: false, image: false });
});
afterAll(async () => {
  await t?.close();
});

const models = loadResourceModels();
const nothing = { keysAdded: 0, textsAdded: 0, textsUpdated: 0 };

async function state() {
  const { rows } = await sql<{ synced_at: string; audit: number }>`
    select (select synced_at::text from translation_sync_state where name = 'release') as synced_at,
           (select count(*)::int from audit_log) as audit`.execute(t.database.db);
  return rows[0];
}

async function textOf(key: string, language = 'de') {
  const { rows } = await sql<{ text: string; release_text: string | null }>`
    select tr.text, tr.release_text from translations tr
    join translation_keys k on k.id = tr.translation_key_id
    join languages l on l.id = tr.language_id
    where k.key = ${key} and l.abbreviation = ${language}`.execute(t.database.db);
  return rows[0];
}

describe('translation sync by hash', () => {
  it('does the work once; an unchanged release and unchanged tables skip it without writing', async () => {
    const first = await syncTranslations(t.database.db, { models });
    expect(first.keysAdded).toBeGreaterThan(1000);
    const before = await state();
    expect(await syncTranslations(t.database.db, { models })).toEqual(nothing);
    // Not even the state row was written, nor anything audited.
    expect(await state()).toEqual(before);
  });

  it('runs again for another release, keeping an admin edit and following the rest', async () => {
    const key = 'app.login.failed';
    await sql`update translations set text = 'Eigener Text', edited_at = now()
      where translation_key_id = (select id from translation_keys where key = ${key})
        and language_id = (select id from languages where abbreviation = 'de')`.execute(
      t.database.db,
    );
    const texts = releaseTexts();
    texts.get('de')?.set(key, 'Text der neuen Version');
    texts.get('de')?.set('app.login.throttled', 'Zu viele Versuche (neue Version)');
    const result = await syncTranslations(t.database.db, { texts, models });
    expect(result).toEqual({ keysAdded: 0, textsAdded: 0, textsUpdated: 1 });
    expect(await textOf(key)).toEqual({
      text: 'Eigener Text',
      release_text: 'Text der neuen Version',
    });
    expect((await textOf('app.login.throttled')).text).toBe('Zu viele Versuche (neue Version)');
    expect(await syncTranslations(t.database.db, { texts, models })).toEqual(nothing);
  });

  it('notices a change to the tables: a deleted key of the release comes back', async () => {
    await syncTranslations(t.database.db, { models });
    await sql`delete from translation_keys where key = 'app.login.throttled'`.execute(
      t.database.db,
    );
    const result = await syncTranslations(t.database.db, { models });
    expect(result.keysAdded).toBe(1);
    expect((await textOf('app.login.throttled')).text).toBe(
      releaseTexts().get('de')?.get('app.login.throttled'),
    );
    // An admin's edit alone (same release) also makes the next start look again, and keeps it.
    const before = await state();
    await sql`update translations set text = 'Nochmals eigener Text', edited_at = now()
      where translation_key_id = (select id from translation_keys where key = 'app.login.failed')
        and language_id = 1`.execute(t.database.db);
    expect(await syncTranslations(t.database.db, { models })).toEqual(nothing);
    expect((await state()).synced_at).not.toBe(before.synced_at);
    expect((await textOf('app.login.failed')).text).toBe('Nochmals eigener Text');
  });

  it('two syncs at once: one does the work, the other finds it done', async () => {
    const texts = releaseTexts();
    texts.get('en')?.set('app.release.parallelKey', 'Added once');
    const results = await Promise.all([
      syncTranslations(t.database.db, { texts, models }),
      syncTranslations(t.database.db, { texts, models }),
    ]);
    expect(results.map((result) => result.keysAdded).sort()).toEqual([0, 1]);
  });
});
