/**
 * Editing the texts of one key (manage-translation-keys):
 *   PUT /api/localizations/translations/{id}  { translation_key, translations: [{ text, language_id }] }
 *       → { data: <the key as in /all> }
 * `{id}` is the translation key's id; `translation_key` must be that key (a guard against saving
 * into the wrong key; keys are named by the code and cannot be renamed here). Languages left out
 * of `translations` keep their text. A text equal to the release's text follows the release
 * again; another text is marked edited and is never overwritten by a release. Atomic and audited.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { audit } from '../auth/audit.ts';
import { assertNoErrors, type FieldErrors, issue, notFound } from '../http/errors.ts';
import { dataSchema } from '../http/lists.ts';
import { type IdParams, idParams } from '../http/params.ts';
import {
  BASE,
  entriesOf,
  entrySchema,
  keySchema,
  languageIdSchema,
  languageIdsOf,
  placeholdersOf,
  TAGS,
  translationRows,
} from './entries.ts';
import { MAX_TEXT_LENGTH } from './source.ts';
import { writeTransaction } from '../audit/context.ts';

interface PutBody {
  translation_key: string;
  translations: { text: string; language_id: number }[];
}

export async function editRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;

  app.put<{ Params: IdParams; Body: PutBody }>(
    `${BASE}/translations/:id`,
    {
      config: { access: 'manage-translation-keys' },
      schema: {
        tags: TAGS,
        summary:
          'Save the texts of one translation key (its id); languages left out keep their text.',
        params: idParams,
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['translation_key', 'translations'],
          properties: {
            translation_key: keySchema,
            translations: {
              type: 'array',
              maxItems: 20,
              items: {
                type: 'object',
                additionalProperties: false,
                required: ['text', 'language_id'],
                properties: {
                  text: { type: 'string', maxLength: MAX_TEXT_LENGTH },
                  language_id: languageIdSchema,
                },
              },
            },
          },
        },
        response: { 200: dataSchema(entrySchema) },
      },
    },
    async (request) => {
      const { id } = request.params;
      const body = request.body;
      const userId = request.principal?.id ?? null;
      return writeTransaction(db, request, async (trx) => {
        const key = await trx
          .selectFrom('translation_keys')
          .select(['id', 'key'])
          .where('id', '=', id)
          .forUpdate()
          .executeTakeFirst();
        if (!key) throw notFound('Translation key');
        const languageIds = await languageIdsOf(trx);
        const errors: FieldErrors = {};
        if (body.translation_key !== key.key) {
          errors.translation_key = [issue('keyMismatch', { id, key: key.key })];
        }
        const stored = await translationRows(trx, [id]);
        const storedBy = new Map(stored.map((row) => [Number(row.language_id), row]));
        // Placeholders a text may use: those of the release and of the stored texts.
        const known = new Set(
          stored.flatMap((row) => [
            ...placeholdersOf(row.text),
            ...placeholdersOf(row.release_text ?? ''),
          ]),
        );
        const seen = new Set<number>();
        body.translations.forEach((translation, index) => {
          const at = `translations.${index}`;
          if (!languageIds.includes(translation.language_id)) {
            (errors[`${at}.language_id`] ??= []).push(
              issue('unknownLanguage', { value: translation.language_id }),
            );
          } else if (seen.has(translation.language_id)) {
            (errors[`${at}.language_id`] ??= []).push(issue('appearsTwice'));
          }
          seen.add(translation.language_id);
          const unknown = placeholdersOf(translation.text).filter((name) => !known.has(name));
          if (unknown.length > 0) {
            (errors[`${at}.text`] ??= []).push(
              issue('unknownPlaceholders', {
                placeholders: unknown.map((name) => `{{${name}}}`).join(', '),
              }),
            );
          }
        });
        assertNoErrors(errors);

        const changed: number[] = [];
        for (const translation of body.translations) {
          const { text } = translation;
          const row = storedBy.get(translation.language_id);
          if (row && row.text === text) continue;
          if (!row && text === '') continue;
          changed.push(translation.language_id);
          // Back to the release's text: it follows the release again.
          const followsRelease = row?.release_text !== null && row?.release_text === text;
          const edit = followsRelease
            ? { edited_at: null, edited_by: null }
            : { edited_at: sql<Date>`now()`, edited_by: userId };
          if (row) {
            await trx
              .updateTable('translations')
              .set({ text, ...edit, updated_at: sql`now()` })
              .where('translation_key_id', '=', id)
              .where('language_id', '=', translation.language_id)
              .execute();
          } else {
            await trx
              .insertInto('translations')
              .values({
                translation_key_id: id,
                language_id: translation.language_id,
                text,
                ...edit,
              })
              .execute();
          }
        }
        if (changed.length > 0) {
          await trx
            .updateTable('translation_keys')
            .set({ updated_at: sql`now()` })
            .where('id', '=', id)
            .execute();
          await audit(trx, 'translation.update', {
            userId,
            ip: request.ip,
            resource: 'translation-keys',
            recordId: id,
            details: { key: key.key, languages: changed },
          });
        }
        const [entry] = await entriesOf(trx, [{ id: Number(key.id), key: key.key }], languageIds);
        return { data: entry };
      });
    },
  );
}
