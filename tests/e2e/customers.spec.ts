import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type Page, test } from '@playwright/test';
import { listRows, login } from './helpers.ts';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
);

async function saveCustomer(page: Page) {
  await page.getByTestId('customer-save').click();
  // A possible duplicate asks first; the customer is saved anyway.
  const anyway = page.getByTestId('customer-save-anyway');
  await Promise.race([
    page.waitForURL(/\/admin\/customers\/\d+(\?.*)?$/),
    anyway.waitFor().then(() => anyway.click()),
  ]);
  await expect(page).toHaveURL(/\/admin\/customers\/\d+(\?.*)?$/);
}

test('a person and a company, a household member and a document', async ({ page }) => {
  // A long flow through many screens: more than the default minute on a loaded CI machine.
  test.slow();
  const stamp = Date.now().toString(36);
  const lastName = `Tester${stamp}`;
  await login(page, 'admin@demo.gscrm.ch');

  // A person
  await page.goto('/admin/customers/new');
  await page.locator('input[name="firstName"]').fill('Lena');
  await page.locator('input[name="lastName"]').fill(lastName);
  await page.locator('input[name="street"]').fill('Bahnhofstrasse');
  await page.locator('input[name="addressNumber"]').fill('7');
  await page.locator('input[name="city"]').fill('Thun');
  // A Swiss zip needs four digits: the form says so before the server would.
  await page.locator('input[name="zip"]').fill('360');
  await page.getByTestId('customer-save').click();
  await expect(
    page.getByText('In der Schweiz und in Liechtenstein hat die PLZ 4 Ziffern'),
  ).toBeVisible();
  await page.locator('input[name="zip"]').fill('3600');
  await page.locator('input[name="email"]').fill(`lena.${stamp}@example.ch`);
  await page.locator('input[name="phoneNumber"]').fill('079 555 12 34');
  await saveCustomer(page);
  await expect(page.getByTestId('customer-name')).toHaveText(`Lena ${lastName}`);
  const personUrl = page.url().split('?')[0];

  // Tabs are chosen by ?tab=.
  await page.goto(`${personUrl}?tab=contracts`);
  await expect(page.getByTestId('customer-contracts')).toBeVisible();
  await page.goto(`${personUrl}?tab=appointments`);
  await expect(page.getByTestId('customer-appointments')).toBeVisible();

  // A household member
  await page.getByTestId('tab-household').click();
  await expect(page).toHaveURL(/\?tab=household$/);
  await page.getByTestId('member-add').click();
  const dialog = page.getByRole('dialog');
  await dialog.locator('input[name="firstName"]').fill('Mia');
  await dialog.locator('input[name="lastName"]').fill(lastName);
  await dialog.getByTestId('member-save').click();
  await expect(page.getByTestId('household-table')).toContainText('Mia');

  // A document: upload, then download
  await page.getByTestId('tab-documents').click();
  await page.getByTestId('document-file').setInputFiles({
    name: 'Police Hausrat.pdf',
    mimeType: 'application/pdf',
    buffer: PDF,
  });
  await page.getByTestId('document-name').fill('Police Hausrat 2026');
  await page.getByTestId('document-upload').click();
  await expect(page.getByTestId('documents-table')).toContainText('Police Hausrat 2026');
  const downloadPromise = page.waitForEvent('download');
  await page.getByTestId('document-download').first().click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toBe('Police Hausrat 2026.pdf');
  const saved = await download.path();
  expect(fs.readFileSync(saved)).toEqual(PDF);

  // A file that is not what it claims is refused with a message.
  await page.getByTestId('document-file').setInputFiles({
    name: 'rechnung.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from('just some text'),
  });
  await page.getByTestId('document-upload').click();
  // In German, from the refusal's key (not the server's English sentence).
  await expect(page.getByTestId('document-error')).toContainText(
    'Dieser Dateityp wird nicht angenommen',
  );
  await expect(page.getByTestId('document-error')).not.toContainText('not accepted');

  // A company: the switch shows the company's fields
  await page.goto('/admin/customers/new');
  await expect(page.locator('input[name="dateOfBirth"]')).toHaveCount(1);
  await page.locator('input[name="isCompany"]').check();
  await expect(page.locator('input[name="organization"]')).toBeVisible();
  await expect(page.locator('input[name="dateOfBirth"]')).toHaveCount(0);
  await page.locator('input[name="organization"]').fill(`Schreinerei ${stamp} GmbH`);
  await page.locator('input[name="firstName"]').fill('Urs');
  await page.locator('input[name="lastName"]').fill(lastName);
  await page.locator('input[name="zip"]').fill('3011');
  await page.locator('input[name="city"]').fill('Bern');
  await saveCustomer(page);
  await expect(page.getByTestId('customer-name')).toHaveText(`Schreinerei ${stamp} GmbH`);

  // Both are in the list, newest first.
  await page.goto('/admin/customers');
  const rows = listRows(page);
  await expect(rows.first()).toContainText(`Schreinerei ${stamp} GmbH`);
  await expect(rows.nth(1)).toContainText(`Lena ${lastName}`);
});

