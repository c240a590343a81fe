/**
 * The signed-in user's own settings:
 *   GET|PUT /api/account/settings           language and preferences (external users too); no
 *                                           other field is accepted
 *   GET|PUT /api/account/offer-credentials  {offer_username, offer_password} of the offer service
 *                                           (staff): encrypted at rest (./secrets.ts), the password
 *                                           never answered (only has_password)
 */
import type { FastifyInstance } from 'fastify';
import { sql, type Updateable } from 'kysely';
import { PREFERENCES_WIRE_SCHEMA, type PreferencesWire } from '../../src/schema/preferences.ts';
import type { OfferCredentialsTable } from '../../src/types/database.ts';
import { audit } from '../auth/audit.ts';
import { dataSchema } from '../http/lists.ts';
import { loadPreferences, preferencesWire, savePreferences } from './preferences.ts';
import { decrypt, encrypt, offerKey } from './secrets.ts';
import { writeTransaction } from '../audit/context.ts';

const settingsShape = dataSchema(PREFERENCES_WIRE_SCHEMA);

const credentialsShape = dataSchema({
  type: 'object',
  properties: {
    offer_username: { type: ['string', 'null'] },
    has_password: { type: 'boolean' },
    updated_at: { type: ['string', 'null'] },
  },
});

interface CredentialsBody {
  offer_username?: string | null;
  offer_password?: string | null;
}

export async function settingsRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;

  const settingsAnswer = async (userId: number) => {
    const [user, preferences] = await Promise.all([
      db.selectFrom('users').select('language').where('id', '=', userId).executeTakeFirstOrThrow(),
      loadPreferences(db, userId),
    ]);
    return { data: { language: user.language ?? 'de', ...preferencesWire(preferences) } };
  };

  app.get(
    '/api/account/settings',
    {
      config: { access: 'authenticated', external: true },
      schema: {
        tags: ['account'],
        summary: 'The signed-in user’s language and preferences.',
        response: { 200: settingsShape },
      },
    },
    async (request) => settingsAnswer(request.principal!.id),
  );

  app.put<{ Body: PreferencesWire }>(
    '/api/account/settings',
    {
      config: { access: 'authenticated', external: true },
      schema: {
        tags: ['account'],
        summary:
          'Change the signed-in user’s language and preferences (fields left out keep their value; nothing else can be changed here).',
        body: PREFERENCES_WIRE_SCHEMA,
        response: { 200: settingsShape },
      },
    },
    async (request) => {
      const principal = request.principal!;
      const body = request.body;
      await writeTransaction(db, request, async (trx) => {
        if (body.language) {
          await trx
            .updateTable('users')
            .set({ language: body.language, updated_at: sql`now()` })
            .where('id', '=', principal.id)
            .execute();
          await trx
            .updateTable('external_users')
            .set({ language: body.language })
            .where('user_id', '=', principal.id)
            .execute();
        }
        const { language: _language, ...preferences } = body;
        await savePreferences(trx, principal.id, preferences);
      });
      return settingsAnswer(principal.id);
    },
  );

  const credentialsAnswer = async (userId: number) => {
    const row = await db
      .selectFrom('offer_credentials')
      .selectAll()
      .where('user_id', '=', userId)
      .executeTakeFirst();
    const key = await offerKey(db);
    return {
      data: {
        offer_username: row?.username_encrypted
          ? decrypt(key, row.username_encrypted, `offer-username:${userId}`)
          : null,
        has_password: Boolean(row?.password_encrypted),
        updated_at: row ? row.updated_at.toISOString() : null,
      },
    };
  };

  app.get(
    '/api/account/offer-credentials',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['account'],
        summary:
          'The signed-in user’s offer-service login: the user name and whether a password is set.',
        response: { 200: credentialsShape },
      },
    },
    async (request) => credentialsAnswer(request.principal!.id),
  );

  app.put<{ Body: CredentialsBody }>(
    '/api/account/offer-credentials',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['account'],
        summary:
          'Store the offer-service login, encrypted. offer_password left out keeps the stored one; null or "" removes it.',
        body: {
          type: 'object',
          additionalProperties: false,
          properties: {
            offer_username: { type: ['string', 'null'], maxLength: 200 },
            offer_password: { type: ['string', 'null'], maxLength: 200 },
          },
        },
        response: { 200: credentialsShape },
      },
    },
    async (request) => {
      const userId = request.principal!.id;
      const body = request.body;
      const key = await offerKey(db);
      const values: Updateable<OfferCredentialsTable> = {};
      if (body.offer_username !== undefined) {
        values.username_encrypted = body.offer_username
          ? encrypt(key, body.offer_username, `offer-username:${userId}`)
          : null;
      }
      if (body.offer_password !== undefined) {
        values.password_encrypted = body.offer_password
          ? encrypt(key, body.offer_password, `offer-password:${userId}`)
          : null;
      }
      await writeTransaction(db, request, async (trx) => {
        await trx
          .insertInto('offer_credentials')
          .values({ user_id: userId, ...values })
          .onConflict((oc) =>
            oc.column('user_id').doUpdateSet({ ...values, updated_at: sql`now()` }),
          )
          .execute();
        await audit(trx, 'offer-credentials.changed', {
          userId,
          ip: request.ip,
          details: {
            username: body.offer_username !== undefined,
            password: body.offer_password !== undefined,
          },
        });
      });
      return credentialsAnswer(userId);
    },
  );
}
