/**
 * Server rules of the identity resources (registered by ./index.ts):
 * - users: who sees which accounts, no escalation (server/account/rights.ts), a disabled account's
 *   sessions end at once, an invitation mail for new accounts, audit entries;
 * - external-users: each is one login row in users (role PARTNER), kept in step here;
 * - sub-brokers: no parent cycles; an external user sees its own sub-broker only;
 * - sub-broker-rules: dateFrom ≤ dateTo;
 * - lead-sources: visible only to the roles in visibleRoles (and to those who manage them).
 */
import { sql } from 'kysely';
import { audit } from '../auth/audit.ts';
import { routeSetOf } from '../auth/permissions.ts';
import { revokeUserSessions } from '../auth/sessions.ts';
import { LEAD_SOURCE_MANAGER } from '../../src/schema/leads.ts';
import type { DB } from '../db/index.ts';
import { type ResourceRow, resourceDb } from '../db/resource.ts';
import type { HookContext, ResourceHooks, ScopeCondition, WriteContext } from '../crud/hooks.ts';
import { ApiError, type FieldErrors, issue, validationError } from '../http/errors.ts';
import { mailToUser } from '../mail/mailer.ts';
import { rightsBeyond, withinRights } from './rights.ts';
import { createPasswordToken, publicUrl, TOKEN_HOURS } from './tokens.ts';

type Errors = FieldErrors;

const NOTHING: ScopeCondition = (eb) => eb.val(false);
const jsonList = (value: unknown): string[] =>
  ((typeof value === 'string' ? JSON.parse(value) : value) as string[] | null) ?? [];
const sameSet = (a: unknown, b: unknown) => {
  const left = jsonList(a);
  const right = jsonList(b);
  return left.length === right.length && left.every((item) => right.includes(item));
};

/** The value a field will have after the write: the body's, else the stored one. */
const after = (body: ResourceRow, existing: ResourceRow | undefined, column: string) =>
  column in body ? body[column] : existing?.[column];

/** A date column's value as YYYY-MM-DD (inside transactions PGlite answers Date objects). */
const dateText = (value: unknown): string | undefined =>
  value instanceof Date
    ? value.toISOString().slice(0, 10)
    : ((value as string | null) ?? undefined);

/**
 * A date range must not end before it starts. Checked when a write sends both ends (the forms and
 * PUT always do): a PATCH of one end alone is not refused for the other, stored end, so that each
 * field can be changed on its own (the generic API contract).
 */
function dateOrder(
  body: ResourceRow,
  _existing: ResourceRow | undefined,
  from: string,
  to: string,
  errors: Errors,
) {
  if (!(from in body) || !(to in body)) return;
  const start = dateText(body[from]);
  const end = dateText(body[to]);
  if (start && end && end < start) errors[to] = [issue('notBeforeStart')];
}

/** Sends the invitation mail with a link to set the password (new accounts). */
export async function sendInvitation(db: DB, user: ResourceRow): Promise<void> {
  const token = await createPasswordToken(db, Number(user.id), 'invitation');
  await mailToUser(
    db,
    'invitation',
    { id: Number(user.id), email: String(user.email), language: user.language as string },
    {
      name: `${user.first_name} ${user.last_name}`,
      email: String(user.email),
      hours: TOKEN_HOURS.invitation,
      link: publicUrl(`/change-password?token=${encodeURIComponent(token)}`),
    },
  );
}

