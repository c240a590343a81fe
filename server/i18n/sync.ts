/**
 * Loads the release's texts (./source.ts) into the translation tables. Runs on every start, in
 * every mode (production too), after the migrations, inside one transaction under an advisory lock
 * so several app servers starting together do the work once:
 *   - a key of the release (or of a schema: `resources.<r>.fields.<f>`, `enums.<e>.<v>`, …) that the
 *     database lacks is added; a schema key without any text shows as missing in the
 *     translation-keys screen;
 *   - a text the database lacks is added;
 *   - a text nobody edited (edited_at null) follows the release: when the release's text changed,
 *     the stored text is updated;
 *   - a text an admin edited is never overwritten; only its `release_text` is brought up to date;
 *   - keys the release no longer has stay (an admin may still use them); nothing is deleted.
 * The work is skipped when nothing can come of it: each sync records a hash of its input (the
 * files the release's texts are made from, or the texts a caller gives, and the schema keys) and a fingerprint of what it left in the tables (keys,
 * texts, release texts, which texts were edited, languages) in `translation_sync_state`; a start
 * whose input hash and fingerprint both match does nothing. Any change to the texts (an admin's
 * edit, a deleted key, another release) changes one of the two, and the full sync runs as before.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql, type Transaction } from 'kysely';
import type { ResourceModel } from '../../src/schema/model.ts';
import { schemaKeys } from '../../src/schema/labels.ts';
import type { DB, Tables } from '../db/index.ts';
import { LOCALES_DIR, releaseTexts } from './source.ts';
import { systemContext, writeTransaction } from '../audit/context.ts';

const SYNC_LOCK_KEY = 727_002;
/** Where the last sync's input hash and table fingerprint are kept (made by the first sync). */
const STATE_TABLE = 'translation_sync_state';

export interface SyncResult {
  keysAdded: number;
  textsAdded: number;
  textsUpdated: number;
}

export interface SyncOptions {
  /** The release's texts by language abbreviation and key (default: the bundled files). */
  texts?: Map<string, Map<string, string>>;
  /** Resource models whose schema keys must exist (without text they show as missing). */
  models?: ResourceModel[];
}

/**
 * The hash of what the sync is asked to bring in. For the release's own texts, the files they are
 * made from (locales, react-admin's messages, the converter in ./source.ts) — reading those costs a
 * millisecond, parsing them a few hundred; for texts given by a caller, the texts themselves. Plus
 * the keys the schemas add.
 */
function inputHash(texts: Map<string, Map<string, string>> | undefined, schemaKeys: string[]) {
  const hash = createHash('sha256');
  if (texts) {
    hash.update('texts\0');
    for (const abbreviation of [...texts.keys()].sort()) {
      const byKey = texts.get(abbreviation)!;
      for (const key of [...byKey.keys()].sort())
        hash.update(`${abbreviation}\0${key}\0${byKey.get(key)}\0`);
    }
  } else {
    hash.update('release\0');
    for (const file of releaseSourceFiles()) hash.update(`${file}\0`).update(fs.readFileSync(file));
  }
  hash.update('\u0001');
  for (const key of [...schemaKeys].sort()) hash.update(`${key}\0`);
  return hash.digest('hex');
}

/** The files releaseTexts() reads or is made of. */
function releaseSourceFiles(): string[] {
  const require = createRequire(import.meta.url);
  const list = (dir: string, extension: string) =>
    fs
      .readdirSync(dir)
      .filter((file) => file.endsWith(extension))
      .sort()
      .map((file) => path.join(dir, file));
  return [
    fileURLToPath(new URL('./source.ts', import.meta.url)),
    ...list(LOCALES_DIR, '.json'),
    ...list(path.join(LOCALES_DIR, 'ra'), '.ts'),
    require.resolve('ra-language-english'),
    require.resolve('ra-language-french'),
  ];
}

/**
 * Everything of the tables the sync's outcome depends on: the keys, each text with its release
 * text and whether an admin edited it, the languages. Any write an admin or a script makes to
 * them changes it.
 */
async function fingerprint(db: DB | Transaction<Tables>): Promise<string> {
  // Sums of row hashes: no sort and no long string (PGlite takes ~50 ms for the ~6,000 texts).
  const { rows } = await sql<{ fingerprint: string }>`
    select concat_ws('|',
      (select count(*) || ':' || coalesce(sum(hashtext(id || ':' || key)), 0)
        from translation_keys),
      (select count(*) || ':' || coalesce(sum(hashtext(concat_ws(':', translation_key_id,
          language_id, text, coalesce(release_text, '<none>'), edited_at is null))), 0)
        from translations),
      (select string_agg(id || ':' || abbreviation, ',' order by id) from languages)
    ) as fingerprint`.execute(db);
  return rows[0].fingerprint;
}

