/**
 * The leaderboard (issue 17) in the browser, on closures written here through the API this month
 * (a rule of an insurer of its own giving the consultant 3 stars a closure; the engine writes the
 * lines): the spec's defaults are asked for and shown (current month, overall, active, the
 * ranking; spec §4, §9); switching range and section asks the server again and keeps the choice in
 * the address, the charts draw; a consultant sees their own row highlighted with their CHF and no
 * one else's CHF ('–'), as the API answers them; someone who manages commissions sees everyone's.
 * With SHOTS=<folder>, screenshots at 1366×768.
 */
import { expect as baseExpect, type Page, test } from '@playwright/test';
import { apiData, expectAccessible, login, shot, tokenOf } from './helpers.ts';

const ADMIN = 'admin@demo.gscrm.ch';
const CONSULTANT = 'consultant@demo.gscrm.ch';
const CONSULTANT2 = 'consultant2@demo.gscrm.ch';
const expect = baseExpect.configure({ timeout: 20_000 });

test.use({ viewport: { width: 1366, height: 768 } });

type Row = Record<string, unknown> & { id: number };
interface RankingRow {
  rank: number;
  user_id: number;
  name: string;
  stars: number;
  chf: number | null;
  me: boolean;
}

/** Today in Zurich, 'YYYY-MM-DD'. */
const swissToday = () =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Zurich' }).format(new Date());

/** The leaderboard's request with these parameters (the next one the page sends). */
const leaderboardRequest = (page: Page) =>
  page.waitForRequest((asked) => new URL(asked.url()).pathname === '/api/leaderboard');

test.beforeAll(async ({ request }) => {
  // Closures signed today: the second consultant 2 (6 stars), the first 1 (3 stars).
  const token = await tokenOf(request, ADMIN);
  const stamp = Date.now().toString(36);
  const users = await apiData<Row[]>(request, token, 'GET', 'users?per_page=100');
  const idOf = (email: string) => users.find((user) => user.email === email)!.id;
  const company = await apiData<Row>(request, token, 'POST', 'companies', {
    name_de: `Ranglistenversicherung ${stamp}`,
    products: Array.from({ length: 29 }, (_, index) => index + 1),
  });
  await apiData(request, token, 'POST', 'commission-rules', {
    name: `Rangliste ${stamp}`,
    available_from: '2020-01-01',
    commission_type: 'acquisition',
    company_id: company.id,
    product_ids: [10],
    calculation_basis: 'flat',
    flat_rate: 45,
    stars: 3,
  });
  const customer = await apiData<Row>(request, token, 'POST', 'customers', {
    first_name: 'Rita',
    last_name: `Rangliste${stamp}`,
    date_of_birth: '1985-04-02',
    assigned_to: idOf(CONSULTANT),
  });
  const today = swissToday();
  let counter = 0;
  for (const email of [CONSULTANT2, CONSULTANT2, CONSULTANT]) {
    await apiData(request, token, 'POST', 'contracts', {
      customer_id: customer.id,
      contract_type: 'closure',
      company_id: company.id,
      consultant_id: idOf(email),
      contract_number: `LB-${stamp}-${++counter}`,
      product_id: 10,
      payment_cycle: 'annual',
      signing_date: today,
      start_date: today,
      status: 'active',
      insurance: { premium: 120 },
    });
  }
});

