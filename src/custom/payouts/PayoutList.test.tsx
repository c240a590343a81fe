// @vitest-environment jsdom
/**
 * The payouts list against an msw server answering as the contract says (the real data provider
 * and schema): it opens on the new payouts, page 1 (spec §4, §9); "run payouts" posts the month,
 * says how many were made and shows that month's new payouts; approving asks first and posts with
 * the payout's version; a refusal (409, the payout moved on) shows the server's reason translated.
 */
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { AdminContext, Notification } from 'react-admin';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDataProvider } from '../../dataProvider/index.ts';
import { textsProvider } from '../../i18n/testing.ts';
import { API, startApiServer } from '../../dataProvider/providerTesting.ts';
import { swissToday } from '../../schema/swiss-time.ts';
import { previousMonth } from './model.ts';
import PayoutList from './PayoutList.tsx';

vi.mock('../../dataProvider/apiClient.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../dataProvider/apiClient.ts')>();
  return {
    ...actual,
    api: actual.createApiClient({ apiUrl: 'http://localhost/api', getToken: () => 't' }),
  };
});

const server = startApiServer();
const TIMEOUT = { timeout: 10_000 };

const TEXTS: Record<string, string> = {
  'app.payouts.page.run.created': 'Created for {{period}}: {{count}}',
  'app.payouts.page.confirm.approve': 'Approve {{name}}, {{period}}, {{total}}?',
  'app.errors.payoutWrongStatus': 'The payout is {{status}}: this needs a {{expected}} payout',
};

const i18nProvider = textsProvider(TEXTS);

type Row = Record<string, unknown>;

const payout = (id: number, values: Row = {}): Row => ({
  id,
  version: 3,
  created_at: '2026-11-02T08:00:00Z',
  updated_at: '2026-11-02T08:00:00Z',
  user_id: 5,
  period: '2026-10',
  status: 'new',
  total: 123450,
  line_count: 4,
  approved_at: null,
  approved_by: null,
  paid_at: null,
  paid_by: null,
  note: null,
  ...values,
});

/** The payouts (filtered by status and period as the server does) and what was asked and posted. */
function payoutsApi(stored: Row[], approve: { status: number; body: unknown }) {
  const seen = {
    lists: [] as URLSearchParams[],
    posts: [] as Array<{ path: string; body: unknown }>,
  };
  server.use(
    http.get(`${API}/payouts`, ({ request }) => {
      const query = new URL(request.url).searchParams;
      seen.lists.push(query);
      const rows = stored.filter(
        (row) =>
          (!query.get('status') || row.status === query.get('status')) &&
          (!query.get('period') || row.period === query.get('period')),
      );
      return HttpResponse.json({
        data: rows,
        meta: { current_page: 1, per_page: 25, total: rows.length, last_page: 1 },
      });
    }),
    http.get(`${API}/users/:id`, () =>
      HttpResponse.json({
        data: { id: 5, first_name: 'Beat', last_name: 'Brunner', email: 'b@demo.ch' },
      }),
    ),
    http.get(`${API}/users`, () =>
      HttpResponse.json({
        data: [{ id: 5, first_name: 'Beat', last_name: 'Brunner', email: 'b@demo.ch' }],
        meta: { current_page: 1, per_page: 25, total: 1, last_page: 1 },
      }),
    ),
    http.post(`${API}/payouts/run`, async ({ request }) => {
      const body = (await request.json()) as { period: string };
      seen.posts.push({ path: 'run', body });
      stored.push(
        payout(20, { period: body.period }),
        payout(21, { period: body.period, user_id: 6 }),
      );
      return HttpResponse.json({ data: { created: 2, payouts: stored.slice(-2) } });
    }),
    http.post(`${API}/payouts/:id/approve`, async ({ request, params }) => {
      seen.posts.push({ path: `${String(params.id)}/approve`, body: await request.json() });
      return HttpResponse.json(approve.body as Row, { status: approve.status });
    }),
  );
  return seen;
}

