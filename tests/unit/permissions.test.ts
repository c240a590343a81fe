/** Roles, route sets and permissions (server/auth/permissions.ts). */
import { describe, expect, it } from 'vitest';
import {
  isAllowed,
  PERMISSIONS,
  type Principal,
  permissionsOf,
  ROLE_PERMISSIONS,
  ROLES,
  routeSetOf,
} from '../../server/auth/permissions.ts';

const principal = (role: string, additional: string[] = []): Principal => ({
  id: 1,
  role,
  permissions: permissionsOf(role, additional),
});

describe('role defaults', () => {
  it('defines defaults for every role, with known permissions only', () => {
    expect(Object.keys(ROLE_PERMISSIONS).sort()).toEqual([...ROLES].sort());
    for (const permissions of Object.values(ROLE_PERMISSIONS)) {
      for (const permission of permissions) expect(PERMISSIONS).toContain(permission);
    }
    expect(new Set(PERMISSIONS).size).toBe(PERMISSIONS.length);
  });

  it('gives admins every permission', () => {
    expect(permissionsOf('ADMIN')).toEqual(PERMISSIONS);
  });

  it('gives back office the reference data, contracts and commissions, but not users or translations', () => {
    const backoffice = permissionsOf('BACKOFFICE');
    expect(backoffice).toEqual([
      'manage-companies',
      'manage-sub-brokers',
      'contract-export-page',
      'contract-simple-export',
      'delete-contracts',
      'manage-commissions',
      'manage-commission-rules',
    ]);
    expect(backoffice).not.toContain('manage-users');
    expect(backoffice).not.toContain('manage-translation-keys');
  });

  it('gives the call centre the simple export only', () => {
    expect(permissionsOf('BACKOFFICE-CALLCENTER')).toEqual(['contract-simple-export']);
  });

  it('gives consultants, employees and partners nothing', () => {
    for (const role of ['CONSULTANT', 'EMPLOYEE', 'PARTNER'])
      expect(permissionsOf(role), role).toEqual([]);
  });

  it('gives an unknown role nothing (fail closed), also for near misses', () => {
    for (const role of [
      '',
      'admin',
      'SUPERUSER',
      'ADMIN ',
      'toString',
      '__proto__',
      'constructor',
    ]) {
      expect(permissionsOf(role), JSON.stringify(role)).toEqual([]);
    }
  });
});

describe('additionalPermissions', () => {
  it('adds known permissions to the role defaults', () => {
    expect(permissionsOf('CONSULTANT', ['manage-companies'])).toEqual(['manage-companies']);
    expect(permissionsOf('BACKOFFICE-CALLCENTER', ['manage-users', 'delete-contracts'])).toEqual([
      'manage-users',
      'contract-simple-export',
      'delete-contracts',
    ]);
  });

  it('ignores unknown strings', () => {
    expect(permissionsOf('EMPLOYEE', ['root', 'MANAGE-USERS', 'manage-users ', '', '*'])).toEqual(
      [],
    );
    expect(permissionsOf('CONSULTANT', ['bogus', 'manage-commissions'])).toEqual([
      'manage-commissions',
    ]);
  });

  it('answers each permission once, in the canonical order, without duplicates', () => {
    const merged = permissionsOf('BACKOFFICE', [
      'manage-companies',
      'manage-companies',
      'manage-users',
    ]);
    expect(merged).toEqual(PERMISSIONS.filter((permission) => merged.includes(permission)));
    expect(new Set(merged).size).toBe(merged.length);
    expect(merged).toHaveLength(ROLE_PERMISSIONS.BACKOFFICE.length + 1);
  });

  it('cannot take anything away from the role defaults', () => {
    expect(permissionsOf('ADMIN', [])).toEqual(PERMISSIONS);
  });

  it('does not change the role table', () => {
    permissionsOf('CONSULTANT', ['manage-users']);
    expect(ROLE_PERMISSIONS.CONSULTANT).toEqual([]);
  });
});

describe('routeSetOf', () => {
  it('sends admins, back office and the call centre to the admin routes', () => {
    for (const role of ['ADMIN', 'BACKOFFICE', 'BACKOFFICE-CALLCENTER'])
      expect(routeSetOf(role), role).toBe('admin');
  });

  it('sends consultants to the consultant routes', () => {
    expect(routeSetOf('CONSULTANT')).toBe('consultant');
  });

  it('gives employees, partners and unknown roles no route set', () => {
    for (const role of ['EMPLOYEE', 'PARTNER', 'admin', '', 'OTHER'])
      expect(routeSetOf(role), role).toBeNull();
  });
});

describe('isAllowed', () => {
  it('lets anyone through a public route, signed in or not', () => {
    expect(isAllowed('public', undefined)).toBe(true);
    expect(isAllowed('public', principal('PARTNER'))).toBe(true);
  });

  it('lets any signed-in user through an authenticated route, and nobody else', () => {
    expect(isAllowed('authenticated', undefined)).toBe(false);
    for (const role of ROLES) expect(isAllowed('authenticated', principal(role)), role).toBe(true);
    expect(isAllowed('authenticated', principal('UNKNOWN'))).toBe(true);
  });

  it('lets nobody through a nobody route, not even an admin', () => {
    expect(isAllowed('nobody', undefined)).toBe(false);
    expect(isAllowed('nobody', principal('ADMIN'))).toBe(false);
  });

  it('needs the named permission', () => {
    expect(isAllowed('manage-users', undefined)).toBe(false);
    expect(isAllowed('manage-users', principal('ADMIN'))).toBe(true);
    expect(isAllowed('manage-users', principal('BACKOFFICE'))).toBe(false);
    expect(isAllowed('manage-companies', principal('BACKOFFICE'))).toBe(true);
    expect(isAllowed('manage-companies', principal('CONSULTANT'))).toBe(false);
    expect(isAllowed('manage-companies', principal('CONSULTANT', ['manage-companies']))).toBe(true);
  });

  it('decides on the permissions of the principal, not on its role name', () => {
    const stripped: Principal = { id: 1, role: 'ADMIN', permissions: [] };
    expect(isAllowed('manage-users', stripped)).toBe(false);
    expect(isAllowed('authenticated', stripped)).toBe(true);
  });

  it('agrees with permissionsOf for every role and permission', () => {
    for (const role of ROLES) {
      for (const permission of PERMISSIONS) {
        const expected = ROLE_PERMISSIONS[role].includes(permission);
        expect(isAllowed(permission, principal(role)), `${role} ${permission}`).toBe(expected);
      }
    }
  });
});
