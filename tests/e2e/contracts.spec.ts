/**
 * Contracts (issue 14): a health closure with supplementary insurances, a P&C closure with coverage
 * lines and a non-closure with its reason, created through the form (from the customer's contracts
 * tab, the customer filled in) and checked on the show page and through the API; the lists' fixed
 * filters (closures, non-closures, broker contracts); the life form's live figures; deleting (only
 * with delete-contracts, refused while documents are attached) and cancelling (a consultant, who
 * may not delete; a version conflict on the way). With SHOTS=<folder>, screenshots of the list,
 * the show page (with its actions), the cancel dialog and the form at 1366×768 in German and French.
 */
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { listRows, login, PASSWORD, restoreLanguage } from './helpers.ts';

const ADMIN = 'admin@demo.gscrm.ch';
const SHOTS = process.env.SHOTS;
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
);

test.use({ viewport: { width: 1366, height: 768 } });

// The screenshot test switches the admin's language (saved on the server): set it back even when
// a test fails half-way, or the next tests signing in as admin see French.
test.afterEach(async ({ request }) => {
  await restoreLanguage(request, ADMIN);
});

async function tokenOf(request: APIRequestContext, email = ADMIN): Promise<string> {
  const answer = await request.post('/api/auth/login', {
    data: { email, password: PASSWORD },
  });
  expect(answer.ok()).toBe(true);
  return ((await answer.json()) as { token: string }).token;
}

type Row = Record<string, unknown> & { id: number };

async function api<T>(
  request: APIRequestContext,
  token: string,
  method: 'GET' | 'POST' | 'PATCH',
  path: string,
  data?: unknown,
): Promise<T> {
  const answer = await request.fetch(`/api/${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}` },
    data,
  });
  expect(answer.ok(), `${method} ${path}: ${await answer.text()}`).toBe(true);
  return ((await answer.json()) as { data: T }).data;
}

