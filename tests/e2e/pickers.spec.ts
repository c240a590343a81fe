/**
 * Pickers of the customer form in German at 1366×768 (issue 12, item 6): the nationality (250
 * countries) is an autocomplete sorted by its German names with type-ahead that ignores accents;
 * the consultant picker offers only active users who can own customers, sorted by name.
 * Screenshots are kept under test-results/.
 */
import { expect, test } from '@playwright/test';
import { login } from './helpers.ts';

test.use({ viewport: { width: 1366, height: 768 } });

const SHOTS = process.env.PICKER_SHOTS ?? 'test-results/pickers';

test('nationality: an autocomplete in German order with type-ahead', async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('language', 'de'));
  await login(page, 'backoffice@demo.gscrm.ch');
  await page.goto('/admin/customers/new');
  const nationality = page.getByRole('combobox', { name: 'Nationalität' });
  await nationality.click();
  const options = page.getByRole('listbox').getByRole('option');
  await expect(options.first()).toHaveText('Afghanistan');
  await expect(options.nth(1)).toHaveText('Ägypten');
  await nationality.fill('öster');
  await expect(options).toHaveText(['Österreich']);
  await nationality.fill('o');
  const names = await options.allTextContents();
  const austria = names.indexOf('Österreich');
  expect(austria).toBeGreaterThan(0);
  expect(names[austria - 1]).toBe('Oman');
  expect(names[austria + 1]).toBe('Osttimor');
  // "ost" finds Österreich and Osttimor beside Costa Rica, in German order.
  await nationality.fill('ost');
  await expect(options.filter({ hasText: /^Österreich$/ })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/nationality-autocomplete-de.png` });
  await options.filter({ hasText: /^Österreich$/ }).click();
  await expect(nationality).toHaveValue('Österreich');
});

test('consultant: only active consultants and back office, by name', async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('language', 'de'));
  await login(page, 'backoffice@demo.gscrm.ch');
  await page.goto('/admin/customers/new');
  const consultant = page.getByRole('combobox', { name: 'Berater/in' });
  await consultant.scrollIntoViewIfNeeded();
  await consultant.click();
  const options = page.getByRole('listbox').getByRole('option');
  await expect(options.first()).toBeVisible();
  const names = await options.allTextContents();
  for (const name of ['Daniel Müller', 'Élodie Favre', 'Beatrice Keller', 'Chiara Rossi'])
    expect(names).toContain(name);
  for (const name of ['Andrea Meier', 'Emil Brunner', 'Patrick Huber'])
    expect(names).not.toContain(name);
  const collator = new Intl.Collator('de');
  expect(names).toEqual([...names].sort((a, b) => collator.compare(a, b)));
  await page.screenshot({ path: `${SHOTS}/consultant-picker-de.png` });
  await consultant.fill('elo');
  await expect(options).toHaveText(['Élodie Favre']);
});
