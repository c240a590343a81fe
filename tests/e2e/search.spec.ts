import { expect, test } from '@playwright/test';
import { listRows, login } from './helpers.ts';

/**
 * The customer list's search as people type it (issue 12): without umlauts, a zip code, a phone
 * number in another spelling than shown; numbers shown in the Swiss national form.
 */
test('customer search normalises names, zip codes and phone numbers', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1366, height: 768 });
  await login(page, 'admin@demo.gscrm.ch');
  await page.goto('/admin/customers');
  const search = page.locator('input[name="q"]');
  const rows = listRows(page);
  await expect(rows).toHaveCount(25, { timeout: 30_000 });
  /** Types into the search box and waits for the list's answer to that search. */
  const searchFor = async (text: string) => {
    const answered = page.waitForResponse(
      (response) =>
        response.url().includes('/api/customers?') &&
        new URL(response.url()).searchParams.get('search') === text,
    );
    await search.fill(text);
    await answered;
  };

  await searchFor('muller');
  await expect(rows.first()).toContainText('Müller');
  await page.screenshot({ path: '/tmp/shots/search/customers-muller.png' });

  await searchFor('8050');
  await expect(rows.first()).toContainText('8050');

  // A Swiss number is shown as 0xx xxx xx xx; typed as +41…, without spaces, it finds its row.
  await search.fill('');
  await expect(rows).toHaveCount(25);
  const shown = await page.locator('tbody a[href^="tel:"]').first().textContent();
  expect(shown).toMatch(/^0\d{2} \d{3} \d{2} \d{2}$/);
  const international = `+41${(shown ?? '').replace(/\s/g, '').slice(1)}`;
  await searchFor(international);
  await expect(page.locator('tbody a[href^="tel:"]').first()).toHaveText(shown ?? '');
  await page.screenshot({ path: '/tmp/shots/search/customers-phone.png' });
});
