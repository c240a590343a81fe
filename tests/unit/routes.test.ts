/**
 * The route table holds every admin and consultant route of the spec (SPEC §2), each in the right
 * route set, and every public route; the menus only point at routes of their own area.
 */
import { describe, expect, it } from 'vitest';
import { SPEC_ADMIN, SPEC_CONSULTANT, SPEC_PUBLIC } from '../spec-routes.ts';
import {
  AREAS,
  PUBLIC_ROUTES,
  ROUTES,
  resourceRoute,
  routerPath,
  routesOf,
} from '../../src/routes.tsx';

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
    const consultant = new Set(SPEC_CONSULTANT);
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
});
