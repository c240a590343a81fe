/**
 * The Global check (issue 19) end to end: a consultant opens a customer's globalCheck tab, starts
 * a new check prefilled from the customer's data, completes it (an income out of range is refused
 * on its field, translated, nothing lost), sees the five result tabs each with its chart and table,
 * saves it, stores and downloads its PDF report (a PDF, on the customer's documents), turns the
 * retirement gap into a reminder, saves a second check and compares the two.
 */
import { readFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { apiData, login, shot, tokenOf } from './helpers.ts';

const CONSULTANT = 'consultant@demo.gscrm.ch';
const SCENARIOS = [
  'retirement',
  'diseaseDisability',
  'accidentDisability',
  'diseaseDeath',
  'accidentDeath',
] as const;
type Row = Record<string, unknown>;

test.describe.configure({ mode: 'serial' });

/** The check's inputs by their test ids (`gc-<path>`). */
function form(page: Page) {
  const field = (path: string) => page.getByTestId(`gc-${path}`);
  return {
    field,
    async select(path: string, value: string) {
      await field(path).locator('xpath=..').locator('[role=combobox]').click();
      await page.locator(`[role=option][data-value="${value}"]`).click();
    },
    async selectIfEmpty(path: string, value: string) {
      if (!(await field(path).inputValue())) await this.select(path, value);
    },
    async date(path: string, ddmmyyyy: string) {
      const input = field(path);
      await input.click();
      await input.press('Home');
      await input.pressSequentially(ddmmyyyy.replaceAll('.', ''), { delay: 20 });
    },
  };
}

test('a consultant makes a Global check with five tabs, a PDF report, a reminder and a comparison', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const token = await tokenOf(request, CONSULTANT);
  const customers = await apiData<Row[]>(
    request,
    token,
    'GET',
    'customers?is_company=false&per_page=5&sort=id&order=ASC',
  );
  const customer = customers[0]!;
  const checksOf = async () =>
    (
      await apiData<Row[]>(
        request,
        token,
        'GET',
        `global-checks?customer_id=${String(customer.id)}&per_page=100`,
      )
    ).length;
  const before = await checksOf();
  await page.setViewportSize({ width: 1366, height: 768 });
  await login(page, CONSULTANT);
  await page.goto(`/consultant/customers/${String(customer.id)}?tab=globalCheck`);
  await expect(page.getByTestId('customer-global-checks')).toBeVisible();
  await page.getByTestId('customer-global-check-new').click();
  await expect(page).toHaveURL(/\/consultant\/customers\/\d+\/global-check\?new=1/);
  await expect(page.getByTestId('gc-form')).toBeVisible();

  const f = form(page);
  if (!(await f.field('birthDate').inputValue())) await f.date('birthDate', '14.03.1982');
  await f.selectIfEmpty('sex', 'female');
  await f.selectIfEmpty('civilStatus', 'single');
  await f.selectIfEmpty('employmentStatus', 'employed');
  // An income out of range: the server's message on the field, what was typed kept.
  await f.field('grossIncome').fill('2000000');
  const income = f
    .field('grossIncome')
    .locator('xpath=ancestor::div[contains(@class,"MuiFormControl-root")][1]');
  await expect(income.locator('.MuiFormHelperText-root.Mui-error')).toBeVisible({
    timeout: 10_000,
  });
  await expect(f.field('grossIncome')).toHaveValue('2000000');
  await f.field('grossIncome').fill('85000');
  await f.field('needShare').fill('90');
  await expect(page.getByTestId('gc-fix-inputs')).toBeHidden({ timeout: 10_000 });

  // The five tabs, each with its chart and table.
  await expect(page.getByTestId('gc-results')).toBeVisible();
  for (const scenario of SCENARIOS) {
    await page.getByTestId(`gc-tab-${scenario}`).click();
    const panel = page.getByTestId(`gc-scenario-${scenario}`);
    await expect(panel).toBeVisible();
    await expect(panel.getByTestId('gc-gap')).toBeVisible();
    await expect(panel.getByTestId('gc-chart').locator('svg').first()).toBeVisible();
    await expect(panel.getByTestId('gc-table')).toBeVisible();
    await expect(panel.getByTestId('gc-benefit').first()).toBeVisible();
    if (scenario.endsWith('Disability'))
      await expect(panel.getByTestId('gc-waiting')).toBeVisible();
    await shot(page, `global-check-${scenario}`);
  }

  // Saved: the check is opened with its date.
  await page.getByTestId('gc-tab-retirement').click();
  await page.getByTestId('gc-save').click();
  await expect(page.getByTestId('gc-opened')).toBeVisible();
  await expect(page).toHaveURL(/check=\d+/);
  const checkId = /check=(\d+)/.exec(page.url())?.[1];

  // The PDF report: stored on the customer, downloaded.
  const download = page.waitForEvent('download');
  await page.getByTestId('gc-report').click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/\.pdf$/);
  const bytes = readFileSync((await file.path())!);
  expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  await expect(page.getByTestId('gc-report-documents')).toBeVisible();

  // The retirement gap becomes a reminder, linked.
  const retirement = page.getByTestId('gc-scenario-retirement');
  const gap = Number(await retirement.getByTestId('gc-gap').getAttribute('data-gap'));
  if (gap > 0) {
    await retirement.getByTestId('gc-follow-up-reminder-retirement').click();
    await expect(retirement.getByTestId('gc-follow-up-created')).toBeVisible();
    await expect(retirement.getByTestId('gc-follow-up-link')).toHaveAttribute(
      'href',
      /\/consultant\/reminders\/\d+/,
    );
  }

  // A second check with less income, compared with the first.
  await f.field('grossIncome').fill('60000');
  await expect(page.getByTestId('gc-unsaved')).toBeVisible();
  await page.getByTestId('gc-save').click();
  await expect(page.getByTestId('gc-opened')).toBeVisible();
  await expect(page).not.toHaveURL(new RegExp(`check=${checkId}(&|$)`));
  await page.getByTestId('gc-compare').locator('xpath=..').locator('[role=combobox]').click();
  await page.locator(`[role=option][data-value="${checkId}"]`).click();
  const comparison = page.getByTestId('gc-comparison');
  await expect(comparison).toBeVisible();
  for (const scenario of SCENARIOS)
    await expect(comparison.getByTestId(`gc-compare-${scenario}`)).toBeVisible();
  await shot(page, 'global-check-comparison');

  // The tab lists both checks.
  await page.getByTestId('gc-back').click();
  await expect(page.getByTestId('customer-global-checks')).toBeVisible();
  await expect(page.locator('[data-testid^="customer-global-check-open-"]')).toHaveCount(
    before + 2,
  );
  expect(await checksOf()).toBe(before + 2);
  await shot(page, 'global-check-tab');
});
