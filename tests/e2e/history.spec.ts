/**
 * History in the web app (issue 11): the customer's "notes and history" tab lists a change with
 * the field's label and old → new; the generic show view's History button opens the drawer; the
 * admin audit log lists and filters entries.
 */
import { expect, test } from '@playwright/test';
import { login } from './helpers.ts';

test('customer history tab, history drawer and the admin audit log', async ({ page }) => {
  const stamp = Date.now().toString(36);
  const lastName = `Verlauf${stamp}`;
  await login(page, 'admin@demo.gscrm.ch');

  await page.goto('/admin/customers/new');
  await page.locator('input[name="firstName"]').fill('Nora');
  await page.locator('input[name="lastName"]').fill(lastName);
  await page.getByTestId('customer-save').click();
  const anyway = page.getByTestId('customer-save-anyway');
  await Promise.race([
    page.waitForURL(/\/admin\/customers\/\d+(\?.*)?$/),
    anyway.waitFor().then(() => anyway.click()),
  ]);
  await expect(page).toHaveURL(/\/admin\/customers\/\d+(\?.*)?$/);
  const customerUrl = page.url().split('?')[0];
  const id = customerUrl.split('/').pop();

  // Changes through the API, as any other screen would make them.
  const patch = (url: string, body: Record<string, unknown>) =>
    page.evaluate(
      async ([target, payload]) => {
        const response = await fetch(target, {
          method: 'PATCH',
          headers: {
            'Content-Type': 'application/json',
            Authorization: `Bearer ${localStorage.getItem('token') ?? ''}`,
          },
          body: JSON.stringify(payload),
        });
        return response.status;
      },
      [url, body] as const,
    );
  expect(await patch(`/api/customers/${id}`, { city: 'Bern' })).toBe(200);
  const sortOrder = 900 + Math.floor(Math.random() * 90);
  expect(await patch('/api/products/1', { sort_order: sortOrder })).toBe(200);

  await page.goto(`${customerUrl}?tab=notes`);
  const history = page.getByTestId('customer-history');
  await expect(history.getByTestId('history-entry')).toHaveCount(2);
  const change = history.getByTestId('history-change-city');
  await expect(change).toContainText('Ort');
  await expect(change).toContainText('— → Bern');

  // The drawer of the customer header shows the same history.
  await page.getByTestId('history-open').click();
  const drawer = page.getByTestId('history-drawer');
  await expect(drawer.getByTestId('history-entry')).toHaveCount(2);
  await page.keyboard.press('Escape');

  // The generic show view (a product) has the same button.
  await page.goto('/admin/products/1');
  await expect(page.getByTestId('history-open')).toBeVisible();
  await page.getByTestId('history-open').click();
  const productDrawer = page.getByTestId('history-drawer');
  await expect(productDrawer.getByTestId('history-change-sortOrder').first()).toContainText(
    String(sortOrder),
  );
  await page.keyboard.press('Escape');

  // The admin audit log, filtered to updates.
  await page.goto('/admin/audit-log');
  await expect(page.getByTestId('history-entry').first()).toBeVisible();
  await expect(page.getByTestId('history-change-city').first()).toContainText('Bern');
});