/** Audit entries and session revocation after a change of an account's login row. */
async function afterAccountChange(
  context: HookContext & { mode: 'create' | 'update' | 'delete'; existing?: ResourceRow },
  row: ResourceRow,
  resource: string,
): Promise<void> {
  const { db, principal } = context;
  const by = principal?.id ?? null;
  const entry = (event: string, details?: unknown) =>
    audit(db, event, { userId: by, resource, recordId: Number(row.id), details });
  if (context.mode === 'create') {
    await entry('user.created', {
      email: row.email,
      role: row.role,
      additional_permissions: jsonList(row.additional_permissions),
    });
    return;
  }
  if (context.mode === 'delete') {
    await entry('user.deleted', { email: row.email, role: row.role });
    return;
  }
  const before = context.existing ?? {};
  if (
    before.role !== row.role ||
    !sameSet(before.additional_permissions, row.additional_permissions)
  ) {
    await entry('permissions.changed', {
      before: {
        role: before.role,
        additional_permissions: jsonList(before.additional_permissions),
      },
      after: { role: row.role, additional_permissions: jsonList(row.additional_permissions) },
    });
  }
  if (before.is_active !== row.is_active) {
    if (row.is_active === false) await revokeUserSessions(db, Number(row.id));
    await entry(row.is_active ? 'user.enabled' : 'user.disabled');
  }
  if (String(before.email).toLowerCase() !== String(row.email).toLowerCase()) {
    await entry('user.email.changed', { before: before.email, after: row.email });
  }
}

/** Login rows of external users are managed as external-users, not as staff. */
const staffOnly: ScopeCondition = (eb) =>
  eb.not(
    eb.exists(
      eb.selectFrom('external_users as x').select('x.id').whereRef('x.user_id', '=', 'users.id'),
    ),
  );

export const userHooks: ResourceHooks = {
  /**
   * User managers and the admin route set see every staff account; anyone else only their own
   * (another id answers 404). External users' login rows are not staff.
   */
  scope({ principal }) {
    if (!principal) return NOTHING;
    if (
      !principal.subBrokerId &&
      (principal.permissions.includes('manage-users') || routeSetOf(principal.role) === 'admin')
    ) {
      return staffOnly;
    }
    return (eb) => eb('users.id', '=', principal.id);
  },

  validate(body, context: WriteContext) {
    const principal = context.principal!;
    const existing = context.existing;
    const errors: Errors = {};
    if (
      existing &&
      !withinRights(principal, {
        role: String(existing.role),
        additionalPermissions: existing.additional_permissions,
      })
    ) {
      throw new ApiError(403, 'accountRights');
    }
    if (existing && existing.id === principal.id) {
      if (body.role !== undefined && body.role !== existing.role) errors.role = [issue('ownRole')];
      if (
        body.additional_permissions !== undefined &&
        !sameSet(body.additional_permissions, existing.additional_permissions)
      )
        errors.additional_permissions = [issue('ownPermissions')];
      if (body.is_active === false) errors.is_active = [issue('ownDisable')];
    }
    // What the role brings, then what the additional permissions add: each must be held.
    const role = String(after(body, existing, 'role'));
    const fromRole = rightsBeyond(principal, { role });
    const fromAdditional = rightsBeyond(principal, {
      role,
      additionalPermissions: after(body, existing, 'additional_permissions'),
    }).filter((name) => !fromRole.includes(name));
    if (fromRole.length > 0 && !errors.role) {
      errors.role = fromRole.includes('role')
        ? [issue('roleSeesMore')]
        : [issue('rolePermissions', { permissions: fromRole.join(', ') })];
    }
    if (fromAdditional.length > 0 && !errors.additional_permissions) {
      errors.additional_permissions = [
        issue('grantPermissions', { permissions: fromAdditional.join(', ') }),
      ];
    }
    dateOrder(body, existing, 'date_from', 'date_to', errors);
    if (existing && body.leader !== undefined && body.leader === existing.id)
      errors.leader = [issue('notSelf')];
    return errors;
  },

  async afterWrite(row, context) {
    const principal = context.principal!;
    if (context.mode === 'delete') {
      if (row.id === principal.id) throw new ApiError(409, 'deleteOwnAccount');
      if (
        !withinRights(principal, {
          role: String(row.role),
          additionalPermissions: row.additional_permissions,
        })
      )
        throw new ApiError(403, 'deleteAccountRights');
    }
    await afterAccountChange(context, row, 'users');
    if (context.mode === 'create') await sendInvitation(context.db, row);
  },
};

/**
 * The login row's columns of an external user: the external-users model's values (validated by its
 * schema, unknown to the compiler), so the login row is written through the resource view.
 */
