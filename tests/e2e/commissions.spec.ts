/**
 * Commissions web (issue 17): a commission rule created through the grouped form (insurer,
 * product, sub-product and variant pickers; the factor named after the basis); a second rule
 * equally specific for an overlapping case refused with the message on "valid from" naming the
 * first; the "which rule applies?" tester finding the rule and the courtage of a case; my
 * commissions as a consultant (the default status filter ready_present, the contract's line, its
 * explain on expanding the row); reversing a line on the commissions page (the reason asked, the
 * reversal line in red, the line reversed). The ledger's lines come from closures created through
 * the API (the engine writes them after the contract's write); every test names its records with
 * a stamp. With SHOTS=<folder>, screenshots at 1366×768.
 */
import {
  type APIRequestContext,
  expect as baseExpect,
  type Locator,
  type Page,
  test,
} from '@playwright/test';
import { apiData, login, shot, tokenOf } from './helpers.ts';

const ADMIN = 'admin@demo.gscrm.ch';
const CONSULTANT = 'consultant@demo.gscrm.ch';
/** Lists and the engine can take a while on a busy machine. */
const expect = baseExpect.configure({ timeout: 20_000 });

test.use({ viewport: { width: 1366, height: 768 } });

type Row = Record<string, unknown> & { id: number };

/** Catalogue ids (server/migrations/0003_product_catalogue.sql and the demo insurers). */
const SUPPLEMENTARY = 2;
const HOSPITAL = 5;
const GENERAL_WARD = 1;
const HALF_PRIVATE = 2;
const PRIVATE = 3;

/** An insurer of the demo catalogue offering health supplementary insurance, by name. */
async function healthInsurer(request: APIRequestContext, token: string) {
  const companies = await apiData<Array<Row & { name_de: string; products?: number[] }>>(
    request,
    token,
    'GET',
    'companies?per_page=200',
  );
  const insurer = companies.find((company) => company.name_de === 'KPT');
  expect(insurer?.products ?? []).toContain(SUPPLEMENTARY);
  return insurer as Row & { name_de: string };
}

async function userId(request: APIRequestContext, token: string, email: string) {
  const users = await apiData<Array<Row & { email: string }>>(
    request,
    token,
    'GET',
    'users?per_page=100',
  );
  const user = users.find((candidate) => candidate.email === email);
  expect(user).toBeDefined();
  return user!.id;
}

/**
 * Earlier runs' rules for this variant made inactive, so that a new one is not refused as equally
 * specific (the e2e server starts on a fresh database; this keeps a second run on one working).
 */
async function retireEarlierRules(request: APIRequestContext, token: string, variant: number) {
  const rules = await apiData<Array<Row & { name: string; sub_product_variant_ids: number[] }>>(
    request,
    token,
    'GET',
    'commission-rules?search=E2E&is_active=true&per_page=100',
  );
  for (const rule of rules) {
    if (!rule.name.startsWith('E2E ') || !rule.sub_product_variant_ids.includes(variant)) continue;
    await apiData<Row>(request, token, 'PATCH', `commission-rules/${rule.id}`, {
      is_active: false,
      version: rule.version,
    });
  }
}

/** The first day of last month, 'YYYY-MM-DD' (a closure signed and started then is payable). */
function lastMonth(): string {
  const now = new Date();
  const date = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  return date.toISOString().slice(0, 10);
}

/**
 * A closure of the consultant's new customer (KPT hospital insurance, the variant given) and its
 * consultant's line, once the engine has written it.
 */
