// @vitest-environment jsdom
/**
 * The Global check page against an msw server answering the contract of issue 19 (wire keys
 * snake_case): a new check is prefilled from GET customers/{id}/global-check-defaults and its
 * preview's results show per scenario tab with the gap and the waiting period; a server field
 * error of the preview shows on its input, translated; "save check" posts the inputs; a saved
 * check's gap becomes a lead (POST global-checks/{id}/follow-up with the scenario) with a link to
 * it; two checks compare their gaps with the difference; the customer's tab lists the saved
 * checks with their gaps. The chart library is stubbed (jsdom draws no SVG charts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { AdminContext, RecordContextProvider } from 'react-admin';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { API, provider, startApiServer } from '../../dataProvider/providerTesting.ts';
import { textsProvider } from '../../i18n/testing.ts';
import { CustomerGlobalCheckTab } from './CustomerGlobalCheckTab.tsx';
import GlobalCheckPage from './GlobalCheckPage.tsx';

vi.mock('../../dataProvider/apiClient.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../dataProvider/apiClient.ts')>();
  return {
    ...actual,
    api: actual.createApiClient({ apiUrl: 'http://localhost/api', getToken: () => 't' }),
  };
});
vi.mock('./GapChart.tsx', () => ({
  default: ({ answer }: { answer: { need: number; gap: number } }) => (
    <div data-testid="gc-chart" data-need={answer.need} data-gap={answer.gap} />
  ),
}));

const server = startApiServer();
afterEach(cleanup);

const TEXTS: Record<string, string> = {
  'app.errors.maximum': 'At most {{limit}}',
  'app.globalCheck.ui.checkOf': 'Check of {{date}}',
  'app.globalCheck.ui.followUp.leadCreated': 'Lead created.',
  'enums.globalCheckScenario.diseaseDisability': 'Disability (disease)',
  'enums.pensionSource.ahv': 'AHV',
  'enums.pensionSource.ktg': 'KTG',
  'enums.pensionKind.widow': 'Widow’s pension',
};

const CUSTOMER = {
  id: 5,
  first_name: 'Anna',
  last_name: 'Aebi',
  organization: null,
  correspondence_languages: ['fr'],
};

const DEFAULTS = {
  topics: ['retirement', 'disability', 'death'],
  birth_date: '1980-05-01',
  sex: 'female',
  civil_status: 'married',
  employment_status: 'employed',
  employment_date: '2005-01-01',
  has_pension_missing_years: false,
  gross_income: 90000,
  calculation_type: 'with_contracts',
  need_share: 80,
  disability_degree: 100,
  partner: { birth_date: '1978-02-03', sex: 'male', gross_income: 70000, married_since: null },
  children: [{ first_name: 'Lea', birth_date: '2012-06-01', in_education: false }],
};

const line = (source: string, kind: string, monthly: number, extra: object = {}) => ({
  source,
  kind,
  beneficiary: 'insured',
  monthly,
  ...extra,
});

function resultsOf(gaps: { retirement: number; disease: number; death: number }) {
  return {
    year: 2026,
    figures_year: 2026,
    as_of: '2026-11-28',
    reference_age: { years: 65, months: 0 },
    retirement_start: '2045-06-01',
    scenarios: {
      retirement: {
        scenario: 'retirement',
        need: 6000,
        benefits: [line('ahv', 'retirement', 2520, { notes: ['thirteenth'] })],
        remaining_earnings: 0,
        cover: 6000 - gaps.retirement,
        gap: gaps.retirement,
      },
      disease_disability: {
        scenario: 'diseaseDisability',
        need: 6000,
        benefits: [line('iv', 'disability', 2520), line('bvg', 'disability', 1500)],
        remaining_earnings: 0,
        cover: 6000 - gaps.disease,
        gap: gaps.disease,
        waiting_period: {
          source: 'ktg',
          from_day: 31,
          days: 720,
          benefits: [line('ktg', 'disability', 6000)],
          cover: 6000,
          gap: 0,
        },
      },
      accident_disability: {
        scenario: 'accidentDisability',
        need: 6000,
        benefits: [line('uvg', 'disability', 6000)],
        remaining_earnings: 0,
        cover: 6000,
        gap: 0,
      },
      disease_death: {
        scenario: 'diseaseDeath',
        need: 6000,
        benefits: [line('ahv', 'widow', 2016, { beneficiary: 'partner' })],
        remaining_earnings: 0,
        cover: 6000 - gaps.death,
        gap: gaps.death,
      },
      accident_death: {
        scenario: 'accidentDeath',
        need: 6000,
        benefits: [line('uvg', 'widow', 3000, { beneficiary: 'partner' })],
        remaining_earnings: 0,
        cover: 6000,
        gap: 0,
      },
    },
  };
}

const saved = (id: number, date: string, gaps: Parameters<typeof resultsOf>[0]) => ({
  id,
  customer_id: 5,
  check_date: date,
  ...DEFAULTS,
  own_cover: [],
  results: resultsOf(gaps),
});

interface Seen {
  method: string;
  path: string;
  body: unknown;
}

/** Answers the check's routes for customer 5 and records what was sent. */
function checkApi(
  options: {
    checks?: object[];
    preview?: () => Response;
    created?: object;
  } = {},
) {
  const seen: Seen[] = [];
  let checks = options.checks ?? [];
  const record = async (request: Request) => {
    const text = await request.text();
    seen.push({
      method: request.method,
      path: new URL(request.url).pathname.replace('/api/', ''),
      body: text ? (JSON.parse(text) as unknown) : undefined,
    });
  };
  server.use(
    http.get(`${API}/customers/5`, () => HttpResponse.json({ data: CUSTOMER })),
    http.get(`${API}/customers/5/global-check-defaults`, async ({ request }) => {
      await record(request);
      return HttpResponse.json({ data: DEFAULTS });
    }),
    http.get(`${API}/global-checks`, () =>
      HttpResponse.json({ data: checks, meta: { total: checks.length } }),
    ),
    http.get(`${API}/global-checks/:id`, ({ params }) => {
      const found = checks.find((check) => (check as { id: number }).id === Number(params.id));
      return found
        ? HttpResponse.json({ data: found })
        : HttpResponse.json({ message: 'Not found' }, { status: 404 });
    }),
    http.post(`${API}/global-checks/preview`, async ({ request }) => {
      await record(request);
      return options.preview
        ? options.preview()
        : HttpResponse.json({
            data: {
              results: resultsOf({ retirement: 1200, disease: 1980, death: 3984 }),
              own_cover: [],
            },
          });
    }),
    http.post(`${API}/global-checks`, async ({ request }) => {
      await record(request);
      const created =
        options.created ??
        saved(11, '2026-11-28', {
          retirement: 1200,
          disease: 1980,
          death: 3984,
        });
      checks = [created, ...checks];
      return HttpResponse.json({ data: created }, { status: 201 });
    }),
    http.post(`${API}/global-checks/:id/follow-up`, async ({ request }) => {
      await record(request);
      return HttpResponse.json({ data: { id: 77, title: 'Death cover' }, resource: 'leads' });
    }),
  );
  return seen;
}

