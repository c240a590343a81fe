/**
 * The household coverage view and the contract exports (issue 14), at 1366×768:
 * - a consultant opens the first demo customer's contracts tab: the matrix of its household, the
 *   gaps (no household contents insurance; a member without basic health insurance) marked with a
 *   text, the household's monthly total; a contract opens from its cell;
 * - the back office exports closures with filters and a date range from the export page (CSV and
 *   XLSX) and the current list as CSV from the list's button; the files hold the rows the list
 *   answers for the same filters.
 * With SHOTS=<folder>, screenshots of the coverage view and the export page in German and Italian.
 */
import fs from 'node:fs';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import { login, PASSWORD, restoreLanguage } from './helpers.ts';

const ADMIN = 'admin@demo.gscrm.ch';
const CONSULTANT = 'consultant@demo.gscrm.ch';
const SHOTS = process.env.SHOTS;

test.use({ viewport: { width: 1366, height: 768 } });

// The tests switch the consultant's and the admin's language (saved on the server) to Italian: set
// it back even when a test fails half-way, or later tests signing in as them see Italian.
test.afterEach(async ({ request }) => {
  await restoreLanguage(request, CONSULTANT);
  await restoreLanguage(request, ADMIN);
});

async function tokenOf(request: APIRequestContext, email: string): Promise<string> {
  const answer = await request.post('/api/auth/login', { data: { email, password: PASSWORD } });
  expect(answer.ok()).toBe(true);
  return ((await answer.json()) as { token: string }).token;
}

