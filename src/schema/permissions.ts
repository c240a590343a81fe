/**
 * The one list of roles and permission names (spec §6), shared by the browser and the server.
 * The server's role table (server/auth/permissions.ts) and the schema vocabulary use these types;
 * the enums in schemas/definitions.json (`permission`, `role`) are checked against these lists by
 * tests/unit/schemas.test.ts, so a name exists once.
 */
export const PERMISSIONS = [
  'manage-translation-keys',
  'manage-users',
  'manage-companies',
  'manage-sub-brokers',
  'contract-export-page',
  'contract-simple-export',
  'delete-contracts',
  'manage-commissions',
  'manage-commission-rules',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const ROLES = [
  'EMPLOYEE',
  'ADMIN',
  'PARTNER',
  'CONSULTANT',
  'BACKOFFICE',
  'BACKOFFICE-CALLCENTER',
] as const;
export type Role = (typeof ROLES)[number];

/** Who may do an action: a named permission, any signed-in user, or nobody through the API. */
export type AccessRule = Permission | 'authenticated' | 'nobody';

/** The web app's route sets (spec §2): which area a role signs in to, if any. */
export type RouteSet = 'admin' | 'consultant' | null;

export function routeSetOf(role: string): RouteSet {
  if (role === 'ADMIN' || role === 'BACKOFFICE' || role === 'BACKOFFICE-CALLCENTER') return 'admin';
  if (role === 'CONSULTANT') return 'consultant';
  return null;
}

export const isPermission = (value: string): value is Permission =>
  (PERMISSIONS as readonly string[]).includes(value);
