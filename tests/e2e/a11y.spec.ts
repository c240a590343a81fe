/**
 * Accessibility (issue 12): axe-core (@axe-core/playwright, WCAG 2.x A and AA rules) on the main
 * screens — login, dashboard, customers list, customer show, the customer form, translation keys.
 * No serious or critical violation may remain; the counts per impact are printed for the issue's
 * note (`A11Y <page> {…}`), and the violations are attached to the report when a check fails.
 */
import { AxeBuilder } from '@axe-core/playwright';
import { expect as baseExpect, type Page, test, type TestInfo } from '@playwright/test';
import { releaseTexts } from '../../server/i18n/source.ts';
import { listRows, login } from './helpers.ts';

/** The German release text of a key (the app's default language). */
const german = (key: string): string => releaseTexts().get('de')?.get(key) ?? key;

/** Lists and records can take a while on a busy machine; axe must see them loaded. */
const expect = baseExpect.configure({ timeout: 30_000 });

const IMPACTS = ['critical', 'serious', 'moderate', 'minor'] as const;
/** What a failure stops on (the issue: no serious or critical violation). */
const BLOCKING = new Set<string>(['critical', 'serious']);

/** Runs axe on the page as it is and checks there is no blocking violation. */
async function audit(page: Page, name: string, testInfo: TestInfo): Promise<void> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  const counts = Object.fromEntries(
    IMPACTS.map((impact) => [
      impact,
      results.violations
        .filter((violation) => violation.impact === impact)
        .reduce((sum, violation) => sum + violation.nodes.length, 0),
    ]),
  );
  const rules = results.violations.map((v) => `${v.id}:${v.impact}:${v.nodes.length}`);
  console.log(`A11Y ${name} ${JSON.stringify(counts)} ${rules.join(' ')}`);
  const blocking = results.violations.filter((violation) => BLOCKING.has(violation.impact ?? ''));
  const summary = blocking.map((violation) => ({
    id: violation.id,
    impact: violation.impact,
    help: violation.help,
    targets: violation.nodes.map((node) => node.target.join(' ')).slice(0, 10),
  }));
  await testInfo.attach(`axe-${name}.json`, {
    body: JSON.stringify(results.violations, null, 2),
    contentType: 'application/json',
  });
  // Soft: every page of a test is checked (and counted) even when an earlier one fails.
  expect.soft(summary, `${name}: serious or critical accessibility violations`).toEqual([]);
}

test.describe('no serious or critical accessibility violation', () => {
  test.use({ viewport: { width: 1366, height: 768 } });

  test('login', async ({ page }, testInfo) => {
    await page.goto('/login');
    await expect(page.locator('input[name="email"]')).toBeVisible();
    await audit(page, 'login', testInfo);
  });

  test('dashboard, customers list, customer show and form, translation keys', async ({
    page,
  }, testInfo) => {
    test.setTimeout(180_000);
    await login(page, 'admin@demo.gscrm.ch');

    await expect(page).toHaveURL(/\/admin\/dashboard$/);
    await expect(page.getByRole('menuitem').first()).toBeVisible();
    await expect(page.getByText(german('app.dashboard.recentCustomers'))).toBeVisible();
    await expect(page.getByRole('progressbar')).toHaveCount(0);
    await audit(page, 'dashboard', testInfo);

    await page.goto('/admin/customers');
    await expect(listRows(page).first()).toBeVisible();
    await audit(page, 'customers-list', testInfo);

    await listRows(page).first().click();
    await expect(page).toHaveURL(/\/admin\/customers\/\d+(\/show)?$/);
    await expect(page.locator('main').getByRole('tab').first()).toBeVisible();
    await audit(page, 'customer-show', testInfo);

    await page.goto('/admin/customers/new');
    await expect(page.locator('input[name="dateOfBirth"]')).toBeVisible();
    await audit(page, 'customer-form', testInfo);

    await page.goto('/admin/translation-keys');
    await expect(page.getByLabel(german('app.translationKeys.search'))).toBeVisible({
      timeout: 60_000,
    });
    await expect(page.locator('tr[data-key]').first()).toBeVisible({ timeout: 60_000 });
    await audit(page, 'translation-keys', testInfo);
  });
});
