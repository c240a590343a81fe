/**
 * Reading the texts (spec §7):
 *   GET /api/localizations/languages                          → { data: [{ id, abbreviation }] }
 *   GET /api/localizations/translations?page&language_id&search[&per_page]
 *       → { data: [{ id, translation_key_id, translation_key, language_id, text }], meta }
 *   GET /api/localizations/translations/all?page&search[&per_page&missing&missing_language_id]
 *       → { data: [{ id, translation_key, translations: [{ language_id, text, … }] }], meta }
 *   GET /api/localizations/texts/{language}   (the web app's start: one language in one answer)
 *       → { language, texts: { key: text }, fallback: { key: text } }
 * The first two and the texts are public, so the login page is translated before sign-in (texts
 * are not secret); the list with the editing metadata needs `manage-translation-keys`.
 *
 * The texts answer is what the browser needs to paint: the language's texts and, only for its keys
 * without a text, the text of the first fallback language that has one (de, then en). It is
 * versioned by its content: the ETag is a hash of the answer, so it changes as soon as an admin
 * edits a text or a release changes one; `Cache-Control: no-cache` makes the browser ask again
 * each time with `If-None-Match`, answered 304 without a body while nothing changed.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { type Expression, type SqlBool, sql } from 'kysely';
import { issue, validationError } from '../http/errors.ts';
import {
  countAtMost,
  dataSchema,
  escapeLike,
  listSchema,
  pageAnswer,
  type PageQuery,
  pageSchema,
  perPageSchema,
} from '../http/lists.ts';
import {
  BASE,
  entriesOf,
  entrySchema,
  languageIdSchema,
  languageIdsOf,
  searchSchema,
  TAGS,
} from './entries.ts';

interface TranslationsQuery extends PageQuery {
  language_id: number;
  search?: string;
}

/** Where a key without a text in the asked language is looked up, in this order. */
export const FALLBACK_LANGUAGES = ['de', 'en'];

/** `If-None-Match` names this ETag (weak or strong, or `*`). */
function matchesEtag(header: string | string[] | undefined, etag: string): boolean {
  if (header === undefined) return false;
  return String(header)
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === etag);
}

const textMapSchema = { type: 'object', additionalProperties: { type: 'string' } } as const;

interface AllQuery extends PageQuery {
  search?: string;
  missing?: boolean;
  missing_language_id?: number;
}

