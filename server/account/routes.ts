/**
 * Account flows (issue 3; docs/ARCHITECTURE.md §3):
 *
 * public
 *   POST /api/account/register          {first_name, last_name, email, phone?, language?, password,
 *                                        confirm_password} → 202; the account waits for approval
 *   POST /api/account/forgot-password   {email} → 202 (same answer whether the account exists)
 *   POST /api/account/reset-password    {token, new_password, confirm_password} → 200
 * signed in (external users too)
 *   GET|PUT /api/account/settings       language and preferences (no other field is accepted)
 *   POST /api/account/password          {old_password, new_password, confirm_password}
 * signed in staff
 *   GET|PUT /api/account/offer-credentials  {offer_username, offer_password}: encrypted at rest,
 *                                        the password never answered (only has_password)
 * manage-users
 *   POST /api/users/:id/approve {role}, /reject, /send-password-link, /revoke-sessions
 *
 * Throttles (per hour, from the audit log so several app servers share them): registrations 10 per
 * address; reset requests 20 per address and 5 mails per account; failed resets 50 per address;
 * failed password changes 10 per user. Every step is written to the audit log.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { passwordFieldErrors } from '../../src/schema/passwordRule.ts';
import { PREFERENCES_WIRE_SCHEMA, type PreferencesWire } from '../../src/schema/preferences.ts';
import { audit } from '../auth/audit.ts';
import { hashPassword, verifyPassword } from '../auth/password.ts';
import { ROLES } from '../auth/permissions.ts';
import { revokeUserSessions } from '../auth/sessions.ts';
import type { DB, Row } from '../db/index.ts';
import { ApiError, notFound, validationError } from '../http/errors.ts';
import { mailToUser } from '../mail/mailer.ts';
import { sendInvitation } from './hooks.ts';
import { loadPreferences, preferencesWire, savePreferences } from './preferences.ts';
import { rightsBeyond, withinRights } from './rights.ts';
import { decrypt, encrypt, offerKey } from './secrets.ts';
import { consumePasswordToken, createPasswordToken, publicUrl, TOKEN_HOURS } from './tokens.ts';

export const THROTTLES = {
  registerPerAddress: 10,
  resetRequestsPerAddress: 20,
  resetMailsPerAccount: 5,
  failedResetsPerAddress: 50,
  failedPasswordChangesPerUser: 10,
};

const ACCEPTED_REGISTRATION =
  'Thank you. If the address can be registered, you will receive a confirmation by email; an administrator approves new accounts.';
const ACCEPTED_RESET =
  'If an account exists for this address, we have sent an email with a link to set a new password.';
const TOO_MANY = 'Too many attempts. Please wait an hour and try again.';

const message = { type: 'object', properties: { message: { type: 'string' } } } as const;
const password = { type: 'string', minLength: 1, maxLength: 200 } as const;
const idParams = {
  type: 'object',
  additionalProperties: false,
  required: ['id'],
  properties: { id: { type: 'integer', minimum: 1, maximum: 2_147_483_647 } },
} as const;

/** Events of the last hour in the audit log, by address or by user / email detail. */
async function recentEvents(
  db: DB,
  event: string,
  where: { ip?: string; userId?: number; email?: string },
): Promise<number> {
  let query = db
    .selectFrom('audit_log')
    .select(sql<number>`count(*)`.as('n'))
    .where('event', '=', event)
    .where('at', '>', sql<Date>`now() - interval '1 hour'`);
  if (where.ip !== undefined) query = query.where('ip', '=', where.ip);
  if (where.userId !== undefined) query = query.where('user_id', '=', where.userId);
  if (where.email !== undefined)
    query = query.where(sql`details->>'email'`, '=', where.email.toLowerCase());
  const row = await query.executeTakeFirstOrThrow();
  return Number(row.n);
}

function checkNewPassword(newPassword: string, confirm: string): void {
  const errors = passwordFieldErrors(newPassword, confirm);
  if (Object.keys(errors).length > 0)
    throw validationError(errors, 'The new password is not valid.');
}