test('a CSV import shows the bad row before importing the good ones', async ({ page }) => {
  await login(page, 'admin@demo.gscrm.ch');
  await page.goto('/admin/customers/import');
  await page.getByTestId('import-file').setInputFiles(path.join(FIXTURES, 'customers-e2e.csv'));
  await page.getByTestId('import-check').click();
  await expect(page.getByTestId('import-counts')).toHaveText('3 Zeilen: 2 gültig, 1 mit Fehlern');
  const errors = page.getByTestId('import-row-errors');
  await expect(errors).toContainText('PLZ');
  await expect(errors.locator('tbody tr').first()).toContainText('2');
  // In German, from the error's key (not the server's English sentence).
  await expect(errors).toContainText('Bitte eine vierstellige PLZ eingeben');
  await expect(errors).not.toContainText('4 digits');
  // All or nothing would import nothing: choose to skip the bad row.
  await expect(page.getByTestId('import-run')).toBeDisabled();
  await page.getByTestId('import-skip-invalid').click();
  await page.getByTestId('import-run').click();
  await expect(page.getByTestId('import-summary')).toContainText(
    '2 von 3 Zeilen importiert, 1 übersprungen.',
  );
  await page.goto('/admin/customers');
  await page.locator('input[name="q"]').fill('Imhof');
  await expect(listRows(page).first()).toContainText('Regula Imhof');
});

test('the assignment buttons and a filter typed right after them both hold', async ({ page }) => {
  await login(page, 'admin@demo.gscrm.ch');
  await page.goto('/admin/customers');
  await expect(listRows(page).first()).toBeVisible();
  const filter = async () =>
    JSON.parse(new URL(page.url()).searchParams.get('filter') ?? '{}') as Record<string, unknown>;
  await page.getByTestId('assignment-unassigned').click();
  await page.locator('input[name="q"]').fill('a');
  await expect.poll(filter).toEqual({ assignedToNull: true, q: 'a' });
  await expect(page.getByTestId('assignment-unassigned')).toHaveAttribute('aria-pressed', 'true');
  // Back to all, and at once a different search: the old choice must not come back.
  await page.getByTestId('assignment-all').click();
  await page.locator('input[name="q"]').fill('e');
  await expect.poll(filter).toEqual({ q: 'e' });
  await page.waitForTimeout(1000);
  expect(await filter()).toEqual({ q: 'e' });
  await expect(page.getByTestId('assignment-all')).toHaveAttribute('aria-pressed', 'true');
  await page.getByTestId('assignment-mine').click();
  await expect.poll(filter).toEqual({ q: 'e', assignedTo: expect.any(Number) as unknown });
});
