/**
 * The whole reset flow in the browser (issue 3): forgot password → the mail in the outbox (read by
 * an admin in the app) → change-password with the token, the password rule shown while typing →
 * sign in with the new password; the same link does not work twice.
 */
import { expect, test } from '@playwright/test';
import { login, PASSWORD } from './helpers.ts';

const EMAIL = 'consultant2@demo.gscrm.ch';
const NEW_PASSWORD = 'Nouveau-Mot2passe!';

test('forgot password → mail in the outbox → change password with the token → sign in', async ({
  browser,
  page,
}) => {
  await page.goto('/login');
  await page.getByRole('link', { name: 'Passwort vergessen?' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  // The address changes before the new page replaces the login form: wait for the page's own
  // button, or the address would be typed into the login form that is about to go.
  const send = page.getByRole('button', { name: 'Link senden' });
  await expect(send).toBeVisible();
  await page.locator('input[name="email"]').fill(EMAIL);
  await expect(send).toBeEnabled();
  await send.click();
  await expect(page.getByRole('status')).toContainText('Falls ein Konto');

  // The admin reads the mail in the outbox (demo mode: mails stay on the server).
  const admin = await browser.newPage();
  await login(admin, 'admin@demo.gscrm.ch');
  await admin.getByRole('menuitem', { name: 'Postausgang' }).click();
  await expect(admin).toHaveURL(/\/admin\/outbox$/);
  await admin.getByLabel('Empfänger').fill(EMAIL);
  const mail = admin.getByRole('row', { name: /réinitialiser votre mot de passe/ }).first();
  await mail.click();
  const link = admin.getByTestId('mail-body').getByRole('link');
  const href = await link.getAttribute('href');
  expect(href).toMatch(/\/change-password\?token=[A-Za-z0-9_-]{43}$/);
  await admin.close();

  const url = new URL(href!);
  await page.goto(`${url.pathname}${url.search}`);
  const submit = page.locator('button[type="submit"]');
  await page.locator('input[name="new-password"]').fill('nouveau');
  await expect(submit).toBeDisabled();
  for (const rule of ['tooShort', 'uppercase', 'symbol'])
    await expect(page.locator(`[data-rule="${rule}"]`)).toHaveAttribute('data-met', 'false');
  await page.locator('input[name="new-password"]').fill(NEW_PASSWORD);
  await page.locator('input[name="confirm-password"]').fill(`${NEW_PASSWORD}x`);
  await expect(page.locator('[data-rule="mismatch"]')).toHaveAttribute('data-met', 'false');
  await expect(submit).toBeDisabled();
  await page.locator('input[name="confirm-password"]').fill(NEW_PASSWORD);
  await expect(submit).toBeEnabled();
  await submit.click();
  await expect(page.getByRole('status')).toBeVisible();

  // The old password no longer works; the new one does, and the consultant lands on its dashboard.
  await page.goto('/login');
  await page.locator('input[name="email"]').fill(EMAIL);
  await page.locator('input[name="password"]').fill(PASSWORD);
  await page.locator('button[type="submit"]').click();
  await expect(page.getByRole('alert')).toBeVisible();
  await login(page, EMAIL, NEW_PASSWORD);
  await expect(page).toHaveURL(/\/consultant\/dashboard$/);
  // Élodie's language is French: the app follows it after sign-in.
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr');

  // The link works once.
  await page.evaluate(() => localStorage.clear());
  await page.goto(`${url.pathname}${url.search}`);
  await page.locator('input[name="new-password"]').fill('Encore-Un-Autre1');
  await page.locator('input[name="confirm-password"]').fill('Encore-Un-Autre1');
  await page.locator('button[type="submit"]').click();
  await expect(page.getByRole('alert')).toContainText('ungültig');
});
