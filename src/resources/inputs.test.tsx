// @vitest-environment jsdom
/**
 * Pickers made from the schema (src/resources/inputs.tsx): a long enum (the 250 nationalities) is an
 * autocomplete in the user's language and order with type-ahead that ignores accents, a short one
 * a select; a reference picker asks its list sorted by label with the field's x-reference-filter
 * and shows the records by label in the user's order.
 */
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import {
  AdminContext,
  type I18nProvider,
  ResourceDefinitionContextProvider,
  SimpleForm,
} from 'react-admin';
import { afterEach, describe, expect, it } from 'vitest';
import deMessages from '../../locales/de.json';
import { createDataProvider, type HttpClient } from '../dataProvider/index.ts';
import { fieldByName } from '../schema/model.ts';
import { inputFor, ReferencePicker } from './inputs.tsx';
import { getModel } from './registry.ts';

const countries = deMessages.enums.country as Record<string, string>;
const genders = deMessages.enums.gender as Record<string, string>;

/** German texts of the enums used here; other keys stay keys. */
const i18nProvider: I18nProvider = {
  translate: (key: string) => {
    const [, name, value] = /^enums\.(country|gender)\.(.+)$/.exec(key) ?? [];
    if (name === 'country') return countries[value] ?? key;
    if (name === 'gender') return genders[value] ?? key;
    return key;
  },
  changeLocale: async () => {},
  getLocale: () => 'de',
};

const USERS = [
  { id: 1, firstName: 'Élodie', lastName: 'Favre' },
  { id: 2, firstName: 'Daniel', lastName: 'Müller' },
  { id: 3, firstName: 'Beatrice', lastName: 'Keller' },
];

/** The app's data provider over a fake server that answers every list with USERS and notes the URL. */
function dataProvider(asked: URL[]) {
  const httpClient: HttpClient = async (url) => {
    asked.push(new URL(url, 'http://app.test'));
    const body = JSON.stringify({
      data: USERS.map(({ id, firstName, lastName }) => ({
        id,
        first_name: firstName,
        last_name: lastName,
      })),
      meta: { current_page: 1, per_page: 50, total: USERS.length, last_page: 1 },
    });
    return { status: 200, headers: new Headers(), body, json: JSON.parse(body) };
  };
  return createDataProvider({ apiUrl: '/api', httpClient, getToken: () => 't' });
}

function renderForm(children: ReactNode, asked: URL[] = []) {
  render(
    <AdminContext dataProvider={dataProvider(asked)} i18nProvider={i18nProvider}>
      <ResourceDefinitionContextProvider
        definitions={{
          users: {
            name: 'users',
            recordRepresentation: (record) => `${record.firstName} ${record.lastName}`,
          },
        }}
      >
        <SimpleForm toolbar={false}>{children}</SimpleForm>
      </ResourceDefinitionContextProvider>
    </AdminContext>,
  );
}

afterEach(cleanup);

const customers = getModel('customers');
const field = (name: string) => {
  const found = fieldByName(customers, name);
  if (!found) throw new Error(`no customers.${name}`);
  return found;
};
const optionTexts = () =>
  within(screen.getByRole('listbox'))
    .getAllByRole('option')
    .map((option) => option.textContent);

describe('enum pickers', () => {
  // 250 options take a while to render in jsdom.
  it(
    'makes the 250 nationalities an autocomplete in German order, with type-ahead',
    { timeout: 60_000 },
    async () => {
      renderForm(inputFor(customers, field('nationality')));
      const input = await screen.findByRole('combobox');
      expect(input.tagName).toBe('INPUT');
      fireEvent.mouseDown(input);
      const names = optionTexts();
      expect(names).toHaveLength(Object.keys(countries).length);
      expect(names.slice(0, 2)).toEqual(['Afghanistan', 'Ägypten']);
      const austria = names.indexOf('Österreich');
      expect(names[austria - 1]).toBe('Oman');
      fireEvent.change(input, { target: { value: 'osterr' } });
      await waitFor(() => expect(optionTexts()).toEqual(['Österreich']), { timeout: 20_000 });
    },
  );

  it(
    'keeps a short enum a select, its options sorted by their German names',
    { timeout: 30_000 },
    async () => {
      renderForm(inputFor(customers, field('gender')));
      const select = await screen.findByRole('combobox');
      expect(select.tagName).not.toBe('INPUT');
      fireEvent.mouseDown(select);
      // The first option is the empty choice.
      const names = optionTexts().filter((name) => name?.trim() !== '');
      const collator = new Intl.Collator('de');
      expect(names).toEqual([...names].sort((a, b) => collator.compare(a ?? '', b ?? '')));
      expect(names).toHaveLength(Object.keys(genders).length);
    },
  );
});

describe('reference pickers', () => {
  it('asks the list by label with the schema’s filter and shows records in German order', async () => {
    const asked: URL[] = [];
    const consultant = field('assignedTo');
    renderForm(
      <ReferencePicker
        source="assignedTo"
        reference="users"
        label="consultant"
        filter={consultant.referenceFilter}
      />,
      asked,
    );
    await waitFor(() => expect(asked.length).toBeGreaterThan(0));
    const query = asked[0].searchParams;
    expect(asked[0].pathname).toBe('/api/users');
    expect(query.get('sort')).toBe('_label');
    expect(query.get('order')).toBe('asc');
    expect(query.get('is_active')).toBe('true');
    expect(query.getAll('role')).toEqual(['CONSULTANT', 'BACKOFFICE', 'BACKOFFICE-CALLCENTER']);
    fireEvent.mouseDown(await screen.findByRole('combobox'));
    await waitFor(() =>
      expect(optionTexts()).toEqual(['Beatrice Keller', 'Daniel Müller', 'Élodie Favre']),
    );
  });
});
