/**
 * The back office's reports (issue 16) in the browser: the menu offers the page to accounts that
 * run a report, the page offers only their reports; a report filtered by period and lead source
 * shows the server's figures in its totals, its table (with the totals row) and its chart; the CSV
 * and Excel downloads hold the same figures. Accounts without a report see no menu entry and are
 * sent back to their dashboard.
 */
import fs from 'node:fs';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { login, PASSWORD } from './helpers.ts';

const ADMIN = 'admin@demo.gscrm.ch';
const BACKOFFICE = 'backoffice@demo.gscrm.ch';
const CALLCENTER = 'callcenter@demo.gscrm.ch';
/** The menu's entry, whatever the user's language. */
const REPORTS_LINK = 'a[href="/admin/reports"]';

test.use({ viewport: { width: 1366, height: 768 } });

type Figures = Record<string, number>;
interface Report {
  sources: Array<{ id: number | null; name: string | null }>;
  by_source: Array<Figures & { lead_source: number | null }>;
  rows: Array<Figures & { lead_source: number | null; month: string }>;
  totals: Figures;
}

async function apiReport(request: APIRequestContext, query: string): Promise<Report> {
  const signIn = await request.post('/api/auth/login', {
    data: { email: ADMIN, password: PASSWORD },
  });
  const { token } = (await signIn.json()) as { token: string };
  const answer = await request.get(`/api/reports/${query}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(answer.ok(), await answer.text()).toBe(true);
  return ((await answer.json()) as { data: Report }).data;
}

async function typeDate(page: Page, testId: string, digits: string) {
  await page.getByTestId(testId).click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(digits);
  await page.keyboard.press('Tab');
}

/** A figure as the page shows it, as a number (Swiss thousands separator removed). */
const shown = (text: string | null) => Number((text ?? '').replace(/['’\s]/g, ''));

test('a report filtered by period and lead source: totals, table, chart, CSV and Excel', async ({
  page,
  request,
}) => {
  // The contracts since 2010 by signing date, of the lead source with the most of them.
  const all = await apiReport(request, 'contracts?from=2010-01-01&until=2030-12-31');
  const biggest = [...all.by_source]
    .filter((row) => row.lead_source !== null)
    .sort((a, b) => b.count - a.count)[0];
  expect(biggest.count).toBeGreaterThan(0);
  const source = all.sources.find((candidate) => candidate.id === biggest.lead_source)!;
  const expected = await apiReport(
    request,
    `contracts?from=2010-01-01&until=2030-12-31&lead_sources=${source.id}`,
  );
  expect(expected.totals.count).toBe(biggest.count);

  await login(page, ADMIN);
  await page.getByTestId('menu-group-overview').locator(REPORTS_LINK).click();
  await expect(page).toHaveURL(/\/admin\/reports$/);
  await expect(page.getByTestId('reports-page')).toBeVisible();
  // Every report for an admin; the customers first.
  for (const kind of ['clients', 'contracts', 'appointments', 'leads'])
    await expect(page.getByTestId(`report-tab-${kind}`)).toBeVisible();
  await expect(page.getByTestId('report-tab-clients')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('report-total-count')).toBeVisible();

  await page.getByTestId('report-tab-contracts').click();
  await expect(page.getByTestId('report-basis-signing')).toHaveAttribute('aria-pressed', 'true');
  await typeDate(page, 'report-from', '01012010');
  await typeDate(page, 'report-until', '31122030');
  await page.getByTestId('report-sources').click();
  await page.getByRole('option', { name: source.name!, exact: true }).click();
  await page.keyboard.press('Escape');

  // The totals and the table: one row (the source) and the totals row, the server's figures.
  await expect(page.getByTestId('report-row')).toHaveCount(1);
  await expect(page.getByTestId('report-row').first()).toContainText(source.name!);
  await expect
    .poll(async () => shown(await page.getByTestId('report-total-count').textContent()))
    .toBe(expected.totals.count);
  expect(shown(await page.getByTestId('report-total-closures').textContent())).toBe(
    expected.totals.closures,
  );
  const totalRow = page.getByTestId('report-total-row').locator('td');
  await expect(totalRow.first()).toHaveText('Total');
  expect(shown(await totalRow.nth(1).textContent())).toBe(expected.totals.count);
  expect(shown(await totalRow.nth(2).textContent())).toBe(expected.totals.closures);
  expect(shown(await totalRow.nth(3).textContent())).toBe(expected.totals.non_closures);

  // The chart: bars, and the source in its legend.
  const chart = page.getByTestId('report-chart');
  await expect(chart.locator('svg').first()).toBeVisible();
  await expect(chart.locator('svg rect').first()).toBeVisible();
  await expect(chart).toContainText(source.name!);

  // What is counted, on demand.
  await expect(page.getByTestId('report-help')).toBeHidden();
  await page.getByTestId('report-help-toggle').click();
  await expect(page.getByTestId('report-help')).toContainText('Unterschriftsdatum');

  // CSV: a line per month of the source, then the totals.
  const csvDownload = page.waitForEvent('download');
  await page.getByTestId('report-download-csv').click();
  const csvFile = await csvDownload;
  expect(csvFile.suggestedFilename()).toMatch(/^report-contracts-\d{4}-\d{2}-\d{2}\.csv$/);
  const text = fs.readFileSync((await csvFile.path()) ?? '', 'utf8');
  expect(text.charCodeAt(0)).toBe(0xfeff);
  const lines = parse(text.slice(1), { delimiter: ';' }) as string[][];
  expect(lines[0].slice(0, 4)).toEqual(['Lead-Quelle', 'Monat', 'Verträge', 'Abschlüsse']);
  expect(lines.slice(1, -1)).toHaveLength(expected.rows.length);
  expect(lines.slice(1, -1).every((line) => line[0] === source.name)).toBe(true);
  expect(lines[lines.length - 1].slice(0, 4)).toEqual([
    'Total',
    '',
    String(expected.totals.count),
    String(expected.totals.closures),
  ]);

  // Excel: the sheet by lead source holds the source and the totals.
  const xlsxDownload = page.waitForEvent('download');
  await page.getByTestId('report-download-xlsx').click();
  const xlsxFile = await xlsxDownload;
  expect(xlsxFile.suggestedFilename()).toMatch(/^report-contracts-.*\.xlsx$/);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile((await xlsxFile.path()) ?? '');
  const sheet = workbook.worksheets[0];
  expect(sheet.name).toBe('Nach Lead-Quelle');
  expect(sheet.getRow(2).getCell(1).value).toBe(source.name);
  expect(sheet.getRow(2).getCell(2).value).toBe(expected.totals.count);
  expect(sheet.getRow(3).getCell(1).value).toBe('Total');
  expect(sheet.getRow(3).getCell(3).value).toBe(expected.totals.closures);

  // Appointments offer both dates; leads show the conversion.
  await page.getByTestId('report-tab-appointments').click();
  await expect(page.getByTestId('report-basis-created')).toHaveAttribute('aria-pressed', 'true');
  await page.getByTestId('report-basis-appointment').click();
  await expect(page.getByTestId('report-basis-appointment')).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await page.getByTestId('report-tab-leads').click();
  const leads = await apiReport(
    request,
    `leads?from=2010-01-01&until=2030-12-31&lead_sources=${source.id}`,
  );
  if (leads.totals.count === 0) {
    await expect(page.getByTestId('report-empty')).toBeVisible();
  } else {
    await expect
      .poll(async () => shown(await page.getByTestId('report-total-count').textContent()))
      .toBe(leads.totals.count);
    await expect(page.getByTestId('report-total-withAppointment')).toHaveText(
      String(leads.totals.with_appointment),
    );
    await expect(page.getByTestId('report-conversion-chart').locator('svg').first()).toBeVisible();
  }
});

test('the back office runs its own reports only; accounts without one get no page', async ({
  page,
}) => {
  // The demo back office runs the customers and the contracts.
  await login(page, BACKOFFICE);
  await page.getByTestId('menu-group-overview').locator(REPORTS_LINK).click();
  await expect(page.getByTestId('report-tab-clients')).toBeVisible();
  await expect(page.getByTestId('report-tab-contracts')).toBeVisible();
  await expect(page.getByTestId('report-tab-leads')).toHaveCount(0);
  await expect(page.getByTestId('report-tab-appointments')).toHaveCount(0);
  await expect(page.getByTestId('report-table')).toBeVisible();

  // The call centre runs none: no menu entry, and the page sends it to its dashboard.
  await page.evaluate(() => localStorage.clear());
  await login(page, CALLCENTER);
  // Its other entries are there (the tasks), this one is not.
  await expect(
    page.getByTestId('menu-group-overview').locator('a[href="/admin/tasks"]'),
  ).toBeVisible();
  await expect(page.locator(REPORTS_LINK)).toHaveCount(0);
  await page.goto('/admin/reports');
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
});
