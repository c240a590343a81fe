/**
 * Offers (issue 18) in the browser: an offer added from the customer's offers tab through the
 * form (the customer filled in), marked sent, then accepted — the dialog for the closure's number
 * and dates, the closure opened with the offer's insurer and premium — and another declined with a
 * reason, recorded as a non-closure. As a consultant, on their own customer. With SHOTS=<folder>,
 * screenshots at 1366×768.
 */
import { expect as baseExpect, test } from '@playwright/test';
import { apiData, login, shot, tokenOf } from './helpers.ts';

const CONSULTANT = 'consultant@demo.gscrm.ch';
const expect = baseExpect.configure({ timeout: 20_000 });
const CAR = 7;

test.use({ viewport: { width: 1366, height: 768 } });

type Row = Record<string, unknown> & { id: number };

test('an offer from the customer tab, sent, accepted into a closure; another declined', async ({
  page,
  request,
}) => {
  const stamp = String(Date.now()).slice(-7);
  const token = await tokenOf(request, CONSULTANT);
  const customer = await apiData<Row>(request, token, 'POST', 'customers', {
    first_name: 'Olivia',
    last_name: `Offerte${stamp}`,
    is_company: false,
    country: 'CH',
  });
  const companies = await apiData<Array<Row & { name_de: string; products: number[] }>>(
    request,
    token,
    'GET',
    'companies?per_page=200',
  );
  const insurer = companies.find((company) => company.products?.includes(CAR))!;

  await login(page, CONSULTANT);
  await page.goto(`/consultant/customers/${customer.id}?tab=offers`);
  await expect(page.getByTestId('customer-offers')).toBeVisible();
  await page.getByTestId('customer-offer-new').click();
  await expect(page).toHaveURL(/\/consultant\/offers\/new/);
  const company = page.locator('input[name="companyId"]');
  await company.click();
  await company.fill(insurer.name_de);
  await page.getByRole('option', { name: insurer.name_de, exact: true }).click();
  const product = page.locator('input[name="productId"]');
  await product.click();
  await product.fill('Auto');
  await page.getByRole('option', { name: 'Auto', exact: true }).click();
  await page.locator('input[name="premium"]').fill('1234.50');
  await page.locator('textarea[name="coverSummary"]').fill('Haftpflicht, Vollkasko');
  await shot(page, 'offer-form');
  await page.getByRole('button', { name: 'Speichern' }).click();
  await expect(page.getByTestId('offer-show')).toBeVisible();
  await expect(page.getByTestId('offer-status')).toHaveAttribute('data-status', 'draft');
  await expect(page.getByTestId('offer-annualPremium')).toContainText("1'234.50");

  await page.getByTestId('offer-send').click();
  await expect(page.getByTestId('offer-status')).toHaveAttribute('data-status', 'sent');
  await shot(page, 'offer-show');
  await page.getByTestId('offer-accept').click();
  const dialog = page.getByTestId('offer-accept-dialog');
  await dialog.locator('input[name="contractNumber"]').fill(`AUTO-${stamp}`);
  await dialog.getByTestId('offer-accept-confirm').click();
  // The closure opens: the offer's insurer, the contract number given.
  await expect(page).toHaveURL(/\/consultant\/contracts\/\d+$/);
  await expect(page.locator('body')).toContainText(`AUTO-${stamp}`);
  await expect(page.locator('body')).toContainText(insurer.name_de);

  // Another offer of the customer, declined with a reason, recorded as a non-closure.
  const second = await apiData<Row>(request, token, 'POST', 'offers', {
    customer_id: customer.id,
    company_id: insurer.id,
    product_id: CAR,
    premium: 99,
  });
  await page.goto(`/consultant/offers/${second.id}`);
  await page.getByTestId('offer-decline').click();
  const decline = page.getByTestId('offer-decline-dialog');
  await decline.locator('input[name="reason"]').locator('..').getByRole('combobox').click();
  await page.getByRole('option', { name: 'Preis' }).click();
  await shot(page, 'offer-decline');
  await decline.getByTestId('offer-decline-confirm').click();
  await expect(page.getByTestId('offer-status')).toHaveAttribute('data-status', 'declined');
  await expect(page.getByTestId('offer-contractId')).toBeVisible();
  await expect(page.getByTestId('offer-edit')).toHaveCount(0);

  await page.goto(`/consultant/customers/${customer.id}?tab=offers`);
  await expect(page.getByTestId('customer-offers').locator('tbody tr')).toHaveCount(2);
});
