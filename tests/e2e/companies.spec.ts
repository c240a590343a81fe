import { expect, test } from '@playwright/test';
import { login } from './helpers.ts';

test('an admin creates, edits and deletes a company through the generated views', async ({
  page,
}) => {
  const name = `E2E Versicherung ${Date.now()}`;
  await login(page, 'admin@demo.gscrm.ch');
  await expect(page).toHaveURL(/\/admin\/?$/);

  await page.goto('/admin/companies');
  await expect(page.getByRole('cell', { name: 'Helsana' }).first()).toBeVisible();

  // Create
  await page.goto('/admin/companies/create');
  await page.locator('input[name="nameDe"]').fill(name);
  await page.locator('input[name="email"]').fill('kontakt@e2e-versicherung.ch');
  await page.getByLabel('Gesundheit').check();
  await page.locator('button[type="submit"]').click();
  await expect(page).toHaveURL(/\/admin\/companies\/\d+\/show$/);
  await expect(page.getByText(name, { exact: true })).toBeVisible();
  await expect(page.getByText('kontakt@e2e-versicherung.ch')).toBeVisible();
  const id = /companies\/(\d+)\/show/.exec(page.url())?.[1];

  // Edit
  await page.goto(`/admin/companies/${id}`);
  await page.locator('input[name="nameDe"]').fill(`${name} (geändert)`);
  await page.locator('button[type="submit"]').click();
  await expect(page).toHaveURL(/\/admin\/companies(\?.*)?$/);
  await page.goto(`/admin/companies/${id}/show`);
  await expect(page.getByText(`${name} (geändert)`, { exact: true })).toBeVisible();

  // A server-side rule shown beside its field: an email the server refuses
  await page.goto(`/admin/companies/${id}`);
  await page.locator('input[name="avatar"]').fill('not a url');
  await page.locator('button[type="submit"]').click();
  await expect(page.getByText(/must match format/)).toBeVisible();
  await page.locator('input[name="avatar"]').fill('');

  // Delete
  await page.locator('button.ra-delete-button').click();
  await page.getByRole('dialog').locator('button.ra-confirm').click();
  await expect(page).toHaveURL(/\/admin\/companies(\?.*)?$/);
  await page.goto(`/admin/companies/${id}/show`);
  await expect(page.getByText(`${name} (geändert)`)).toHaveCount(0);
});

test('a wrong password shows a generic message and stays on /login', async ({ page }) => {
  await page.goto('/login');
  await page.locator('input[name="email"]').fill('admin@demo.gscrm.ch');
  await page.locator('input[name="password"]').fill('Wrong-passw0rd!');
  await page.locator('button[type="submit"]').click();
  await expect(page.getByRole('alert')).toContainText('E-Mail oder Passwort ist nicht korrekt.');
  await expect(page).toHaveURL(/\/login$/);
});
