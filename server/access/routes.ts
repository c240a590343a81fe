/**
 * The route table and the rules every request passes besides its `config.access`
 * (docs/ARCHITECTURE.md §5):
 * - every route is recorded as it is registered (`app.routeTable`), so tests can walk all of them
 *   (tests/api/access-matrix.test.ts);
 * - external users (a sub-broker's accounts) reach only the generic resource routes, where their
 *   sub-broker scope applies, and the routes that say `config.external: true` (sign-out, me, their
 *   own account); they delete nothing. Any other route answers 403 to them: a new hand-written
 *   route is closed to them until it decides otherwise.
 */
import type { FastifyInstance } from 'fastify';
import type { AccessRule } from '../../src/schema/vocabulary.ts';
import { ApiError } from '../http/errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** External users (sub-broker accounts) may call this hand-written route. */
    external?: boolean;
  }
  interface FastifyInstance {
    routeTable: RouteInfo[];
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

export function accessControl(app: FastifyInstance): void {
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

  // Runs after the hook that resolves the principal (registered before this one in app.ts).
  app.addHook('onRequest', async (request) => {
    const principal = request.principal;
    const config = request.routeOptions.config;
    if (!principal?.subBrokerId || !config?.access || config.access === 'public') return;
    const key = `${request.method} ${request.routeOptions.url}`;
    if (request.method === 'DELETE' || !(config.external || crudUrls.has(key))) {
      throw new ApiError(403, 'You do not have permission to do this.');
    }
  });
}
