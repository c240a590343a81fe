/**
 * The shell asks for the page of the opened path together with the area's app (src/App.tsx): the
 * route table's page, a resource's override or its generic view, found like the router finds it.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OVERRIDES } from '../resources/overrides.ts';
import { hasModel } from '../resources/registry.ts';
import { resourceView } from '../resources/resources.tsx';
import { ROUTES } from '../routes.tsx';
import { preloadRoute } from './AreaApp.tsx';
import type { PreloadablePage } from './lazyPage.ts';

const spyOn = (page: unknown) =>
  vi.spyOn(page as PreloadablePage, 'preload').mockResolvedValue(undefined);

afterEach(() => vi.restoreAllMocks());

describe('preloadRoute', () => {
  it("loads a resource's overridden list and show page at their paths", () => {
    const list = spyOn(OVERRIDES.customers.list);
    const show = spyOn(OVERRIDES.customers.show);
    preloadRoute('admin', '/admin/customers');
    expect(list).toHaveBeenCalledTimes(1);
    preloadRoute('admin', '/admin/customers/42/');
    expect(show).toHaveBeenCalledTimes(1);
    expect(list).toHaveBeenCalledTimes(1);
  });

  it('loads a hand-written page of the route table in either area', () => {
    const dashboard = ROUTES.find((entry) => entry.path === 'dashboard')?.page;
    const preload = spyOn(dashboard);
    preloadRoute('consultant', '/consultant/dashboard');
    preloadRoute('admin', '/admin/dashboard');
    expect(preload).toHaveBeenCalledTimes(2);
  });

  it('loads the generic view of a resource without an override', () => {
    const resource = ROUTES.find(
      (entry) =>
        entry.resource &&
        hasModel(entry.resource) &&
        entry.areas.includes('admin') &&
        entry.view === 'edit' &&
        !OVERRIDES[entry.resource]?.edit,
    );
    expect(resource?.resource).toBeDefined();
    const preload = spyOn(resourceView(resource!.resource!, 'edit'));
    preloadRoute('admin', `/admin/${resource!.path.replace('{id}', '3')}`);
    expect(preload).toHaveBeenCalledTimes(1);
  });

  it('loads nothing for a path the area does not have', () => {
    const list = spyOn(OVERRIDES.customers.list);
    preloadRoute('admin', '/admin/no-such-page');
    preloadRoute('consultant', '/consultant/customers/abc/nothing');
    expect(list).not.toHaveBeenCalled();
  });
});
