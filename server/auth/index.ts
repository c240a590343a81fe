/**
 * The sign-in feature: POST /api/auth/login, POST /api/auth/logout, GET /api/auth/me
 * (docs/ARCHITECTURE.md §3). Tokens are resolved for every request by server/access/control.ts.
 * A wrong password, an unknown email, a disabled account and one outside its active date range all
 * get the same 401; only a correct password of a registration still waiting for approval is told so.
 * Every password evaluation is first reserved with the login throttle (./throttle.ts: the rule, and
 * why it cannot be raced); a throttled attempt answers 429 with `Retry-After`.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Preferences } from '../../src/schema/preferences.ts';
import { PREFERENCES_WIRE_SCHEMA } from '../../src/schema/preferences.ts';
import { reportsOf } from '../../src/schema/reports.ts';
import { loadPreferences, preferencesWire } from '../account/preferences.ts';
import { ApiError, issue } from '../http/errors.ts';
import { dataSchema } from '../http/lists.ts';
import { audit } from './audit.ts';
import { getDummyHash, hashPassword, needsRehash, verifyPassword } from './password.ts';
import { routeSetOf } from './permissions.ts';
import { type LoginThrottle, recordSuccess, reserveAttempt } from './throttle.ts';
import {
  accountUsable,
  createSession,
  principalRights,
  revokeSession,
  type SessionPolicy,
  type SessionUser,
} from './sessions.ts';

export { DEFAULT_THROTTLE, type LoginThrottle } from './throttle.ts';

const userShape = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    email: { type: 'string' },
    first_name: { type: 'string' },
    last_name: { type: 'string' },
    role: { type: 'string' },
    language: { type: ['string', 'null'] },
    permissions: { type: 'array', items: { type: 'string' } },
    route_set: { type: ['string', 'null'] },
    sub_broker_id: { type: ['integer', 'null'] },
    reports: { type: 'array', items: { type: 'string' } },
    preferences: PREFERENCES_WIRE_SCHEMA,
  },
} as const;

export const WAITING_FOR_APPROVAL = 'waitingForApproval';

/**
 * The signed-in user as the browser sees it. Route sets follow the role (spec §2); external users
 * (role PARTNER, sub_broker_id set) get none in this app: their access is the API, scoped to their
 * sub-broker (docs/ARCHITECTURE.md §5).
 */
export const publicUser = (user: SessionUser, preferences: Preferences) => ({
  id: user.id,
  email: user.email,
  first_name: user.firstName,
  last_name: user.lastName,
  role: user.role,
  language: user.language,
  permissions: user.permissions,
  route_set: user.subBrokerId ? null : routeSetOf(user.role),
  sub_broker_id: user.subBrokerId,
  reports: user.reports,
  preferences: preferencesWire(preferences),
});

export interface AuthOptions {
  policy: SessionPolicy;
  throttle: LoginThrottle;
}

interface LoginBody {
  email: string;
  password: string;
}

export default async function auth(app: FastifyInstance, options: AuthOptions): Promise<void> {
  const { db } = app;

  app.post<{ Body: LoginBody }>(
    '/api/auth/login',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary:
          'Sign in with email and password; answers a bearer token. 401 for any wrong combination, 403 while a registration waits for approval, 429 when throttled.',
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['email', 'password'],
          properties: {
            email: { type: 'string', minLength: 3, maxLength: 254 },
            password: { type: 'string', minLength: 1, maxLength: 200 },
          },
        },
        response: {
          200: {
            type: 'object',
            properties: { token: { type: 'string' }, role: { type: 'string' }, user: userShape },
          },
        },
      },
    },
    async (request, reply) => {
      const { email, password } = request.body;
      const account = email.trim().toLowerCase();
      const ip = request.ip;
      const reservation = await reserveAttempt(db, account, ip, options.throttle);
      if (reservation.kind === 'throttled') {
        await audit(db, 'login.throttled', {
          ip,
          details: { email: account, reason: reservation.reason },
        });
        reply.header('retry-after', String(reservation.retryAfterSeconds));
        throw new ApiError(
          429,
          reservation.reason === 'account'
            ? 'throttledAccount'
            : issue('throttledAddress', { seconds: reservation.retryAfterSeconds }),
        );
      }
      if (reservation.waitMs > 0) await sleep(reservation.waitMs);
      const user = await db
        .selectFrom('users as u')
        .leftJoin('user_credentials as c', 'c.user_id', 'u.id')
        .leftJoin('external_users as e', 'e.user_id', 'u.id')
        .select([
          'u.id',
          'u.email',
          'u.first_name',
          'u.last_name',
          'u.role',
          'u.language',
          'u.registration_status',
          'u.additional_permissions',
          'u.reports',
          'c.password_hash',
          'e.sub_broker_id',
          accountUsable.as('usable'),
        ])
        .where(sql`lower(u.email)`, '=', account)
        .executeTakeFirst();
      const hash = user?.password_hash ?? (await getDummyHash());
      const passwordOk = await verifyPassword(password, hash);
      const success = Boolean(user?.password_hash && passwordOk && user.usable);
      if (success) await recordSuccess(db, reservation.attemptId);
      if (!user || !success) {
        const waiting = Boolean(passwordOk && user?.registration_status === 'pending');
        await audit(db, waiting ? 'login.pending' : 'login.failed', {
          userId: user?.id ?? null,
          ip,
          details: { email: account },
        });
        // Only someone who knows the password learns that the registration is still pending.
        if (waiting) throw new ApiError(403, WAITING_FOR_APPROVAL);
        throw new ApiError(401, 'loginFailed');
      }
      if (user.password_hash && needsRehash(user.password_hash)) {
        await db
          .updateTable('user_credentials')
          .set({ password_hash: await hashPassword(password) })
          .where('user_id', '=', user.id)
          .execute();
      }
      const token = await createSession(db, user.id, options.policy, {
        ip,
        userAgent: request.headers['user-agent'],
      });
      await audit(db, 'login', { userId: user.id, ip });
      const sessionUser: SessionUser = {
        sessionId: 0,
        id: user.id,
        email: user.email,
        firstName: user.first_name,
        lastName: user.last_name,
        role: user.role,
        language: user.language,
        ...principalRights(user.role, user.additional_permissions, user.sub_broker_id),
        reports: reportsOf(user.role, user.reports, user.sub_broker_id !== null),
      };
      return reply.send({
        token,
        role: user.role,
        user: publicUser(sessionUser, await loadPreferences(db, user.id)),
      });
    },
  );

  app.post(
    '/api/auth/logout',
    {
      config: { access: 'authenticated', external: true },
      schema: { tags: ['auth'], summary: 'Revoke the current token.' },
    },
    async (request, reply) => {
      const principal = request.principal!;
      await revokeSession(db, principal.sessionId);
      await audit(db, 'logout', { userId: principal.id, ip: request.ip });
      return reply.status(204).send();
    },
  );

  app.get(
    '/api/auth/me',
    {
      config: { access: 'authenticated', external: true },
      schema: {
        tags: ['auth'],
        summary: 'The signed-in user, with its preferences.',
        response: { 200: dataSchema(userShape) },
      },
    },
    async (request) => ({
      data: publicUser(request.principal!, await loadPreferences(db, request.principal!.id)),
    }),
  );
}
