/**
 * The user managers' actions on an account (manage-users), beyond the users resource's CRUD:
 *   POST /api/users/:id/approve {role?}    a pending registration can sign in (with that role)
 *   POST /api/users/:id/reject             a pending registration is declined
 *   POST /api/users/:id/send-password-link mails a link (valid 72 hours) to set the password
 *   POST /api/users/:id/revoke-sessions    ends every session of the account
 * Only within the manager's own rights (./rights.ts): an account with more rights answers 403.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { audit } from '../auth/audit.ts';
import { ROLES } from '../auth/permissions.ts';
import { revokeUserSessions } from '../auth/sessions.ts';
import type { DB } from '../db/index.ts';
import { ApiError, forbidden, issue, notFound, validationError } from '../http/errors.ts';
import { dataSchema, MESSAGE_SCHEMA } from '../http/lists.ts';
import { type IdParams, idParams } from '../http/params.ts';
import { mailToUser } from '../mail/mailer.ts';
import { sendInvitation } from './hooks.ts';
import { rightsBeyond, withinRights } from './rights.ts';
import { publicUrl } from './tokens.ts';
import { writeTransaction } from '../audit/context.ts';

/** The account's login row, with the id of its external-user profile when it is one. */
export const userRow = (db: DB, id: number) =>
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

const userAnswer = dataSchema({ type: 'object', additionalProperties: true });

type AccountRequest = FastifyRequest<{ Params: IdParams; Body?: { role?: string } }>;

export async function userAdminRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;

  /** A staff or external account the manager may act on, else 404 / 403. */
  const manageable = async (request: AccountRequest, database: DB = db) => {
    const principal = request.principal!;
    const user = await userRow(database, request.params.id);
    if (!user) throw notFound('User');
    if (
      !withinRights(principal, {
        role: user.role,
        additionalPermissions: user.additional_permissions,
      })
    )
      throw forbidden('accountRights');
    return user;
  };

  const decide = (approve: boolean) => async (request: AccountRequest) => {
    const principal = request.principal!;
    const role = request.body?.role;
    return writeTransaction(db, request, async (trx) => {
      const user = await manageable(request, trx);
      if (user.registration_status !== 'pending') {
        throw new ApiError(409, 'notWaitingForApproval');
      }
      if (approve) {
        const beyond = rightsBeyond(principal, {
          role: role ?? user.role,
          additionalPermissions: user.additional_permissions,
        });
        if (beyond.length > 0) throw validationError({ role: [issue('roleRights')] });
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

  app.post<{ Params: IdParams; Body?: { role?: string } }>(
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

  app.post<{ Params: IdParams }>(
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

  app.post<{ Params: IdParams }>(
    '/api/users/:id/send-password-link',
    {
      config: { access: 'manage-users' },
      schema: {
        tags: ['users'],
        summary: 'Mail the account a link (valid 72 hours) to set its password.',
        params: idParams,
        response: { 202: MESSAGE_SCHEMA },
      },
    },
    async (request, reply) => {
      await writeTransaction(db, request, async (trx) => {
        const user = await manageable(request, trx);
        if (!user.is_active) throw new ApiError(409, 'accountDisabled');
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

  app.post<{ Params: IdParams }>(
    '/api/users/:id/revoke-sessions',
    {
      config: { access: 'manage-users' },
      schema: {
        tags: ['users'],
        summary: 'End every session of the account at once.',
        params: idParams,
        response: { 200: MESSAGE_SCHEMA },
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
