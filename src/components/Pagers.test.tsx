// @vitest-environment jsdom
/**
 * The pagers (./Pagers.tsx): react-admin's range text in the user's language with Swiss numbers,
 * never MUI's English "0–0 of 0"; an empty table shows no pager.
 */
import { cleanup, render, screen } from '@testing-library/react';
import { AdminContext, type I18nProvider } from 'react-admin';
import { afterEach, describe, expect, it } from 'vitest';
import { TablePager } from './Pagers.tsx';

afterEach(cleanup);

/** German texts of the keys the pager reads; placeholders filled as i18next would. */
const GERMAN: Record<string, string> = {
  'ra.navigation.page_range_info': '{{offsetBegin}}-{{offsetEnd}} von {{total}}',
  'ra.navigation.page_rows_per_page': 'Zeilen pro Seite:',
  'ra.navigation.next': 'Zur nächsten Seite',
  'ra.navigation.previous': 'Zur vorherigen Seite',
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
