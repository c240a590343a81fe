/**
 * Roles, route sets and permissions (server/auth/permissions.ts), external users' rights, granting
 * rights, and the shared password rule, preferences and mail texts of issue 3.
 */
import { describe, expect, it } from 'vitest';
import { rightsBeyond, withinRights } from '../account/rights.ts';
import { principalRights } from './sessions.ts';
import { MAIL_LANGUAGES, MAIL_TEMPLATES, renderMail } from '../mail/templates.ts';
import { passwordFieldErrors, passwordProblems } from '../../src/schema/passwordRule.ts';
import { DEFAULT_PREFERENCES, pageSizeOf, withDefaults } from '../../src/schema/preferences.ts';
import {
  isAllowed,
  PERMISSIONS,
  type Principal,
  permissionsOf,
  ROLE_PERMISSIONS,
  ROLES,
  routeSetOf,
} from './permissions.ts';
import { errorText } from '../../src/schema/errors.ts';

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

describe('external users (sub-broker accounts)', () => {
  it('hold no permission at all, whatever their role and additional permissions say', () => {
    expect(principalRights('ADMIN', ['manage-users'], 7)).toEqual({
      permissions: [],
      subBrokerId: 7,
    });
    expect(principalRights('CONSULTANT', ['manage-companies'], null)).toEqual({
      permissions: ['manage-companies'],
      subBrokerId: null,
    });
  });
});

describe('granting rights (server/account/rights.ts)', () => {
  const manager = (role: string, additional: string[] = []) => principal(role, additional);

  it('lets an admin grant everything', () => {
    for (const role of ROLES) {
      expect(rightsBeyond(manager('ADMIN'), { role, additionalPermissions: PERMISSIONS })).toEqual(
        [],
      );
    }
  });

  it('names the permissions a manager does not hold', () => {
    const backoffice = manager('BACKOFFICE', ['manage-users']);
    expect(rightsBeyond(backoffice, { role: 'ADMIN' })).toEqual(['manage-translation-keys']);
    expect(
      rightsBeyond(backoffice, {
        role: 'CONSULTANT',
        additionalPermissions: ['manage-translation-keys', 'manage-companies'],
      }),
    ).toEqual(['manage-translation-keys']);
    expect(withinRights(backoffice, { role: 'BACKOFFICE-CALLCENTER' })).toBe(true);
  });

  it('does not let a consultant with manage-users create an admin-area account', () => {
    const consultant = manager('CONSULTANT', ['manage-users', 'contract-simple-export']);
    // The call centre's only permission is held, but it sees all customers: a consultant does not.
    expect(rightsBeyond(consultant, { role: 'BACKOFFICE-CALLCENTER' })).toEqual(['role']);
    expect(withinRights(consultant, { role: 'CONSULTANT' })).toBe(true);
    expect(withinRights(consultant, { role: 'EMPLOYEE' })).toBe(true);
  });
});

describe('the password rule (src/schema/passwordRule.ts, browser and server)', () => {
  it('accepts 8+ characters with an uppercase and a lowercase letter and a symbol', () => {
    for (const password of [
      'Demo-2026!',
      'Abcdefg!',
      'Grüezi mitenand',
      'Äpfel&Birnen',
      'aB#aB#aB',
    ])
      expect(passwordProblems(password, password), password).toEqual([]);
  });

  it('names every problem', () => {
    expect(passwordProblems('')).toEqual(['required']);
    expect(passwordProblems('Ab-1')).toEqual(['tooShort']);
    expect(passwordProblems('abcdefg-1')).toEqual(['uppercase']);
    expect(passwordProblems('ABCDEFG-1')).toEqual(['lowercase']);
    expect(passwordProblems('Abcdefg12')).toEqual(['symbol']);
    expect(passwordProblems('Abcdefg_1')).toEqual(['symbol']);
    expect(passwordProblems('abc')).toEqual(['tooShort', 'uppercase', 'symbol']);
    expect(passwordProblems(`A-${'b'.repeat(199)}`)).toEqual(['tooLong']);
    expect(passwordProblems('Abcdefg!', 'Abcdefg?')).toEqual(['mismatch']);
  });

  it('answers field errors in the API’s shape', () => {
    const errors = passwordFieldErrors('abc', 'abd');
    expect(
      Object.fromEntries(
        Object.entries(errors).map(([field, found]) => [field, found.map(errorText)]),
      ),
    ).toEqual({
      new_password: [
        'must have at least 8 characters',
        'must contain an uppercase letter',
        'must contain a symbol (a character other than letters, digits and _)',
      ],
      confirm_password: ['does not match the new password'],
    });
    expect(errors.new_password.map((found) => found.code)).toEqual([
      'passwordLength',
      'passwordUpper',
      'passwordSymbol',
    ]);
    expect(errors.new_password[0].args).toEqual({ min: 8 });
    expect(passwordFieldErrors('Demo-2026!', 'Demo-2026!')).toEqual({});
  });
});

describe('preferences (src/schema/preferences.ts)', () => {
  it('fills defaults and drops values outside the choices', () => {
    expect(withDefaults(null)).toEqual(DEFAULT_PREFERENCES);
    const stored = withDefaults({
      pageSizes: { clients: 50, users: 33 } as never,
      leadsView: 'table' as never,
    });
    expect(stored.pageSizes).toEqual({ ...DEFAULT_PREFERENCES.pageSizes, clients: 50 });
    expect(stored.leadsView).toBe('kanban');
  });

  it('gives each listing its page size', () => {
    const preferences = withDefaults({
      pageSizes: { clients: 100, reminders: 10, calendar: 50, users: 25, contracts: 10 },
    });
    expect(pageSizeOf('customers', preferences)).toBe(100);
    expect(pageSizeOf('reminders', preferences)).toBe(10);
    expect(pageSizeOf('appointments', preferences)).toBe(50);
    expect(pageSizeOf('contracts', preferences)).toBe(10);
    expect(pageSizeOf('companies', preferences)).toBe(25);
    expect(pageSizeOf('customers', null)).toBe(25);
  });
});

describe('mail templates (server/mail/templates.ts)', () => {
  const placeholders = (text: string) =>
    [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

  it('exist in every language with the same placeholders, and de without ß', () => {
    for (const [kind, texts] of Object.entries(MAIL_TEMPLATES)) {
      for (const language of MAIL_LANGUAGES) {
        const text = texts[language];
        expect(text.subject.trim(), `${kind} ${language}`).not.toBe('');
        expect(placeholders(text.body), `${kind} ${language}`).toEqual(placeholders(texts.en.body));
        expect(placeholders(text.subject)).toEqual(placeholders(texts.en.subject));
      }
      expect(`${texts.de.subject}${texts.de.body}`).not.toContain('ß');
    }
  });

  it('renders in the user’s language, German when it is unknown', () => {
    const mail = renderMail('password-reset', 'it', { name: 'Chiara', hours: 1, link: 'L' });
    expect(mail.subject).toBe('GS CRM: reimpostare la password');
    expect(mail.body).toContain('Buongiorno Chiara');
    expect(mail.body).toContain('\nL\n');
    expect(renderMail('password-reset', 'xx', { name: 'A', hours: 1, link: 'L' }).subject).toBe(
      'GS CRM: Passwort zurücksetzen',
    );
  });
});
