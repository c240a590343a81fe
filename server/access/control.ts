/**
 * Access control of every route, installed on the root instance before any feature registers
 * (docs/ARCHITECTURE.md §5):
 * - fail closed: an /api route that does not declare `config.access` stops the server from starting;
 * - every request's bearer token is resolved to `request.principal`, then `config.access` is
 *   checked (401 without a valid session, 403 without the permission);
 * - every route is recorded as it is registered (`app.routeTable`), so tests can walk all of them
 *   (tests/api/access-matrix.test.ts);
 * - external users (a sub-broker's accounts) reach only the generic resource routes, where their
 *   sub-broker scope applies, and the routes that say `config.external: true` (sign-out, me, their
 *   own account); they delete nothing. Any other route answers 403 to them: a new hand-written
 *   route is closed to them until it decides otherwise.
 */
import type { FastifyInstance } from 'fastify';
import type { AccessRule } from '../../src/schema/vocabulary.ts';
import { isAllowed } from '../auth/permissions.ts';
import {
  PRINCIPALS_CHANNEL,
  PrincipalCache,
  resolveSession,
  type SessionPolicy,
  type SessionUser,
} from '../auth/sessions.ts';
import { ApiError, forbidden } from '../http/errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route; every /api route must say (checked at start-up). */
    access?: AccessRule | 'public';
    /** External users (sub-broker accounts) may call this hand-written route. */
    external?: boolean;
  }
  interface FastifyInstance {
    routeTable: RouteInfo[];
  }
  interface FastifyRequest {
    /** The signed-in user of the request's bearer token, when it is valid. */
    principal?: SessionUser;
  }
}

export interface RouteInfo {
  method: string;
  url: string;
  access?: AccessRule | 'public';
  external: boolean;
  /** The resource of a generic CRUD route (`/api/<resource>`, `/api/<resource>/:id`). */
  resource?: string;
}

export function accessControl(app: FastifyInstance, options: { policy: SessionPolicy }): void {
  app.decorateRequest('principal', undefined);

  // Fail closed: an API route that does not declare who may call it stops the server from starting.
  app.addHook('onRoute', (route) => {
    if (
      route.url.startsWith('/api/') &&
      !route.url.startsWith('/api/docs') &&
      !route.config?.access
    ) {
      throw new Error(`Route ${route.method} ${route.url} declares no config.access`);
    }
  });

  // The embedded engine keeps recent principals, emptied on every change (PrincipalCache).
  const listen = app.database.listen;
  const principals = listen ? new PrincipalCache() : undefined;
  if (listen && principals) {
    app.addHook('onReady', () => listen(PRINCIPALS_CHANNEL, () => principals.clear()));
  }

  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config?.access;
    if (!access) return;
    const header = request.headers.authorization;
    const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
    if (token) {
      request.principal = await resolveSession(app.db, token, options.policy, principals);
    }
    if (access === 'public') return;
    if (!request.principal) {
      throw new ApiError(401, token ? 'sessionExpired' : 'signIn');
    }
    if (!isAllowed(access, request.principal)) throw forbidden();
  });

  const table: RouteInfo[] = [];
  const resources = new Set(app.models.map((model) => model.name));
  app.decorate('routeTable', table);
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/')) return;
    const match = /^\/api\/([a-z0-9-]+)(\/:id)?$/.exec(route.url);
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      table.push({
        method,
        url: route.url,
        access: route.config?.access,
        external: route.config?.external === true,
        resource: match && resources.has(match[1]) ? match[1] : undefined,
      });
    }
  });

  const crudUrls = new Set<string>();
  app.addHook('onReady', async () => {
    for (const route of table) if (route.resource) crudUrls.add(`${route.method} ${route.url}`);
  });

  // Runs after the hook that resolves the principal (registered above).
  app.addHook('onRequest', async (request) => {
    const principal = request.principal;
    const config = request.routeOptions.config;
    if (!principal?.subBrokerId || !config?.access || config.access === 'public') return;
    const key = `${request.method} ${request.routeOptions.url}`;
    if (request.method === 'DELETE' || !(config.external || crudUrls.has(key))) {
      throw forbidden();
    }
  });
}