/** The status the API answers (for answers that are not 2xx). */
async function statusOf(request: APIRequestContext, token: string, path: string): Promise<number> {
  const answer = await request.get(`/api/${path}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  return answer.status();
}

async function newCustomer(request: APIRequestContext, token: string, lastName: string) {
  return api<Row>(request, token, 'POST', 'customers', {
    first_name: 'Vera',
    last_name: lastName,
    is_company: false,
    country: 'CH',
    date_of_birth: '1980-04-12',
  });
}

async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(300);
  await page.screenshot({ path: `${SHOTS}/${name}.png` });
}

/** Picks `option` in the autocomplete of field `name` (typing part of it first). */
async function pick(page: Page, name: string, option: string, typed = option) {
  const input = page.locator(`input[name="${name}"]`);
  await input.click();
  await input.fill(typed);
  await page.getByRole('option', { name: option, exact: true }).click();
  await expect(input).toHaveValue(option);
}

/** Chooses `option` in the select of field `name` (a MUI select: its hidden input holds the name). */
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

async function fill(page: Page, name: string, value: string) {
  await page.locator(`input[name="${name}"]`).fill(value);
}

/** Adds a row to the array input of a form section. */
async function addRow(page: Page, section: string) {
  await page.locator(`[data-section="${section}"] .button-add`).first().click();
}

async function save(page: Page, path: RegExp) {
  await page.getByTestId('contract-save').click();
  await expect(page).toHaveURL(path);
  await expect(page.getByTestId('contract-show')).toBeVisible();
  return Number(/\/(\d+)$/.exec(new URL(page.url()).pathname)?.[1]);
}

async function switchLanguage(page: Page, from: string, to: string) {
  await page.getByRole('button', { name: from, exact: true }).click();
  await page.getByRole('menuitem', { name: to, exact: true }).click();
  await expect(page.getByRole('button', { name: to, exact: true })).toBeVisible();
}

test('closures (health with supplementary insurances, P&C with coverage lines) and a non-closure, from the customer', async ({
  page,
  request,
}) => {
  // A long flow through many screens: more than the default minute on a loaded CI machine.
  test.slow();
  const stamp = Date.now().toString(36);
  const token = await tokenOf(request);
  const customer = await newCustomer(request, token, `Vertrag${stamp}`);
  await login(page, ADMIN);

  // The customer's contracts tab opens the form with the customer filled in.
  await page.goto(`/admin/customers/${customer.id}?tab=contracts`);
  await expect(page.getByTestId('customer-contracts-closure')).toContainText('Keine.');
  await page.getByTestId('customer-contract-new-closure').click();
  await expect(page).toHaveURL(new RegExp(`/admin/contracts/new\\?customerId=${customer.id}$`));
  await expect(page.locator('input[name="customerId"]')).toHaveValue(`Vera Vertrag${stamp}`);

  // Health: basic model, variant-free deductible, premium; supplementary insurances.
  await expect(page.getByTestId('choose-product')).toBeVisible();
  await pick(page, 'productId', 'Grund- und Zusatzversicherung', 'Grund- und');
  // Only insurers offering the product: Assura offers basic insurance alone.
  await page.locator('input[name="companyId"]').click();
  await expect(page.getByRole('option', { name: 'CSS', exact: true })).toBeVisible();
  await expect(page.getByRole('option', { name: 'Assura', exact: true })).toHaveCount(0);
  await page.getByRole('option', { name: 'CSS', exact: true }).click();
  await fill(page, 'contractNumber', `KVG-${stamp}`);
  await typeDate(page, 'signingDate', '01102025');
  await typeDate(page, 'startDate', '01012026');
  await select(page, 'insurance.subProductId', 'Hausarztmodell');
  // An adult's deductibles (DOMAIN.md §1).
  await page
    .locator('input[name="insurance.deductible"]')
    .locator('..')
    .getByRole('combobox')
    .click();
  await expect(page.getByRole('option', { name: 'CHF 100', exact: true })).toHaveCount(0);
  await page.getByRole('option', { name: 'CHF 2500', exact: true }).click();
  await fill(page, 'insurance.premium', '320');
  await addRow(page, 'supplementary');
  await select(page, 'supplementaryInsurances.0.subProductId', 'Spitalzusatzversicherung');
  await select(page, 'supplementaryInsurances.0.subProductVariantId', 'Halbprivat');
  await fill(page, 'supplementaryInsurances.0.premiumMonth', '45.50');
  await addRow(page, 'supplementary');
  await select(page, 'supplementaryInsurances.1.subProductId', 'Zahnversicherung');
  await fill(page, 'supplementaryInsurances.1.premiumMonth', '12.30');
  await shot(page, 'form-health-de');
  const healthId = await save(page, /\/admin\/contracts\/\d+$/);
  await expect(page.getByTestId('contract-title')).toHaveText(`KVG-${stamp}`);
  const supplementary = page.getByTestId('show-supplementary');
  await expect(supplementary).toContainText('Spitalzusatzversicherung');
  await expect(supplementary).toContainText('Halbprivat');
  await expect(supplementary).toContainText('Zahnversicherung');
  await expect(page.getByTestId('show-deductible')).toContainText("2'500");
  // The server's annual premium: 12 × 320 + 12 × (45.50 + 12.30).
  await expect(page.getByTestId('show-annual-premium')).toContainText("4'533.60");
  await shot(page, 'show-health-de');
  // A health closure without a signed advice protocol is marked; uploading one to it clears that.
  await expect(page.getByTestId('protocol-missing')).toBeVisible();
  await expect(page.locator('input[name="uploadDocumentType"]')).toHaveValue('advice_protocol');
  // Its signing day (today by default) is sent with it: only a signed protocol counts.
  await expect(page.getByTestId('contract-document-signed-on')).not.toHaveValue('');
  await page.getByTestId('contract-document-file').setInputFiles({
    name: 'beratungsprotokoll.pdf',
    mimeType: 'application/pdf',
    buffer: PDF,
  });
  await expect(page.getByTestId('contract-documents')).toContainText('beratungsprotokoll');
  await expect(page.getByTestId('contract-documents').getByTestId('signed-on')).toContainText(
    'Unterschrieben am',
  );
  await expect(page.getByTestId('protocol-missing')).toHaveCount(0);
  const health = await api<Row>(request, token, 'GET', `contracts/${healthId}`);
  expect(health).toMatchObject({
    contract_type: 'closure',
    customer_id: customer.id,
    product_id: 3,
    insurance: { sub_product_id: 2, deductible: 2500, premium: 320 },
    supplementary_insurances: [
      { sub_product_id: 5, sub_product_variant_id: 2, premium_month: 45.5 },
      { sub_product_id: 7, premium_month: 12.3 },
    ],
  });

  // P&C: coverage lines with sums and deductibles.
  await page.goto(`/admin/contracts/new?customerId=${customer.id}`);
  await pick(page, 'productId', 'Auto');
  await pick(page, 'companyId', 'AXA');
  await fill(page, 'contractNumber', `AUTO-${stamp}`);
  await expect(page.locator('[data-section="supplementary"]')).toHaveCount(0);
  await addRow(page, 'coverage');
  await fill(page, 'coverage.lines.0.coverage', 'Haftpflicht');
  await fill(page, 'coverage.lines.0.sum', '100000000');
  await fill(page, 'coverage.lines.0.premium', '420');
  await addRow(page, 'coverage');
  await fill(page, 'coverage.lines.1.coverage', 'Teilkasko');
  await fill(page, 'coverage.lines.1.sum', '30000');
  await fill(page, 'coverage.lines.1.deductible', '200');
  await fill(page, 'coverage.lines.1.premium', '180');
  await shot(page, 'form-pnc-de');
  const carId = await save(page, /\/admin\/contracts\/\d+$/);
  const lines = page.getByTestId('show-coverage-lines');
  await expect(lines).toContainText('Haftpflicht');
  await expect(lines).toContainText('Teilkasko');
  await expect(lines).toContainText("CHF 30'000.00");
  const car = await api<Row>(request, token, 'GET', `contracts/${carId}`);
  expect(car).toMatchObject({
    product_id: 7,
    coverage: {
      lines: [
        { coverage: 'Haftpflicht', sum: 100000000, premium: 420 },
        { coverage: 'Teilkasko', sum: 30000, deductible: 200, premium: 180 },
      ],
    },
    supplementary_insurances: [],
  });

  // A non-closure needs its reason.
  await page.goto(`/admin/customers/${customer.id}?tab=contracts`);
  await page.getByTestId('customer-contract-new-non-closure').click();
  await expect(page).toHaveURL(/\/admin\/non-closures\/new\?customerId=\d+$/);
  await pick(page, 'productId', 'Säule 3a', 'Säule');
  await fill(page, 'contractNumber', `OFFERTE-${stamp}`);
  // Life: the annual premium and production sum follow the inputs, computed as the server will.
  await expect(page.getByTestId('form-productionSum')).toHaveValue('CHF 0.00');
  await fill(page, 'insurance.premium', '7056');
  await fill(page, 'insurance.termYears', '25');
  await expect(page.getByTestId('form-annualPremium')).toHaveValue("CHF 84'672.00");
  await expect(page.getByTestId('form-productionSum')).toHaveValue("CHF 2'116'800.00");
  await expect(page.getByTestId('contract-live-figures')).toContainText(
    'Wird beim Speichern berechnet',
  );
  await shot(page, 'form-life-de');
  await select(page, 'paymentCycle', 'Jährlich');
  await expect(page.getByTestId('form-productionSum')).toHaveValue("CHF 176'400.00");
  await page.getByTestId('contract-save').click();
  await expect(page).toHaveURL(/\/admin\/non-closures\/new/);
  await expect(page.locator('[data-section="contract"]')).toContainText('Erforderlich');
  await select(page, 'reason', 'Preis');
  const nonClosureId = await save(page, /\/admin\/non-closures\/\d+$/);
  await expect(page.getByTestId('contract-section-contract')).toContainText('Preis');
  const nonClosure = await api<Row>(request, token, 'GET', `contracts/${nonClosureId}`);
  expect(nonClosure).toMatchObject({
    contract_type: 'non-closure',
    reason: 'price',
    product_id: 4,
    insurance: { premium: 7056, term_years: 25 },
    payment_cycle: 'annual',
    annual_premium: 7056,
    production_sum: 176400,
  });

  // The customer's tab lists them apart, each linking to its page.
  await page.goto(`/admin/customers/${customer.id}?tab=contracts`);
  const closures = page.getByTestId('customer-contracts-closure');
  await expect(closures).toContainText(`KVG-${stamp}`);
  await expect(closures).toContainText(`AUTO-${stamp}`);
  await expect(closures).not.toContainText(`OFFERTE-${stamp}`);
  const nonClosures = page.getByTestId('customer-contracts-non-closure');
  await expect(nonClosures).toContainText(`OFFERTE-${stamp}`);
  await nonClosures.getByRole('link', { name: `OFFERTE-${stamp}` }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/non-closures/${nonClosureId}$`));

  // Edit keeps the group's form: the health closure's supplementary insurances are there.
  await page.goto(`/admin/contracts/${healthId}/edit`);
  await expect(page.locator('input[name="supplementaryInsurances.1.premiumMonth"]')).toHaveValue(
    '12.3',
  );
  await fill(page, 'insurance.premium', '330');
  await save(page, new RegExp(`/admin/contracts/${healthId}$`));
  await expect(page.getByTestId('show-premium')).toContainText('330.00');

  // The lists: closures and non-closures apart (fixed filters), searched by number.
  await page.goto('/admin/non-closures');
  await page.locator('input[name="q"]').fill(`OFFERTE-${stamp}`);
  await expect(listRows(page)).toHaveCount(1);
  await expect(page.locator('tbody')).toContainText(`OFFERTE-${stamp}`);
  await page.goto('/admin/contracts');
  await page.locator('input[name="q"]').fill(stamp);
  await expect(listRows(page)).toHaveCount(2);
  await expect(page.locator('tbody')).not.toContainText(`OFFERTE-${stamp}`);
  // A date range: signed from 1 September 2025 leaves the health closure (the car has no date).
  await page.getByRole('button', { name: 'Filter hinzufügen' }).click();
  await page.getByRole('menu').getByText('Unterzeichnet ab', { exact: true }).click();
  await typeDate(page, 'signingDate_gte', '01092025');
  await expect(listRows(page)).toHaveCount(1);
  await expect(page.locator('tbody')).toContainText(`KVG-${stamp}`);
});

