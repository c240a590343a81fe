// @vitest-environment jsdom
/**
 * The localized date and number components (./components.tsx) inside a react-admin form and record:
 * dates shown 'MMM D, YYYY' in the language, typed 'DD.MM.YYYY', kept 'YYYY-MM-DD' in the form;
 * Swiss numbers and CHF amounts.
 */
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AdminContext, Form, type I18nProvider, RecordContextProvider } from 'react-admin';
import { LocalizedDateField, LocalizedDateInput, SwissNumberField } from './components.tsx';

afterEach(cleanup);

const i18nOf = (locale: string): I18nProvider => ({
  translate: (key: string) => key,
  changeLocale: async () => {},
  getLocale: () => locale,
});

function renderIn(locale: string, children: React.ReactNode) {
  return render(<AdminContext i18nProvider={i18nOf(locale)}>{children}</AdminContext>);
}

describe('fields', () => {
  it("show dates 'MMM D, YYYY' in the language (French in English)", async () => {
    const record = { id: 1, signedOn: '2026-03-05', createdAt: '2026-03-05T09:15:00' };
    for (const [locale, expected] of [
      ['de', 'März 5, 2026'],
      ['en', 'Mar 5, 2026'],
      ['fr', 'Mar 5, 2026'],
      ['it', 'mar 5, 2026'],
    ]) {
      renderIn(
        locale,
        <RecordContextProvider value={record}>
          <LocalizedDateField source="signedOn" />
          <LocalizedDateField source="createdAt" showTime />
        </RecordContextProvider>,
      );
      expect(await screen.findByText(expected)).toBeTruthy();
      expect(screen.getByText(`${expected} 09:15`)).toBeTruthy();
      cleanup();
    }
  });

  it('show numbers and CHF amounts the Swiss way', async () => {
    renderIn(
      'fr',
      <RecordContextProvider value={{ id: 1, count: 12345, premium: 1234.5 }}>
        <SwissNumberField source="count" />
        <SwissNumberField source="premium" chf />
      </RecordContextProvider>,
    );
    expect(await screen.findByText("12'345")).toBeTruthy();
    expect(screen.getByText("CHF 1'234.50")).toBeTruthy();
  });
});

describe('LocalizedDateInput', () => {
  it("shows the form's 'YYYY-MM-DD' as 'DD.MM.YYYY' and keeps a typed date as 'YYYY-MM-DD'", async () => {
    const onSubmit = vi.fn();
    renderIn(
      'de',
      <Form record={{ id: 1, dateOfBirth: '1980-03-05' }} onSubmit={onSubmit}>
        <LocalizedDateInput source="dateOfBirth" label="app.birth" />
        <button type="submit">submit</button>
      </Form>,
    );
    const input = (await screen.findByDisplayValue('05.03.1980')) as HTMLInputElement;
    await act(async () => {
      fireEvent.change(input, { target: { value: '24.12.2026' } });
    });
    await act(async () => {
      fireEvent.click(screen.getByText('submit'));
    });
    await waitFor(() => expect(onSubmit).toHaveBeenCalled());
    expect(onSubmit.mock.calls[0][0]).toMatchObject({ dateOfBirth: '2026-12-24' });
  });

  it('sends null for a cleared date', async () => {
    const onSubmit = vi.fn();
    renderIn(
      'de',
      <Form record={{ id: 1, dateOfBirth: '1980-03-05' }} onSubmit={onSubmit}>
        <LocalizedDateInput source="dateOfBirth" label="app.birth" />
        <button type="submit">submit</button>
      </Form>,
    );
    const input = (await screen.findByDisplayValue('05.03.1980')) as HTMLInputElement;
    await act(async () => {
      fireEvent.change(input, { target: { value: '' } });
    });
    await act(async () => {
      fireEvent.click(screen.getByText('submit'));
    });
    await waitFor(() => expect(onSubmit).toHaveBeenCalled());
    expect(onSubmit.mock.calls[0][0]).toMatchObject({ dateOfBirth: null });
  });

  it('refuses an unfinished date beside the input instead of sending the old value', async () => {
    const onSubmit = vi.fn();
    renderIn(
      'de',
      <Form record={{ id: 1, dateOfBirth: null }} onSubmit={onSubmit}>
        <LocalizedDateInput source="dateOfBirth" label="app.birth" />
        <button type="submit">submit</button>
      </Form>,
    );
    const input = (await screen.findByRole('textbox')) as HTMLInputElement;
    // What the picker shows after typing day and month only.
    await act(async () => {
      fireEvent.blur(input, { target: { value: '05.03.JJJJ' } });
    });
    await act(async () => {
      fireEvent.click(screen.getByText('submit'));
    });
    expect(await screen.findByText('app.validation.date')).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('keeps a timestamp for a date and time', async () => {
    const onSubmit = vi.fn();
    renderIn(
      'en',
      <Form record={{ id: 1, startsAt: '2026-03-05T08:30:00.000Z' }} onSubmit={onSubmit}>
        <LocalizedDateInput source="startsAt" showTime />
        <button type="submit">submit</button>
      </Form>,
    );
    const input = (await screen.findByRole('textbox')) as HTMLInputElement;
    expect(input.value).toMatch(/^05\.03\.2026 \d{2}:30$/);
    await act(async () => {
      fireEvent.change(input, { target: { value: '06.03.2026 14:45' } });
    });
    await act(async () => {
      fireEvent.click(screen.getByText('submit'));
    });
    await waitFor(() => expect(onSubmit).toHaveBeenCalled());
    const sent = onSubmit.mock.calls[0][0].startsAt as string;
    const local = new Date(sent);
    expect([local.getFullYear(), local.getMonth(), local.getDate()]).toEqual([2026, 2, 6]);
    expect([local.getHours(), local.getMinutes()]).toEqual([14, 45]);
  });
});
