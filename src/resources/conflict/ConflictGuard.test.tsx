// @vitest-environment jsdom
/**
 * Version conflicts in an edit form, end to end in the browser's part: the generic edit view in the
 * real admin area (src/shell/AreaApp.tsx) and the real data provider against an msw server that
 * keeps one record and checks versions like the API (issue 10). Someone else saves while the form
 * is open; saving then asks Reload or Overwrite, with the fields that differ. Also: every edit view
 * of the app puts its form inside a ConflictGuard.
 */
import fs from 'node:fs';
import path from 'node:path';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import type { AuthProvider, I18nProvider } from 'react-admin';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDataProvider } from '../../dataProvider/index.ts';
import { API, startApiServer } from '../../dataProvider/providerTesting.ts';
import type { JsonSchema } from '../../schema/model.ts';
import { AreaApp } from '../../shell/AreaApp.tsx';

const { GADGETS } = vi.hoisted(() => {
  const GADGETS: JsonSchema = {
    $id: 'gadgets',
    title: 'Gadget',
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
    properties: {
      name: { type: 'string', maxLength: 100, 'x-list': true },
      city: { type: 'string', maxLength: 100 },
    },
  };
  return { GADGETS };
});

// The app's schemas are replaced by a throwaway one: the generic views find it like any other.
vi.mock('../registry.ts', async () => {
  const { buildResourceModel } = await import('../../schema/model.ts');
  const model = buildResourceModel(GADGETS);
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
const server = startApiServer();

type Row = Record<string, unknown>;

/** The API's one record (snake_case, as stored) and the bodies of the PUTs it received. */
function versionedApi(initial: Row) {
  const state = { stored: { ...initial }, puts: [] as Row[] };
  server.use(
    http.get(`${API}/gadgets/:id`, () => HttpResponse.json({ data: state.stored })),
    http.get(`${API}/gadgets`, () =>
      HttpResponse.json({
        data: [state.stored],
        meta: { current_page: 1, per_page: 25, total: 1, last_page: 1 },
      }),
    ),
    http.put(`${API}/gadgets/:id`, async ({ request }) => {
      const body = (await request.json()) as Row;
      state.puts.push(body);
      if (body.version !== undefined && body.version !== state.stored.version) {
        return HttpResponse.json(
          { message: 'The record was changed by someone else.', current: state.stored },
          { status: 409 },
        );
      }
      const { version: _version, ...values } = body;
      state.stored = { ...state.stored, ...values, version: Number(state.stored.version) + 1 };
      return HttpResponse.json({ data: state.stored });
    }),
  );
  return state;
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

function renderEdit() {
  render(
    <MemoryRouter initialEntries={['/admin/gadgets/1/edit']}>
      <Routes>
        <Route
          path="/admin/*"
          element={
            <AreaApp
              area="admin"
              i18nProvider={i18nProvider}
              dataProvider={createDataProvider({ apiUrl: API, getToken: () => 't' })}
              authProvider={authProvider}
            />
          }
        />
      </Routes>
    </MemoryRouter>,
  );
}

const nameInput = () =>
  screen.findByRole(
    'textbox',
    { name: 'resources.gadgets.fields.name' },
    TIMEOUT,
  ) as Promise<HTMLInputElement>;

/** Opens the edit form, lets someone else save meanwhile, changes the name and saves. */
async function saveAfterSomeoneElse(state: ReturnType<typeof versionedApi>) {
  renderEdit();
  const input = await nameInput();
  await waitFor(() => expect(input.value).toBe('Original'), TIMEOUT);
  // Someone else saves the record while this form is open.
  state.stored = { ...state.stored, name: 'Theirs', city: 'Bern', version: 2 };
  await act(async () => {
    fireEvent.change(input, { target: { value: 'Mine' } });
  });
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: 'ra.action.save' }));
  });
  return screen.findByRole('dialog', { name: 'app.conflict.title' }, TIMEOUT);
}

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