function renderPage(at = '/customers/5/global-check') {
  return render(
    <MemoryRouter initialEntries={[at]}>
      <AdminContext dataProvider={provider('t')} i18nProvider={textsProvider(TEXTS)}>
        <Routes>
          <Route path="/customers/:id/global-check" element={<GlobalCheckPage />} />
        </Routes>
      </AdminContext>
    </MemoryRouter>,
  );
}

/** Waits past the preview's delay (400 ms) on a busy machine. */
const SLOW = { timeout: 4000 };

const fieldOf = (input: HTMLElement) => input.closest('.MuiFormControl-root') as HTMLElement;

describe('the Global check page', { timeout: 20_000 }, () => {
  it('prefills a new check from the customer’s data and shows the preview per tab', async () => {
    const seen = checkApi();
    renderPage();
    const income = (await screen.findByTestId('gc-grossIncome')) as HTMLInputElement;
    expect(income.value).toBe('90000');
    expect((screen.getByTestId('gc-birthDate') as HTMLInputElement).value).toBe('01.05.1980');
    expect((screen.getByTestId('gc-partner.grossIncome') as HTMLInputElement).value).toBe('70000');
    expect((screen.getByTestId('gc-children.0.firstName') as HTMLInputElement).value).toBe('Lea');
    // The preview answers with the five scenarios: retirement first.
    const gap = await screen.findByTestId('gc-gap', {}, SLOW);
    expect(gap.getAttribute('data-gap')).toBe('1200');
    expect(screen.getByTestId('gc-row-gap').textContent).toContain("CHF 1'200");
    expect(screen.getByTestId('gc-benefit').textContent).toContain('AHV');
    const preview = seen.find((entry) => entry.path === 'global-checks/preview');
    expect(preview?.body).toMatchObject({
      customer_id: 5,
      birth_date: '1980-05-01',
      gross_income: 90000,
      need_share: 80,
      partner: { birth_date: '1978-02-03', gross_income: 70000 },
      children: [{ first_name: 'Lea', birth_date: '2012-06-01', in_education: false }],
    });
    // Disability after a disease: its gap, its lines and the KTG's waiting period.
    fireEvent.click(screen.getByTestId('gc-tab-diseaseDisability'));
    const panel = await screen.findByTestId('gc-scenario-diseaseDisability');
    expect(within(panel).getByTestId('gc-gap').getAttribute('data-gap')).toBe('1980');
    expect(within(panel).getAllByTestId('gc-benefit')).toHaveLength(3);
    expect(within(panel).getByTestId('gc-waiting').textContent).toContain('KTG');
    expect(within(panel).getByTestId('gc-chart').getAttribute('data-need')).toBe('6000');
    // Not saved: the follow-ups wait for a save.
    const lead = within(panel).getByTestId('gc-follow-up-lead-diseaseDisability');
    expect((lead as HTMLButtonElement).disabled).toBe(true);
    // The accident tab has no gap: no follow-up.
    fireEvent.click(screen.getByTestId('gc-tab-accidentDisability'));
    const accident = await screen.findByTestId('gc-scenario-accidentDisability');
    expect(within(accident).queryByTestId('gc-follow-up')).toBeNull();
  });

  it('shows the server’s field error on its input, translated, and keeps what was typed', async () => {
    let answerWithError = false;
    checkApi({
      preview: () =>
        answerWithError
          ? HttpResponse.json(
              {
                message: 'Invalid data',
                key: 'app.errors.invalidData',
                errors: { gross_income: ['must be at most 1000000'] },
                error_keys: {
                  gross_income: [{ message: 'app.errors.maximum', args: { limit: 1000000 } }],
                },
              },
              { status: 422 },
            )
          : HttpResponse.json({
              data: { results: resultsOf({ retirement: 0, disease: 0, death: 0 }) },
            }),
    });
    renderPage();
    const income = (await screen.findByTestId('gc-grossIncome')) as HTMLInputElement;
    await screen.findByTestId('gc-results', {}, SLOW);
    answerWithError = true;
    fireEvent.change(income, { target: { value: '2000000' } });
    await waitFor(
      () => expect(within(fieldOf(income)).getByText('At most 1000000')).toBeTruthy(),
      SLOW,
    );
    expect(income.value).toBe('2000000');
    expect(screen.getByTestId('gc-fix-inputs')).toBeTruthy();
    expect(screen.getByTestId('gc-unsaved')).toBeTruthy();
  });

  it('saves the inputs as a new check and opens it', async () => {
    const seen = checkApi();
    renderPage();
    const degree = (await screen.findByTestId('gc-disabilityDegree')) as HTMLInputElement;
    fireEvent.change(degree, { target: { value: '60' } });
    fireEvent.click(screen.getByTestId('gc-save'));
    await waitFor(
      () =>
        expect(
          seen.some((entry) => entry.method === 'POST' && entry.path === 'global-checks'),
        ).toBe(true),
      SLOW,
    );
    const create = seen.find((entry) => entry.method === 'POST' && entry.path === 'global-checks');
    expect(create?.body).toMatchObject({
      customer_id: 5,
      topics: ['retirement', 'disability', 'death'],
      birth_date: '1980-05-01',
      sex: 'female',
      civil_status: 'married',
      employment_status: 'employed',
      gross_income: 90000,
      calculation_type: 'with_contracts',
      need_share: 80,
      disability_degree: 60,
      has_pension_missing_years: false,
      partner: { birth_date: '1978-02-03', sex: 'male' },
    });
    // Read-only fields are not sent.
    expect(create?.body).not.toHaveProperty('results');
    expect(create?.body).not.toHaveProperty('check_date');
    // The saved check is opened: its date shows, and the follow-ups can be made.
    await waitFor(
      () => expect(screen.getByTestId('gc-opened').textContent).toContain('Check of'),
      SLOW,
    );
    expect((screen.getByTestId('gc-follow-up-lead-retirement') as HTMLButtonElement).disabled).toBe(
      false,
    );
  });

  it('turns a saved check’s gap into a lead for its scenario, linked', async () => {
    const seen = checkApi({
      checks: [saved(11, '2026-11-28', { retirement: 0, disease: 0, death: 3984 })],
    });
    renderPage('/customers/5/global-check?scenario=diseaseDeath');
    const panel = await screen.findByTestId('gc-scenario-diseaseDeath');
    expect(within(panel).getByTestId('gc-benefit').textContent).toContain('Widow’s pension');
    fireEvent.click(within(panel).getByTestId('gc-follow-up-lead-diseaseDeath'));
    const created = await screen.findByTestId('gc-follow-up-created');
    expect(created.textContent).toContain('Lead created.');
    expect(within(created).getByTestId('gc-follow-up-link').getAttribute('href')).toBe(
      '/admin/leads/77',
    );
    const followUp = seen.find((entry) => entry.path === 'global-checks/11/follow-up');
    expect(followUp?.body).toEqual({ scenario: 'diseaseDeath', kind: 'lead' });
    // A saved check shows its own results: no preview was asked for.
    expect(seen.some((entry) => entry.path === 'global-checks/preview')).toBe(false);
  });

  it('compares the gaps of two checks with their differences', async () => {
    checkApi({
      checks: [
        saved(12, '2026-11-28', { retirement: 1000, disease: 500, death: 0 }),
        saved(11, '2026-05-02', { retirement: 1200, disease: 500, death: 300 }),
      ],
    });
    renderPage('/customers/5/global-check?check=12&compare=11');
    const comparison = await screen.findByTestId('gc-comparison');
    const difference = (scenario: string) =>
      within(within(comparison).getByTestId(`gc-compare-${scenario}`)).getByTestId(
        'gc-compare-difference',
      ).textContent;
    expect(difference('retirement')).toBe('− CHF 200');
    expect(difference('diseaseDisability')).toBe('±0');
    expect(difference('diseaseDeath')).toBe('− CHF 300');
  });
});

