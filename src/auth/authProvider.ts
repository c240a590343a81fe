/**
 * react-admin auth provider for POST /api/auth/login, /logout and GET /api/auth/me (through the web
 * app's one API client). `canAccess` mirrors the server's rules (schema x-permissions + the user's
 * permissions) so the UI only hides what the server would refuse anyway. Signing in applies the user's
 * own language (src/i18n/active.ts) before it resolves.
 */
import { type AuthProvider, HttpError } from 'react-admin';
import { api, statusOf } from '../dataProvider/apiClient.ts';
import { applyUserLanguage } from '../i18n/active.ts';
import type { AccessRule } from '../schema/vocabulary.ts';
import {
  clearSession,
  getStoredUser,
  getToken,
  homeOf,
  type StoredUser,
  storeSession,
} from './session.ts';

const ACTION_RULE: Record<string, 'read' | 'create' | 'update' | 'delete'> = {
  list: 'read',
  show: 'read',
  export: 'read',
  create: 'create',
  edit: 'update',
  delete: 'delete',
  clone: 'create',
};

export function isRuleMet(rule: AccessRule | undefined, user: StoredUser | null): boolean {
  if (!user || !rule || rule === 'nobody') return false;
  if (rule === 'authenticated') return true;
  return user.permissions.includes(rule);
}

export function createAuthProvider(): AuthProvider {
  return {
    async login({ email, password }: { email: string; password: string }) {
      const answer = await api.json<{ token?: string; user?: StoredUser }>('POST', 'auth/login', {
        body: { email, password },
      });
      if (!answer.token || !answer.user) throw new HttpError('app.login.failed', 200, answer);
      storeSession(answer.token, answer.user);
      // Before the redirect: the area then renders in the user's language from its first frame.
      await applyUserLanguage(answer.user.language);
      return { redirectTo: homeOf(answer.user) };
    },
    async logout() {
      if (getToken()) await api.json('POST', 'auth/logout').catch(() => undefined);
      clearSession();
      return '/login';
    },
    async checkAuth() {
      if (!getToken()) throw { redirectTo: '/login', message: false };
    },
    async checkError(error: { status?: number }) {
      if (error?.status === 401) {
        clearSession();
        throw { redirectTo: '/login', message: 'app.session.expired' };
      }
    },
    async getIdentity() {
      let user: StoredUser;
      try {
        user = (await api.json<{ data: StoredUser }>('GET', 'auth/me')).data;
      } catch (error) {
        if (statusOf(error) !== 401) throw error;
        clearSession();
        throw new HttpError('app.session.expired', 401);
      }
      const token = getToken();
      if (token) storeSession(token, user);
      return { ...user, fullName: `${user.firstName} ${user.lastName}` };
    },
    async getPermissions() {
      return getStoredUser()?.permissions ?? [];
    },
    async canAccess({ action, resource }: { action: string; resource: string }) {
      const user = getStoredUser();
      // The schemas come with the area that asks (not with the entry every page loads).
      const { getModel } = await import('../resources/registry.ts');
      let rule: AccessRule | undefined;
      try {
        rule = getModel(resource).permissions[ACTION_RULE[action] ?? 'read'];
      } catch {
        return Boolean(user);
      }
      return isRuleMet(rule, user);
    },
  };
}