describe('a save based on an old version', () => {
  it('asks Reload or Overwrite and lists the fields that differ; Overwrite saves mine over the current version', async () => {
    const state = versionedApi({ id: 1, name: 'Original', city: 'Basel', version: 1 });
    const dialog = await saveAfterSomeoneElse(state);
    expect(within(dialog).getByText('app.conflict.message')).toBeTruthy();
    // Name: theirs "Theirs", mine "Mine"; city: theirs "Bern", mine still the "Basel" I loaded.
    const rows = within(dialog).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.getAttribute('data-field'))).toEqual(['name', 'city']);
    expect(
      rows.map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((c) => c.textContent),
      ),
    ).toEqual([
      ['Theirs', 'Mine'],
      ['Bern', 'Basel'],
    ]);
    expect(state.puts).toEqual([{ name: 'Mine', city: 'Basel', version: 1 }]);
    expect(state.stored).toMatchObject({ name: 'Theirs', version: 2 });

    // Watched for before the click: the notice disappears after 1.5 s (UI.notificationMs), and
    // a wait begun later can miss it when the machine is busy (a DOM observer cannot).
    const savedNotice = screen.findByText(/notifications\.updated/, {}, TIMEOUT);
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'app.conflict.overwrite' }));
    });
    await waitFor(() => expect(state.stored).toMatchObject({ name: 'Mine', version: 3 }), TIMEOUT);
    expect(state.puts[1]).toEqual({ name: 'Mine', city: 'Basel', version: 2 });
    // Saved: the edit goes on to the list, as after any save.
    await savedNotice;
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), TIMEOUT);
  }, 30_000);

  it('Reload discards my changes and shows the current record; nothing more is sent', async () => {
    const state = versionedApi({ id: 1, name: 'Original', city: 'Basel', version: 1 });
    const dialog = await saveAfterSomeoneElse(state);
    // Watched for before the click (the notice disappears after 1.5 s; see above).
    const reloadedNotice = screen.findByText('app.conflict.reloaded', {}, TIMEOUT);
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'app.conflict.reload' }));
    });
    const input = await nameInput();
    await waitFor(() => expect(input.value).toBe('Theirs'), TIMEOUT);
    await reloadedNotice;
    expect(state.puts).toHaveLength(1);
    expect(state.stored).toMatchObject({ name: 'Theirs', version: 2 });

    // The next save is based on the reloaded version and goes through.
    await act(async () => {
      fireEvent.change(input, { target: { value: 'Mine after all' } });
    });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'ra.action.save' }));
    });
    await waitFor(() => expect(state.stored.name).toBe('Mine after all'), TIMEOUT);
    expect(state.puts[1]).toMatchObject({ version: 2 });
  }, 30_000);

  it('Reload discards my changes even when the reloaded record equals the one the form had', async () => {
    // E.g. an If-Match the server refused although the record reads the same: the form would not
    // reset on a record that did not change, so it is mounted afresh.
    const state = versionedApi({ id: 1, name: 'Original', version: 1 });
    server.use(
      http.put(`${API}/gadgets/:id`, () =>
        HttpResponse.json({ message: 'Changed.', current: state.stored }, { status: 409 }),
      ),
    );
    renderEdit();
    const input = await nameInput();
    await waitFor(() => expect(input.value).toBe('Original'), TIMEOUT);
    await act(async () => {
      fireEvent.change(input, { target: { value: 'Mine' } });
    });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'ra.action.save' }));
    });
    const dialog = await screen.findByRole('dialog', { name: 'app.conflict.title' }, TIMEOUT);
    expect(within(dialog).getAllByRole('row')).toHaveLength(2);
    const reloadedNotice = screen.findByText('app.conflict.reloaded', {}, TIMEOUT);
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'app.conflict.reload' }));
    });
    await reloadedNotice;
    await waitFor(async () => expect((await nameInput()).value).toBe('Original'), TIMEOUT);
  }, 30_000);

  it('any other failure is still a notification with the server’s message, and no dialog', async () => {
    versionedApi({ id: 1, name: 'Original', version: 1 });
    server.use(
      http.put(`${API}/gadgets/:id`, () =>
        HttpResponse.json({ message: 'Please sign in.' }, { status: 403 }),
      ),
    );
    renderEdit();
    const input = await nameInput();
    await waitFor(() => expect(input.value).toBe('Original'), TIMEOUT);
    await act(async () => {
      fireEvent.change(input, { target: { value: 'Mine' } });
    });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'ra.action.save' }));
    });
    await screen.findByText('Please sign in.', {}, TIMEOUT);
    expect(screen.queryByRole('dialog', { name: 'app.conflict.title' })).toBeNull();
  }, 30_000);
});

describe('every edit view', () => {
  it('puts its form inside a ConflictGuard (as many guards as <Edit> and <EditBase> in a file)', () => {
    const root = path.resolve(import.meta.dirname, '..', '..');
    const files = fs
      .readdirSync(root, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.tsx') && !file.endsWith('.test.tsx'))
      .filter((file) => !file.startsWith(`resources${path.sep}conflict`));
    const count = (text: string, pattern: RegExp) => text.match(pattern)?.length ?? 0;
    const missing: string[] = [];
    let edits = 0;
    for (const file of files) {
      const text = fs.readFileSync(path.join(root, file), 'utf8');
      const views = count(text, /<Edit(Base)?[\s>]/g);
      edits += views;
      if (count(text, /<ConflictGuard[\s>]/g) < views) missing.push(file);
    }
    expect(edits).toBeGreaterThanOrEqual(7);
    expect(missing).toEqual([]);
  });
});