async function setPassword(db: DB, userId: number, newPassword: string): Promise<void> {
  const hash = await hashPassword(newPassword);
  await db
    .insertInto('user_credentials')
    .values({ user_id: userId, password_hash: hash })
    .onConflict((oc) =>
      oc.column('user_id').doUpdateSet({ password_hash: hash, password_changed_at: sql`now()` }),
    )
    .execute();
}

const userRow = (db: DB, id: number) =>
  db
    .selectFrom('users as u')
    .leftJoin('external_users as e', 'e.user_id', 'u.id')
    .select([
      'u.id',
      'u.email',
      'u.first_name',
      'u.last_name',
      'u.role',
      'u.language',
      'u.is_active',
      'u.registration_status',
      'u.additional_permissions',
      'e.id as external_id',
    ])
    .where('u.id', '=', id)
    .executeTakeFirst();

export function accountRoutes(app: FastifyInstance): void {
  const { db } = app;
  if (app.database.engine === 'postgres') {
    if (!process.env.SECRET_KEY)
      app.log.warn('SECRET_KEY is not set: offer credentials use a key kept in the database.');
    if (!process.env.PUBLIC_URL)
      app.log.warn('PUBLIC_URL is not set: links in mails point at http://localhost.');
  }

  app.post(
    '/api/account/register',
    {
      config: { access: 'public' },
      schema: {
        tags: ['account'],
        summary: 'Register an account; it can sign in once an administrator approves it.',
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['first_name', 'last_name', 'email', 'password', 'confirm_password'],
          properties: {
            first_name: { type: 'string', minLength: 1, maxLength: 100 },
            last_name: { type: 'string', minLength: 1, maxLength: 100 },
            email: { type: 'string', format: 'email', maxLength: 254 },
            phone: { type: 'string', maxLength: 40, pattern: '^\\+?[0-9 ()./-]{6,40}$' },
            language: { type: 'string', enum: ['de', 'en', 'fr', 'it'] },
            password,
            confirm_password: password,
          },
        },
        response: { 202: message },
      },
    },
    async (request, reply) => {
      const body = request.body as Record<string, string>;
      const errors = passwordFieldErrors(body.password, body.confirm_password, {
        password: 'password',
        confirm: 'confirm_password',
      });
      if (Object.keys(errors).length > 0) throw validationError(errors);
      const ip = request.ip;
      if ((await recentEvents(db, 'register', { ip })) >= THROTTLES.registerPerAddress) {
        throw new ApiError(429, TOO_MANY);
      }
      const email = body.email.trim().toLowerCase();
      const language = body.language ?? 'de';
      const hash = await hashPassword(body.password);
      await db.transaction().execute(async (trx) => {
        const existing = await trx
          .selectFrom('users')
          .select(['id', 'language'])
          .where(sql`lower(email)`, '=', email)
          .executeTakeFirst();
        if (existing) {
          await audit(trx, 'register', {
            userId: Number(existing.id),
            ip,
            details: { email, existing: true },
          });
          // The same answer as a new registration; the owner of the address learns what happened.
          await mailToUser(
            trx,
            'registration-exists',
            { email, language },
            {
              link: publicUrl('/forgot-password'),
            },
          );
          return;
        }
        const user = await trx
          .insertInto('users')
          .values({
            first_name: body.first_name.trim(),
            last_name: body.last_name.trim(),
            email,
            phone: body.phone ?? null,
            language,
            role: 'EMPLOYEE',
            additional_permissions: '[]',
            is_active: false,
            registration_status: 'pending',
          })
          .returning(['id'])
          .executeTakeFirstOrThrow();
        await trx
          .insertInto('user_credentials')
          .values({ user_id: user.id, password_hash: hash })
          .execute();
        await audit(trx, 'register', { userId: user.id, ip, details: { email, existing: false } });
        const name = `${body.first_name.trim()} ${body.last_name.trim()}`;
        await mailToUser(trx, 'registration-received', { id: user.id, email, language }, { name });
        const managers = await trx
          .selectFrom('users')
          .select(['id', 'email', 'language', 'first_name', 'last_name'])
          .where('is_active', '=', true)
          .where((eb) =>
            eb.or([
              eb('role', '=', 'ADMIN'),
              sql<boolean>`additional_permissions @> '["manage-users"]'::jsonb`,
            ]),
          )
          .execute();
        for (const manager of managers) {
          await mailToUser(
            trx,
            'registration-waiting',
            { id: manager.id, email: manager.email, language: manager.language },
            {
              name: `${manager.first_name} ${manager.last_name}`,
              applicant: name,
              email,
              link: publicUrl(`/admin/users/${user.id}`),
            },
          );
        }
      });
      return reply.status(202).send({ message: ACCEPTED_REGISTRATION });
    },
  );

  app.post(
    '/api/account/forgot-password',
    {
      config: { access: 'public' },
      schema: {
        tags: ['account'],
        summary: 'Mail a single-use link (valid 1 hour) to set a new password.',
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['email'],
          properties: { email: { type: 'string', minLength: 3, maxLength: 254 } },
        },
        response: { 202: message },
      },
    },
    async (request, reply) => {
      const email = (request.body as { email: string }).email.trim().toLowerCase();
      const ip = request.ip;
      if (
        (await recentEvents(db, 'password.reset.requested', { ip })) >=
        THROTTLES.resetRequestsPerAddress
      ) {
        throw new ApiError(429, TOO_MANY);
      }
      const mailsSent = await recentEvents(db, 'password.reset.mailed', { email });
      await db.transaction().execute(async (trx) => {
        const user = await trx
          .selectFrom('users')
          .select(['id', 'email', 'language', 'first_name', 'last_name', 'is_active'])
          .where(sql`lower(email)`, '=', email)
          .executeTakeFirst();
        await audit(trx, 'password.reset.requested', {
          userId: user ? Number(user.id) : null,
          ip,
          details: { email },
        });
        // Unknown and disabled accounts get no mail, and the answer does not tell.
        if (!user || !user.is_active || mailsSent >= THROTTLES.resetMailsPerAccount) return;
        const token = await createPasswordToken(trx, Number(user.id), 'reset');
        await mailToUser(trx, 'password-reset', user, {
          name: `${user.first_name} ${user.last_name}`,
          hours: TOKEN_HOURS.reset,
          link: publicUrl(`/change-password?token=${encodeURIComponent(token)}`),
        });
        await audit(trx, 'password.reset.mailed', {
          userId: Number(user.id),
          ip,
          details: { email },
        });
      });
      return reply.status(202).send({ message: ACCEPTED_RESET });
    },
  );

  app.post(
    '/api/account/reset-password',
    {
      config: { access: 'public' },
      schema: {
        tags: ['account'],
        summary: 'Set a new password with the token of a reset or invitation mail (works once).',
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['token', 'new_password', 'confirm_password'],
          properties: {
            token: { type: 'string', minLength: 1, maxLength: 200 },
            new_password: password,
            confirm_password: password,
          },
        },
        response: { 200: message },
      },
    },
    async (request) => {
      const body = request.body as {
        token: string;
        new_password: string;
        confirm_password: string;
      };
      const ip = request.ip;
      if (
        (await recentEvents(db, 'password.reset.failed', { ip })) >=
        THROTTLES.failedResetsPerAddress
      ) {
        throw new ApiError(429, TOO_MANY);
      }
      checkNewPassword(body.new_password, body.confirm_password);
      const done = await db.transaction().execute(async (trx) => {
        const token = await consumePasswordToken(trx, body.token);
        const user = token ? await userRow(trx, token.userId) : undefined;
        if (!token || !user || (!user.is_active && token.purpose === 'reset')) return false;
        await setPassword(trx, token.userId, body.new_password);
        await revokeUserSessions(trx, token.userId);
        await audit(trx, 'password.reset', {
          userId: token.userId,
          ip,
          details: { purpose: token.purpose },
        });
        return true;
      });
      if (!done) {
        await audit(db, 'password.reset.failed', { ip });
        throw validationError(
          { token: ['is invalid, already used or expired'] },
          'This link is invalid, was already used or has expired. Please ask for a new one.',
        );
      }
      return { message: 'Your password has been set. You can sign in now.' };
    },
  );

  const settingsAnswer = async (userId: number) => {
    const [user, preferences] = await Promise.all([
      db.selectFrom('users').select('language').where('id', '=', userId).executeTakeFirstOrThrow(),
      loadPreferences(db, userId),
    ]);
    return { data: { language: user.language ?? 'de', ...preferencesWire(preferences) } };
  };
  const settingsShape = { type: 'object', properties: { data: PREFERENCES_WIRE_SCHEMA } } as const;

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

  app.put(
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
      const body = request.body as PreferencesWire;
      await db.transaction().execute(async (trx) => {
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

  app.post(
    '/api/account/password',
    {
      config: { access: 'authenticated', external: true },
      schema: {
        tags: ['account'],
        summary:
          'Change the signed-in user’s password; other sessions end, this one stays signed in.',
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['old_password', 'new_password', 'confirm_password'],
          properties: {
            old_password: password,
            new_password: password,
            confirm_password: password,
          },
        },
        response: { 200: message },
      },
    },
    async (request) => {
      const principal = request.principal!;
      const body = request.body as {
        old_password: string;
        new_password: string;
        confirm_password: string;
      };
      if (
        (await recentEvents(db, 'password.change.failed', { userId: principal.id })) >=
        THROTTLES.failedPasswordChangesPerUser
      ) {
        throw new ApiError(429, TOO_MANY);
      }
      const credentials = await db
        .selectFrom('user_credentials')
        .select('password_hash')
        .where('user_id', '=', principal.id)
        .executeTakeFirst();
      if (!credentials || !(await verifyPassword(body.old_password, credentials.password_hash))) {
        await audit(db, 'password.change.failed', { userId: principal.id, ip: request.ip });
        throw validationError({ old_password: ['is not correct'] });
      }
      checkNewPassword(body.new_password, body.confirm_password);
      if (body.new_password === body.old_password) {
        throw validationError({ new_password: ['must differ from the current password'] });
      }
      await db.transaction().execute(async (trx) => {
        await setPassword(trx, principal.id, body.new_password);
        await trx
          .updateTable('sessions')
          .set({ revoked_at: sql`now()` })
          .where('user_id', '=', principal.id)
          .where('id', '!=', principal.sessionId)
          .where('revoked_at', 'is', null)
          .execute();
        await audit(trx, 'password.changed', { userId: principal.id, ip: request.ip });
        await mailToUser(trx, 'password-changed', principal, {
          name: `${principal.firstName} ${principal.lastName}`,
        });
      });
      return { message: 'Your password has been changed.' };
    },
  );

  const credentialsShape = {
    type: 'object',
    properties: {
      data: {
        type: 'object',
        properties: {
          offer_username: { type: ['string', 'null'] },
          has_password: { type: 'boolean' },
          updated_at: { type: ['string', 'null'] },
        },
      },
    },
  } as const;

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
          ? decrypt(key, String(row.username_encrypted), `offer-username:${userId}`)
          : null,
        has_password: Boolean(row?.password_encrypted),
        updated_at: row ? new Date(row.updated_at as string).toISOString() : null,
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

  app.put(
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
      const body = request.body as {
        offer_username?: string | null;
        offer_password?: string | null;
      };
      const key = await offerKey(db);
      const values: Row = {};
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
      await db.transaction().execute(async (trx) => {
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

  // ---- user administration (manage-users) ----

  /** A staff or external account the manager may act on, else 404 / 403. */
  const manageable = async (request: FastifyRequest, database: DB = db) => {
    const { id } = request.params as { id: number };
    const principal = request.principal!;
    const user = await userRow(database, id);
    if (!user) throw notFound('User');
    if (
      !withinRights(principal, {
        role: user.role,
        additionalPermissions: user.additional_permissions,
      })
    )
      throw new ApiError(403, 'You cannot change an account that has rights you do not hold.');
    return user;
  };

  const decide = (approve: boolean) => async (request: FastifyRequest) => {
    const principal = request.principal!;
    const role = (request.body as { role?: string } | undefined)?.role;
    return db.transaction().execute(async (trx) => {
      const user = await manageable(request, trx);
      if (user.registration_status !== 'pending') {
        throw new ApiError(409, 'This account is not waiting for approval.');
      }
      if (approve) {
        const beyond = rightsBeyond(principal, {
          role: role ?? user.role,
          additionalPermissions: user.additional_permissions,
        });
        if (beyond.length > 0)
          throw validationError({ role: ['You cannot give a role with rights you do not hold.'] });
      }
      const updated = await trx
        .updateTable('users')
        .set({
          registration_status: approve ? 'approved' : 'rejected',
          is_active: approve,
          ...(approve && role ? { role } : {}),
          updated_at: sql`now()`,
        })
        .where('id', '=', user.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      await audit(trx, approve ? 'registration.approved' : 'registration.rejected', {
        userId: principal.id,
        ip: request.ip,
        resource: 'users',
        recordId: user.id,
        details: { email: user.email, role: updated.role },
      });
      await mailToUser(trx, approve ? 'registration-approved' : 'registration-rejected', user, {
        name: `${user.first_name} ${user.last_name}`,
        link: publicUrl('/login'),
      });
      return { data: updated };
    });
  };

  const userAnswer = {
    type: 'object',
    properties: { data: { type: 'object', additionalProperties: true } },
  };

  app.post(
    '/api/users/:id/approve',
    {
      config: { access: 'manage-users' },
      schema: {
        tags: ['users'],
        summary:
          'Approve a registration (optionally with the role it gets); the account can sign in.',
        params: idParams,
        body: {
          type: 'object',
          additionalProperties: false,
          properties: { role: { type: 'string', enum: [...ROLES] } },
        },
        response: { 200: userAnswer },
      },
    },
    decide(true),
  );

  app.post(
    '/api/users/:id/reject',
    {
      config: { access: 'manage-users' },
      schema: {
        tags: ['users'],
        summary: 'Decline a registration; the account stays unable to sign in.',
        params: idParams,
        response: { 200: userAnswer },
      },
    },
    decide(false),
  );

  app.post(
    '/api/users/:id/send-password-link',
    {
      config: { access: 'manage-users' },
      schema: {
        tags: ['users'],
        summary: 'Mail the account a link (valid 72 hours) to set its password.',
        params: idParams,
        response: { 202: message },
      },
    },
    async (request, reply) => {
      await db.transaction().execute(async (trx) => {
        const user = await manageable(request, trx);
        if (!user.is_active) throw new ApiError(409, 'This account is disabled.');
        await sendInvitation(trx, user);
        await audit(trx, 'password.link.sent', {
          userId: request.principal!.id,
          ip: request.ip,
          resource: 'users',
          recordId: user.id,
        });
      });
      return reply.status(202).send({ message: 'The mail has been sent.' });
    },
  );

  app.post(
    '/api/users/:id/revoke-sessions',
    {
      config: { access: 'manage-users' },
      schema: {
        tags: ['users'],
        summary: 'End every session of the account at once.',
        params: idParams,
        response: { 200: message },
      },
    },
    async (request) => {
      const user = await manageable(request);
      await revokeUserSessions(db, user.id);
      await audit(db, 'sessions.revoked', {
        userId: request.principal!.id,
        ip: request.ip,
        resource: 'users',
        recordId: user.id,
      });
      return { message: 'All sessions of this account have ended.' };
    },
  );
}
