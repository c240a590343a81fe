// @vitest-environment jsdom
/**
 * The comparison page (FS24) against an msw server answering the wizard's routes as the contract
 * says: a step's browser check shows on the fields before anything is sent; the server's field
 * error shows on its field, translated, and what was typed stays; the results step says when the
 * comparison is not configured (no compare), marks the stand-in's sample tariffs, and lets staff
 * pick quotes that become offers (quote_ids sent, links to the offers shown); the link token goes
 * along as x-comparison-token; an unknown link (404) says the link is not valid.
 */
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { AdminContext } from 'react-admin';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { API, startApiServer } from '../../dataProvider/providerTesting.ts';
import { textsProvider } from '../../i18n/testing.ts';
import ComparisonPage from './ComparisonPage.tsx';
import { clientOptions } from './model.ts';

const server = startApiServer();

beforeAll(() => {
  clientOptions.apiUrl = API;
  clientOptions.getToken = () => null;
});
afterEach(cleanup);

const TEXTS: Record<string, string> = {
  'app.errors.required': 'Required!',
  'app.errors.maximum': 'At most {{limit}}',
  'app.fs24.results.notConfigured': 'The comparison is not configured.',
  'app.fs24.results.sampleTitle': 'Sample tariffs — not real prices',
  'app.fs24.invalid.title': 'This link is not valid or has expired',
};

const CUSTOMER = {
  id: 5,
  first_name: 'Anna',
  last_name: 'Aebi',
  organization: null,
  language: 'en',
};

function infoOf(overrides: Record<string, unknown> = {}) {
  return {
    access: 'link',
    customer: CUSTOMER,
    prefill: { driver: { first_name: 'Anna', last_name: 'Aebi' }, canton: 'ZH' },
    household: [],
    drafts: [],
    comparison: { configured: true, sample: true },
    can_make_offers: false,
    ...overrides,
  };
}

const QUOTE = (id: string, insurer: string, premium: number, companyId: number | null = 2) => ({
  id,
  insurer,
  company_id: companyId,
  product: 'Auto Comfort',
  annual_premium: premium,
  premiums: { liability: premium - 300, partial_casco: 100, full_casco: 150, add_ons: 50 },
  deductibles: { partial_casco: 200, full_casco: 1000, young_driver: null },
  add_ons: [
    { code: 'parking', included: true, premium: 0 },
    { code: 'assistance', included: false, premium: 40 },
  ],
});

function draftOf(overrides: Record<string, unknown> = {}) {
  return {
    id: 9,
    version: 3,
    customer_id: 5,
    summary: 'VW Golf · 03/2020 · ZH',
    status: 'open',
    steps_done: 0,
    started_via: 'link',
    car: {
      manufacturer: 'VW',
      first_registration_year: 2020,
      first_registration_month: 3,
      type: 'Golf',
      kilometres: 40000,
    },
    canton: 'ZH',
    driver: {},
    other_users: [],
    coverage: {},
    history: {},
    results: {},
    compared_at: null,
    ...overrides,
  };
}

interface Seen {
  method: string;
  path: string;
  body: unknown;
  token: string | null;
}

/** Answers the wizard's routes for customer 5 and records what was sent. */
function wizardApi(info: object, draft?: object, answers: Record<string, () => Response> = {}) {
  const seen: Seen[] = [];
  const record = async (request: Request) => {
    const text = await request.text();
    seen.push({
      method: request.method,
      path: new URL(request.url).pathname.replace('/api/', ''),
      body: text ? (JSON.parse(text) as unknown) : undefined,
      token: request.headers.get('x-comparison-token'),
    });
  };
  server.use(
    http.get(`${API}/fs24/5`, async ({ request }) => {
      await record(request);
      return HttpResponse.json(info);
    }),
    http.get(`${API}/fs24/5/drafts/9`, async ({ request }) => {
      await record(request);
      return HttpResponse.json({ data: draft });
    }),
    http.all(`${API}/fs24/5/drafts*`, async ({ request }) => {
      await record(request);
      const path = new URL(request.url).pathname;
      const answer = Object.entries(answers).find(([suffix]) =>
        `${request.method} ${path}`.endsWith(suffix),
      );
      return answer ? answer[1]() : HttpResponse.json({ message: 'unexpected' }, { status: 500 });
    }),
  );
  return seen;
}

function renderAt(path: string) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <AdminContext i18nProvider={textsProvider(TEXTS)}>
        <Routes>
          <Route path="/financescout24/:clientID" element={<ComparisonPage />} />
          <Route path="/financescout24/:clientID/:draftID" element={<ComparisonPage />} />
        </Routes>
      </AdminContext>
    </MemoryRouter>,
  );
}