describe('a check that cannot be opened', () => {
  it('says so instead of loading forever', async () => {
    checkApi();
    renderPage('/customers/5/global-check?check=99');
    expect(await screen.findByTestId('gc-load-error')).toBeTruthy();
    expect(screen.queryByTestId('gc-form')).toBeNull();
  });
});

describe('the customer’s Global check tab', () => {
  it('lists the saved checks with their gaps and links to the page', async () => {
    checkApi({
      checks: [
        saved(12, '2026-11-28', { retirement: 1000, disease: 500, death: 0 }),
        saved(11, '2026-05-02', { retirement: 1200, disease: 500, death: 300 }),
      ],
    });
    render(
      <MemoryRouter>
        <AdminContext dataProvider={provider('t')} i18nProvider={textsProvider(TEXTS)}>
          <RecordContextProvider value={{ id: 5, firstName: 'Anna', lastName: 'Aebi' }}>
            <CustomerGlobalCheckTab />
          </RecordContextProvider>
        </AdminContext>
      </MemoryRouter>,
    );
    const row = await screen.findByTestId('customer-global-check-12');
    expect(within(row).getByTestId('customer-global-check-gap-retirement').textContent).toBe(
      "CHF 1'000",
    );
    expect(screen.getByTestId('customer-global-check-compare-12').getAttribute('href')).toBe(
      '/admin/customers/5/global-check?check=12&compare=11',
    );
    expect(screen.queryByTestId('customer-global-check-compare-11')).toBeNull();
  });
});