/** True when the last sync had this input and left the tables as they are now. */
async function upToDate(db: DB | Transaction<Tables>, hash: string): Promise<boolean> {
  const { rows } = await sql<{ hash: string | null; fingerprint: string | null }>`
    select hash, fingerprint from translation_sync_state where name = 'release'`.execute(db);
  return rows[0]?.hash === hash && rows[0]?.fingerprint === (await fingerprint(db));
}

export async function syncTranslations(db: DB, options: SyncOptions = {}): Promise<SyncResult> {
  const schemaKeySet = new Set<string>();
  for (const model of options.models ?? [])
    for (const key of schemaKeys(model)) schemaKeySet.add(key);
  const hash = inputHash(options.texts, [...schemaKeySet]);
  const nothing: SyncResult = { keysAdded: 0, textsAdded: 0, textsUpdated: 0 };
  // Outside any transaction: the state table may not exist yet (then this is simply false).
  if ((await stateTableExists(db)) && (await upToDate(db, hash))) return nothing;

  const texts = options.texts ?? releaseTexts();
  const wanted = new Set<string>(schemaKeySet);
  for (const byKey of texts.values()) for (const key of byKey.keys()) wanted.add(key);
  return writeTransaction(db, systemContext('translation-sync'), async (trx) => {
    await sql`select pg_advisory_xact_lock(${SYNC_LOCK_KEY})`.execute(trx);
    await sql`create table if not exists ${sql.table(STATE_TABLE)} (
      name text primary key,
      hash text not null,
      fingerprint text not null,
      synced_at timestamptz not null default now()
    )`.execute(trx);
    // Another server starting at the same time may have done it while this one waited.
    if (await upToDate(trx, hash)) return nothing;
    const languages = await trx.selectFrom('languages').select(['id', 'abbreviation']).execute();
    const languageId = new Map(languages.map((row) => [String(row.abbreviation), Number(row.id)]));

    const existingKeys = await trx.selectFrom('translation_keys').select(['id', 'key']).execute();
    const keyId = new Map(existingKeys.map((row) => [String(row.key), Number(row.id)]));
    const newKeys = [...wanted].filter((key) => !keyId.has(key)).sort();
    if (newKeys.length > 0) {
      const inserted = await sql<{ id: number; key: string }>`
        insert into translation_keys (key)
        select key from jsonb_array_elements_text(${JSON.stringify(newKeys)}::jsonb) as t(key)
        on conflict (key) do nothing
        returning id, key`.execute(trx);
      for (const row of inserted.rows) keyId.set(row.key, Number(row.id));
    }

    const stored = await trx
      .selectFrom('translations')
      .select(['translation_key_id', 'language_id', 'text', 'release_text', 'edited_at'])
      .execute();
    const storedBy = new Map(
      stored.map((row) => [`${row.translation_key_id}:${row.language_id}`, row]),
    );

    const additions: { key_id: number; language_id: number; text: string }[] = [];
    const updates: { key_id: number; language_id: number; text: string; follow: boolean }[] = [];
    for (const [abbreviation, byKey] of texts) {
      const language = languageId.get(abbreviation);
      if (language === undefined) continue;
      for (const [key, text] of byKey) {
        const id = keyId.get(key);
        if (id === undefined) continue;
        const row = storedBy.get(`${id}:${language}`);
        if (!row) {
          additions.push({ key_id: id, language_id: language, text });
        } else if (row.edited_at === null && (row.text !== text || row.release_text !== text)) {
          updates.push({ key_id: id, language_id: language, text, follow: true });
        } else if (row.edited_at !== null && row.release_text !== text) {
          updates.push({ key_id: id, language_id: language, text, follow: false });
        }
      }
    }
    if (additions.length > 0) {
      await sql`
        insert into translations (translation_key_id, language_id, text, release_text)
        select t.key_id, t.language_id, t.text, t.text
        from jsonb_to_recordset(${JSON.stringify(additions)}::jsonb)
          as t(key_id integer, language_id integer, text text)
        on conflict (translation_key_id, language_id) do nothing`.execute(trx);
    }
    if (updates.length > 0) {
      await sql`
        update translations as tr set
          release_text = t.text,
          text = case when t.follow and tr.edited_at is null then t.text else tr.text end,
          updated_at = now()
        from jsonb_to_recordset(${JSON.stringify(updates)}::jsonb)
          as t(key_id integer, language_id integer, text text, follow boolean)
        where tr.translation_key_id = t.key_id and tr.language_id = t.language_id`.execute(trx);
    }
    await sql`
      insert into translation_sync_state (name, hash, fingerprint)
      values ('release', ${hash}, ${await fingerprint(trx)})
      on conflict (name) do update set
        hash = excluded.hash, fingerprint = excluded.fingerprint, synced_at = now()`.execute(trx);
    return {
      keysAdded: newKeys.length,
      textsAdded: additions.length,
      textsUpdated: updates.filter((update) => update.follow).length,
    };
  });
}

async function stateTableExists(db: DB): Promise<boolean> {
  const { rows } = await sql<{ present: boolean }>`
    select to_regclass(${STATE_TABLE}) is not null as present`.execute(db);
  return rows[0]?.present === true;
}