async function closureWithLine(
  request: APIRequestContext,
  token: string,
  stamp: string,
  insurerId: number,
  variant: number,
) {
  const consultant = await userId(request, token, CONSULTANT);
  const customer = await apiData<Row>(request, token, 'POST', 'customers', {
    first_name: 'Nora',
    last_name: `Provision${stamp}`,
    is_company: false,
    country: 'CH',
    date_of_birth: '1984-06-03',
    assigned_to: consultant,
  });
  const signed = lastMonth();
  const contract = await apiData<Row>(request, token, 'POST', 'contracts', {
    customer_id: customer.id,
    contract_type: 'closure',
    product_id: SUPPLEMENTARY,
    company_id: insurerId,
    contract_number: `PROV-${stamp}`,
    status: 'active',
    payment_cycle: 'monthly',
    signing_date: signed,
    start_date: signed,
    supplementary_insurances: [
      { sub_product_id: HOSPITAL, sub_product_variant_id: variant, premium_month: 80 },
    ],
  });
  let line: Row | undefined;
  await expect
    .poll(
      async () => {
        const lines = await apiData<Row[]>(
          request,
          token,
          'GET',
          `commission-lines?contract_id=${contract.id}&user_id=${consultant}&kind=consultant`,
        );
        line = lines[0];
        return line?.status;
      },
      { timeout: 30_000 },
    )
    .toBe('ready_present');
  return { contract, line: line!, consultant };
}

