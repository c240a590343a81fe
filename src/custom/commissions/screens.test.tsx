// @vitest-environment jsdom
/**
 * The commission screens against an msw server answering as the contract says (the real data
 * provider and schemas): my commissions asks for the user's ready lines (spec §4) and their totals
 * with the same filters, shows CHF from centimes (negative in red), links the contract and expands
 * a line's explain; "Reverse" asks the reason, posts it, and shows a refusal (409) translated in
 * the dialog and a missing reason (422) on its field; the tester's answer shows the rule, the
 * candidates' specificity in words, the courtage with its cap flag and the people's lines.
 */
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { AdminContext, Notification, ResourceDefinitionContextProvider } from 'react-admin';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDataProvider } from '../../dataProvider/index.ts';
import { textsProvider } from '../../i18n/testing.ts';
import { API, startApiServer } from '../../dataProvider/providerTesting.ts';
import type { CommissionLine, TesterAnswer } from './model.ts';
import MyCommissionsPage from './MyCommissionsPage.tsx';
import { ReverseButton } from './ReverseDialog.tsx';
import { Result } from './RuleTester.tsx';

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
  'app.commissions.explain.rule': 'Rule "{{rule}}" (version {{version}})',
  'app.commissions.explain.monthlyPremium':
    'Monthly premium CHF {{basis}} × {{factor}} = CHF {{amount}}',
  'app.errors.commissionLineFrozen': 'In a payout not yet paid: correct it after the payout',
  'app.errors.required': 'Required',
  'app.commissionRules.tester.level.variant': 'Variant',
  'app.commissionRules.tester.level.product': 'Product',
  'app.commissionRules.tester.level.withCompany': '{{level}}, with insurer',
  'app.commissions.capExceededAt': 'Above the legal cap of {{cap}}',
};

const i18nProvider = textsProvider(TEXTS);

type Row = Record<string, unknown>;

const line = (id: number, values: Row = {}): Row => ({
  id,
  version: 1,
  created_at: '2026-11-02T08:00:00Z',
  updated_at: '2026-11-02T08:00:00Z',
  user_id: 1,
  sub_broker_id: null,
  kind: 'consultant',
  contract_id: 710,
  contract_number: 'KPT-1001',
  customer_name: 'Lea Muster',
  product_id: 2,
  company_id: 9,
  product_group: 'health',
  rule_id: 3,
  rule_version: 1,
  commission_type: 'acquisition',
  contract_year: null,
  period: '2026-10',
  amount: 102480,
  stars: 2,
  status: 'ready_present',
  reverses_id: null,
  payout_id: null,
  reason: null,
  explain: [
    { key: 'app.commissions.explain.rule', params: { rule: 'KPT Spital', version: 1 } },
    {
      key: 'app.commissions.explain.monthlyPremium',
      params: { basis: 85.4, factor: 12, amount: 1024.8 },
    },
  ],
  cap_exceeded: false,
  cap_amount: null,
  created_by: null,
  ...values,
});

const listAnswer = (rows: Row[]) => ({
  data: rows,
  meta: { current_page: 1, per_page: 25, total: rows.length, last_page: 1 },
});

function renderWithAdmin(element: React.ReactNode, path = '/admin/my-commissions') {
  render(
    <MemoryRouter initialEntries={[path]}>
      <AdminContext
        dataProvider={createDataProvider({ apiUrl: API, getToken: () => 't' })}
        i18nProvider={i18nProvider}
      >
        <Routes>
          <Route path={path} element={element} />
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
      role: 'CONSULTANT',
      permissions: [],
      routeSet: 'consultant',
    }),
  );
});
afterEach(() => {
  cleanup();
  localStorage.clear();
});

