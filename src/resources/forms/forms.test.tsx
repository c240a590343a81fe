// @vitest-environment jsdom
/**
 * The app's forms (issue 12), in the real admin area (src/shell/AreaApp.tsx) under a data router
 * like src/App.tsx's, with a throwaway schema and the real data provider against an msw server:
 * - a rejected save shows each server error beside its input, translated (react-admin's
 *   "@@react-admin@@" key form and a plain key), and the errors of fields the form has no input
 *   for in one notification "<label>: <message>";
 * - leaving a changed form asks first; cancelling stays, and after saving nobody asks;
 * - every react-admin form of the app comes from ./forms.tsx.
 * The customer form and the drawer are covered in the browser (tests/e2e/forms.spec.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import type { AuthProvider, I18nProvider } from 'react-admin';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDataProvider } from '../../dataProvider/index.ts';
import { API, startApiServer } from '../../dataProvider/providerTesting.ts';
import type { JsonSchema } from '../../schema/model.ts';
import { AreaApp } from '../../shell/AreaApp.tsx';
import {
  flattenErrors,
  labelKeyOf,
  parseErrorMessage,
  translateErrorMessage,
} from './errorMessages.ts';

const { WIDGETS } = vi.hoisted(() => {
  const WIDGETS: JsonSchema = {
    $id: 'widgets',
    title: 'Widget',
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
      email: { type: 'string', maxLength: 254 },
      // Set by the server: the form has no input for it.
      code: { type: 'string', readOnly: true },
    },
  };
  return { WIDGETS };
});

// The app's schemas are replaced by the throwaway one: the generic views find it like any other.
vi.mock('../registry.ts', async () => {
  const { buildResourceModel } = await import('../../schema/model.ts');
  const model = buildResourceModel(WIDGETS);
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

/** A few German texts; any other key shows as itself (or its default). */
const TEXTS: Record<string, string> = {
  'app.errors.email': 'Bitte eine gültige E-Mail-Adresse eingeben.',
  'app.errors.unique': 'Wird bereits von einem anderen Eintrag verwendet.',
  'app.errors.maxLength': 'Höchstens {{limit}} Zeichen.',
  'resources.widgets.fields.code': 'Code',
  'app.forms.hiddenErrors': 'Nicht gespeichert. Bitte korrigieren: {{errors}}',
  'ra.message.unsaved_changes': 'Änderungen verwerfen?',
};

const i18nProvider: I18nProvider = {
  translate: (key: string, options: Record<string, unknown> = {}) => {
    const text = TEXTS[key] ?? (typeof options._ === 'string' ? options._ : key);
    return text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(options[name] ?? ''));
  },
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

const RA = '@@react-admin@@';

/** One stored widget; writes answer `refusal` (a 422) until it is null. */
function widgetApi(refusal: { errors: Record<string, unknown> } | null) {
  const state = {
    stored: { id: 1, name: 'Alpha', email: null, code: 'W-1', version: 1 },
    refusal,
    writes: 0,
  };
  server.use(
    http.get(`${API}/widgets/1`, () => HttpResponse.json({ data: state.stored })),
    http.get(`${API}/widgets`, () =>
      HttpResponse.json({
        data: [state.stored],
        meta: { current_page: 1, per_page: 25, total: 1, last_page: 1 },
      }),
    ),
    http.post(`${API}/widgets`, () => {
      state.writes += 1;
      return HttpResponse.json(
        { message: 'The data is not valid.', ...state.refusal },
        { status: 422 },
      );
    }),
    http.put(`${API}/widgets/1`, async ({ request }) => {
      state.writes += 1;
      if (state.refusal)
        return HttpResponse.json(
          { message: 'The data is not valid.', ...state.refusal },
          { status: 422 },
        );
      const body = (await request.json()) as Record<string, unknown>;
      state.stored = { ...state.stored, name: String(body.name), version: 2 };
      return HttpResponse.json({ data: state.stored });
    }),
  );
  return state;
}

/** The admin area at `path` under a data router (the unsaved-changes question needs one). */
function renderAt(path: string) {
  const router = createMemoryRouter(
    [
      {
        path: '/admin/*',
        element: (
          <AreaApp
            area="admin"
            i18nProvider={i18nProvider}
            dataProvider={createDataProvider({ apiUrl: API, getToken: () => 't' })}
            authProvider={authProvider}
          />
        ),
      },
    ],
    { initialEntries: [path] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

const input = (name: string) =>
  screen.findByRole(
    'textbox',
    { name: new RegExp(`resources\\.widgets\\.fields\\.${name}`) },
    TIMEOUT,
  ) as Promise<HTMLInputElement>;

async function type(field: HTMLInputElement, value: string) {
  await act(async () => {
    fireEvent.change(field, { target: { value } });
  });
}

async function save() {
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: 'ra.action.save' }));
  });
}

/** The helper text under an input (react-admin's error text, or its helper). */
const helperOf = (field: HTMLElement) =>
  field.closest('.MuiFormControl-root')?.querySelector('.MuiFormHelperText-root')?.textContent;

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
  vi.restoreAllMocks();
});

