/**
 * The localization API, exactly as the spec's §7 table (keys snake_case on the wire; the client
 * converts them to camelCase):
 *   GET /api/localizations/languages                          → { data: [{ id, abbreviation }] }
 *   GET /api/localizations/translations?page&language_id&search[&per_page]
 *       → { data: [{ id, translation_key_id, translation_key, language_id, text }], meta }
 *   GET /api/localizations/translations/all?page&search[&per_page&missing&missing_language_id]
 *       → { data: [{ id, translation_key, translations: [{ language_id, text, … }] }], meta }
 *   PUT /api/localizations/translations/{id}  { translation_key, translations: [{ text, language_id }] }
 *       → { data: <the key as in /all> }
 * and the reports of keys the web app did not find (shown in the translation-keys screen):
 *   POST   /api/localizations/missing  { entries: [{ translation_key, language_id }] } → 204
 *   GET    /api/localizations/missing?page&per_page → open reports (the key still lacks a text)
 *   DELETE /api/localizations/missing → { deleted }
 *
 * Access: the language list and one language's translations are public, so the login page is
 * translated before sign-in (texts are not secret). The list of all keys with their editing
 * metadata, the reports and every write need `manage-translation-keys`, except reporting a
 * missing key, which any signed-in user's browser does.
 *
 * `{id}` of the PUT is the translation key's id; `translation_key` must be that key (a guard
 * against saving into the wrong key; keys are named by the code and cannot be renamed here).
 * Languages left out of `translations` keep their text. A text equal to the release's text follows
 * the release again; another text is marked edited and is never overwritten by a release.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Expression, type SqlBool, sql } from 'kysely';
import { audit } from '../auth/audit.ts';
import type { DB } from '../db/index.ts';
import { notFound, validationError } from '../http/errors.ts';
import { KEY_PATTERN, MAX_KEY_LENGTH, MAX_TEXT_LENGTH } from './source.ts';
import { escapeLike, listMeta, listMetaSchema } from '../http/lists.ts';

const MAX_INT = 2_147_483_647;
const BASE = '/api/localizations';
const TAGS = ['localizations'];

const page = { type: 'integer', minimum: 1, maximum: 1_000_000, default: 1 } as const;
const search = { type: 'string', maxLength: 200 } as const;
const languageIdSchema = { type: 'integer', minimum: 1, maximum: MAX_INT } as const;
const keySchema = {
  type: 'string',
  minLength: 1,
  maxLength: MAX_KEY_LENGTH,
  pattern: KEY_PATTERN.source,
} as const;

const metaSchema = listMetaSchema();

const timestamp = { type: ['string', 'null'], format: 'date-time' } as const;

const entrySchema = {
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
          edited_at: timestamp,
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

interface TranslationRow {
  translation_key_id: number;
  language_id: number;
  text: string;
  release_text: string | null;
  edited_at: Date | null;
  edited_by: number | null;
}

/** The keys with all their languages (a language without a row answers text ''). */
async function entriesOf(db: DB, keys: { id: number; key: string }[], languageIds: number[]) {
  if (keys.length === 0) return [];
  const rows = (await db
    .selectFrom('translations')
    .select(['translation_key_id', 'language_id', 'text', 'release_text', 'edited_at', 'edited_by'])
    .where(
      'translation_key_id',
      'in',
      keys.map((key) => key.id),
    )
    .execute()) as TranslationRow[];
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

async function languageIdsOf(db: DB): Promise<number[]> {
  const rows = await db.selectFrom('languages').select('id').orderBy('id').execute();
  return rows.map((row) => Number(row.id));
}

interface PutBody {
  translation_key: string;
  translations: { text: string; language_id: number }[];
}

interface MissingBody {
  entries: { translation_key: string; language_id: number }[];
}

export function localizationRoutes(app: FastifyInstance): void {
  const { db } = app;

  app.get(
    `${BASE}/languages`,
    {
      config: { access: 'public' },
      schema: {
        tags: TAGS,
        summary: 'The languages of the interface (de, en, fr, it).',
        response: {
          200: {
            type: 'object',
            properties: {
              data: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: { id: { type: 'integer' }, abbreviation: { type: 'string' } },
                },
              },
            },
          },
        },
      },
    },
    async () => {
      const rows = await db
        .selectFrom('languages')
        .select(['id', 'abbreviation'])
        .orderBy('id')
        .execute();
      return { data: rows };
    },
  );

  app.get(
    `${BASE}/translations`,
    {
      config: { access: 'public' },
      schema: {
        tags: TAGS,
        summary: 'The translations of one language, paged and searchable (key or text).',
        querystring: {
          type: 'object',
          additionalProperties: false,
          required: ['language_id'],
          properties: {
            page,
            per_page: { type: 'integer', minimum: 1, maximum: 2000, default: 100 },
            language_id: languageIdSchema,
            search,
          },
        },
        response: {
          200: {
            type: 'object',
            properties: {
              data: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: {
                    id: { type: 'integer' },
                    translation_key_id: { type: 'integer' },
                    translation_key: { type: 'string' },
                    language_id: { type: 'integer' },
                    text: { type: 'string' },
                  },
                },
              },
              meta: metaSchema,
            },
          },
        },
      },
    },
    async (request) => {
      const query = request.query as {
        page: number;
        per_page: number;
        language_id: number;
        search?: string;
      };
      const language = await db
        .selectFrom('languages')
        .select('id')
        .where('id', '=', query.language_id)
        .executeTakeFirst();
      if (!language) {
        throw validationError(
          { language_id: [`is not a known language: ${query.language_id}`] },
          'Unknown language.',
        );
      }
      const term = query.search?.trim();
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- untyped tables.
      const where = (eb: any): Expression<SqlBool> => {
        const conditions = [eb('t.language_id', '=', query.language_id)];
        if (term) {
          const pattern = `%${escapeLike(term)}%`;
          conditions.push(eb.or([eb('k.key', 'ilike', pattern), eb('t.text', 'ilike', pattern)]));
        }
        return eb.and(conditions);
      };
      const [rows, count] = await Promise.all([
        db
          .selectFrom('translations as t')
          .innerJoin('translation_keys as k', 'k.id', 't.translation_key_id')
          .select([
            't.id',
            't.translation_key_id',
            'k.key as translation_key',
            't.language_id',
            't.text',
          ])
          .where(where)
          .orderBy('k.key')
          .limit(query.per_page)
          .offset((query.page - 1) * query.per_page)
          .execute(),
        db
          .selectFrom('translations as t')
          .innerJoin('translation_keys as k', 'k.id', 't.translation_key_id')
          .select(sql<number>`count(*)`.as('total'))
          .where(where)
          .executeTakeFirstOrThrow(),
      ]);
      return { data: rows, meta: listMeta(query.page, query.per_page, Number(count.total)) };
    },
  );

  app.get(
    `${BASE}/translations/all`,
    {
      config: { access: 'manage-translation-keys' },
      schema: {
        tags: TAGS,
        summary:
          'Translation keys with the texts of every language, paged and searchable; `missing=true` keeps keys that lack a text (in `missing_language_id`, or in any language).',
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            page,
            per_page: { type: 'integer', minimum: 1, maximum: 200, default: 25 },
            search,
            missing: { type: 'boolean' },
            missing_language_id: languageIdSchema,
          },
        },
        response: {
          200: {
            type: 'object',
            properties: { data: { type: 'array', items: entrySchema }, meta: metaSchema },
          },
        },
      },
    },
    async (request) => {
      const query = request.query as {
        page: number;
        per_page: number;
        search?: string;
        missing?: boolean;
        missing_language_id?: number;
      };
      const languageIds = await languageIdsOf(db);
      if (
        query.missing_language_id !== undefined &&
        !languageIds.includes(query.missing_language_id)
      ) {
        throw validationError(
          { missing_language_id: [`is not a known language: ${query.missing_language_id}`] },
          'Unknown language.',
        );
      }
      const term = query.search?.trim();
      const missingIn =
        query.missing_language_id !== undefined
          ? [query.missing_language_id]
          : query.missing
            ? languageIds
            : [];
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- untyped tables.
      const where = (eb: any): Expression<SqlBool> => {
        const conditions: Expression<SqlBool>[] = [];
        if (term) {
          const pattern = `%${escapeLike(term)}%`;
          conditions.push(
            eb.or([
              eb('k.key', 'ilike', pattern),
              eb.exists(
                eb
                  .selectFrom('translations as s')
                  .select('s.id')
                  .whereRef('s.translation_key_id', '=', 'k.id')
                  .where('s.text', 'ilike', pattern),
              ),
            ]),
          );
        }
        if (missingIn.length > 0) {
          conditions.push(
            sql<SqlBool>`exists (
              select 1 from languages l
              where l.id in (${sql.join(missingIn)})
                and not exists (
                  select 1 from translations m
                  where m.translation_key_id = k.id and m.language_id = l.id and m.text <> ''
                )
            )`,
          );
        }
        return eb.and(conditions);
      };
      const [keys, count] = await Promise.all([
        db
          .selectFrom('translation_keys as k')
          .select(['k.id', 'k.key'])
          .where(where)
          .orderBy('k.key')
          .limit(query.per_page)
          .offset((query.page - 1) * query.per_page)
          .execute(),
        db
          .selectFrom('translation_keys as k')
          .select(sql<number>`count(*)`.as('total'))
          .where(where)
          .executeTakeFirstOrThrow(),
      ]);
      return {
        data: await entriesOf(db, keys as { id: number; key: string }[], languageIds),
        meta: listMeta(query.page, query.per_page, Number(count.total)),
      };
    },
  );

  app.put(
    `${BASE}/translations/:id`,
    {
      config: { access: 'manage-translation-keys' },
      schema: {
        tags: TAGS,
        summary:
          'Save the texts of one translation key (its id); languages left out keep their text.',
        params: {
          type: 'object',
          additionalProperties: false,
          required: ['id'],
          properties: { id: { type: 'integer', minimum: 1, maximum: MAX_INT } },
        },
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
        response: { 200: { type: 'object', properties: { data: entrySchema } } },
      },
    },
    async (request: FastifyRequest) => {
      const { id } = request.params as { id: number };
      const body = request.body as PutBody;
      const userId = request.principal?.id ?? null;
      return db.transaction().execute(async (trx) => {
        const key = await trx
          .selectFrom('translation_keys')
          .select(['id', 'key'])
          .where('id', '=', id)
          .forUpdate()
          .executeTakeFirst();
        if (!key) throw notFound('Translation key');
        const languageIds = await languageIdsOf(trx);
        const errors: Record<string, string[]> = {};
        if (body.translation_key !== key.key) {
          errors.translation_key = [`must be the key of translation ${id} (${key.key})`];
        }
        const stored = (await trx
          .selectFrom('translations')
          .select([
            'translation_key_id',
            'language_id',
            'text',
            'release_text',
            'edited_at',
            'edited_by',
          ])
          .where('translation_key_id', '=', id)
          .execute()) as TranslationRow[];
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
              `is not a known language: ${translation.language_id}`,
            );
          } else if (seen.has(translation.language_id)) {
            (errors[`${at}.language_id`] ??= []).push('appears more than once');
          }
          seen.add(translation.language_id);
          const unknown = placeholdersOf(translation.text).filter((name) => !known.has(name));
          if (unknown.length > 0) {
            (errors[`${at}.text`] ??= []).push(
              `uses unknown placeholders: ${unknown.map((name) => `{{${name}}}`).join(', ')}`,
            );
          }
        });
        if (Object.keys(errors).length > 0) throw validationError(errors);

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
            : { edited_at: sql`now()`, edited_by: userId };
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

  app.post(
    `${BASE}/missing`,
    {
      config: { access: 'authenticated' },
      schema: {
        tags: TAGS,
        summary: 'Report keys the web app did not find in the chosen language.',
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['entries'],
          properties: {
            entries: {
              type: 'array',
              minItems: 1,
              maxItems: 50,
              items: {
                type: 'object',
                additionalProperties: false,
                required: ['translation_key', 'language_id'],
                properties: { translation_key: keySchema, language_id: languageIdSchema },
              },
            },
          },
        },
      },
    },
    async (request, reply) => {
      const { entries } = request.body as MissingBody;
      const languageIds = await languageIdsOf(db);
      const errors: Record<string, string[]> = {};
      entries.forEach((entry, index) => {
        if (!languageIds.includes(entry.language_id)) {
          errors[`entries.${index}.language_id`] = [
            `is not a known language: ${entry.language_id}`,
          ];
        }
      });
      if (Object.keys(errors).length > 0) throw validationError(errors);
      const unique = [
        ...new Map(
          entries.map((entry) => [`${entry.language_id}:${entry.translation_key}`, entry]),
        ).values(),
      ];
      await sql`
        insert into translation_reports (key, language_id, last_user_id)
        select t.translation_key, t.language_id, ${request.principal?.id ?? null}::integer
        from jsonb_to_recordset(${JSON.stringify(unique)}::jsonb)
          as t(translation_key text, language_id integer)
        on conflict (key, language_id) do update set
          count = least(translation_reports.count + 1, 2147483647),
          last_seen_at = now(),
          last_user_id = excluded.last_user_id`.execute(db);
      return reply.status(204).send();
    },
  );

  app.get(
    `${BASE}/missing`,
    {
      config: { access: 'manage-translation-keys' },
      schema: {
        tags: TAGS,
        summary:
          'Reported keys that still lack a text in the reported language (the newest first).',
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            page,
            per_page: { type: 'integer', minimum: 1, maximum: 200, default: 25 },
          },
        },
        response: {
          200: {
            type: 'object',
            properties: {
              data: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: {
                    id: { type: 'integer' },
                    translation_key: { type: 'string' },
                    translation_key_id: { type: ['integer', 'null'] },
                    language_id: { type: 'integer' },
                    count: { type: 'integer' },
                    first_seen_at: timestamp,
                    last_seen_at: timestamp,
                  },
                },
              },
              meta: metaSchema,
            },
          },
        },
      },
    },
    async (request) => {
      const query = request.query as { page: number; per_page: number };
      const open = sql<SqlBool>`not exists (
        select 1 from translation_keys k2
        join translations t2 on t2.translation_key_id = k2.id
        where k2.key = r.key and t2.language_id = r.language_id and t2.text <> ''
      )`;
      const [rows, count] = await Promise.all([
        db
          .selectFrom('translation_reports as r')
          .leftJoin('translation_keys as k', 'k.key', 'r.key')
          .select([
            'r.id',
            'r.key as translation_key',
            'k.id as translation_key_id',
            'r.language_id',
            'r.count',
            'r.first_seen_at',
            'r.last_seen_at',
          ])
          .where(open)
          .orderBy('r.last_seen_at', 'desc')
          .orderBy('r.id', 'desc')
          .limit(query.per_page)
          .offset((query.page - 1) * query.per_page)
          .execute(),
        db
          .selectFrom('translation_reports as r')
          .select(sql<number>`count(*)`.as('total'))
          .where(open)
          .executeTakeFirstOrThrow(),
      ]);
      return { data: rows, meta: listMeta(query.page, query.per_page, Number(count.total)) };
    },
  );

  app.delete(
    `${BASE}/missing`,
    {
      config: { access: 'manage-translation-keys' },
      schema: {
        tags: TAGS,
        summary: 'Clear the reports of missing keys.',
        response: {
          200: { type: 'object', properties: { deleted: { type: 'integer' } } },
        },
      },
    },
    async () => {
      const result = await db.deleteFrom('translation_reports').executeTakeFirst();
      return { deleted: Number(result.numDeletedRows) };
    },
  );
}