// Renders of whole lists take seconds on the shared 2-core machine.
describe('my commissions', { timeout: 30_000 }, () => {
  it('lists the user’s ready lines with their totals, CHF, contract and explain', async () => {
    const seen = { lists: [] as URLSearchParams[], summaries: [] as URLSearchParams[] };
    server.use(
      http.get(`${API}/commission-lines/summary`, ({ request }) => {
        seen.summaries.push(new URL(request.url).searchParams);
        return HttpResponse.json({
          data: {
            count: 2,
            total: 98245,
            by_status: { ready_present: 98245 },
            by_kind: { consultant: 102480, correction: -4235 },
            stars: 2,
          },
        });
      }),
      http.get(`${API}/commission-lines`, ({ request }) => {
        seen.lists.push(new URL(request.url).searchParams);
        return HttpResponse.json(
          listAnswer([
            line(1),
            line(2, {
              kind: 'correction',
              contract_id: null,
              contract_number: null,
              customer_name: null,
              amount: -4235,
              stars: null,
              reason: 'Doppelt erfasst',
              explain: [],
            }),
          ]),
        );
      }),
    );
    renderWithAdmin(<MyCommissionsPage />);
    const amounts = await screen.findAllByTestId('line-amount', undefined, TIMEOUT);
    expect(amounts.map((cell) => cell.textContent)).toEqual(["CHF 1'024.80", 'CHF -42.35']);
    expect(amounts.map((cell) => cell.getAttribute('data-negative'))).toEqual([null, 'true']);
    // The user's own lines, ready ones by default, page 1; the totals with the same filters.
    const list = seen.lists[0];
    expect(list.getAll('status')).toEqual(['ready_present']);
    expect(list.get('user_id')).toBe('1');
    expect(list.get('page')).toBe('1');
    await waitFor(() => expect(seen.summaries.length).toBeGreaterThan(0));
    expect(seen.summaries[0].getAll('status')).toEqual(['ready_present']);
    expect(seen.summaries[0].get('user_id')).toBe('1');
    expect((await screen.findByTestId('lines-summary-total')).textContent).toBe('CHF 982.45');
    expect(screen.getByTestId('lines-summary-ready_present').textContent).toContain('CHF 982.45');
    // The contract's link in the area; a single payment shows its reason instead.
    const contract = screen.getByTestId('line-contract');
    expect(contract.getAttribute('href')).toBe('/admin/contracts/710');
    expect(screen.getByText('Doppelt erfasst')).toBeTruthy();
    // A row opens its explain.
    expect(screen.queryByTestId('line-details')).toBeNull();
    await act(async () => {
      fireEvent.click(screen.getByText('KPT-1001').closest('tr') as HTMLElement);
    });
    const details = await screen.findByTestId('line-details', undefined, TIMEOUT);
    expect(within(details).getByTestId('line-explain').textContent).toBe(
      'Rule "KPT Spital" (version 1)' + "Monthly premium CHF 85.40 × 12 = CHF 1'024.80",
    );
  });
});

describe('reversing a line', { timeout: 30_000 }, () => {
  function reverseApi(answers: Array<{ status: number; body: unknown }>) {
    const posted: unknown[] = [];
    server.use(
      http.post(`${API}/commission-lines/:id/reverse`, async ({ request, params }) => {
        posted.push({ id: params.id, body: await request.json() });
        const answer = answers.shift() ?? { status: 200, body: { data: line(9) } };
        return HttpResponse.json(answer.body as Row, { status: answer.status });
      }),
    );
    return posted;
  }

  const record = {
    ...line(5, { amount: 15000 }),
    createdAt: '2026-11-02T08:00:00Z',
    updatedAt: '2026-11-02T08:00:00Z',
    status: 'in_payout',
    kind: 'consultant',
    amount: 15000,
  } as unknown as CommissionLine;

  it('asks the reason, shows the refusal in the dialog, and posts the reason', async () => {
    const posted = reverseApi([
      {
        status: 422,
        body: {
          errors: { reason: ['is required'] },
          error_keys: { reason: [{ message: 'app.errors.required' }] },
        },
      },
      {
        status: 409,
        body: {
          message: 'the line is in a payout not yet paid',
          key: 'app.errors.commissionLineFrozen',
          args: {},
        },
      },
    ]);
    renderWithAdmin(<ReverseButton line={record} />, '/admin/commissions');
    await act(async () => {
      fireEvent.click(await screen.findByTestId('line-reverse', undefined, TIMEOUT));
    });
    const dialog = await screen.findByTestId('reverse-dialog');
    // No reason: nothing is sent.
    await act(async () => {
      fireEvent.click(within(dialog).getByTestId('reverse-confirm'));
    });
    expect(posted).toEqual([]);
    expect(dialog.textContent).toContain('ra.validation.required');
    const reason = within(dialog).getByTestId('reverse-reason');
    // The server's 422 on the reason shows on the field.
    fireEvent.change(reason, { target: { value: '   x' } });
    await act(async () => {
      fireEvent.click(within(dialog).getByTestId('reverse-confirm'));
    });
    await waitFor(() => expect(dialog.textContent).toContain('Required'));
    // A frozen line: the reason, translated, in the dialog, which stays open.
    fireEvent.change(reason, { target: { value: 'Falsche Sterne' } });
    await act(async () => {
      fireEvent.click(within(dialog).getByTestId('reverse-confirm'));
    });
    const refused = await within(dialog).findByTestId('reverse-refused');
    expect(refused.textContent).toBe('In a payout not yet paid: correct it after the payout');
    expect(posted).toEqual([
      { id: '5', body: { reason: 'x' } },
      { id: '5', body: { reason: 'Falsche Sterne' } },
    ]);
    // Accepted: the dialog closes.
    await act(async () => {
      fireEvent.click(within(dialog).getByTestId('reverse-confirm'));
    });
    await waitFor(() => expect(screen.queryByTestId('reverse-dialog')).toBeNull());
    expect(posted).toHaveLength(3);
  });

  it('offers nothing to reverse on a reversed line', async () => {
    renderWithAdmin(
      <ReverseButton line={{ ...record, status: 'reversed' }} />,
      '/admin/commissions',
    );
    const button = await screen.findByTestId('line-reverse', undefined, TIMEOUT);
    expect((button as HTMLButtonElement).disabled).toBe(true);
  });
});

