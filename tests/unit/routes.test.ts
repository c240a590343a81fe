/**
 * The route table holds every admin and consultant route of the spec (SPEC §2), each in the right
 * route set, and every public route; the menus only point at routes of their own area. The path
 * helpers (src/shell/paths.ts) agree with it, and give undeclared resources generic admin paths.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SPEC_ADMIN, SPEC_CONSULTANT, SPEC_PUBLIC } from '../spec-routes.ts';
import { PUBLIC_ROUTES, ROUTES, routesOf } from '../../src/routes.tsx';
import {
  AREAS,
  isDeclared,
  RESOURCE_PATHS,
  resourceRoute,
  routerPath,
} from '../../src/shell/paths.ts';

describe('route table', () => {
  it.each([
    ['admin', SPEC_ADMIN],
    ['consultant', SPEC_CONSULTANT],
  ] as const)('has every %s route of the spec in that area', (area, paths) => {
    const own = routesOf(area).map((entry) => entry.path);
    const missing = paths.filter((path) => !own.includes(path));
    expect(missing).toEqual([]);
  });

  it('keeps admin-only routes out of the consultant area', () => {
    // Ours beyond the spec's consultant set, on purpose: a consultant books, opens and closes
    // (feedback) their own appointments (src/shell/paths.ts, docs/ARCHITECTURE.md issue 15), and
    // opens, records and adds their own leads (issue 16), and makes, opens and edits offers for
    // their own customers (issue 18), and the Global check of their customers (issue 19).
    const ours = [
      'customers/{id}/global-check',
      'appointments/new',
      'appointments/{id}',
      'appointments/{id}/edit',
      'leads/new',
      'leads/{id}',
      'leads/{id}/edit',
      'offers/new',
      'offers/{id}',
      'offers/{id}/edit',
    ];
    const consultant = new Set([...SPEC_CONSULTANT, ...ours]);
    const leaked = routesOf('consultant')
      .map((entry) => entry.path)
      .filter((path) => !consultant.has(path));
    expect(leaked).toEqual([]);
  });

  it('has every public route', () => {
    const paths = PUBLIC_ROUTES.map((route) => route.path);
    expect(SPEC_PUBLIC.filter((path) => !paths.includes(path))).toEqual([]);
  });

  it('has no path twice in one area', () => {
    for (const area of AREAS) {
      const paths = routesOf(area).map((entry) => entry.path);
      expect(paths.length).toBe(new Set(paths).size);
    }
  });

  it('gives each entry exactly one thing to render', () => {
    for (const entry of ROUTES) {
      const kinds = [entry.resource && entry.view, entry.page, entry.coming].filter(Boolean);
      expect(kinds, entry.path).toHaveLength(1);
    }
  });

  it('writes {id} as a router parameter and finds resource views by area', () => {
    expect(routerPath('customers/{id}/edit')).toBe('customers/:id/edit');
    expect(resourceRoute('admin', 'users', 'list')).toBe('gs-users');
    expect(resourceRoute('admin', 'users', 'show', 7)).toBe('users/7');
    expect(resourceRoute('consultant', 'customers', 'edit', 3)).toBe('customers/3/edit');
    expect(resourceRoute('consultant', 'companies', 'list')).toBeUndefined();
  });

  it('puts a menu label on every list-like route of each area', () => {
    for (const area of AREAS) {
      const labelled = routesOf(area).filter((entry) => entry.menu);
      expect(labelled.length).toBeGreaterThan(5);
      for (const entry of labelled) expect(entry.menu?.label).toMatch(/^app\.menu\./);
    }
  });

  it('places every declared resource in the route table, and only declared ones', () => {
    const routed = new Set(ROUTES.flatMap((entry) => (entry.resource ? [entry.resource] : [])));
    expect([...routed].filter((resource) => !isDeclared(resource))).toEqual([]);
    expect(Object.keys(RESOURCE_PATHS).filter((resource) => !routed.has(resource))).toEqual([]);
  });

  it('finds every routed resource view at the path the route table gives it', () => {
    for (const entry of ROUTES) {
      if (!entry.resource || !entry.view) continue;
      for (const area of entry.areas) {
        expect(resourceRoute(area, entry.resource, entry.view, '{id}')).toBe(entry.path);
      }
    }
  });

  it('gives a resource the spec does not name its four generic views in the admin area only', () => {
    expect(resourceRoute('admin', 'gizmos', 'list')).toBe('gizmos');
    expect(resourceRoute('admin', 'gizmos', 'create')).toBe('gizmos/new');
    expect(resourceRoute('admin', 'gizmos', 'show', 4)).toBe('gizmos/4');
    expect(resourceRoute('admin', 'gizmos', 'edit', 4)).toBe('gizmos/4/edit');
    expect(resourceRoute('consultant', 'gizmos', 'list')).toBeUndefined();
  });

  it('is imported only by the shell (src/App.tsx, src/shell/); screens use src/shell/paths.ts', () => {
    const src = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'src');
    const importers = (readdirSync(src, { recursive: true }) as string[])
      .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file))
      .filter((file) =>
        /from '(\.\.?\/)+routes\.tsx'/.test(readFileSync(path.join(src, file), 'utf8')),
      )
      .map((file) => file.split(path.sep).join('/'))
      .filter((file) => file !== 'App.tsx' && !file.startsWith('shell/'));
    expect(importers).toEqual([]);
    const paths = readFileSync(path.join(src, 'shell', 'paths.ts'), 'utf8');
    expect(paths).not.toMatch(/from '(react|react-admin|@mui\/[^']*)'/);
  });
});
