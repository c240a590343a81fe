/**
 * Nobody raises their own rights (issue 3): a user manager (manage-users) may only create, change,
 * approve or delete accounts whose rights — before and after the change — are within their own:
 * every permission of the account's role and additional permissions is one the manager holds, and
 * the account's role sees no more customer data than the manager's (all > own customers > none).
 * A manager cannot change their own role or permissions, nor disable or delete themselves.
 */
import { type Principal, permissionsOf } from '../auth/permissions.ts';
import { visibilityModeOf } from '../access/visibility.ts';

const MODE_RANK = { all: 2, owner: 1, 'sub-broker': 0, none: 0 } as const;

export interface AccountRights {
  role: string;
  additionalPermissions?: unknown;
}

/** The permissions an account with this role and these additional permissions holds. */
export const accountPermissions = (account: AccountRights): string[] =>
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