async function apiGet<T>(request: APIRequestContext, token: string, path: string): Promise<T> {
  const answer = await request.get(`/api/${path}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(answer.ok(), `GET ${path}: ${await answer.text()}`).toBe(true);
  return (await answer.json()) as T;
}

async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(300);
  await page.screenshot({ path: `${SHOTS}/${name}.png` });
}

async function switchLanguage(page: Page, from: string, to: string) {
  // The app bar hides while the page is scrolled down.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.getByRole('button', { name: from, exact: true }).click();
  await page.getByRole('menuitem', { name: to, exact: true }).click();
  await expect(page.getByRole('button', { name: to, exact: true })).toBeVisible();
}

/** The CSV's records (BOM and quotes handled for the simple values checked here). */
function csvRows(text: string): string[][] {
  expect(text.charCodeAt(0)).toBe(0xfeff);
  return text
    .slice(1)
    .split('\r\n')
    .filter((line) => line !== '')
    .map((line) => line.split(';').map((cell) => cell.replace(/^"|"$/g, '')));
}

async function typeDate(page: Page, testId: string, digits: string) {
  await page.getByTestId(testId).click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(digits);
  await page.keyboard.press('Tab');
}

test('the household coverage view shows who has what, the gaps and the monthly total', async ({
  page,
  request,
}) => {
  const token = await tokenOf(request, CONSULTANT);
  const first = await apiGet<{ data: Array<{ id: number }> }>(
    request,
    token,
    'customers?sort=id&order=asc&per_page=1',
  );
  const customerId = first.data[0].id;
  const coverage = (
    await apiGet<{
      data: {
        premium_month: number;
        people: Array<{ key: string; name: string }>;
        gaps: Array<{ rule: string; person?: string }>;
      };
    }>(request, token, `customers/${customerId}/coverage`)
  ).data;
  // The demo's first household lacks household contents insurance.
  expect(coverage.gaps.map((gap) => gap.rule)).toContain('no_household_contents');

  await login(page, CONSULTANT);
  await page.goto(`/consultant/customers/${customerId}?tab=contracts`);
  const view = page.getByTestId('household-coverage');
  await expect(view).toBeVisible();
  await expect(
    view.getByRole('heading', { name: 'Versicherungsübersicht des Haushalts' }),
  ).toBeVisible();
  for (const person of coverage.people) {
    await expect(view.getByRole('columnheader', { name: new RegExp(person.name) })).toBeVisible();
  }
  // The gap: listed in words, and marked on its row (not by colour alone).
  const gaps = page.getByTestId('coverage-gaps');
  await expect(gaps).toContainText(`Lücken (${coverage.gaps.length})`);
  await expect(gaps).toContainText('Keine Hausratversicherung im Haushalt');
  await expect(page.getByTestId('coverage-row-household_contents')).toContainText(
    'Keine Hausratversicherung im Haushalt',
  );
  // The demo's first household leaves its last member without basic health insurance
  // (server/demo/contracts.ts): the gap names that person, and its cell says so.
  const memberGap = coverage.gaps.find((gap) => gap.rule === 'no_health_basic');
  expect(memberGap?.person).toBeTruthy();
  await expect(page.getByTestId(`coverage-cell-${memberGap?.person}-health_basic`)).toContainText(
    'Fehlt',
  );
  const total = `CHF ${new Intl.NumberFormat('de-CH', {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  })
    .format(coverage.premium_month)
    .replace(/[\u2019]/g, "'")}`;
  await expect(page.getByTestId('coverage-household-total')).toHaveText(
    `Haushalt: ${total} pro Monat`,
  );
  // The customer's basic insurance: insurer, CHF a month, the notice deadline.
  const basic = page.getByTestId(`coverage-cell-${coverage.people[0].key}-health_basic`);
  await expect(basic).toContainText('/ Monat');
  await expect(basic).toContainText('Kündigung bis');
  await shot(page, 'coverage-de');
  await view.scrollIntoViewIfNeeded();
  await page.getByTestId('coverage-row-car').scrollIntoViewIfNeeded();
  await shot(page, 'coverage-de-lower');

  // A contract opens from its cell.
  const link = basic.getByRole('link').first();
  const id = (await link.getAttribute('data-testid'))?.replace('coverage-contract-', '');
  await link.click();
  await expect(page).toHaveURL(new RegExp(`/consultant/contracts/${id}$`));

  // Italian.
  await page.goto(`/consultant/customers/${customerId}?tab=contracts`);
  await switchLanguage(page, 'Deutsch', 'Italiano');
  await expect(page.getByTestId('coverage-gaps')).toContainText(
    'Nessuna assicurazione economia domestica',
  );
  await shot(page, 'coverage-it');
});

test('the export page exports the filtered closures as CSV and XLSX, the list button the current list', async ({
  page,
  request,
}) => {
  const token = await tokenOf(request, ADMIN);
  const list = await apiGet<{ data: Array<{ id: number }>; meta: { total: number } }>(
    request,
    token,
    'contracts?contract_type=closure&product_id=1&signing_date_gte=2016-01-01&signing_date_lte=2024-12-31&per_page=500',
  );
  expect(list.meta.total).toBeGreaterThan(0);

  await login(page, ADMIN);
  await page.goto('/admin/contracts/export');
  await expect(page.getByTestId('contract-export-page')).toBeVisible();
  await page.getByTestId('export-product-group').locator('..').getByRole('combobox').click();
  await page.getByRole('option', { name: 'Gesundheit', exact: true }).click();
  await page.getByTestId('export-product').locator('..').getByRole('combobox').click();
  await page.getByRole('option', { name: 'Grundversicherung (KVG)', exact: true }).click();
  await typeDate(page, 'export-signingDate-from', '01012016');
  await typeDate(page, 'export-signingDate-until', '31122024');
  await page.getByTestId('export-format-csv').check();
  await shot(page, 'export-de');

  const csvDownload = page.waitForEvent('download');
  await page.getByTestId('export-download').click();
  const csvFile = await csvDownload;
  expect(csvFile.suggestedFilename()).toMatch(/^contracts-\d{4}-\d{2}-\d{2}\.csv$/);
  const rows = csvRows(fs.readFileSync((await csvFile.path()) ?? '', 'utf8'));
  const header = rows[0];
  expect(header).toContain('Vertragsnummer');
  const ids = rows.slice(1).map((row) => Number(row[0]));
  expect(ids.sort((a, b) => a - b)).toEqual(list.data.map((row) => row.id).sort((a, b) => a - b));
  const product = header.indexOf('Produkt');
  expect(rows.slice(1).every((row) => row[product] === 'Grundversicherung (KVG)')).toBe(true);
  const signing = header.indexOf('Unterschriftsdatum');
  for (const row of rows.slice(1)) {
    const iso = row[signing].split('.').reverse().join('-');
    expect(iso >= '2016-01-01' && iso <= '2024-12-31', row[signing]).toBe(true);
  }

  // XLSX: the same rows in a workbook.
  await page.getByTestId('export-format-xlsx').check();
  const xlsxDownload = page.waitForEvent('download');
  await page.getByTestId('export-download').click();
  const xlsxFile = await xlsxDownload;
  expect(xlsxFile.suggestedFilename()).toMatch(/\.xlsx$/);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile((await xlsxFile.path()) ?? '');
  const sheet = workbook.worksheets[0];
  expect(sheet.getRow(1).getCell(1).value).toBe('ID');
  const xlsxIds: number[] = [];
  sheet.eachRow((row, number) => {
    if (number > 1) xlsxIds.push(Number(row.getCell(1).value));
  });
  expect(xlsxIds.sort((a, b) => a - b)).toEqual(ids);

  // Italian page.
  await switchLanguage(page, 'Deutsch', 'Italiano');
  await expect(
    page.getByTestId('contract-export-page').getByRole('heading', { name: 'Esporta i contratti' }),
  ).toBeVisible();
  await shot(page, 'export-it');
  await switchLanguage(page, 'Italiano', 'Deutsch');

  // The list's button: the current list (closures, status active) as CSV.
  const active = await apiGet<{ meta: { total: number } }>(
    request,
    token,
    'contracts?contract_type=closure&status=active&product_id=28&per_page=1',
  );
  await page.goto('/admin/broker-contracts');
  await expect(page.getByTestId('contract-export-csv')).toBeVisible();
  const listDownload = page.waitForEvent('download');
  await page.getByTestId('contract-export-csv').click();
  const listFile = await listDownload;
  const listRows = csvRows(fs.readFileSync((await listFile.path()) ?? '', 'utf8'));
  const productColumn = listRows[0].indexOf('Produkt');
  expect(listRows.length - 1).toBeGreaterThanOrEqual(active.meta.total);
  expect(listRows.slice(1).every((row) => row[productColumn] === 'Maklermandat')).toBe(true);
});
