// @vitest-environment jsdom
/**
 * The pagers (./Pagers.tsx): react-admin's range text in the user's language with Swiss numbers,
 * never MUI's English "0–0 of 0"; an empty table shows no pager.
 */
import { cleanup, render, screen } from '@testing-library/react';
import {
  AdminContext,
  type I18nProvider,
  ListContextProvider,
  type ListControllerResult,
} from 'react-admin';
import { afterEach, describe, expect, it } from 'vitest';
import { ListPagination, TablePager } from './Pagers.tsx';

afterEach(cleanup);

/** German texts of the keys the pager reads; placeholders filled as i18next would. */
const GERMAN: Record<string, string> = {
  'ra.navigation.page_range_info': '{{offsetBegin}}-{{offsetEnd}} von {{total}}',
  'ra.navigation.page_rows_per_page': 'Zeilen pro Seite:',
  'ra.navigation.next': 'Zur nächsten Seite',
  'ra.navigation.previous': 'Zur vorherigen Seite',
  'ra.navigation.partial_page_range_info':
    '{{offsetBegin}}-{{offsetEnd}} von mehr als {{offsetEnd}}',
  'app.pager.moreThan': '{{offsetBegin}}-{{offsetEnd}} von mehr als {{total}}',
  'app.pager.about': '{{offsetBegin}}-{{offsetEnd}} von ungefähr {{total}}',
};
const german: I18nProvider = {
  translate: (key: string, values: Record<string, unknown> = {}) =>
    (GERMAN[key] ?? key).replace(/\{\{(\w+)\}\}/g, (_match, name: string) => String(values[name])),
  changeLocale: async () => {},
  getLocale: () => 'de',
};

const pager = (count: number, page = 0) =>
  render(
    <AdminContext i18nProvider={german}>
      <TablePager
        count={count}
        page={page}
        rowsPerPage={25}
        rowsPerPageOptions={[25]}
        onPageChange={() => {}}
      />
    </AdminContext>,
  );

describe('TablePager', () => {
  it('says the range in the language with Swiss numbers', () => {
    pager(1234, 40);
    expect(screen.getByText("1'001-1'025 von 1'234")).toBeTruthy();
    expect(screen.getByLabelText('Zur nächsten Seite')).toBeTruthy();
    expect(screen.queryByText(/ of /)).toBeNull();
  });

  it('shows nothing while the table is empty', () => {
    const { container } = pager(0);
    expect(container.textContent).toBe('');
  });
});

/** react-admin's list pager inside a list whose data provider answered `answer`. */
const listPager = (answer: Partial<ListControllerResult>) =>
  render(
    <AdminContext i18nProvider={german}>
      <ListContextProvider
        value={
          {
            isPending: false,
            page: 3,
            perPage: 25,
            setPage: () => {},
            setPerPage: () => {},
            hasPreviousPage: true,
            ...answer,
          } as ListControllerResult
        }
      >
        <ListPagination rowsPerPageOptions={[25]} />
      </ListContextProvider>
    </AdminContext>,
  );

describe('ListPagination', () => {
  it('says "more than" the server\'s cap for a list too long to count', () => {
    listPager({
      total: undefined,
      hasNextPage: true,
      meta: { total: 10_000, totalEstimate: 'more_than' },
    });
    expect(screen.getByText("51-75 von mehr als 10'000")).toBeTruthy();
    expect(screen.getByLabelText('Zur nächsten Seite')).toHaveProperty('disabled', false);
  });

  it('says "about" the estimate of a whole table', () => {
    listPager({
      total: undefined,
      hasNextPage: true,
      meta: { total: 120_000, totalEstimate: 'about' },
    });
    expect(screen.getByText("51-75 von ungefähr 120'000")).toBeTruthy();
  });

  it('shows the exact total and page buttons when the total is known', () => {
    listPager({ total: 1234, hasNextPage: true });
    expect(screen.getByText("51-75 von 1'234")).toBeTruthy();
    expect(screen.getByText('50')).toBeTruthy();
  });

  it("falls back to react-admin's partial range without an estimate", () => {
    listPager({ total: undefined, hasNextPage: true });
    expect(screen.getByText('51-75 von mehr als 75')).toBeTruthy();
  });
});
