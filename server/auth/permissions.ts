/**
 * Roles, route sets and permissions (spec §2, §6). A user's permissions are its role's defaults
 * (the table below) plus its `additionalPermissions`; external users (a sub-broker's accounts,
 * role PARTNER) hold none (server/auth/sessions.ts principalRights). The server checks them on every
 * route; who sees which records is server/access/visibility.ts, who may grant what
 * server/account/rights.ts (docs/ARCHITECTURE.md, "Identity and access").
 */
import {
  type AccessRule,
  PERMISSIONS,
  type Permission,
  type Role,
  ROLES,
  routeSetOf,
} from '../../src/schema/permissions.ts';

export { PERMISSIONS, ROLES, routeSetOf };
export type { Role };

/**
 * Role defaults, as a brokerage would expect: admins everything; back office runs the
 * reference data, contracts and commissions but not users or translations; the call centre and
 * consultants work with their customers only; employees and partners have no back-office rights.
 */
export const ROLE_PERMISSIONS: Record<Role, Permission[]> = {
  ADMIN: [...PERMISSIONS],
  BACKOFFICE: [
    'manage-companies',
    'manage-sub-brokers',
    'contract-export-page',
    'contract-simple-export',
    'delete-contracts',
    'manage-commissions',
    'manage-commission-rules',
  ],
  'BACKOFFICE-CALLCENTER': ['contract-simple-export'],
  CONSULTANT: [],
  EMPLOYEE: [],
  PARTNER: [],
};

export function permissionsOf(role: string, additional: readonly string[] = []): Permission[] {
  // Own keys only: a role such as "constructor" must not reach Object.prototype.
  const own = Object.hasOwn(ROLE_PERMISSIONS, role) ? ROLE_PERMISSIONS[role as Role] : [];
  const extra = additional.filter((permission): permission is Permission =>
    PERMISSIONS.includes(permission as Permission),
  );
  return PERMISSIONS.filter((permission) => own.includes(permission) || extra.includes(permission));
}

export interface Principal {
  id: number;
  role: string;
  permissions: Permission[];
  /** Set for external users (accounts of a sub-broker): they see that sub-broker's records only. */
  subBrokerId?: number | null;
}

export function isAllowed(rule: AccessRule | 'public', principal: Principal | undefined): boolean {
  if (rule === 'public') return true;
  if (!principal || rule === 'nobody') return false;
  if (rule === 'authenticated') return true;
  return principal.permissions.includes(rule);
}
