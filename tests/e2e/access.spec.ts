/**
 * Identity and access in the browser (issue 3): each demo role signs in and lands on its own
 * dashboard with its own menu; a consultant is refused an admin route; EMPLOYEE, PARTNER and an
 * external user see a clear no-access page; the session keeps token and role in localStorage and
 * the external-user-mode flag 'no'; a pending registration is told so and an admin approves it;
 * the settings page stores the user's choices and the staff list uses its page size.
 */
import { expect, type Page, test } from '@playwright/test';
import { login } from './helpers.ts';

const menuLinks = (page: Page) =>
  page
    // One menu per group of the side menu (src/shell/Menu.tsx).
    .getByRole('menu')
    .locator('a')
    .evaluateAll((links) =>
      links.map((link) => new URL((link as HTMLAnchorElement).href).pathname),
    );

const AREA_OF: Array<[string, 'admin' | 'consultant', string, boolean]> = [
  // email, area, role, may manage users
  ['admin@demo.gscrm.ch', 'admin', 'ADMIN', true],
  ['backoffice@demo.gscrm.ch', 'admin', 'BACKOFFICE', false],
  ['callcenter@demo.gscrm.ch', 'admin', 'BACKOFFICE-CALLCENTER', false],
  ['consultant@demo.gscrm.ch', 'consultant', 'CONSULTANT', false],
];

for (const [email, area, role, managesUsers] of AREA_OF) {
  test(`${role} lands on its own dashboard with its own menu`, async ({ page }) => {
    await login(page, email);
    await expect(page).toHaveURL(new RegExp(`/${area}/dashboard$`));
    await expect(page.getByRole('menu').first()).toBeVisible();
    const links = await menuLinks(page);
    expect(links.length).toBeGreaterThan(3);
    expect(links.every((path) => path.startsWith(`/${area}/`))).toBe(true);
    expect(links).toContain(`/${area}/settings`);
    expect(links.includes('/admin/gs-users')).toBe(managesUsers);
    expect(links.includes('/admin/outbox')).toBe(managesUsers);
    if (area === 'consultant') expect(links).not.toContain('/consultant/companies');
    else expect(links).toContain('/admin/companies');
    const stored = await page.evaluate(() => ({
      token: localStorage.getItem('token'),
      role: localStorage.getItem('role'),
      mode: localStorage.getItem('externalUserMode'),
    }));
    expect(stored.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(stored).toMatchObject({ role, mode: 'no' });
  });
}

test('a consultant is refused admin routes and lands on its own dashboard', async ({ page }) => {
  await login(page, 'consultant@demo.gscrm.ch');
  for (const path of ['/admin/gs-users', '/admin/users/1/edit', '/admin/sub-brokers']) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/consultant\/dashboard$/);
  }
  // The server refuses as well, whatever the browser does.
  const status = await page.evaluate(async () => {
    const token = localStorage.getItem('token');
    const response = await fetch('/api/users', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ first_name: 'X', last_name: 'Y', email: 'x@y.ch', role: 'ADMIN' }),
    });
    return response.status;
  });
  expect(status).toBe(403);
});

test('back office without manage-users is kept out of the staff administration', async ({
  page,
}) => {
  await login(page, 'backoffice@demo.gscrm.ch');
  await page.goto('/admin/gs-users');
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await page.goto('/admin/external-users');
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
});

for (const email of ['employee@demo.gscrm.ch', 'partner@demo.gscrm.ch', 'external@demo.gscrm.ch']) {
  test(`${email.split('@')[0]} sees a clear no-access page and can sign out`, async ({ page }) => {
    await login(page, email);
    await expect(page).toHaveURL(/\/no-access$/);
    await expect(page.getByTestId('message-page')).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.goto('/admin/dashboard');
    await expect(page).toHaveURL(/\/no-access$/);
    await page.goto('/consultant/customers');
    await expect(page).toHaveURL(/\/no-access$/);
    await page.getByTestId('message-page').getByRole('button').click();
    await expect(page).toHaveURL(/\/login$/);
    const stored = await page.evaluate(() => ({
      token: localStorage.getItem('token'),
      role: localStorage.getItem('role'),
      mode: localStorage.getItem('externalUserMode'),
    }));
    expect(stored).toEqual({ token: null, role: null, mode: 'no' });
  });
}

test('signing out revokes the token on the server', async ({ page }) => {
  await login(page, 'admin@demo.gscrm.ch');
  const token = await page.evaluate(() => localStorage.getItem('token'));
  await page
    .getByRole('button', { name: /profil|profile|Andrea/i })
    .first()
    .click();
  await page.getByRole('menuitem', { name: /abmelden|logout|sign out/i }).click();
  await expect(page).toHaveURL(/\/login$/);
  const status = await page.evaluate(
    async (old) =>
      (await fetch('/api/auth/me', { headers: { authorization: `Bearer ${old}` } })).status,
    token,
  );
  expect(status).toBe(401);
});

