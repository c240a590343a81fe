/**
 * react-admin auth provider for POST /api/auth/login, /logout and GET /api/auth/me.
 * `canAccess` mirrors the server's rules (schema x-permissions + the user's permissions) so the UI
 * only hides what the server would refuse anyway.
 */
import { type AuthProvider, HttpError } from 'react-admin';
import { toCamelDeep } from '../schema/case.ts';
import { getModel } from '../resources/registry.ts';
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

async function call(path: string, init: RequestInit = {}): Promise<Response> {
  const token = getToken();
  const headers = new Headers(init.headers);
  if (init.body) headers.set('content-type', 'application/json');
  if (token) headers.set('authorization', `Bearer ${token}`);
  return fetch(`/api/auth/${path}`, { ...init, headers });
}

export function createAuthProvider(): AuthProvider {
  return {
    async login({ email, password }: { email: string; password: string }) {
      const response = await call('login', {
        method: 'POST',
        body: JSON.stringify({ email, password }),
      });
      const body = (await response.json().catch(() => ({}))) as {
        message?: string;
        token?: string;
        user?: unknown;
      };
      if (!response.ok || !body.token || !body.user) {
        throw new HttpError(body.message ?? 'app.login.failed', response.status, body);
      }
      const user = toCamelDeep(body.user) as StoredUser;
      storeSession(body.token, user);
      return { redirectTo: homeOf(user) };
    },
    async logout() {
      if (getToken()) await call('logout', { method: 'POST' }).catch(() => undefined);
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
      const response = await call('me');
      if (response.status === 401) {
        clearSession();
        throw new HttpError('app.session.expired', 401);
      }
      const { data } = (await response.json()) as { data: unknown };
      const user = toCamelDeep(data) as StoredUser;
      const token = getToken();
      if (token) storeSession(token, user);
      return { ...user, fullName: `${user.firstName} ${user.lastName}` };
    },
    async getPermissions() {
      return getStoredUser()?.permissions ?? [];
    },
    async canAccess({ action, resource }: { action: string; resource: string }) {
      const user = getStoredUser();
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
