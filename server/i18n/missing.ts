/**
 * Reports of keys the web app did not find (shown in the translation-keys screen):
 *   POST   /api/localizations/missing  { entries: [{ translation_key, language_id }] } → 204
 *          (any signed-in user's browser)
 *   GET    /api/localizations/missing?page&per_page → open reports (the key still lacks a text)
 *   DELETE /api/localizations/missing → { deleted }
 */
import type { FastifyInstance } from 'fastify';
import { type SqlBool, sql } from 'kysely';
import { INT_MAX } from '../../src/schema/limits.ts';
import { assertNoErrors, type FieldErrors, issue } from '../http/errors.ts';
import {
  countAtMost,
  listSchema,
  pageAnswer,
  type PageQuery,
  pageSchema,
  perPageSchema,
} from '../http/lists.ts';
import {
  BASE,
  keySchema,
  languageIdSchema,
  languageIdsOf,
  TAGS,
  timestampSchema,
} from './entries.ts';

interface MissingBody {
  entries: { translation_key: string; language_id: number }[];
}

export async function missingRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;

  app.post<{ Body: MissingBody }>(
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
      const { entries } = request.body;
      const languageIds = await languageIdsOf(db);
      const errors: FieldErrors = {};
      entries.forEach((entry, index) => {
        if (!languageIds.includes(entry.language_id)) {
          errors[`entries.${index}.language_id`] = [
            issue('unknownLanguage', { value: entry.language_id }),
          ];
        }
      });
      assertNoErrors(errors);
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
          count = least(translation_reports.count + 1, ${sql.lit(INT_MAX)}),
          last_seen_at = now(),
          last_user_id = excluded.last_user_id`.execute(db);
      return reply.status(204).send();
    },
  );

  app.get<{ Querystring: PageQuery }>(
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
          properties: { page: pageSchema(), per_page: perPageSchema(200, 25) },
        },
        response: {
          200: listSchema({
            type: 'object',
            properties: {
              id: { type: 'integer' },
              translation_key: { type: 'string' },
              translation_key_id: { type: ['integer', 'null'] },
              language_id: { type: 'integer' },
              count: { type: 'integer' },
              first_seen_at: timestampSchema,
              last_seen_at: timestampSchema,
            },
          }),
        },
      },
    },
    async (request) => {
      const query = request.query;
      const open = sql<SqlBool>`not exists (
        select 1 from translation_keys k2
        join translations t2 on t2.translation_key_id = k2.id
        where k2.key = r.key and t2.language_id = r.language_id and t2.text <> ''
      )`;
      return pageAnswer(query, {
        rows: (limit, offset) =>
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
            .limit(limit)
            .offset(offset)
            .execute(),
        count: countAtMost(db, db.selectFrom('translation_reports as r').where(open)),
      });
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