test('broker contracts list only the broker-mandate product; screenshots', async ({
  page,
  request,
}) => {
  // A long flow through many screens: more than the default minute on a loaded CI machine.
  test.slow();
  const token = await tokenOf(request);
  const brokers = await api<Row[]>(
    request,
    token,
    'GET',
    'contracts?per_page=5&contract_type=closure&product_id=28',
  );
  expect(brokers.length).toBeGreaterThan(0);
  await login(page, ADMIN);
  await page.goto('/admin/broker-contracts');
  // Every row shown is of the broker-mandate product (once the rows, not placeholders, are there).
  await expect
    .poll(async () => [
      ...new Set(await page.locator('tbody td.column-productId').allTextContents()),
    ])
    .toEqual(['Maklermandat']);
  // The product filters are not offered there: the product is fixed.
  await expect(page.locator('input[name="productId"]')).toHaveCount(0);

  await page.goto('/admin/contracts');
  await expect(listRows(page).first()).toBeVisible();
  await shot(page, 'list-de');
  // The assignment filter: unassigned contracts (no consultant), closures still.
  const unassigned = await api<Row[]>(
    request,
    token,
    'GET',
    'contracts?per_page=1&contract_type=closure&assignment=unassigned',
  );
  const asked = page.waitForRequest(
    (candidate) =>
      candidate.url().includes('/api/contracts?') &&
      candidate.url().includes('assignment=unassigned') &&
      candidate.url().includes('contract_type=closure'),
  );
  await page.getByTestId('contract-assignment-unassigned').click();
  await asked;
  // The demo book has closures of customers without a consultant (server/demo/contracts.ts).
  expect(unassigned).toHaveLength(1);
  await expect(listRows(page).first()).toContainText(String(unassigned[0].contract_number));
  await page.getByTestId('contract-assignment-all').click();
  await expect(page).toHaveURL(/filter=%7B%7D/);
  // A fresh list for the product filter. (Choosing a filter within a moment of the assignment
  // buttons can still undo them: react-admin computes a filter change from the filters it has
  // rendered, and react-router 7 renders a new address as a transition. Known, left open.)
  await page.goto('/admin/contracts?filter=%7B%7D');
  await expect(listRows(page).first()).toBeVisible();
  // The product filter offers the products of the chosen group only.
  await page.getByRole('button', { name: 'Filter hinzufügen' }).click();
  await page.getByRole('menu').getByText('Produktgruppe', { exact: true }).click();
  // Added filters start from the filters the list has rendered (the known race above), and the
  // address changes before the list renders it: wait for the list to ask for the group's rows.
  const grouped = page.waitForResponse(
    (candidate) =>
      candidate.url().includes('/api/contracts?') && candidate.url().includes('product_group=life'),
  );
  await select(page, 'productGroup', 'Leben');
  await grouped;
  await expect(page).toHaveURL(/productGroup%22%3A%22life/);
  await page.getByRole('button', { name: 'Filter hinzufügen' }).click();
  await page.getByRole('menu').getByText('Produkt', { exact: true }).click();
  await page.locator('input[name="productId"]').click();
  await expect(page.getByRole('option', { name: 'Säule 3a', exact: true })).toBeVisible();
  await expect(page.getByRole('option', { name: 'Auto', exact: true })).toHaveCount(0);
  await page.getByRole('option', { name: 'Säule 3a', exact: true }).click();
  await expect(page).toHaveURL(/productId%22%3A4/);
  await expect
    .poll(async () => [
      ...new Set(await page.locator('tbody td.column-productId').allTextContents()),
    ])
    .toEqual(['Säule 3a']);
  // The back office's list of health closures without a signed advice protocol.
  // (The list may first show the rows of the filters it kept, until the address's are fetched.)
  const missing = page.waitForResponse(
    (candidate) =>
      candidate.url().includes('/api/contracts?') &&
      candidate.url().includes('protocol_missing=true'),
  );
  await page.goto('/admin/contracts?filter=%7B%22protocolMissing%22%3A%22true%22%7D');
  await missing;
  // Every row shown carries the marker.
  await expect
    .poll(async () => {
      const rows = await listRows(page).count();
      return rows > 0 && rows === (await page.getByTestId('protocol-missing').count());
    })
    .toBe(true);
  // Filters removed again (the list keeps its filters per kind of list).
  await page.goto('/admin/contracts?filter=%7B%7D');
  await expect(page.locator('input[name="productId"]')).toHaveCount(0);
  await page.goto('/admin/non-closures');
  await expect(listRows(page).first()).toBeVisible();
  await shot(page, 'list-non-closures-de');
  // The row opens the non-closure's page (its first cell: the others hold links).
  await listRows(page).first().locator('td').first().click();
  await expect(page).toHaveURL(/\/admin\/non-closures\/\d+$/);
  await shot(page, 'show-non-closure-de');

  const health = await api<Row[]>(
    request,
    token,
    'GET',
    'contracts?per_page=1&contract_type=closure&product_group=health',
  );
  // The demo book insures every household's health (server/demo/contracts.ts).
  expect(health).toHaveLength(1);
  // The customer's contracts tab: closures and non-closures, each linking to its page.
  await page.goto(`/admin/customers/${String(health[0].customer_id)}?tab=contracts`);
  const closures = page.getByTestId('customer-contracts-closure');
  await expect(closures.getByRole('link').first()).toBeVisible();
  // Fewer than the tab shows: no link to the whole list.
  await expect(page.getByTestId('customer-contracts-all-closure')).toHaveCount(0);
  await closures.scrollIntoViewIfNeeded();
  await shot(page, 'customer-tab-de');
  await page.goto('/admin/contracts');
  await switchLanguage(page, 'Deutsch', 'Français');
  await expect(listRows(page).first()).toBeVisible();
  await shot(page, 'list-fr');
  await page.goto(`/admin/contracts/${health[0].id}`);
  await expect(page.getByTestId('contract-show')).toBeVisible();
  await expect(page.getByTestId('contract-cancel')).toContainText('Résilier le contrat');
  await shot(page, 'show-fr');
  await page.goto(`/admin/contracts/${health[0].id}/edit`);
  await expect(page.locator('input[name="productId"]')).toBeVisible();
  await shot(page, 'form-fr');
  await switchLanguage(page, 'Français', 'Deutsch');
});