describe('the tester’s answer', { timeout: 30_000 }, () => {
  it('shows the rule, the candidates in words, the courtage and its cap, the people’s lines', async () => {
    server.use(
      http.get(`${API}/users`, () =>
        HttpResponse.json(
          listAnswer([{ id: 4, first_name: 'Daniel', last_name: 'Müller', email: 'd@demo.ch' }]),
        ),
      ),
    );
    const answer: TesterAnswer = {
      rule: { id: 3, name: 'KPT Spital', version: 2 },
      candidates: [
        { id: 3, name: 'KPT Spital', commissionType: 'acquisition', specificity: 7 },
        { id: 8, name: 'Zusatz allgemein', commissionType: 'acquisition', specificity: 2 },
      ],
      courtage: {
        amount: 170000,
        explain: [
          {
            key: 'app.commissions.explain.monthlyPremium',
            params: { basis: 100, factor: 17, amount: 1700 },
          },
        ],
        capExceeded: true,
        capAmount: 160000,
      },
      portfolio: null,
      lines: [
        { kind: 'courtage', userId: null, amount: 170000, stars: null, explain: [] },
        { kind: 'consultant', userId: 4, amount: 15000, stars: 1, explain: [] },
      ],
    };
    // People are named as the app registers users (src/resources/resources.tsx).
    renderWithAdmin(
      <ResourceDefinitionContextProvider
        definitions={{
          users: {
            name: 'users',
            recordRepresentation: (user: Row) =>
              `${String(user.firstName)} ${String(user.lastName)}`,
          },
        }}
      >
        <Result answer={answer} mode="contract" />
      </ResourceDefinitionContextProvider>,
      '/admin/commission-rules',
    );
    const link = await screen.findByTestId('tester-rule-link', undefined, TIMEOUT);
    expect(link.textContent).toBe('KPT Spital');
    expect(link.getAttribute('href')).toBe('/admin/commission-rules/3/edit');
    const candidates = screen.getAllByTestId('tester-candidate');
    expect(candidates.map((row) => row.textContent)).toEqual([
      'KPT Spitalenums.commissionType.acquisitionVariant, with insurerapp.commissionRules.tester.chosen',
      'Zusatz allgemeinenums.commissionType.acquisitionProduct',
    ]);
    expect(screen.getByTestId('tester-courtage-amount').textContent).toBe("CHF 1'700.00");
    expect(screen.getByTestId('cap-exceeded').textContent).toBe(
      "Above the legal cap of CHF 1'600.00",
    );
    expect(screen.getByTestId('tester-courtage-explain').textContent).toBe(
      "Monthly premium CHF 100.00 × 17 = CHF 1'700.00",
    );
    const lines = screen.getByTestId('tester-lines');
    await waitFor(() => expect(lines.textContent).toContain('Daniel Müller'));
    expect(lines.textContent).toContain('app.commissions.brokerage');
    expect(lines.textContent).toContain('CHF 150.00');
  });
});