export async function translationRoutes(app: FastifyInstance): Promise<void> {
  /** The texts route's answers by language, with the texts_version they were built at. */
  const textsCache = new Map<string, { version: string; body: string; etag: string }>();
  const { db } = app;

  app.get(
    `${BASE}/languages`,
    {
      config: { access: 'public' },
      schema: {
        tags: TAGS,
        summary: 'The languages of the interface (de, en, fr, it).',
        response: {
          200: dataSchema({
            type: 'array',
            items: {
              type: 'object',
              properties: { id: { type: 'integer' }, abbreviation: { type: 'string' } },
            },
          }),
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

  app.get<{ Querystring: TranslationsQuery }>(
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
            page: pageSchema(),
            per_page: perPageSchema(2000, 100),
            language_id: languageIdSchema,
            search: searchSchema,
          },
        },
        response: {
          200: listSchema({
            type: 'object',
            properties: {
              id: { type: 'integer' },
              translation_key_id: { type: 'integer' },
              translation_key: { type: 'string' },
              language_id: { type: 'integer' },
              text: { type: 'string' },
            },
          }),
        },
      },
    },
    async (request) => {
      const query = request.query;
      const language = await db
        .selectFrom('languages')
        .select('id')
        .where('id', '=', query.language_id)
        .executeTakeFirst();
      if (!language) {
        throw validationError(
          { language_id: [issue('unknownLanguage', { value: query.language_id })] },
          'languageUnknown',
        );
      }
      const term = query.search?.trim();
      const matching = db
        .selectFrom('translations as t')
        .innerJoin('translation_keys as k', 'k.id', 't.translation_key_id')
        .where((eb) => {
          const conditions = [eb('t.language_id', '=', query.language_id)];
          if (term) {
            const pattern = `%${escapeLike(term)}%`;
            conditions.push(eb.or([eb('k.key', 'ilike', pattern), eb('t.text', 'ilike', pattern)]));
          }
          return eb.and(conditions);
        });
      return pageAnswer(query, {
        rows: (limit, offset) =>
          matching
            .select([
              't.id',
              't.translation_key_id',
              'k.key as translation_key',
              't.language_id',
              't.text',
            ])
            .orderBy('k.key')
            .limit(limit)
            .offset(offset)
            .execute(),
        count: countAtMost(db, matching),
      });
    },
  );

  app.get<{ Params: { language: string } }>(
    `${BASE}/texts/:language`,
    {
      config: { access: 'public' },
      schema: {
        tags: TAGS,
        summary:
          'The texts of one language as one map (key → text), with the fallback texts (de, then en) of its keys that have none; ETag of the content, 304 on If-None-Match.',
        params: {
          type: 'object',
          required: ['language'],
          properties: { language: { type: 'string', pattern: '^[a-z]{2,3}$' } },
        },
        response: {
          200: {
            type: 'object',
            properties: {
              language: { type: 'string' },
              texts: textMapSchema,
              fallback: textMapSchema,
            },
          },
        },
      },
    },
    async (request, reply) => {
      const { language } = request.params;
      // Each language's answer is kept while the texts stay as they were (texts_version, moved by
      // every change of texts, keys or languages on any server: migration 0036).
      const current = await db.selectFrom('texts_version').select('version').executeTakeFirst();
      const version = String(current?.version ?? '');
      let kept = textsCache.get(language);
      if (!kept || kept.version !== version) {
        kept = { version, ...(await buildTexts(language)) };
        textsCache.set(language, kept);
      }
      reply.header('cache-control', 'no-cache').header('etag', kept.etag);
      if (matchesEtag(request.headers['if-none-match'], kept.etag)) return reply.status(304).send();
      return reply.type('application/json; charset=utf-8').send(kept.body);
    },
  );

  /** One language's texts with their fallbacks, as the route answers them. */
  const buildTexts = async (language: string): Promise<{ body: string; etag: string }> => {
    const known = await db
      .selectFrom('languages')
      .select('abbreviation')
      .where('abbreviation', '=', language)
      .executeTakeFirst();
    if (!known) {
      throw validationError(
        { language: [issue('unknownLanguage', { value: language })] },
        'languageUnknown',
      );
    }
    const wanted = [...new Set([language, ...FALLBACK_LANGUAGES])];
    const rows = await db
      .selectFrom('translations as t')
      .innerJoin('translation_keys as k', 'k.id', 't.translation_key_id')
      .innerJoin('languages as l', 'l.id', 't.language_id')
      .select(['k.key', 'l.abbreviation', 't.text'])
      .where('l.abbreviation', 'in', wanted)
      .where('t.text', '<>', '')
      .orderBy('k.key')
      .execute();
    const byLanguage = new Map<string, Map<string, string>>(
      wanted.map((code) => [code, new Map()]),
    );
    for (const row of rows) byLanguage.get(row.abbreviation)?.set(row.key, row.text);
    const own = byLanguage.get(language) ?? new Map<string, string>();
    const fallback: Record<string, string> = {};
    for (const code of FALLBACK_LANGUAGES) {
      if (code === language) continue;
      for (const [key, text] of byLanguage.get(code) ?? []) {
        if (!own.has(key) && !(key in fallback)) fallback[key] = text;
      }
    }
    const answer = { language, texts: Object.fromEntries(own), fallback };
    const body = JSON.stringify(answer);
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
    return { body, etag };
  };

  app.get<{ Querystring: AllQuery }>(
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
            page: pageSchema(),
            per_page: perPageSchema(200, 25),
            search: searchSchema,
            missing: { type: 'boolean' },
            missing_language_id: languageIdSchema,
          },
        },
        response: { 200: listSchema(entrySchema) },
      },
    },
    async (request) => {
      const query = request.query;
      const languageIds = await languageIdsOf(db);
      if (
        query.missing_language_id !== undefined &&
        !languageIds.includes(query.missing_language_id)
      ) {
        throw validationError(
          { missing_language_id: [issue('unknownLanguage', { value: query.missing_language_id })] },
          'languageUnknown',
        );
      }
      const term = query.search?.trim();
      const missingIn =
        query.missing_language_id !== undefined
          ? [query.missing_language_id]
          : query.missing
            ? languageIds
            : [];
      const matching = db.selectFrom('translation_keys as k').where((eb) => {
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
      });
      const page = await pageAnswer(query, {
        rows: (limit, offset) =>
          matching.select(['k.id', 'k.key']).orderBy('k.key').limit(limit).offset(offset).execute(),
        count: countAtMost(db, matching),
      });
      return { data: await entriesOf(db, page.data, languageIds), meta: page.meta };
    },
  );
}
