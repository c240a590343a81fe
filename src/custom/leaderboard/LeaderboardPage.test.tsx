// @vitest-environment jsdom
/**
 * The leaderboard page against an msw server answering GET /api/leaderboard as the contract says:
 * the spec's defaults are asked for (current month, overall, active, the ranking); the ranking
 * shows medals, the viewer's row highlighted, CHF only where the server gives it ('–' otherwise);
 * range, status and section go to the server and into the address; the period before is asked for
 * by the day before the one shown.
 */
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { AdminContext, type I18nProvider } from 'react-admin';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { API, startApiServer } from '../../dataProvider/providerTesting.ts';
import LeaderboardPage from './LeaderboardPage.tsx';

vi.mock('../../dataProvider/apiClient.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../dataProvider/apiClient.ts')>();
  return {
    ...actual,
    api: actual.createApiClient({ apiUrl: 'http://localhost/api', getToken: () => 't' }),
  };
});

const server = startApiServer();

const i18nProvider: I18nProvider = {
  translate: (key: string, options: Record<string, unknown> = {}) =>
    key === 'app.leaderboard.page.period'
      ? `${String(options.from)} – ${String(options.until)}`
      : key,
  changeLocale: async () => {},
  getLocale: () => 'en',
};

const ROWS = [
  {
    rank: 1,
    user_id: 7,
    name: 'Anna Aebi',
    stars: 12.5,
    closures: 5,
    production: 250000,
    chf: null,
    me: false,
  },
  {
    rank: 2,
    user_id: 4,
    name: 'Beat Brunner',
    stars: 9,
    closures: 4,
    production: 1234.5,
    chf: 1350,
    me: true,
  },
  {
    rank: 3,
    user_id: 9,
    name: 'Chiara Conti',
    stars: 3,
    closures: 1,
    production: 0,
    chf: null,
    me: false,
  },
  {
    rank: 4,
    user_id: 11,
    name: 'Dario Dal',
    stars: 0,
    closures: 0,
    production: 0,
    chf: null,
    me: false,
  },
];

/** Answers the leaderboard (the period the query names, else November 2026) and records the queries. */
function leaderboardApi() {
  const asked: URLSearchParams[] = [];
  server.use(
    http.get(`${API}/leaderboard`, ({ request }) => {
      const query = new URL(request.url).searchParams;
      asked.push(query);
      const from = query.get('from') === '2026-10-31' ? '2026-10-01' : '2026-11-01';
      const until = from === '2026-10-01' ? '2026-10-31' : '2026-11-30';
      if (query.get('section') === 'charts') {
        return HttpResponse.json({
          data: {
            from,
            until,
            bucket: 'week',
            buckets: ['2026-W45', '2026-W46', '2026-W47'],
            series: [
              {
                user_id: 7,
                name: 'Anna Aebi',
                rank: 1,
                me: false,
                stars: [5, 4, 3.5],
                closures: [2, 2, 1],
              },
              {
                user_id: 4,
                name: 'Beat Brunner',
                rank: 2,
                me: true,
                stars: [1, 3, 5],
                closures: [1, 1, 2],
              },
            ],
          },
        });
      }
      return HttpResponse.json({ data: { from, until, rows: ROWS } });
    }),
  );
  return asked;
}

/** The address, shown for the test to read. */
function Where() {
  const current = useLocation();
  return <output data-testid="where">{`${current.pathname}${current.search}`}</output>;
}
const where = () => screen.getByTestId('where').textContent;

function renderPage(path = '/leaderboard') {
  render(
    <MemoryRouter initialEntries={[path]}>
      <AdminContext i18nProvider={i18nProvider}>
        <Routes>
          <Route
            path="/leaderboard"
            element={
              <>
                <LeaderboardPage />
                <Where />
              </>
            }
          />
        </Routes>
      </AdminContext>
    </MemoryRouter>,
  );
}

const rows = () => screen.findAllByTestId('leaderboard-row');

beforeEach(() => {
  localStorage.setItem(
    'user',
    JSON.stringify({
      id: 4,
      email: 'b@demo.ch',
      role: 'CONSULTANT',
      permissions: [],
      routeSet: 'consultant',
    }),
  );
  // MUI X Charts measure their box.
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
});
afterEach(() => {
  cleanup();
  localStorage.clear();
});

