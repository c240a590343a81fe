/**
 * The car-insurance comparison (FS24, issue 18) end to end against the demo's stand-in service:
 * a consultant fills the five steps for a customer from the customer's comparisons tab (the
 * browser's check first), compares, picks two results into offers and accepts one into a closure;
 * the customer opens a link in French without an account, fills a comparison of their own and sees
 * the results without choosing; a wrong token shows nothing of the customer.
 */
import { expect, type Page, test } from '@playwright/test';
import { apiData, expectAccessible, login, shot, tokenOf } from './helpers.ts';

const CONSULTANT = 'consultant@demo.gscrm.ch';
type Row = Record<string, unknown>;

test.describe.configure({ mode: 'serial' });

const pad = (n: number) => String(n).padStart(2, '0');
const dayIn = (days: number) => {
  const date = new Date(Date.now() + days * 86_400_000);
  return `${pad(date.getDate())}.${pad(date.getMonth() + 1)}.${date.getFullYear()}`;
};

/** The wizard's inputs by their test ids (`fs24-<path>`). */
function wizard(page: Page) {
  const field = (path: string) => page.getByTestId(`fs24-${path}`);
  return {
    field,
    async select(path: string, value: string) {
      await field(path).locator('xpath=..').locator('[role=combobox]').click();
      await page.locator(`[role=option][data-value="${value}"]`).click();
    },
    async yesNo(path: string, yes: boolean) {
      await field(path)
        .getByRole('radio')
        .nth(yes ? 0 : 1)
        .check();
    },
    async date(path: string, ddmmyyyy: string) {
      const input = field(path);
      await input.click();
      await input.press('Home');
      await input.pressSequentially(ddmmyyyy.replaceAll('.', ''), { delay: 20 });
    },
    async next(then: string) {
      await page.getByTestId('fs24-next').click();
      await expect(page.getByTestId(then)).toBeVisible();
    },
  };
}

/** Fills the five steps from the vehicle on (the drivers' names and address are prefilled or typed). */
async function fillSteps(page: Page, options: { kilometres: string; switzerland: string }) {
  const w = wizard(page);
  await expect(page.getByTestId('fs24-form-vehicle')).toBeVisible();
  // The browser's check before anything is sent.
  await page.getByTestId('fs24-next').click();
  await expect(page.getByTestId('fs24-form-vehicle')).toContainText(/.+/);
  await w.field('car.manufacturer').fill('Volkswagen');
  await w.field('car.type').fill('Golf 1.5 TSI');
  await w.field('car.firstRegistrationYear').fill(String(new Date().getFullYear() + 1));
  await w.select('car.firstRegistrationMonth', '3');
  await w.field('car.kilometres').fill(options.kilometres);
  await page.getByTestId('fs24-next').click();
  // Registration in the future: refused on its field, nothing lost.
  await expect(page.getByTestId('fs24-form-vehicle')).toBeVisible();
  await expect(w.field('car.manufacturer')).toHaveValue('Volkswagen');
  await w.field('car.firstRegistrationYear').fill('2021');
  await w.next('fs24-form-use');
  await expect(page).toHaveURL(/\/financescout24\/\d+\/\d+/);

  await w.select('canton', 'ZH');
  await w.field('yearlyKm').fill('12000');
  await w.select('usage', 'way_to_work');
  await w.select('garageType', 'private_garage');
  await w.next('fs24-form-drivers');

  if (!(await w.field('driver.title').inputValue())) await w.select('driver.title', 'ms');
  if (!(await w.field('driver.firstName').inputValue()))
    await w.field('driver.firstName').fill('Anna');
  if (!(await w.field('driver.lastName').inputValue()))
    await w.field('driver.lastName').fill('Muster');
  if (!(await w.field('driver.birthdate').inputValue()))
    await w.date('driver.birthdate', '14.06.1986');
  // Licensed at 19 (the rule: not before 18).
  const [, , born] = (await w.field('driver.birthdate').inputValue()).split('.');
  await w.date('driver.licenceDate', `02.09.${Number(born) + 19}`);
  const young = new Date().getFullYear() - Number(born) < 26;
  if (!(await w.field('driver.nationality').inputValue())) {
    await w.field('driver.nationality').fill(options.switzerland);
    await page.getByRole('option', { name: options.switzerland, exact: true }).click();
  }
  const permit = w.field('driver.permit');
  if ((await permit.count()) > 0 && !(await permit.inputValue()))
    await w.select('driver.permit', 'C');
  if (!(await w.field('driver.postcode').inputValue()))
    await w.field('driver.postcode').fill('8004');
  if (!(await w.field('driver.city').inputValue())) await w.field('driver.city').fill('Zürich');
  await w.yesNo('driver.isMain', true);
  await w.yesNo('under25Usage', young);
  await w.next('fs24-form-cover');

  await w.yesNo('coverage.leased', false);
  await w.select('coverage.basic', 'full_casco');
  await w.select('coverage.deductiblePartial', '200');
  await w.select('coverage.deductibleFull', '1000');
  await w.select('coverage.bonusProtection', 'liability_full_casco');
  await w.date('coverage.startDate', dayIn(20));
  await w.yesNo('coverage.garage', true);
  await w.yesNo('coverage.parkingExtra', true);
  await w.yesNo('coverage.unlimitedDamage', true);
  await w.yesNo('coverage.passengerAccident', false);
  await w.yesNo('coverage.currentDamage', false);
  await w.next('fs24-form-history');

  await w.yesNo('history.cancelledContract', false);
  await w.yesNo('history.rejectedApplication', false);
  await w.yesNo('history.damageOrFinesOver250', false);
  await w.next('fs24-results');
}

