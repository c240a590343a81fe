/**
 * Optimistic concurrency in the browser (issue 10, DESIGN.md §7): two admins open the same company's
 * edit page; the first saves, then the second's save is based on an old version and asks Reload or
 * Overwrite. Overwrite stores the second admin's value; in a second round Reload shows the first's.
 */
import { type Browser, expect, type Page, test } from '@playwright/test';
import { login } from './helpers.ts';

const ADMIN = 'admin@demo.gscrm.ch';
const VIEWPORT = { width: 1366, height: 768 };

/** A signed-in admin in a browser context of its own (its own token, like another person). */
async function admin(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await context.newPage();
  await login(page, ADMIN);
  return page;
}

/** The company as the API has it now (snake_case), read with the page's token. */
async function stored(page: Page, id: number): Promise<Record<string, unknown>> {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const response = await page.request.get(`/api/companies/${id}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { data: Record<string, unknown> }).data;
}

async function openEdit(page: Page, id: number, expected: string) {
  await page.goto(`/admin/companies/${id}/edit`);
  await expect(page.locator('input[name="nameDe"]')).toHaveValue(expected);
}

async function changeAndSave(page: Page, value: string) {
  await page.locator('input[name="nameDe"]').fill(value);
  await page.locator('button[type="submit"]').click();
}

test('the second of two admins saving one company is asked: Overwrite keeps theirs, Reload shows the first', async ({
  browser,
}, testInfo) => {
  // Two sign-ins and six full page loads of the app: more than the default minute on two cores.
  test.setTimeout(150_000);
  const name = `E2E Konflikt ${Date.now()}`;
  const first = await admin(browser);
  const second = await admin(browser);

  const token = await first.evaluate(() => localStorage.getItem('token'));
  const created = await first.request.post('/api/companies', {
    headers: { Authorization: `Bearer ${token}` },
    data: { name_de: name, email: 'konflikt@e2e.ch' },
  });
  expect(created.status(), await created.text()).toBe(201);
  const id = ((await created.json()) as { data: { id: number } }).data.id;

  // Round 1: both open the form; the first saves; the second's save is asked about.
  await openEdit(first, id, name);
  await openEdit(second, id, name);
  await changeAndSave(first, `${name} A1`);
  await expect(first).toHaveURL(/\/admin\/companies(\?.*)?$/);
  await changeAndSave(second, `${name} B1`);

  const dialog = second.getByRole('dialog', { name: 'Zwischenzeitlich geändert' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(
    'Jemand anderes hat diesen Eintrag gespeichert, während Sie ihn bearbeitet haben.',
  );
  // The differing field, with the saved value and mine.
  const row = dialog.locator('tr[data-field="nameDe"]');
  await expect(row.locator('[data-value="theirs"]')).toHaveText(`${name} A1`);
  await expect(row.locator('[data-value="yours"]')).toHaveText(`${name} B1`);
  await testInfo.attach('conflict-dialog', {
    body: await second.screenshot(),
    contentType: 'image/png',
  });
  await second.screenshot({ path: testInfo.outputPath('conflict-dialog-1366x768.png') });

  await dialog.getByRole('button', { name: 'Überschreiben' }).click();
  await expect(second).toHaveURL(/\/admin\/companies(\?.*)?$/);
  expect(await stored(second, id)).toMatchObject({ name_de: `${name} B1`, version: 3 });
  await openEdit(first, id, `${name} B1`);

  // Round 2: the first (already on the form) and the second open it; the first saves again; the
  // second chooses Reload and sees the first's value.
  await openEdit(second, id, `${name} B1`);
  await changeAndSave(first, `${name} A2`);
  await expect(first).toHaveURL(/\/admin\/companies(\?.*)?$/);
  await changeAndSave(second, `${name} B2`);
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Neu laden' }).click();
  await expect(dialog).toBeHidden();
  await expect(second).toHaveURL(new RegExp(`/admin/companies/${id}/edit$`));
  await expect(second.locator('input[name="nameDe"]')).toHaveValue(`${name} A2`);
  expect(await stored(second, id)).toMatchObject({ name_de: `${name} A2`, version: 4 });

  await first.context().close();
  await second.context().close();
});