// Renders of the whole page take seconds on the shared 2-core machine.
describe('the leaderboard page', { timeout: 30_000 }, () => {
  it('asks for the spec’s defaults and ranks with medals, the viewer’s row highlighted, others’ CHF hidden', async () => {
    const asked = leaderboardApi();
    renderPage();
    const shown = await rows();
    expect(asked[0].toString()).toBe(
      'range=month&insurance=overall&status=active&section=leaderboard',
    );
    expect(where()).toBe('/leaderboard');
    expect(screen.getByTestId('leaderboard-range-month').getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByTestId('leaderboard-status-active').getAttribute('aria-pressed')).toBe(
      'true',
    );
    expect(
      screen.getByTestId('leaderboard-section-leaderboard').getAttribute('aria-selected'),
    ).toBe('true');
    expect(screen.getByTestId('leaderboard-period').textContent).toBe('Nov 1, 2026 – Nov 30, 2026');

    expect(shown).toHaveLength(4);
    expect(shown.map((row) => row.getAttribute('data-me'))).toEqual([
      'false',
      'true',
      'false',
      'false',
    ]);
    const medals = screen
      .getAllByTestId('leaderboard-medal')
      .map((medal) => medal.getAttribute('data-medal'));
    expect(medals).toEqual(['gold', 'silver', 'bronze']);
    const mine = within(shown[1]);
    expect(mine.getByTestId('leaderboard-you')).toBeTruthy();
    expect(mine.getByTestId('leaderboard-chf').textContent).toBe("CHF 1'350.00");
    expect(mine.getByTestId('leaderboard-production').textContent).toBe("CHF 1'234.50");
    expect(mine.getByTestId('leaderboard-stars').textContent).toBe('9');
    for (const other of [shown[0], shown[2], shown[3]]) {
      expect(within(other).getByTestId('leaderboard-chf').textContent).toBe('–');
      expect(within(other).queryByTestId('leaderboard-you')).toBeNull();
    }
    expect(within(shown[0]).getByTestId('leaderboard-stars').textContent).toBe('12.5');
    expect(within(shown[0]).getByTestId('leaderboard-production').textContent).toBe(
      "CHF 250'000.00",
    );
  });

  it('sends range, status and section to the server and keeps them in the address', async () => {
    const asked = leaderboardApi();
    renderPage();
    await rows();
    await act(async () => {
      fireEvent.click(screen.getByTestId('leaderboard-range-week'));
    });
    await waitFor(() => expect(asked.at(-1)?.get('range')).toBe('week'));
    expect(where()).toBe('/leaderboard?range=week');
    await act(async () => {
      fireEvent.click(screen.getByTestId('leaderboard-status-all'));
    });
    await waitFor(() => expect(asked.at(-1)?.get('status')).toBe('all'));
    await act(async () => {
      fireEvent.click(screen.getByTestId('leaderboard-section-charts'));
    });
    await waitFor(() =>
      expect(asked.at(-1)?.toString()).toBe(
        'range=week&insurance=overall&status=all&section=charts',
      ),
    );
    expect(where()).toBe('/leaderboard?range=week&status=all&section=charts');
    // The chart (its code loaded only now) in place of the ranking.
    const chart = await screen.findByTestId('leaderboard-chart', undefined, { timeout: 10_000 });
    expect(chart.getAttribute('data-measure')).toBe('stars');
    expect(screen.queryByTestId('leaderboard-table')).toBeNull();
  });

  it('asks for the period before by the day before the one shown, and back to the current one', async () => {
    const asked = leaderboardApi();
    renderPage();
    await rows();
    await act(async () => {
      fireEvent.click(screen.getByTestId('leaderboard-previous'));
    });
    await waitFor(() => expect(asked.at(-1)?.get('from')).toBe('2026-10-31'));
    expect(where()).toBe('/leaderboard?from=2026-10-31');
    await waitFor(() =>
      expect(screen.getByTestId('leaderboard-period').textContent).toBe(
        'Oct 1, 2026 – Oct 31, 2026',
      ),
    );
    await act(async () => {
      fireEvent.click(screen.getByTestId('leaderboard-current'));
    });
    expect(where()).toBe('/leaderboard');
    await waitFor(() => expect(asked.at(-1)?.has('from')).toBe(false));
  });

  it('a custom range starts as the period shown and sends both days', async () => {
    const asked = leaderboardApi();
    renderPage('/leaderboard?range=quarter');
    await rows();
    await act(async () => {
      fireEvent.click(screen.getByTestId('leaderboard-range-custom'));
    });
    await waitFor(() => expect(asked.at(-1)?.get('range')).toBe('custom'));
    expect(asked.at(-1)?.get('from')).toBe('2026-11-01');
    expect(asked.at(-1)?.get('until')).toBe('2026-11-30');
    expect(where()).toBe('/leaderboard?range=custom&from=2026-11-01&until=2026-11-30');
  });
});
