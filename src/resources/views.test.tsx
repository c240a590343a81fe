// @vitest-environment jsdom
/**
 * A schema no route entry names is fully navigable through the generic views: built with the model
 * builder from a throwaway inline schema, mounted in the real admin area (src/shell/AreaApp.tsx),
 * its list rows open the show page, list and show offer edit, edit offers show and delete, and a
 * create lands on the new record's show page. A declared resource keeps its spec-style paths.
 */
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { AuthProvider, DataProvider, I18nProvider, RaRecord } from 'react-admin';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { JsonSchema } from '../schema/model.ts';
import { AreaApp } from '../shell/AreaApp.tsx';
import { isDeclared } from '../shell/paths.ts';
import { navigationOf } from './navigation.ts';

const { GIZMOS } = vi.hoisted(() => {
  const GIZMOS: JsonSchema = {
    $id: 'gizmos',
    title: 'Gizmo',
    type: 'object',
    additionalProperties: false,
    'x-permissions': {
      read: 'authenticated',
      create: 'authenticated',
      update: 'authenticated',
      delete: 'authenticated',
    },
    'x-resource': { recordRepresentation: 'name' },
    required: ['name'],
    properties: { name: { type: 'string', maxLength: 100, 'x-list': true } },
  };
  return { GIZMOS };
});

// The app's schemas are replaced by the throwaway one: the views find it like any other.
vi.mock('./registry.ts', async () => {
  const { buildResourceModel } = await import('../schema/model.ts');
  const model = buildResourceModel(GIZMOS);
  return {
    MODELS: [model],
    getModel: (name: string) => {
      if (name !== model.name) throw new Error(`No schema for resource "${name}"`);
      return model;
    },
    hasModel: (name: string) => name === model.name,
  };
});

const TIMEOUT = { timeout: 10_000 };

function memoryDataProvider(): DataProvider {
  const records: RaRecord[] = [{ id: 1, name: 'Alpha' }];
  const find = (id: unknown) => records.find((record) => String(record.id) === String(id));
  return {
    getList: async () => ({ data: records, total: records.length }),
    getOne: async (_resource, { id }) => ({ data: find(id) as never }),
    getMany: async (_resource, { ids }) => ({ data: records.filter((r) => ids.includes(r.id)) }),
    getManyReference: async () => ({ data: [], total: 0 }),
    create: async (_resource, { data }) => {
      const record = { ...data, id: records.length + 1 };
      records.push(record);
      return { data: record as never };
    },
    update: async (_resource, { id, data }) => ({ data: { ...find(id), ...data } as never }),
    updateMany: async () => ({ data: [] }),
    delete: async (_resource, { id }) => ({ data: find(id) as never }),
    deleteMany: async () => ({ data: [] }),
  } as DataProvider;
}

const i18nProvider: I18nProvider = {
  translate: (key: string) => key,
  changeLocale: async () => {},
  getLocale: () => 'de',
};

const authProvider: AuthProvider = {
  login: async () => {},
  logout: async () => {},
  checkAuth: async () => {},
  checkError: async () => {},
  getPermissions: async () => [],
  getIdentity: async () => ({ id: 1, fullName: 'Ada Admin' }),
  canAccess: async () => true,
};

/** The current path, outside react-admin, so the test reads where a click led. */
function Location() {
  return <output data-testid="location">{useLocation().pathname}</output>;
}

function renderAdminAt(path: string) {
  render(
    <MemoryRouter initialEntries={[path]}>
      <Location />
      <Routes>
        <Route
          path="/admin/*"
          element={
            <AreaApp
              area="admin"
              i18nProvider={i18nProvider}
              dataProvider={memoryDataProvider()}
              authProvider={authProvider}
            />
          }
        />
      </Routes>
    </MemoryRouter>,
  );
}

const location = () => screen.getByTestId('location').textContent;

beforeEach(() => {
  // react-admin scrolls to the top on navigation; jsdom has no layout to scroll.
  window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;
  localStorage.setItem('token', 't');
  localStorage.setItem(
    'user',
    JSON.stringify({ id: 1, email: 'a@b.ch', role: 'ADMIN', permissions: [], routeSet: 'admin' }),
  );
});
afterEach(() => {
  cleanup();
  localStorage.clear();
});

describe('a schema resource without a route entry', () => {
  it('is not declared, yet has all four views in the admin area', () => {
    expect(isDeclared('gizmos')).toBe(false);
    const navigation = navigationOf('admin', 'gizmos');
    expect(navigation.rowLink(3)).toBe('/admin/gizmos/3');
    expect(navigation.editLink(3)).toBe('/admin/gizmos/3/edit');
    expect(navigation.showLink(3)).toBe('/admin/gizmos/3');
    expect(navigation.afterCreate(3)).toBe('gizmos/3');
  });

  it('opens the show page from a list row, edits from list and show, shows and deletes from edit', async () => {
    renderAdminAt('/admin/gizmos');
    const cell = await screen.findByText('Alpha', {}, TIMEOUT);
    const row = cell.closest('tr') as HTMLElement;
    // The edit button shows once react-admin has checked the right (canAccess).
    const rowEdit = await within(row).findByRole('link', { name: /action\.edit$/ }, TIMEOUT);
    expect(rowEdit.getAttribute('href')).toBe('/admin/gizmos/1/edit');

    await act(async () => {
      fireEvent.click(cell);
    });
    await waitFor(() => expect(location()).toBe('/admin/gizmos/1'), TIMEOUT);

    const edit = await screen.findByRole('link', { name: /action\.edit$/ }, TIMEOUT);
    expect(edit.getAttribute('href')).toBe('/admin/gizmos/1/edit');
    await act(async () => {
      fireEvent.click(edit);
    });
    await waitFor(() => expect(location()).toBe('/admin/gizmos/1/edit'), TIMEOUT);

    const show = await screen.findByRole('link', { name: /action\.show$/ }, TIMEOUT);
    expect(show.getAttribute('href')).toBe('/admin/gizmos/1');
    expect(await screen.findByRole('button', { name: /action\.delete$/ }, TIMEOUT)).toBeTruthy();
  }, 30_000);

  it("lands on the new record's show page after a create", async () => {
    renderAdminAt('/admin/gizmos/new');
    const input = (await screen.findByRole(
      'textbox',
      { name: 'resources.gizmos.fields.name' },
      TIMEOUT,
    )) as HTMLInputElement;
    await act(async () => {
      fireEvent.change(input, { target: { value: 'Beta' } });
    });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'ra.action.save' }));
    });
    await waitFor(() => expect(location()).toBe('/admin/gizmos/2'), TIMEOUT);
  }, 30_000);
});

describe('a resource with a route entry', () => {
  it('keeps its spec-style paths: companies have no show page, so rows edit and create lists', () => {
    const navigation = navigationOf('admin', 'companies');
    expect(navigation.rowLink(5)).toBe('/admin/companies/5/edit');
    expect(navigation.showLink(5)).toBeUndefined();
    expect(navigation.afterCreate(5)).toBe('companies');
    expect(navigationOf('admin', 'users').rowLink(7)).toBe('/admin/users/7');
    expect(navigationOf('consultant', 'companies').rowLink(5)).toBe(false);
  });
});
