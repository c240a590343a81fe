/**
 * What the localization routes share: their schemas, and a translation key as the API answers it
 * (an "entry": the key with the texts of every language and their editing metadata).
 */
import { ID_SCHEMA } from '../../src/schema/limits.ts';
import type { DB } from '../db/index.ts';
import { KEY_PATTERN, MAX_KEY_LENGTH } from './source.ts';

export const BASE = '/api/localizations';
export const TAGS = ['localizations'];

export const searchSchema = { type: 'string', maxLength: 200 } as const;
export const languageIdSchema = ID_SCHEMA;
export const keySchema = {
  type: 'string',
  minLength: 1,
  maxLength: MAX_KEY_LENGTH,
  pattern: KEY_PATTERN.source,
} as const;
export const timestampSchema = { type: ['string', 'null'], format: 'date-time' } as const;

export const entrySchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    translation_key: { type: 'string' },
    translations: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          language_id: { type: 'integer' },
          text: { type: 'string' },
          release_text: { type: ['string', 'null'] },
          edited_at: timestampSchema,
          edited_by: { type: ['integer', 'null'] },
        },
      },
    },
  },
} as const;

/** `{{name}}` placeholders of a text. */
export const placeholdersOf = (text: string): string[] => [
  ...new Set([...text.matchAll(/\{\{\s*([^{}]+?)\s*\}\}/g)].map((match) => match[1])),
];

export interface TranslationRow {
  translation_key_id: number;
  language_id: number;
  text: string;
  release_text: string | null;
  edited_at: Date | null;
  edited_by: number | null;
}

/** The stored texts of the keys (every language that has a row). */
export const translationRows = async (db: DB, keyIds: number[]): Promise<TranslationRow[]> =>
  db
    .selectFrom('translations')
    .select(['translation_key_id', 'language_id', 'text', 'release_text', 'edited_at', 'edited_by'])
    .where('translation_key_id', 'in', keyIds)
    .execute();

/** The keys with all their languages (a language without a row answers text ''). */
export async function entriesOf(
  db: DB,
  keys: { id: number; key: string }[],
  languageIds: number[],
) {
  if (keys.length === 0) return [];
  const rows = await translationRows(
    db,
    keys.map((key) => key.id),
  );
  const byKey = new Map<number, Map<number, TranslationRow>>();
  for (const row of rows) {
    const id = Number(row.translation_key_id);
    if (!byKey.has(id)) byKey.set(id, new Map());
    byKey.get(id)?.set(Number(row.language_id), row);
  }
  return keys.map((key) => ({
    id: Number(key.id),
    translation_key: key.key,
    translations: languageIds.map((languageId) => {
      const row = byKey.get(Number(key.id))?.get(languageId);
      return {
        language_id: languageId,
        text: row?.text ?? '',
        release_text: row?.release_text ?? null,
        edited_at: row?.edited_at ?? null,
        edited_by: row?.edited_by ?? null,
      };
    }),
  }));
}

/** Ids of the languages, in order. */
export async function languageIdsOf(db: DB): Promise<number[]> {
  const rows = await db.selectFrom('languages').select('id').orderBy('id').execute();
  return rows.map((row) => Number(row.id));
}