/** Picks `option` in the autocomplete of field `name` (typing part of it first), in `within`. */
async function pick(
  page: Page,
  name: string,
  option: string,
  typed = option,
  within: Locator | Page = page,
) {
  const input = within.locator(`input[name="${name}"]`);
  await input.click();
  await input.fill(typed);
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Chooses `option` in the select of field `name` (a MUI select: its hidden input holds the value). */
async function select(page: Page, name: string, option: string) {
  await page.locator(`input[name="${name}"]`).locator('..').getByRole('combobox').click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function typeDate(page: Page, name: string, digits: string) {
  await page.locator(`input[name="${name}"]`).click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(digits);
  await page.keyboard.press('Tab');
}

/** Fills the rule form: KPT hospital insurance, private ward, from 1 January 2025. */
async function fillRule(page: Page, name: string) {
  await page.locator('input[name="name"]').fill(name);
  await typeDate(page, 'availableFrom', '01012025');
  await pick(page, 'companyId', 'KPT');
  await pick(page, 'productIds', 'Zusatzversicherung', 'Zusatz');
  await pick(page, 'subProductIds', 'Spitalzusatzversicherung', 'Spital');
  await pick(page, 'subProductVariantIds', 'Privat');
}

/** An active rule for KPT hospital insurance, private ward, from 1 January 2025, through the API. */
async function privateRule(request: APIRequestContext, token: string, name: string) {
  const insurer = await healthInsurer(request, token);
  await retireEarlierRules(request, token, PRIVATE);
  return apiData<Row>(request, token, 'POST', 'commission-rules', {
    name,
    available_from: '2025-01-01',
    company_id: insurer.id,
    product_ids: [SUPPLEMENTARY],
    sub_product_ids: [HOSPITAL],
    sub_product_variant_ids: [PRIVATE],
    commission_type: 'acquisition',
    calculation_basis: 'monthly_premium',
    premium_amount: 12,
    stars: 2,
  });
}

test('a rule through the form: the factor named after the basis, listed after saving', async ({
  page,
  request,
}) => {
  const stamp = String(Date.now()).slice(-7);
  await retireEarlierRules(request, await tokenOf(request, ADMIN), PRIVATE);
  const first = `E2E Spital privat ${stamp}`;
  await login(page, ADMIN);

  await page.goto('/admin/commission-rules/new');
  await fillRule(page, first);
  // The factor is named after the basis; a flat rule has a CHF amount instead.
  await select(page, 'calculationBasis', 'Monatsprämie');
  await expect(page.getByLabel('Anzahl Monatsprämien')).toBeVisible();
  await expect(page.getByTestId('rule-flat-rate')).toHaveCount(0);
  await page.locator('input[name="premiumAmount"]').fill('12');
  await page.locator('input[name="stars"]').fill('2');
  await shot(page, 'commission-rule-form');
  await page.getByTestId('rule-save').click();
  await expect(page).toHaveURL(/\/admin\/commission-rules$/);
  await expect(page.getByTestId('rules-list')).toContainText(first);
  await expect(page.getByTestId('rules-list').locator('tr', { hasText: first })).toContainText(
    '12 Monatsprämien',
  );
});

test('a rule as specific as another, for overlapping dates, is refused on its field', async ({
  page,
  request,
}) => {
  const stamp = String(Date.now()).slice(-7);
  const first = `E2E Spital privat ${stamp}`;
  await privateRule(request, await tokenOf(request, ADMIN), first);
  await login(page, ADMIN);

  // The same case, as specific, overlapping dates: refused, the first rule named on the field.
  await page.goto('/admin/commission-rules/new');
  await fillRule(page, `E2E Doppelt ${stamp}`);
  await select(page, 'calculationBasis', 'Pauschal');
  await expect(page.locator('input[name="premiumAmount"]')).toHaveCount(0);
  await page.locator('input[name="flatRate"]').fill('100');
  await page.getByTestId('rule-save').click();
  const from = page
    .locator('input[name="availableFrom"]')
    .locator('xpath=ancestor::div[contains(@class,"MuiFormControl-root")][1]');
  await expect(from).toContainText(first);
  await expect(page).toHaveURL(/\/admin\/commission-rules\/new$/);
  await page.locator('input[name="name"]').scrollIntoViewIfNeeded();
  await shot(page, 'commission-rule-overlap');
});

test('the tester names the rule that applies to a case and its courtage', async ({
  page,
  request,
}) => {
  const stamp = String(Date.now()).slice(-7);
  const first = `E2E Spital privat ${stamp}`;
  await privateRule(request, await tokenOf(request, ADMIN), first);
  await login(page, ADMIN);

  // Which rule applies to a case: the rule (variant and insurer: the most specific), its
  // courtage 12 monthly premiums of CHF 100.
  await page.goto('/admin/commission-rules');
  await page.getByTestId('rule-tester-open').click();
  const tester = page.getByTestId('rule-tester');
  await typeDate(page, 'signingDate', '01032026');
  await pick(page, 'companyId', 'KPT', 'KPT', tester);
  await pick(page, 'productId', 'Zusatzversicherung', 'Zusatz', tester);
  await pick(page, 'subProductId', 'Spitalzusatzversicherung', 'Spital', tester);
  await pick(page, 'subProductVariantId', 'Privat', 'Privat', tester);
  await tester.locator('input[name="premium"]').fill('100');
  await page.getByTestId('tester-run').click();
  await expect(page.getByTestId('tester-rule-link')).toHaveText(first);
  await expect(page.getByTestId('tester-courtage-amount')).toHaveText("CHF 1'200.00");
  await expect(page.getByTestId('tester-courtage-explain')).toContainText('× 12');
  await expect(page.getByTestId('tester-candidates')).toContainText('Variante, mit Versicherer');
  await shot(page, 'commission-rule-tester');
});

test('my commissions: the ready lines by default, a line explained', async ({ page, request }) => {
  const stamp = String(Date.now()).slice(-7);
  const token = await tokenOf(request, ADMIN);
  const insurer = await healthInsurer(request, token);
  const rule = `E2E Halbprivat ${stamp}`;
  await retireEarlierRules(request, token, HALF_PRIVATE);
  await apiData<Row>(request, token, 'POST', 'commission-rules', {
    name: rule,
    available_from: '2025-01-01',
    company_id: insurer.id,
    product_ids: [SUPPLEMENTARY],
    sub_product_ids: [HOSPITAL],
    sub_product_variant_ids: [HALF_PRIVATE],
    commission_type: 'acquisition',
    calculation_basis: 'monthly_premium',
    premium_amount: 10,
    stars: 3,
  });
  const { contract } = await closureWithLine(request, token, stamp, insurer.id, HALF_PRIVATE);

  await login(page, CONSULTANT);
  const asked = page.waitForRequest((call) => {
    const url = new URL(call.url());
    return (
      url.pathname === '/api/commission-lines' &&
      url.searchParams.getAll('status').join() === 'ready_present' &&
      url.searchParams.has('user_id')
    );
  });
  await page.goto('/consultant/my-commissions');
  await asked;
  const list = page.getByTestId('lines-list');
  const row = list.locator('tbody tr', { hasText: `PROV-${stamp}` });
  await expect(row).toBeVisible();
  // Only ready lines are listed.
  const statuses = await list
    .getByTestId('line-status')
    .evaluateAll((chips) => chips.map((chip) => chip.getAttribute('data-status')));
  expect(statuses.length).toBeGreaterThan(0);
  expect(new Set(statuses)).toEqual(new Set(['ready_present']));
  await expect(page.getByTestId('lines-summary-total')).toContainText('CHF');
  await expect(row.getByTestId('line-contract')).toHaveAttribute(
    'href',
    `/consultant/contracts/${contract.id}`,
  );
  await row.click();
  const details = page.getByTestId('line-details');
  await expect(details).toContainText(rule);
  await shot(page, 'my-commissions-consultant');
});

test('commissions: a line reversed with a reason', async ({ page, request }) => {
  const stamp = String(Date.now()).slice(-7);
  const token = await tokenOf(request, ADMIN);
  const insurer = await healthInsurer(request, token);
  await retireEarlierRules(request, token, GENERAL_WARD);
  await apiData<Row>(request, token, 'POST', 'commission-rules', {
    name: `E2E Allgemein ${stamp}`,
    available_from: '2025-01-01',
    company_id: insurer.id,
    product_ids: [SUPPLEMENTARY],
    sub_product_ids: [HOSPITAL],
    sub_product_variant_ids: [GENERAL_WARD],
    commission_type: 'acquisition',
    calculation_basis: 'monthly_premium',
    premium_amount: 8,
    stars: 1,
  });
  const { contract, line } = await closureWithLine(request, token, stamp, insurer.id, GENERAL_WARD);

  await login(page, ADMIN);
  // The list filtered by the contract (react-admin reads the filter from the address).
  const filter = encodeURIComponent(JSON.stringify({ contractId: contract.id }));
  await page.goto(`/admin/commissions?filter=${filter}`);
  const list = page.getByTestId('lines-list');
  const consultantRows = list.locator('tbody tr', { hasText: 'Berater' });
  await expect(consultantRows).toHaveCount(1);
  await consultantRows.getByTestId('line-reverse').click();
  const dialog = page.getByTestId('reverse-dialog');
  await dialog.getByTestId('reverse-confirm').click();
  await expect(dialog).toContainText('Erforderlich');
  await dialog.getByTestId('reverse-reason').fill('Falsche Sterne erfasst');
  await shot(page, 'commissions-reverse');
  await dialog.getByTestId('reverse-confirm').click();
  await expect(dialog).toHaveCount(0);

  // The line and its reversal: both reversed (never paid out), the reversal negative, in red.
  const lines = await apiData<Row[]>(
    request,
    token,
    'GET',
    `commission-lines?contract_id=${contract.id}&kind=consultant`,
  );
  const reversal = lines.find((candidate) => candidate.reverses_id === line.id);
  expect(reversal).toMatchObject({ amount: -(line.amount as number), status: 'reversed' });
  await expect(consultantRows).toHaveCount(2);
  await expect(consultantRows.locator('[data-negative="true"]')).toHaveCount(1);
  await expect(consultantRows.getByTestId('line-status')).toHaveText(['Storniert', 'Storniert']);
  // Nothing left to reverse.
  await expect(consultantRows.getByTestId('line-reverse').first()).toBeDisabled();
  await shot(page, 'commissions-reversed');
});