test('a wrong password gets one generic message', async ({ page }) => {
  await page.goto('/login');
  await page.locator('input[name="email"]').fill('admin@demo.gscrm.ch');
  await page.locator('input[name="password"]').fill('Wrong-Passw0rd!');
  await page.locator('button[type="submit"]').click();
  const wrongPassword = await page.getByRole('alert').textContent();
  await page.locator('input[name="email"]').fill('nobody@demo.gscrm.ch');
  await page.locator('button[type="submit"]').click();
  await expect(page.getByRole('alert')).toHaveText(wrongPassword ?? '');
  await expect(page).toHaveURL(/\/login$/);
});

test('a registration waits for approval, then the admin approves it and it signs in', async ({
  browser,
  page,
}) => {
  await page.goto('/login');
  await page.getByRole('link', { name: 'Konto registrieren' }).click();
  await expect(page).toHaveURL(/\/register$/);
  await page.locator('input[name="first_name"]').fill('Rita');
  await page.locator('input[name="last_name"]').fill('Registriert');
  await page.locator('input[name="email"]').fill('rita.registriert@example.ch');
  const submit = page.locator('button[type="submit"]');
  await page.locator('input[name="new-password"]').fill('zu-schwach');
  await page.locator('input[name="confirm-password"]').fill('zu-schwach');
  await expect(submit).toBeDisabled();
  await expect(page.locator('[data-rule="uppercase"]')).toHaveAttribute('data-met', 'false');
  await page.locator('input[name="new-password"]').fill('Gute-Idee-2026');
  await page.locator('input[name="confirm-password"]').fill('Gute-Idee-2026');
  await expect(page.locator('[data-rule="uppercase"]')).toHaveAttribute('data-met', 'true');
  await submit.click();
  await expect(page.getByRole('status')).toBeVisible();

  await page.goto('/login');
  await page.locator('input[name="email"]').fill('rita.registriert@example.ch');
  await page.locator('input[name="password"]').fill('Gute-Idee-2026');
  await page.locator('button[type="submit"]').click();
  await expect(page.getByRole('alert')).toContainText('Freigabe');

  const admin = await browser.newPage();
  await login(admin, 'admin@demo.gscrm.ch');
  await admin.goto('/admin/gs-users');
  const row = admin.getByRole('row', { name: /rita\.registriert@example\.ch/ });
  await row.getByRole('button', { name: 'Freigeben' }).click();
  await admin.getByRole('dialog').getByRole('button', { name: 'Freigeben' }).click();
  await expect(row.getByRole('button', { name: 'Freigeben' })).toHaveCount(0);
  await admin.close();

  await page.locator('button[type="submit"]').click();
  await expect(page).toHaveURL(/\/consultant\/dashboard$/);
});

test('settings store the user’s choices, and the staff list uses its page size', async ({
  page,
}) => {
  await login(page, 'admin@demo.gscrm.ch');
  await page.goto('/admin/settings');
  const sizes = page.getByRole('region', { name: 'Einträge pro Seite' });
  await sizes.getByRole('combobox').nth(3).click(); // users
  await page.getByRole('option', { name: '10', exact: true }).click();
  await page.getByRole('button', { name: 'Einstellungen speichern' }).click();
  await expect(page.getByText('Gespeichert', { exact: true })).toBeVisible();
  await page.goto('/admin/gs-users');
  // The list asks for (and offers) 10 rows per page.
  await expect(page.locator('.MuiTablePagination-select').first()).toHaveText('10');
  await page.reload();
  await page.goto('/admin/settings');
  await expect(
    page.getByRole('region', { name: 'Einträge pro Seite' }).getByRole('combobox').nth(3),
  ).toHaveText('10');
  // Offer credentials: the password is never shown, only that one is stored.
  await page.locator('input[name="offer-username"]').fill('a.meier');
  await page.locator('input[name="offer-password"]').fill('Geheim-Offerte-1');
  await page.getByRole('button', { name: 'Zugang speichern' }).click();
  await expect(page.getByTestId('offer-password-state')).toHaveText('Passwort gespeichert');
  await expect(page.locator('input[name="offer-password"]')).toHaveValue('');
  await page.reload();
  await expect(page.locator('input[name="offer-username"]')).toHaveValue('a.meier');
  await expect(page.getByTestId('offer-password-state')).toHaveText('Passwort gespeichert');
  expect(await page.content()).not.toContain('Geheim-Offerte-1');
});