test('a consultant with the work-location preference: lists and pages without editing', async ({
  page,
  request,
}) => {
  const email = 'consultant2@demo.gscrm.ch';
  const token = await tokenOf(request, email);
  const headers = { Authorization: `Bearer ${token}` };
  const set = async (on: boolean) =>
    expect(
      (
        await request.put('/api/account/settings', {
          headers,
          data: { contracts_filter_by_work_location: on },
        })
      ).ok(),
    ).toBe(true);
  await set(true);
  try {
    await login(page, email);
    // consultant2 works in Montreux: the list asks for that location's contracts.
    const asked = page.waitForRequest(
      (candidate) =>
        candidate.url().includes('/api/contracts?') &&
        candidate.url().includes('work_location=montreux') &&
        candidate.url().includes('contract_type=closure'),
    );
    await page.goto('/consultant/contracts');
    await asked;
    await expect(page.getByTestId('contract-create')).toHaveCount(0);
    // The demo book gives consultant2 contracts in Montreux.
    const rows = listRows(page);
    await expect(rows.first()).toBeVisible();
    {
      await rows.first().click();
      await expect(page).toHaveURL(/\/consultant\/contracts\/\d+$/);
      await expect(page.getByTestId('contract-show')).toBeVisible();
      await expect(page.getByTestId('contract-edit')).toHaveCount(0);
    }
    // Editing is an admin route (SPEC §2).
    await page.goto('/consultant/contracts/1/edit');
    await expect(page.getByRole('menuitem').first()).toBeVisible();
    await page.waitForLoadState('networkidle');
    await expect(page.locator('input[name="productId"]')).toHaveCount(0);
    await expect(page.getByTestId('contract-save')).toHaveCount(0);
  } finally {
    await set(false);
  }
});