test('defaults applied, range and section switched, kept in the address', async ({ page }) => {
  await login(page, CONSULTANT);
  const first = leaderboardRequest(page);
  await page.goto('/consultant/leaderboard');
  const query = new URL((await first).url()).searchParams;
  expect(Object.fromEntries(query)).toEqual({
    range: 'month',
    insurance: 'overall',
    status: 'active',
    section: 'leaderboard',
  });
  await expect(page.getByTestId('leaderboard-range-month')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('leaderboard-status-active')).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(page.getByTestId('leaderboard-section-leaderboard')).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await expect(page.getByTestId('leaderboard-insurance')).toHaveValue('overall');
  await expect(page.getByTestId('leaderboard-table')).toBeVisible();
  // The current month, from its first day.
  const today = swissToday();
  await expect(page.getByTestId('leaderboard-period')).toContainText(today.slice(0, 4));
  await shot(page, 'leaderboard-ranking', 600);

  // The year.
  const year = leaderboardRequest(page);
  await page.getByTestId('leaderboard-range-year').click();
  expect(new URL((await year).url()).searchParams.get('range')).toBe('year');
  await expect(page).toHaveURL(/\/consultant\/leaderboard\?range=year$/);
  await expect(page.getByTestId('leaderboard-range-year')).toHaveAttribute('aria-pressed', 'true');

  // The charts of the year: per month, the consultants' lines.
  const charts = leaderboardRequest(page);
  await page.getByTestId('leaderboard-section-charts').click();
  const chartsQuery = new URL((await charts).url()).searchParams;
  expect(chartsQuery.get('section')).toBe('charts');
  expect(chartsQuery.get('range')).toBe('year');
  await expect(page).toHaveURL(/range=year&section=charts$/);
  const chart = page.getByTestId('leaderboard-chart');
  await expect(chart.locator('svg').first()).toBeVisible();
  await expect(chart.locator('path.MuiLineElement-root').first()).toBeAttached();
  await expect(page.getByTestId('leaderboard-table')).toHaveCount(0);
  await shot(page, 'leaderboard-charts', 600);
  await expectAccessible(page);

  // A reload keeps the choice.
  await page.reload();
  await expect(page.getByTestId('leaderboard-section-charts')).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await expect(page.getByTestId('leaderboard-range-year')).toHaveAttribute('aria-pressed', 'true');
});

test('a consultant sees their own row highlighted and no one else’s CHF', async ({
  page,
  request,
}) => {
  const token = await tokenOf(request, CONSULTANT);
  const board = await apiData<{ rows: RankingRow[] }>(
    request,
    token,
    'GET',
    'leaderboard?range=month&insurance=overall&status=active&section=leaderboard',
  );
  const mine = board.rows.find((row) => row.me)!;
  expect(mine).toBeTruthy();
  expect(mine.stars).toBeGreaterThanOrEqual(3);
  expect(mine.chf).not.toBeNull();
  const others = board.rows.filter((row) => !row.me);
  expect(others.length).toBeGreaterThan(0);
  expect(others.every((row) => row.chf === null)).toBe(true);

  await login(page, CONSULTANT);
  await page.goto('/consultant/leaderboard');
  const rows = page.getByTestId('leaderboard-row');
  await expect(rows).toHaveCount(board.rows.length);
  const own = page.locator('[data-testid="leaderboard-row"][data-me="true"]');
  await expect(own).toHaveCount(1);
  await expect(own).toHaveAttribute('data-user-id', String(mine.user_id));
  await expect(own.getByTestId('leaderboard-you')).toBeVisible();
  await expect(own.getByTestId('leaderboard-chf')).toHaveText(/^CHF \d/);
  // Highlighted: another background than the others'.
  const background = (locator: typeof own) =>
    locator.evaluate((element) => getComputedStyle(element).backgroundColor);
  const others_ = page.locator('[data-testid="leaderboard-row"][data-me="false"]');
  expect(await background(own)).not.toBe(await background(others_.first()));
  await expect(others_.getByTestId('leaderboard-chf')).toHaveText(others.map(() => '–'));
  // Medals for the first three ranks.
  await expect(rows.first().getByTestId('leaderboard-medal')).toHaveAttribute('data-medal', 'gold');
  await shot(page, 'leaderboard-consultant', 600);
  await expectAccessible(page);

  // Who manages commissions sees everyone's CHF.
  await login(page, ADMIN);
  await page.goto('/admin/leaderboard');
  const adminRows = page.getByTestId('leaderboard-row');
  await expect(adminRows.first()).toBeVisible();
  const second = adminRows.filter({ hasText: 'Favre' });
  await expect(second.getByTestId('leaderboard-chf')).toHaveText(/^CHF \d/);
});