test('a consultant compares for a customer, makes two offers and accepts one', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const token = await tokenOf(request, CONSULTANT);
  const customers = await apiData<Row[]>(
    request,
    token,
    'GET',
    'customers?is_company=false&per_page=5&sort=id&order=DESC',
  );
  const customer = customers[0]!;
  await login(page, CONSULTANT);
  await page.goto(`/consultant/customers/${String(customer.id)}?tab=comparisons`);
  await expect(page.getByTestId('customer-comparisons')).toBeVisible();
  await page.getByTestId('customer-comparison-new').click();
  await fillSteps(page, { kilometres: '38000', switzerland: 'Schweiz' });

  await page.getByTestId('fs24-compare').click();
  await expect(page.getByTestId('fs24-sample')).toBeVisible({ timeout: 20_000 });
  const quotes = page.locator(
    '[data-testid^="fs24-quote-"]:not([data-testid="fs24-quote-premium"])',
  );
  await expect(quotes.first()).toBeVisible();
  expect(await quotes.count()).toBeGreaterThan(3);
  await shot(page, 'fs24-results');
  await expectAccessible(page);
  const picks = page.locator('[data-testid^="fs24-pick-"] input');
  await picks.nth(0).check();
  await picks.nth(1).check();
  await page.getByTestId('fs24-make-offers').click();
  const made = page.getByTestId('fs24-offers-made');
  await expect(made).toBeVisible();
  const links = made.locator('a[data-testid^="fs24-offer-"], [data-testid^="fs24-offer-"] a');
  await expect(links).toHaveCount(2);

  // The offers are on the customer, from the comparison; one accepted becomes the closure.
  const draftId = /\/financescout24\/\d+\/(\d+)/.exec(page.url())?.[1];
  const offers = await apiData<Row[]>(
    request,
    token,
    'GET',
    `offers?customer_id=${String(customer.id)}&source=comparison&per_page=50`,
  );
  const fromDraft = offers.filter((offer) => String(offer.comparison_draft_id) === draftId);
  expect(fromDraft).toHaveLength(2);
  await links.first().click();
  await expect(page.getByTestId('offer-show')).toBeVisible();
  await expect(page.getByTestId('offer-comparison')).toBeVisible();
  await page.getByTestId('offer-accept').click();
  await page.getByTestId('offer-accept-dialog').getByTestId('offer-accept-confirm').click();
  await expect(page).toHaveURL(/\/consultant\/contracts\/\d+$/);
});

test('the customer opens a link in French, compares without choosing; a wrong token shows nothing', async ({
  browser,
  request,
}) => {
  test.setTimeout(150_000);
  const token = await tokenOf(request, CONSULTANT);
  const customers = await apiData<Row[]>(
    request,
    token,
    'GET',
    'customers?is_company=false&per_page=5&sort=id&order=DESC',
  );
  const customer = customers[1]!;
  const answer = await request.post(`/api/customers/${String(customer.id)}/comparison-links`, {
    headers: { Authorization: `Bearer ${token}` },
    data: { days: 7, language: 'fr' },
  });
  expect(answer.status(), await answer.text()).toBe(201);
  const link = (await answer.json()) as { url: string };

  const guest = await browser.newContext({ viewport: { width: 1366, height: 768 } });
  const page = await guest.newPage();
  try {
    await page.goto(link.url);
    await expect(page.getByTestId('fs24-drafts')).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', /fr/);
    await page.getByTestId('fs24-start').click();
    await expect(page.getByTestId('fs24-step-title')).toHaveText('Véhicule');
    await fillSteps(page, { kilometres: '51000', switzerland: 'Suisse' });
    await expect(page).toHaveURL(/token=/);
    await page.getByTestId('fs24-compare').click();
    await expect(page.getByTestId('fs24-sample')).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId('fs24-sample')).toContainText(/prime|tarif/i);
    await expect(page.locator('[data-testid^="fs24-pick-"]')).toHaveCount(0);
    await expect(page.getByTestId('fs24-consultant-note')).toBeVisible();
    await shot(page, 'fs24-link-results-fr');

    await page.goto(
      link.url.replace(/token=[^&]+/, 'token=guessed-token-of-forty-three-characters-xx'),
    );
    await expect(page.getByTestId('fs24-invalid')).toBeVisible();
    await expect(page.locator('body')).not.toContainText(String(customer.last_name));
  } finally {
    await guest.close();
  }
});