describe('the comparison wizard', () => {
  it('shows the step check on the fields before sending anything, with the link token', async () => {
    const seen = wizardApi(infoOf());
    renderAt('/financescout24/5?token=tok-1&new=1');
    await screen.findByTestId('fs24-form-vehicle');
    fireEvent.click(screen.getByTestId('fs24-next'));
    const manufacturer = await screen.findByTestId('fs24-car.manufacturer');
    const field = manufacturer.closest('.MuiFormControl-root') as HTMLElement;
    expect(within(field).getByText('Required!')).toBeTruthy();
    expect(screen.getByTestId('fs24-error')).toBeTruthy();
    // Nothing but the page's own GET was sent, with the link's token.
    expect(seen.map((entry) => `${entry.method} ${entry.path}`)).toEqual(['GET fs24/5']);
    expect(seen[0].token).toBe('tok-1');
    // The prefill of a new draft is in the later steps' fields already (nothing lost on typing).
    fireEvent.change(manufacturer, { target: { value: 'Skoda' } });
    expect(within(field).queryByText('Required!')).toBeNull();
  });

  it('shows the server’s field error on its field and keeps what was typed', async () => {
    const seen = wizardApi(infoOf(), draftOf(), {
      'PATCH /api/fs24/5/drafts/9': () =>
        HttpResponse.json(
          {
            message: 'Invalid data',
            key: 'app.errors.invalidData',
            errors: { 'car.kilometres': ['must be at most 900000'] },
            error_keys: {
              'car.kilometres': [{ message: 'app.errors.maximum', args: { limit: 900000 } }],
            },
          },
          { status: 422 },
        ),
    });
    renderAt('/financescout24/5/9?token=tok-1');
    const kilometres = (await screen.findByTestId('fs24-car.kilometres')) as HTMLInputElement;
    fireEvent.change(kilometres, { target: { value: '950000' } });
    fireEvent.click(screen.getByTestId('fs24-next'));
    const field = kilometres.closest('.MuiFormControl-root') as HTMLElement;
    await waitFor(() => expect(within(field).getByText('At most 900000')).toBeTruthy());
    expect(kilometres.value).toBe('950000');
    const patch = seen.find((entry) => entry.method === 'PATCH');
    expect(patch?.body).toMatchObject({
      version: 3,
      step: 'vehicle',
      complete: true,
      car: { manufacturer: 'VW', kilometres: 950000, first_registration_year: 2020 },
    });
    expect(patch?.token).toBe('tok-1');
    // Still the vehicle step.
    expect(screen.getByTestId('fs24-form-vehicle')).toBeTruthy();
  });

  it('says the comparison is not configured and offers no compare', async () => {
    wizardApi(
      infoOf({ comparison: { configured: false, sample: false } }),
      draftOf({ status: 'complete', steps_done: 5 }),
    );
    renderAt('/financescout24/5/9?token=tok-1');
    expect((await screen.findByTestId('fs24-not-configured')).textContent).toContain(
      'The comparison is not configured.',
    );
    expect((screen.getByTestId('fs24-compare') as HTMLButtonElement).disabled).toBe(true);
    expect(screen.queryByTestId('fs24-quote-premium')).toBeNull();
  });

  it('marks the stand-in’s sample tariffs and, with a link, picks nothing', async () => {
    wizardApi(
      infoOf(),
      draftOf({
        status: 'compared',
        steps_done: 5,
        results: {
          service: 'stand-in',
          sample: true,
          label: 'Stand-in sample tariffs 2026',
          quotes: [QUOTE('q1', 'Helvetia', 1234.5)],
        },
      }),
    );
    renderAt('/financescout24/5/9?token=tok-1');
    const banner = await screen.findByTestId('fs24-sample');
    expect(banner.textContent).toContain('Sample tariffs — not real prices');
    expect(banner.textContent).toContain('Stand-in sample tariffs 2026');
    expect(screen.getByTestId('fs24-quote-q1').textContent).toContain("CHF 1'234.50");
    expect(screen.queryByTestId('fs24-pick-q1')).toBeNull();
    expect(screen.getByTestId('fs24-consultant-note')).toBeTruthy();
  });

  it('lets staff pick two quotes and make offers of them', async () => {
    const compared = draftOf({
      status: 'compared',
      steps_done: 5,
      started_via: 'staff',
      results: {
        service: 'stand-in',
        sample: false,
        label: null,
        quotes: [
          QUOTE('q1', 'Helvetia', 1200),
          QUOTE('q2', 'Mobiliar', 1100),
          QUOTE('q3', 'Zurich', 1300, 4),
        ],
      },
    });
    const seen = wizardApi(
      infoOf({
        access: 'staff',
        can_make_offers: true,
        comparison: { configured: true, sample: false },
      }),
      compared,
      {
        'POST /api/fs24/5/drafts/9/offers': () =>
          HttpResponse.json(
            {
              data: { ...compared, status: 'offered' },
              offers: [
                { id: 41, company_id: 2, annual_premium: 1200 },
                { id: 42, company_id: 4, annual_premium: 1300 },
              ],
            },
            { status: 201 },
          ),
      },
    );
    renderAt('/financescout24/5/9');
    const pick = async (id: string) => {
      const box = (await screen.findByTestId(`fs24-pick-${id}`)).querySelector('input');
      fireEvent.click(box as HTMLInputElement);
    };
    await pick('q1');
    await pick('q3');
    fireEvent.click(screen.getByTestId('fs24-make-offers'));
    const made = await screen.findByTestId('fs24-offers-made');
    const post = seen.find((entry) => entry.path.endsWith('/offers'));
    expect(post?.body).toEqual({ quote_ids: ['q1', 'q3'] });
    expect(post?.token).toBeNull();
    expect(within(made).getByTestId('fs24-offer-41').getAttribute('href')).toBe('/admin/offers/41');
    expect(within(made).getByTestId('fs24-offer-42').getAttribute('href')).toBe('/admin/offers/42');
  });

  it('says the link is not valid when the server answers 404', async () => {
    server.use(
      http.get(`${API}/fs24/5`, () =>
        HttpResponse.json({ message: 'Not found', key: 'app.errors.notFound' }, { status: 404 }),
      ),
    );
    renderAt('/financescout24/5?token=expired');
    expect((await screen.findByTestId('fs24-invalid')).textContent).toContain(
      'This link is not valid or has expired',
    );
  });
});