function renderList() {
  render(
    <MemoryRouter initialEntries={['/admin/payouts']}>
      <AdminContext
        dataProvider={createDataProvider({ apiUrl: API, getToken: () => 't' })}
        i18nProvider={i18nProvider}
      >
        <Routes>
          <Route path="/admin/payouts" element={<PayoutList />} />
        </Routes>
        <Notification />
      </AdminContext>
    </MemoryRouter>,
  );
}

beforeEach(() => {
  window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;
  localStorage.setItem(
    'user',
    JSON.stringify({
      id: 1,
      email: 'a@demo.ch',
      role: 'ADMIN',
      permissions: ['manage-commissions'],
      routeSet: 'admin',
    }),
  );
});
afterEach(() => {
  cleanup();
  localStorage.clear();
});

// Renders of the whole list take seconds on the shared 2-core machine.
describe('the payouts list', { timeout: 30_000 }, () => {
  it('opens on the new payouts, page 1, with total and month', async () => {
    const seen = payoutsApi([payout(1), payout(2, { status: 'paid' })], { status: 200, body: {} });
    renderList();
    const rows = await screen.findAllByTestId('payout-total', undefined, TIMEOUT);
    expect(seen.lists[0].get('status')).toBe('new');
    expect(seen.lists[0].get('page')).toBe('1');
    expect(rows.map((cell) => cell.textContent)).toEqual(["CHF 1'234.50"]);
    expect(screen.getByText('Oct 2026')).toBeTruthy();
    expect(screen.getByTestId('payout-status-chip').getAttribute('data-status')).toBe('new');
    // A new payout may be approved or deleted, not paid.
    expect(screen.getByTestId('payout-approve-1')).toBeTruthy();
    expect(screen.getByTestId('payout-delete-1')).toBeTruthy();
    expect(screen.queryByTestId('payout-pay-1')).toBeNull();
  });

  it('runs the payouts of a month, says how many, and shows that month’s new payouts', async () => {
    const seen = payoutsApi([payout(1)], { status: 200, body: {} });
    renderList();
    await screen.findAllByTestId('payout-total', undefined, TIMEOUT);
    await act(async () => {
      fireEvent.click(screen.getByTestId('payouts-run'));
    });
    const dialog = await screen.findByTestId('payouts-run-dialog');
    const month = previousMonth(swissToday());
    const [year, number] = month.split('-');
    // The month picker loads with the first one that renders.
    expect(
      ((await within(dialog).findByTestId('payouts-run-month')) as HTMLInputElement).value,
    ).toBe(`${number}.${year}`);
    await act(async () => {
      fireEvent.click(within(dialog).getByTestId('payouts-run-confirm'));
    });
    const result = await within(dialog).findByTestId('payouts-run-result');
    expect(result.getAttribute('data-created')).toBe('2');
    expect(result.textContent).toMatch(/: 2$/);
    expect(seen.posts).toEqual([{ path: 'run', body: { period: month } }]);
    await waitFor(() => expect(seen.lists.at(-1)?.get('period')).toBe(month));
    expect(seen.lists.at(-1)?.get('status')).toBe('new');
  });

  it('approves after asking, with the payout’s version; a refusal shows the server’s reason', async () => {
    const refusal = {
      message: 'the payout is Approved: this needs a New payout',
      key: 'app.errors.payoutWrongStatus',
      args: { status: 'Approved', expected: 'New' },
    };
    const seen = payoutsApi([payout(1)], { status: 409, body: refusal });
    renderList();
    await act(async () => {
      fireEvent.click(await screen.findByTestId('payout-approve-1', undefined, TIMEOUT));
    });
    // Nothing is sent before the question is answered, which names whom, when and how much.
    expect(seen.posts).toEqual([]);
    expect(
      await screen.findByText("Approve Beat Brunner, Oct 2026, CHF 1'234.50?", undefined, TIMEOUT),
    ).toBeTruthy();
    const confirm = await screen.findByRole('button', { name: 'app.payouts.page.actions.approve' });
    await act(async () => {
      fireEvent.click(confirm);
    });
    await waitFor(() => expect(seen.posts).toEqual([{ path: '1/approve', body: { version: 3 } }]));
    expect(
      await screen.findByText(
        'The payout is Approved: this needs a New payout',
        undefined,
        TIMEOUT,
      ),
    ).toBeTruthy();
  });
});
