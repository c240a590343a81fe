/**
 * Registration (public): POST /api/account/register {first_name, last_name, email, phone?,
 * language?, password, confirm_password} → 202. The account is created inactive and pending until
 * a user manager approves it (./users.ts); the same answer whether the address exists (its owner
 * gets a mail instead), and the managers are told by mail. The password must pass the rule and
 * the strength check (src/schema/passwordRule.ts: not common, not made of the name or e-mail).
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { checkedPasswordFieldErrors, passwordFieldErrors } from '../../src/schema/passwordRule.ts';
import { audit } from '../auth/audit.ts';
import { hashPassword } from '../auth/password.ts';
import { ApiError, assertNoErrors } from '../http/errors.ts';
import { MESSAGE_SCHEMA } from '../http/lists.ts';
import { mailToUser } from '../mail/mailer.ts';
import { PASSWORD_SCHEMA } from './password.ts';
import { recentEvents, THROTTLES, TOO_MANY } from './throttles.ts';
import { publicUrl } from './tokens.ts';
import { writeTransaction } from '../audit/context.ts';

const ACCEPTED_REGISTRATION =
  'Thank you. If the address can be registered, you will receive a confirmation by email; an administrator approves new accounts.';

interface RegisterBody {
  first_name: string;
  last_name: string;
  email: string;
  phone?: string;
  language?: string;
  password: string;
  confirm_password: string;
}

export async function registrationRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;

  app.post<{ Body: RegisterBody }>(
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
            phone: { type: 'string', maxLength: 40, format: 'phone' },
            language: { type: 'string', enum: ['de', 'en', 'fr', 'it'] },
            password: PASSWORD_SCHEMA,
            confirm_password: PASSWORD_SCHEMA,
          },
        },
        response: { 202: MESSAGE_SCHEMA },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const fields = { password: 'password', confirm: 'confirm_password' };
      assertNoErrors(passwordFieldErrors(body.password, body.confirm_password, fields));
      const ip = request.ip;
      if ((await recentEvents(db, 'register', { ip })) >= THROTTLES.registerPerAddress) {
        throw new ApiError(429, TOO_MANY);
      }
      const email = body.email.trim().toLowerCase();
      // The strength check costs CPU: only after the throttle let the request in.
      assertNoErrors(
        await checkedPasswordFieldErrors(
          body.password,
          body.confirm_password,
          { firstName: body.first_name, lastName: body.last_name, email },
          fields,
        ),
      );
      const language = body.language ?? 'de';
      const hash = await hashPassword(body.password);
      await writeTransaction(db, request, async (trx) => {
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
}
