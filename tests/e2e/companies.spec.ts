import { expect, test } from '@playwright/test';
import { login } from './helpers.ts';

test('an admin creates, edits and deletes a company through the generated views', async ({
  page,
}) => {
  const name = `E2E Versicherung ${Date.now()}`;
  await login(page, 'admin@demo.gscrm.ch');
  await expect(page).toHaveURL(/\/admin\/dashboard$/);

  await page.goto('/admin/companies');
  await expect(page.getByRole('cell', { name: 'Helsana' }).first()).toBeVisible();

  // Create
  await page.goto('/admin/companies/new');
  await page.locator('input[name="nameDe"]').fill(name);
  await page.locator('input[name="email"]').fill('kontakt@e2e-versicherung.ch');
  await page.getByLabel('Gesundheit').check();
  await page.locator('button[type="submit"]').click();
  // Companies have no show page in the spec: the list follows, where search finds the new one.
  await expect(page).toHaveURL(/\/admin\/companies(\?.*)?$/);
  await page.locator('input[name="q"]').fill(name);
  // The search is debounced into the URL; wait for it so it cannot navigate back after the click.
  await expect(page).toHaveURL(/filter=/);
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('kontakt@e2e-versicherung.ch');
  await row.getByRole('cell', { name, exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/companies\/\d+\/edit$/);
  const id = /companies\/(\d+)\/edit/.exec(page.url())?.[1];

  // Edit
  await page.locator('input[name="nameDe"]').fill(`${name} (geändert)`);
  await page.locator('button[type="submit"]').click();
  await expect(page).toHaveURL(/\/admin\/companies(\?.*)?$/);
  await page.goto(`/admin/companies/${id}/edit`);
  await expect(page.locator('input[name="nameDe"]')).toHaveValue(`${name} (geändert)`);

  // A server-side rule shown beside its field: a logo address the server refuses
  await page.locator('input[name="avatar"]').fill('not a url');
  await page.locator('button[type="submit"]').click();
  await expect(page.getByText('Bitte eine gültige Adresse (URL) eingeben.')).toBeVisible();
  await page.locator('input[name="avatar"]').fill('');

  // Delete
  await page.locator('button.ra-delete-button').click();
  await page.getByRole('dialog').locator('button.ra-confirm').click();
  await expect(page).toHaveURL(/\/admin\/companies(\?.*)?$/);
  await page.locator('input[name="q"]').fill(name);
  await expect(page.getByText('Keine Gesellschaften gefunden')).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: name })).toHaveCount(0);
  // And the API agrees: the record is gone.
  await page.goto(`/admin/companies/${id}/edit`);
  await expect(page.locator('input[name="nameDe"]')).toHaveCount(0);
});

test('a wrong password shows a generic message and stays on /login', async ({ page }) => {
  await page.goto('/login');
  await page.locator('input[name="email"]').fill('admin@demo.gscrm.ch');
  await page.locator('input[name="password"]').fill('Wrong-passw0rd!');
  await page.locator('button[type="submit"]').click();
  await expect(page.getByRole('alert')).toContainText('E-Mail oder Passwort ist nicht korrekt.');
  await expect(page).toHaveURL(/\/login$/);
});
