/**
 * Password flows:
 *   POST /api/account/forgot-password  {email} → 202 (public; the same answer whether the account
 *        exists): mails a single-use link, valid 1 hour
 *   POST /api/account/reset-password   {token, new_password, confirm_password} → 200 (public): sets
 *        the password with the token of a reset or invitation mail and ends every session
 *   POST /api/account/password         {old_password, new_password, confirm_password} (signed in,
 *        external users too): other sessions end, this one stays signed in
 * The password rule is the one the browser checks (src/schema/passwordRule.ts), plus its strength
 * check (no common password, nothing made of the user's name or e-mail), run after the flow's own
 * throttle. A completed reset also clears the account's failed sign-ins (the login throttle counts
 * failures since `password_changed_at`, server/auth/throttle.ts): the reset mail is the owner's
 * way in.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import {
  checkedPasswordFieldErrors,
  type PasswordOwner,
  passwordFieldErrors,
} from '../../src/schema/passwordRule.ts';
import { audit } from '../auth/audit.ts';
import { hashPassword, verifyPassword } from '../auth/password.ts';
import { revokeUserSessions } from '../auth/sessions.ts';
import type { DB } from '../db/index.ts';
import { ApiError, assertNoErrors, issue, validationError } from '../http/errors.ts';
import { MESSAGE_SCHEMA } from '../http/lists.ts';
import { mailToUser } from '../mail/mailer.ts';
import { recentEvents, THROTTLES, TOO_MANY } from './throttles.ts';
import {
  consumePasswordToken,
  createPasswordToken,
  peekPasswordToken,
  publicUrl,
  TOKEN_HOURS,
} from './tokens.ts';
import { userRow } from './users.ts';
import { writeTransaction } from '../audit/context.ts';

/** A password as sent (the rule itself is checked by passwordFieldErrors). */
export const PASSWORD_SCHEMA = { type: 'string', minLength: 1, maxLength: 200 } as const;

const ACCEPTED_RESET =
  'If an account exists for this address, we have sent an email with a link to set a new password.';

async function checkNewPassword(
  newPassword: string,
  confirm: string,
  owner: PasswordOwner,
): Promise<void> {
  assertNoErrors(
    await checkedPasswordFieldErrors(newPassword, confirm, owner),
    'newPasswordInvalid',
  );
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

interface ResetBody {
  token: string;
  new_password: string;
  confirm_password: string;
}

interface ChangeBody {
  old_password: string;
  new_password: string;
  confirm_password: string;
}

export async function passwordRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;

  app.post<{ Body: { email: string } }>(
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
        response: { 202: MESSAGE_SCHEMA },
      },
    },
    async (request, reply) => {
      const email = request.body.email.trim().toLowerCase();
      const ip = request.ip;
      if (
        (await recentEvents(db, 'password.reset.requested', { ip })) >=
        THROTTLES.resetRequestsPerAddress
      ) {
        throw new ApiError(429, TOO_MANY);
      }
      const mailsSent = await recentEvents(db, 'password.reset.mailed', { email });
      await writeTransaction(db, request, async (trx) => {
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

  app.post<{ Body: ResetBody }>(
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
            new_password: PASSWORD_SCHEMA,
            confirm_password: PASSWORD_SCHEMA,
          },
        },
        response: { 200: MESSAGE_SCHEMA },
      },
    },
    async (request) => {
      const body = request.body;
      const ip = request.ip;
      if (
        (await recentEvents(db, 'password.reset.failed', { ip })) >=
        THROTTLES.failedResetsPerAddress
      ) {
        throw new ApiError(429, TOO_MANY);
      }
      // The rule and the strength check before the token is used: a refused password keeps the
      // link working. An unknown or spent token is refused below whatever the password.
      // (The strength check's CPU is spent only for a token that works.)
      const holder = await peekPasswordToken(db, body.token);
      const owner = holder ? await userRow(db, holder.userId) : undefined;
      if (owner) {
        await checkNewPassword(body.new_password, body.confirm_password, {
          firstName: owner.first_name,
          lastName: owner.last_name,
          email: owner.email,
        });
      } else {
        assertNoErrors(
          passwordFieldErrors(body.new_password, body.confirm_password),
          'newPasswordInvalid',
        );
      }
      const done = await writeTransaction(db, request, async (trx) => {
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
        throw validationError({ token: [issue('resetToken')] }, 'resetLink');
      }
      return { message: 'Your password has been set. You can sign in now.' };
    },
  );

  app.post<{ Body: ChangeBody }>(
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
            old_password: PASSWORD_SCHEMA,
            new_password: PASSWORD_SCHEMA,
            confirm_password: PASSWORD_SCHEMA,
          },
        },
        response: { 200: MESSAGE_SCHEMA },
      },
    },
    async (request) => {
      const principal = request.principal!;
      const body = request.body;
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
        throw validationError({ old_password: [issue('wrongPassword')] });
      }
      await checkNewPassword(body.new_password, body.confirm_password, principal);
      if (body.new_password === body.old_password) {
        throw validationError({ new_password: [issue('samePassword')] });
      }
      await writeTransaction(db, request, async (trx) => {
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
}