function loginColumns(values: ResourceRow): ResourceRow {
  const out: ResourceRow = {};
  for (const column of ['first_name', 'last_name', 'email', 'phone', 'language', 'is_active']) {
    if (column in values) out[column] = values[column];
  }
  return out;
}

export const externalUserHooks: ResourceHooks = {
  async prepare(values, context) {
    // After the reference checks (as a unique index would): the login row's email is unique too.
    if (values.email !== undefined && values.email !== null) {
      const clash = await context.db
        .selectFrom('users')
        .select('id')
        .where(sql`lower(email)`, '=', String(values.email).toLowerCase())
        .where('id', '!=', Number(context.existing?.user_id ?? 0))
        .executeTakeFirst();
      if (clash) throw validationError({ email: [issue('unique')] });
    }
    if (context.mode === 'create') {
      const user = await resourceDb(context.db)
        .insertInto('users')
        .values({
          ...loginColumns(values),
          role: 'PARTNER',
          additional_permissions: '[]',
          registration_status: 'approved',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { ...values, user_id: user.id };
    }
    const login = loginColumns(values);
    if (Object.keys(login).length > 0 && context.existing?.user_id) {
      await resourceDb(context.db)
        .updateTable('users')
        .set({ ...login, updated_at: sql`now()` })
        .where('id', '=', Number(context.existing.user_id))
        .execute();
    }
    return values;
  },

  async afterWrite(row, context) {
    const userId = Number(row.user_id);
    const login = { ...row, id: userId };
    if (context.mode === 'delete') {
      await context.db.deleteFrom('users').where('id', '=', userId).execute();
      await audit(context.db, 'user.deleted', {
        userId: context.principal?.id,
        resource: 'external-users',
        recordId: Number(row.id),
        details: { email: row.email, sub_broker_id: row.sub_broker_id },
      });
      return;
    }
    if (context.mode === 'update' && context.existing?.is_active !== row.is_active) {
      if (row.is_active === false) await revokeUserSessions(context.db, userId);
      await audit(context.db, row.is_active ? 'user.enabled' : 'user.disabled', {
        userId: context.principal?.id,
        resource: 'external-users',
        recordId: Number(row.id),
      });
    }
    if (context.mode === 'create') {
      await audit(context.db, 'user.created', {
        userId: context.principal?.id,
        resource: 'external-users',
        recordId: Number(row.id),
        details: { email: row.email, sub_broker_id: row.sub_broker_id, role: 'PARTNER' },
      });
      await sendInvitation(context.db, login);
    }
  },
};

export const subBrokerHooks: ResourceHooks = {
  scope({ principal }) {
    if (principal?.subBrokerId) return (eb) => eb('id', '=', principal.subBrokerId!);
    return undefined;
  },

  async validate(body, context) {
    const parent = body.parent_id as number | null | undefined;
    const self = context.existing?.id as number | undefined;
    if (!parent || self === undefined) return undefined;
    // Walk up from the new parent: reaching this sub-broker would close a cycle.
    let current: number | null = parent;
    for (let step = 0; current !== null && step < 100; step++) {
      if (current === self) return { parent_id: [issue('notBelowItself')] };
      const row = await context.db
        .selectFrom('sub_brokers')
        .select('parent_id')
        .where('id', '=', current)
        .executeTakeFirst();
      current = row?.parent_id ?? null;
    }
    return undefined;
  },
};

export const subBrokerRuleHooks: ResourceHooks = {
  validate(body, context) {
    const errors: Errors = {};
    dateOrder(body, context.existing, 'date_from', 'date_to', errors);
    return errors;
  },
};

export const leadSourceHooks: ResourceHooks = {
  /**
   * Visible to the roles in visibleRoles; those who manage lead sources see them all (the one
   * rule, src/schema/leads.ts leadSourceVisible).
   */
  scope({ principal }) {
    if (!principal) return NOTHING;
    if (principal.permissions.includes(LEAD_SOURCE_MANAGER)) return undefined;
    return () => sql`visible_roles @> ${JSON.stringify([principal.role])}::jsonb`;
  },
};