test('deleting a contract (refused while it has documents) and cancelling one (a consultant, through a version conflict)', async ({
  page,
  request,
}) => {
  test.slow();
  const stamp = Date.now().toString(36);
  const adminToken = await tokenOf(request);
  const consultant = 'consultant@demo.gscrm.ch';
  // In German whatever an earlier test left (the language is the user's, saved on the server).
  await restoreLanguage(request, consultant);
  const token = await tokenOf(request, consultant);
  // A customer of the consultant with three pillar 3a closures; the first has a document.
  const customer = await newCustomer(request, token, `Ende${stamp}`);
  const companies = await api<Array<Row & { products?: number[] }>>(
    request,
    adminToken,
    'GET',
    'companies?per_page=200',
  );
  const lifeInsurer = companies.find((company) => (company.products ?? []).includes(4));
  expect(lifeInsurer).toBeDefined();
  const closure = (number: string) =>
    api<Row>(request, token, 'POST', 'contracts', {
      customer_id: customer.id,
      contract_type: 'closure',
      product_id: 4,
      company_id: lifeInsurer?.id,
      contract_number: `${number}-${stamp}`,
      status: 'active',
      payment_cycle: 'monthly',
      signing_date: '2024-12-01',
      start_date: '2025-01-01',
      insurance: { premium: 300, term_years: 20 },
    });
  const withDocument = await closure('DOK');
  const plain = await closure('OHNE');
  const third = await closure('DRITT');
  await api<Row>(request, token, 'POST', 'documents', {
    customer_id: customer.id,
    contract_id: withDocument.id,
    document_name: 'Police Säule 3a',
    document_type: 'policy',
    document_related_to: 'contract',
  });

  // The admin may delete: asked first; a contract with documents stays, and the dialog says why.
  await login(page, ADMIN);
  await page.goto(`/admin/contracts/${withDocument.id}`);
  await expect(page.getByTestId('contract-title')).toHaveText(`DOK-${stamp}`);
  await expect(page.getByTestId('contract-delete')).toBeVisible();
  await expect(page.getByTestId('contract-cancel')).toBeVisible();
  await shot(page, 'show-actions-de');
  await page.getByTestId('contract-delete').click();
  const deleteDialog = page.getByTestId('contract-delete-dialog');
  await expect(deleteDialog).toContainText(`Vertrag DOK-${stamp} löschen?`);
  await deleteDialog.getByTestId('contract-delete-confirm').click();
  await expect(deleteDialog.getByTestId('contract-delete-error')).toContainText(
    'Dieser Vertrag hat Dokumente und kann nicht gelöscht werden.',
  );
  await shot(page, 'delete-refused-de');
  await deleteDialog.getByRole('button', { name: 'Abbrechen' }).click();
  await expect(deleteDialog).toBeHidden();
  expect(await statusOf(request, adminToken, `contracts/${withDocument.id}`)).toBe(200);

  // From the edit page's toolbar: a contract without documents is deleted, back to the list.
  await page.goto(`/admin/contracts/${plain.id}/edit`);
  await expect(page.locator('input[name="productId"]')).toBeVisible();
  await page.getByTestId('contract-delete').click();
  await page.getByTestId('contract-delete-confirm').click();
  await expect(page).toHaveURL(/\/admin\/contracts$/);
  await expect(page.getByText('Vertrag gelöscht')).toBeVisible();
  expect(await statusOf(request, adminToken, `contracts/${plain.id}`)).toBe(404);

  // The consultant may not delete: cancelling ends the contract instead.
  await page.evaluate(() => localStorage.clear());
  await login(page, consultant);
  await page.goto(`/consultant/contracts/${withDocument.id}`);
  await expect(page.getByTestId('contract-title')).toHaveText(`DOK-${stamp}`);
  await expect(page.getByTestId('contract-delete')).toHaveCount(0);
  await page.getByTestId('contract-cancel').click();
  const cancelDialog = page.getByTestId('contract-cancel-dialog');
  await expect(cancelDialog).toContainText(`Vertrag DOK-${stamp} beenden`);
  await expect(cancelDialog.getByRole('radio', { name: 'Gekündigt' })).toBeChecked();
  // Before the start: refused beside the date.
  await typeDate(page, 'endDate', '31122024');
  await cancelDialog.getByTestId('contract-cancel-save').click();
  await expect(cancelDialog).toContainText('Das Ende liegt vor dem Beginn');
  await typeDate(page, 'endDate', '31122026');
  await shot(page, 'cancel-dialog-de');
  await cancelDialog.getByTestId('contract-cancel-save').click();
  await expect(cancelDialog).toBeHidden();
  await expect(page.getByTestId('contract-show')).toContainText('Gekündigt');
  await expect(page.getByTestId('contract-section-dates')).toContainText(/Dez\.? 31, 2026/);
  await expect(page.getByTestId('contract-cancel')).toHaveCount(0);
  const cancelled = await api<Row>(request, token, 'GET', `contracts/${withDocument.id}`);
  expect(cancelled).toMatchObject({
    status: 'terminated',
    end_date: '2026-12-31',
    version: Number(withDocument.version) + 1,
    insurance: { premium: 300, term_years: 20 },
  });

  // Someone else saves while the dialog is open: the conflict question, then a reload and a save.
  await page.goto(`/consultant/contracts/${third.id}`);
  await page.getByTestId('contract-cancel').click();
  await page.getByRole('radio', { name: 'Storniert' }).check();
  await typeDate(page, 'endDate', '30062025');
  await api<Row>(request, adminToken, 'PATCH', `contracts/${third.id}`, { note: 'Rückruf' });
  await page.getByTestId('contract-cancel-save').click();
  const conflict = page.getByTestId('conflict-dialog');
  await expect(conflict).toBeVisible();
  await conflict.getByTestId('conflict-reload').click();
  await expect(conflict).toBeHidden();
  // Reloaded: the dialog starts again from the contract as it is now.
  await expect(page.getByRole('radio', { name: 'Gekündigt' })).toBeChecked();
  await page.getByRole('radio', { name: 'Storniert' }).check();
  await typeDate(page, 'endDate', '30062025');
  await page.getByTestId('contract-cancel-save').click();
  await expect(page.getByTestId('contract-cancel-dialog')).toBeHidden();
  await expect(page.getByTestId('contract-show')).toContainText('Storniert');
  expect(await api<Row>(request, token, 'GET', `contracts/${third.id}`)).toMatchObject({
    status: 'cancelled',
    end_date: '2025-06-30',
    note: 'Rückruf',
    version: Number(third.version) + 2,
  });
});