describe('the Global check’s texts', () => {
  it('has every app.globalCheck.ui key the screens use in the four languages', () => {
    const dir = path.dirname(new URL(import.meta.url).pathname);
    const used = new Set<string>();
    for (const file of fs.readdirSync(dir).filter((name) => /(?<!\.test)\.tsx$/.test(name))) {
      const text = fs.readFileSync(path.join(dir, file), 'utf8');
      for (const match of text.matchAll(/ui\(\s*'([a-zA-Z.]+)'/g)) used.add(match[1]);
      for (const match of text.matchAll(
        /ui\(\s*[\w.]+ === [^?]+\? '([a-zA-Z.]+)'\s*: '([a-zA-Z.]+)'/g,
      )) {
        used.add(match[1]);
        used.add(match[2]);
      }
    }
    expect(used.size).toBeGreaterThan(40);
    for (const language of ['de', 'en', 'fr', 'it']) {
      const locale = JSON.parse(
        fs.readFileSync(path.join(dir, '../../../locales', `${language}.json`), 'utf8'),
      ) as { app: { globalCheck: { ui: Record<string, unknown> } } };
      const missing = [...used].filter(
        (key) =>
          typeof key
            .split('.')
            .reduce<unknown>(
              (node, part) => (node as Record<string, unknown> | undefined)?.[part],
              locale.app.globalCheck.ui,
            ) !== 'string',
      );
      expect(missing, language).toEqual([]);
    }
  });
});