describe('a rejected save', () => {
  it('shows the server errors beside their inputs in the user language, the others in one notification', async () => {
    const state = widgetApi({
      errors: {
        name: `${RA}{"message":"app.errors.unique"}`,
        email: 'app.errors.email',
        code: `${RA}{"message":"app.errors.maxLength","args":{"limit":5}}`,
      },
    });
    renderAt('/admin/widgets/new');
    await type(await input('name'), 'Alpha');
    await type(await input('email'), 'lara@@example');
    await save();

    await waitFor(() => expect(state.writes).toBe(1), TIMEOUT);
    await waitFor(
      async () =>
        expect(helperOf(await input('name'))).toBe(
          'Wird bereits von einem anderen Eintrag verwendet.',
        ),
      TIMEOUT,
    );
    expect(helperOf(await input('email'))).toBe('Bitte eine gültige E-Mail-Adresse eingeben.');
    // `code` has no input: named, with its label and message, in the notification.
    await screen.findByText(
      'Nicht gespeichert. Bitte korrigieren: Code: Höchstens 5 Zeichen.',
      {},
      TIMEOUT,
    );
  }, 30_000);

  it('on an edit too (the conflict-aware save keeps the field errors)', async () => {
    const state = widgetApi({ errors: { name: `${RA}{"message":"app.errors.unique"}` } });
    renderAt('/admin/widgets/1/edit');
    const name = await input('name');
    await waitFor(() => expect(name.value).toBe('Alpha'), TIMEOUT);
    await type(name, 'Beta');
    await save();
    await waitFor(() => expect(state.writes).toBe(1), TIMEOUT);
    await waitFor(
      async () =>
        expect(helperOf(await input('name'))).toBe(
          'Wird bereits von einem anderen Eintrag verwendet.',
        ),
      TIMEOUT,
    );
    // All errors are beside their inputs: the notification only says the form is not valid.
    await screen.findByText('ra.message.invalid_form', {}, TIMEOUT);
  }, 30_000);
});

describe('leaving a changed form', () => {
  it('asks first; cancelling stays on the form, and after saving nobody asks', async () => {
    const state = widgetApi(null);
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    const router = renderAt('/admin/widgets/1/edit');
    const name = await input('name');
    await waitFor(() => expect(name.value).toBe('Alpha'), TIMEOUT);
    await type(name, 'Beta');

    await act(async () => {
      await router.navigate('/admin/widgets');
    });
    await waitFor(() => expect(confirm).toHaveBeenCalledWith('Änderungen verwerfen?'), TIMEOUT);
    expect(router.state.location.pathname).toBe('/admin/widgets/1/edit');
    expect((await input('name')).value).toBe('Beta');

    // Saved: the edit goes on to the next page without a question.
    confirm.mockClear();
    await save();
    await waitFor(() => expect(state.stored.name).toBe('Beta'), TIMEOUT);
    await waitFor(
      () => expect(router.state.location.pathname).not.toBe('/admin/widgets/1/edit'),
      TIMEOUT,
    );
    expect(confirm).not.toHaveBeenCalled();
  }, 30_000);

  it('asks nothing when nothing changed', async () => {
    widgetApi(null);
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    const router = renderAt('/admin/widgets/1/edit');
    const name = await input('name');
    await waitFor(() => expect(name.value).toBe('Alpha'), TIMEOUT);
    await act(async () => {
      await router.navigate('/admin/widgets');
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/widgets'), TIMEOUT);
    expect(confirm).not.toHaveBeenCalled();
  }, 30_000);
});

describe('error messages', () => {
  const translate = (key: string, options: Record<string, unknown> = {}) =>
    key === 'app.errors.maxLength'
      ? `Höchstens ${String(options.limit)} Zeichen`
      : typeof options._ === 'string'
        ? options._
        : key;

  it('reads a key, react-admin’s key form, a form-level message object and a sentence', () => {
    expect(parseErrorMessage(`${RA}{"message":"app.errors.maxLength","args":{"limit":3}}`)).toEqual(
      { message: 'app.errors.maxLength', args: { limit: 3 } },
    );
    expect(parseErrorMessage({ message: { message: 'k', args: { a: 1 } } })).toEqual({
      message: 'k',
      args: { a: 1 },
    });
    expect(parseErrorMessage('is required')).toEqual({ message: 'is required' });
    expect(parseErrorMessage('')).toBeUndefined();
    expect(
      translateErrorMessage(
        translate,
        `${RA}{"message":"app.errors.maxLength","args":{"limit":3}}`,
      ),
    ).toBe('Höchstens 3 Zeichen');
  });

  it('lists the leaves of react-hook-form’s nested errors with their paths', () => {
    const ref = {};
    expect(
      flattenErrors({
        name: { type: 'server', message: 'a', ref },
        emails: [undefined, { address: { type: 'server', message: 'b' } }],
        root: { serverError: { type: 'server', message: 'c' } },
      }).map(({ path, message }) => [path, message]),
    ).toEqual([
      ['name', 'a'],
      ['emails.1.address', 'b'],
      ['root.serverError', 'c'],
    ]);
    expect(labelKeyOf('customers', 'emails.1.address')).toBe(
      'resources.customers.fields.emails.address',
    );
  });
});

describe('every react-admin form of the app', () => {
  it('comes from src/resources/forms (server errors, summary, unsaved-changes question)', () => {
    const root = path.resolve(import.meta.dirname, '..', '..');
    const offenders = fs
      .readdirSync(root, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.tsx') && !file.endsWith('.test.tsx'))
      .filter((file) => !file.startsWith(`resources${path.sep}forms`))
      .filter((file) => {
        const text = fs.readFileSync(path.join(root, file), 'utf8');
        const fromAdmin = /import\s*\{([^}]*)\}\s*from\s*'react-admin'/g;
        return [...text.matchAll(fromAdmin)].some((match) =>
          /\b(SimpleForm|TabbedForm)\b/.test(match[1] ?? ''),
        );
      });
    expect(offenders).toEqual([]);
  });
});
