/**
 * Nobody raises their own rights (issue 3): a user manager (manage-users) may only create, change,
 * approve or delete accounts whose rights — before and after the change — are within their own:
 * every permission of the account's role and additional permissions is one the manager holds, and
 * the account's role sees no more customer data than the manager's (all > own customers > none).
 * A manager cannot change their own role or permissions, nor disable or delete themselves.
 * `hasFewerRights` (strictly less than the principal) decides who may read another account's
 * password link in the demo outbox (server/mail/outbox.ts).
 */
import type { Permission } from '../../src/schema/permissions.ts';
import { type Principal, permissionsOf } from '../auth/permissions.ts';
import { visibilityModeOf } from '../access/visibility.ts';

const MODE_RANK = { all: 2, owner: 1, 'sub-broker': 0, none: 0 } as const;

export interface AccountRights {
  role: string;
  additionalPermissions?: unknown;
}

/** The permissions an account with this role and these additional permissions holds. */
export const accountPermissions = (account: AccountRights): Permission[] =>
  permissionsOf(account.role, (account.additionalPermissions as string[] | null) ?? []);

/** What in the account's rights the principal does not hold: permission names, or 'role'. */
export function rightsBeyond(principal: Principal, account: AccountRights): string[] {
  const beyond: string[] = accountPermissions(account).filter(
    (permission) => !principal.permissions.includes(permission as never),
  );
  const accountMode = visibilityModeOf({ id: 0, role: account.role, permissions: [] });
  if (MODE_RANK[accountMode] > MODE_RANK[visibilityModeOf(principal)]) beyond.unshift('role');
  return beyond;
}

export const withinRights = (principal: Principal, account: AccountRights): boolean =>
  rightsBeyond(principal, account).length === 0;

/**
 * The account's rights are within the principal's and the principal's are not within the
 * account's: strictly fewer (never the principal itself, nor a peer with the same rights).
 */
export function hasFewerRights(
  principal: Principal,
  account: AccountRights & { id: number; subBrokerId?: number | null },
): boolean {
  if (account.id === principal.id || !withinRights(principal, account)) return false;
  const accountAsPrincipal: Principal = {
    id: account.id,
    role: account.role,
    // External users hold no permissions (server/auth/sessions.ts principalRights).
    permissions: account.subBrokerId ? [] : accountPermissions(account),
    subBrokerId: account.subBrokerId ?? null,
  };
  return !withinRights(accountAsPrincipal, {
    role: principal.role,
    additionalPermissions: principal.permissions,
  });
}
