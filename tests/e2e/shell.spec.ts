/**
 * The app shell (issue 5): every spec route resolves for its role, unknown paths show the 404 page,
 * the progress bar runs on navigation, the environment strip has the configured colour (the e2e
 * server runs with APP_ENV=local: green), Ctrl+Shift+G opens the guide in a new tab, and
 * notifications disappear after about 1.5 s.
 */
import { expect, type Page, test } from '@playwright/test';
import { SPEC_ADMIN, SPEC_CONSULTANT } from '../spec-routes.ts';
import { login } from './helpers.ts';

async function expectResolves(page: Page, path: string) {
  await page.goto(path);
  // The area's layout (its menu) is there and the 404 page is not.
  await expect(page.getByRole('menu').first()).toBeVisible();
  await expect(page.getByTestId('message-page'), path).toHaveCount(0);
}

/** Routes in groups of 16: each is a full page load, and 47 in one test took over three minutes
 *  on a loaded CI machine (about 2 s each when idle). */
const GROUP = 16;
const groups = (paths: readonly string[]) =>
  Array.from({ length: Math.ceil(paths.length / GROUP) }, (_, index) => ({
    from: index * GROUP + 1,
    paths: paths.slice(index * GROUP, (index + 1) * GROUP),
  }));

for (const { area, role, email, routes } of [
  { area: 'admin', role: 'an admin', email: 'admin@demo.gscrm.ch', routes: SPEC_ADMIN },
  {
    area: 'consultant',
    role: 'a consultant',
    email: 'consultant@demo.gscrm.ch',
    routes: SPEC_CONSULTANT,
  },
]) {
  for (const { from, paths } of groups(routes)) {
    test(`every ${area} route of the spec resolves for ${role} (${from}–${from + paths.length - 1})`, async ({
      page,
    }) => {
      test.setTimeout(150_000);
      await login(page, email);
      for (const path of paths)
        await expectResolves(page, `/${area}/${path.replace(/\{id\}/g, '1')}`);
    });
  }
}

test('a consultant opening an admin route lands on their own dashboard with a message', async ({
  page,
}) => {
  await login(page, 'consultant@demo.gscrm.ch');
  await page.goto('/admin/companies');
  await expect(page).toHaveURL(/\/consultant\/dashboard$/);
  await expect(page.getByText('/admin/companies')).toBeVisible();
});

test('unknown paths and malformed ids show the 404 page', async ({ page }) => {
  await page.goto('/no-such-page');
  await expect(page.getByTestId('message-page')).toBeVisible();
  await login(page, 'admin@demo.gscrm.ch');
  await page.goto('/admin/no-such-page');
  await expect(page.getByTestId('message-page')).toBeVisible();
  await page.goto('/admin/companies/abc/edit');
  await expect(page.getByTestId('message-page')).toBeVisible();
});

test('the progress bar shows on navigation and the environment strip is green (local)', async ({
  page,
}) => {
  await login(page, 'admin@demo.gscrm.ch');
  const strip = page.getByTestId('env-strip');
  await expect(strip).toHaveAttribute('data-env', 'local');
  await expect(strip).toHaveCSS('background-color', 'rgb(46, 125, 50)');
  await page.getByRole('menuitem', { name: 'Gesellschaften' }).click();
  await expect(page.getByTestId('route-progress')).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/companies$/);
  await expect(page.getByTestId('route-progress')).toHaveCount(0, { timeout: 10_000 });
});

test('Ctrl+Shift+G opens the app-elements guide in a new tab', async ({ page, context }) => {
  await login(page, 'admin@demo.gscrm.ch');
  const opened = context.waitForEvent('page');
  await page.keyboard.press('Control+Shift+G');
  const guide = await opened;
  await guide.waitForLoadState();
  await expect(guide).toHaveURL(/\/app-elements-guide$/);
  await expect(guide.getByRole('heading', { name: 'App-Elemente' })).toBeVisible();
});

test('a notification disappears after about 1.5 s', async ({ page }) => {
  await page.goto('/app-elements-guide');
  await page.getByRole('button', { name: 'Als Benachrichtigung' }).first().click();
  const snackbar = page.locator('.MuiSnackbar-root');
  await expect(snackbar).toBeVisible();
  const shown = Date.now();
  await page.waitForTimeout(800);
  await expect(snackbar).toBeVisible();
  await expect(snackbar).toHaveCount(0, { timeout: 4000 });
  const elapsed = Date.now() - shown;
  expect(elapsed).toBeGreaterThan(1000);
});

test('the dashboards show counts and recent customers from the user’s own book', async ({
  page,
}) => {
  await login(page, 'consultant@demo.gscrm.ch');
  await expect(page).toHaveURL(/\/consultant\/dashboard$/);
  const customers = page.getByTestId('tile-customers');
  await expect(customers).toHaveText(/^\d[\d’']*$/);
  const recent = page.getByTestId('recent-customers').getByRole('link');
  await expect(recent.first()).toBeVisible();
  await recent.first().click();
  await expect(page).toHaveURL(/\/consultant\/customers\/\d+$/);
});
