/**
 * What the browser keeps of a session (spec §4 Session): the bearer token and the role in
 * localStorage; the external-user-mode flag set to 'no' on login and on logout. The user's
 * permissions and route set are cached beside them for the UI; the server decides anyway.
 */
import type { ApiRecord } from '../resources/records.ts';
import { type Preferences, pageSizeOf, withDefaults } from '../schema/preferences.ts';
import type { ReportKind } from '../schema/reports.ts';

export const STORAGE = {
  token: 'token',
  role: 'role',
  externalUserMode: 'externalUserMode',
  user: 'user',
} as const;

/** The user record's own fields (generated type) plus what GET /api/auth/me adds. */
export type StoredUser = Pick<
  ApiRecord<'users'>,
  'id' | 'email' | 'firstName' | 'lastName' | 'role' | 'language'
> & {
  permissions: string[];
  routeSet: 'admin' | 'consultant' | null;
  /** Set for external users (accounts of a sub-broker). */
  subBrokerId?: number | null;
  /** The settings page's choices (camelCase of the API's preferences). */
  preferences?: Partial<Preferences>;
  /** The reports the user may run (src/schema/reports.ts reportsOf). */
  reports?: ReportKind[];
};

/** Page size of a resource's list from the signed-in user's preferences (default 25). */
export const pageSizeFor = (resource: string): number =>
  pageSizeOf(resource, withDefaults(getStoredUser()?.preferences));

/** Keeps the stored user in step after the settings page saved. */
export function updateStoredUser(changes: Partial<StoredUser>): void {
  const user = getStoredUser();
  if (user) localStorage.setItem(STORAGE.user, JSON.stringify({ ...user, ...changes }));
}

export const getToken = (): string | null => localStorage.getItem(STORAGE.token);

export function getStoredUser(): StoredUser | null {
  const text = localStorage.getItem(STORAGE.user);
  if (!text) return null;
  try {
    return JSON.parse(text) as StoredUser;
  } catch {
    return null;
  }
}

export function storeSession(token: string, user: StoredUser): void {
  localStorage.setItem(STORAGE.token, token);
  localStorage.setItem(STORAGE.role, user.role);
  localStorage.setItem(STORAGE.user, JSON.stringify(user));
  localStorage.setItem(STORAGE.externalUserMode, 'no');
}

export function clearSession(): void {
  localStorage.removeItem(STORAGE.token);
  localStorage.removeItem(STORAGE.role);
  localStorage.removeItem(STORAGE.user);
  localStorage.setItem(STORAGE.externalUserMode, 'no');
}

/** Where a user lands after login: its own dashboard, or the no-access page. */
export const homeOf = (user: Pick<StoredUser, 'routeSet'> | null): string =>
  user?.routeSet ? `/${user.routeSet}/dashboard` : '/no-access';
