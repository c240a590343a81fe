/**
 * Forms that say what is wrong, in the user's language (issue 12), in German and French:
 * - the new-customer form submitted empty, then with e-mail `lara@@example`, phone `abc`, birth
 *   date `31.02.1985`, then a birth date the server refuses (before 1900): each message beside its
 *   field, the release's text of its key, no English;
 * - a company with its name alone is saved;
 * - a generic create form (products): required fields, then a key the server refuses (used);
 * - the drawer form (translation keys): an unknown placeholder refused beside its text;
 * - leaving a changed form through the menu asks first (the customer tests end with a save that
 *   leads on without a question).
 * Screenshots at 1366×768 go to test-results (and /tmp/shots/forms when that folder exists).
 */
import fs from 'node:fs';
import { type Dialog, expect, type Locator, type Page, test } from '@playwright/test';
import { releaseTexts } from '../../server/i18n/source.ts';
import { listRows, login } from './helpers.ts';

const RELEASE = releaseTexts();
type Language = 'de' | 'fr';

/** The release's text of a key, its `{{placeholders}}` filled in. */
function text(language: string, key: string, args: Record<string, string> = {}): string {
  const value = RELEASE.get(language as 'de')?.get(key);
  if (value === undefined) throw new Error(`${language}: ${key} has no text`);
  return value.replace(/\{\{(\w+)\}\}/g, (_, name: string) => args[name] ?? '');
}

/** Words of the server's and react-admin's English sentences that must not reach de/fr users. */
const ENGLISH = /\b(must|is required|required|not valid|invalid|match|pattern|should|is not)\b/i;

const SHOTS = '/tmp/shots/forms';

async function shot(page: Page, name: string) {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`) });
  if (fs.existsSync(SHOTS)) await page.screenshot({ path: `${SHOTS}/${name}.png` });
}

/**
 * The app in `language` (a choice the server keeps for the user, so every test sets its own): the
 * app bar's language button names the current one.
 */
async function switchTo(page: Page, language: Language) {
  const names = ['de', 'en', 'fr', 'it'].map((code) => text(code, `app.languageNames.${code}`));
  const button = page.getByRole('button', { name: new RegExp(`^(${names.join('|')})$`, 'i') });
  const wanted = text(language, `app.languageNames.${language}`);
  if ((await button.textContent())?.trim() !== wanted) {
    await button.click();
    await page.getByRole('menuitem', { name: wanted }).click();
  }
  await expect(
    page.getByRole('menuitem', { name: text(language, 'app.menu.customers') }),
  ).toBeVisible();
}

/** The message under an input (react-admin's helper text), by the input's name. */
const helper = (scope: Page | Locator, name: string) =>
  scope.locator(`.MuiFormControl-root:has([name="${name}"]) .MuiFormHelperText-root`);

async function typeDate(page: Page, name: string, digits: string) {
  const input = page.locator(`input[name="${name}"]`);
  await input.click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(digits);
  // Leaving the input marks an impossible date.
  await page.locator('input[name="lastName"]').click();
}

/** Every error text on screen is free of English. */
async function expectNoEnglish(page: Page) {
  const texts = await page.locator('.MuiFormHelperText-root.Mui-error').allInnerTexts();
  expect(texts.length).toBeGreaterThan(0);
  for (const message of texts) expect(message).not.toMatch(ENGLISH);
}

test.use({ viewport: { width: 1366, height: 768 } });

for (const language of ['de', 'fr'] as const) {
  test(`${language}: the new-customer form names each error beside its field`, async ({ page }) => {
    test.setTimeout(120_000);
    await login(page, 'admin@demo.gscrm.ch');
    await switchTo(page, language);
    await page.goto('/admin/customers/new');
    const save = page.getByTestId('customer-save');

    // Empty: a person needs first and last name.
    await save.click();
    await expect(helper(page, 'firstName')).toHaveText(
      text(language, 'app.customers.validation.firstNameRequired'),
    );
    await expect(helper(page, 'lastName')).toHaveText(
      text(language, 'app.customers.validation.lastNameRequired'),
    );
    await expectNoEnglish(page);
    if (language === 'de') await shot(page, 'customer-empty-de');

    // Bad e-mail and an impossible date: named before anything is sent.
    await page.locator('input[name="firstName"]').fill('Lara');
    await page.locator('input[name="lastName"]').fill(`Beispiel${Date.now()}`);
    await page.locator('input[name="email"]').fill('lara@@example');
    await page.locator('input[name="phoneNumber"]').fill('abc');
    await typeDate(page, 'dateOfBirth', '31021985');
    await save.click();
    await expect(helper(page, 'email')).toHaveText(text(language, 'ra.validation.email'));
    await expect(helper(page, 'dateOfBirth')).toHaveText(text(language, 'app.validation.date'));
    await expectNoEnglish(page);
    if (language === 'de') await shot(page, 'customer-bad-de');

    // The phone only the server checks (its schema, answered first) …
    await page.locator('input[name="email"]').fill('lara@example.ch');
    await typeDate(page, 'dateOfBirth', '01011850');
    await save.click();
    await expect(helper(page, 'phoneNumber')).toHaveText(text(language, 'app.errors.phone'));
    await expectNoEnglish(page);
    // … then a birth date its rules refuse (before 1900).
    const unique = String(Date.now()).slice(-4);
    await page.locator('input[name="email"]').fill(`lara.${unique}@example.ch`);
    await page
      .locator('input[name="phoneNumber"]')
      .fill(`079 555 ${unique.slice(0, 2)} ${unique.slice(2)}`);
    await save.click();
    await expect(helper(page, 'dateOfBirth')).toHaveText(
      text(language, 'app.errors.notBefore1900'),
    );
    await expect(helper(page, 'phoneNumber')).not.toHaveClass(/Mui-error/);
    await expectNoEnglish(page);
    if (language === 'de') {
      await page.locator('input[name="dateOfBirth"]').scrollIntoViewIfNeeded();
      await shot(page, 'customer-server-de');
    }

    // Corrected (an e-mail and phone no other customer has): saved, on the new customer's page.
    await typeDate(page, 'dateOfBirth', '01011985');
    await save.click();
    await expect(page).toHaveURL(/\/admin\/customers\/\d+$/);
  });
}

test('a company with its name alone is saved; without it the name is asked for', async ({
  page,
}) => {
  await login(page, 'admin@demo.gscrm.ch');
  await switchTo(page, 'de');
  await page.goto('/admin/customers/new');
  // The form may still take its loaded defaults: switch until it stays on.
  const isCompany = page.locator('input[name="isCompany"]');
  await expect(async () => {
    await isCompany.check();
    await expect(page.locator('input[name="organization"]')).toBeVisible({ timeout: 1000 });
  }).toPass();
  await page.getByTestId('customer-save').click();
  await expect(helper(page, 'organization')).toHaveText(
    text('de', 'app.customers.validation.organizationRequired'),
  );
  await page.locator('input[name="organization"]').fill(`Garage Huber AG ${Date.now()}`);
  await page.getByTestId('customer-save').click();
  await expect(page).toHaveURL(/\/admin\/customers\/\d+$/);
});

test('fr: a generic create form names required fields, then the server’s refusal', async ({
  page,
  request,
}) => {
  await login(page, 'admin@demo.gscrm.ch');
  await switchTo(page, 'fr');
  // A key the catalogue already has.
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const answer = await request.get('/api/products?per_page=1', {
    headers: { Authorization: `Bearer ${token}` },
  });
  const used = ((await answer.json()) as { data: { key: string }[] }).data[0]?.key;
  expect(used).toBeTruthy();

  await page.goto('/admin/products/new');
  const save = page.getByRole('button', { name: text('fr', 'ra.action.save') });
  const group = page.getByRole('combobox', { name: text('fr', 'resources.products.fields.group') });
  // A used key and no group: the group is asked for first (in the browser) …
  await page.locator('input[name="key"]').fill(used ?? '');
  await save.click();
  await expect(helper(page, 'group')).toHaveText(text('fr', 'ra.validation.required'));
  await expectNoEnglish(page);
  // … then the server refuses the key, beside it.
  await group.click();
  await page.getByRole('option').first().click();
  await save.click();
  await expect(helper(page, 'key')).toHaveText(text('fr', 'app.errors.unique'));
  await expectNoEnglish(page);
  await switchTo(page, 'de');
});

test('the translation drawer names a refused text beside it, in German', async ({ page }) => {
  await login(page, 'admin@demo.gscrm.ch');
  await switchTo(page, 'de');
  await page.goto('/admin/translation-keys');
  const key = 'resources.companies.fields.email';
  await page.getByLabel(text('de', 'app.translationKeys.search')).fill(key);
  await page.locator(`tr[data-key="${key}"]`).click();
  const drawer = page.locator('.MuiDrawer-paper');
  await drawer.locator('textarea[name="text-fr"]').fill('E-mail {{inconnu}}');
  await drawer.getByRole('button', { name: text('de', 'ra.action.save') }).click();
  await expect(helper(drawer, 'text-fr')).toHaveText(
    text('de', 'app.errors.unknownPlaceholders', { placeholders: '{{inconnu}}' }),
  );
  await expectNoEnglish(page);
});

test('leaving a changed form through the menu asks first (saving asks nothing: see above)', async ({
  page,
}) => {
  await login(page, 'admin@demo.gscrm.ch');
  await switchTo(page, 'de');
  await page.goto('/admin/lead-sources');
  await listRows(page).first().click();
  await expect(page).toHaveURL(/\/admin\/lead-sources\/\d+\/edit$/);
  const edit = page.url();
  const name = page.locator('input[name="nameDe"]');
  const original = await name.inputValue();
  await name.fill(`${original} (geändert)`);

  const menu = page.getByRole('menuitem', { name: text('de', 'app.menu.customers') });
  // Every dialog is kept open until the test answers it, so each answer lands before the next
  // step (an answer sent on the side could still be on its way when the menu is clicked again).
  const dialogs: Dialog[] = [];
  page.on('dialog', (dialog) => dialogs.push(dialog));
  // Cancelled: the form stays with its changes.
  await menu.click();
  await expect.poll(() => dialogs.length).toBe(1);
  expect(dialogs[0].type()).toBe('confirm');
  expect(dialogs[0].message()).toBe(text('de', 'ra.message.unsaved_changes'));
  await dialogs[0].dismiss();
  await expect(name).toHaveValue(`${original} (geändert)`);
  expect(page.url()).toBe(edit);
  // Confirmed: the menu leads on, the changes are dropped (nothing was saved).
  await menu.click();
  await expect.poll(() => dialogs.length).toBe(2);
  expect(dialogs[1].type()).toBe('confirm');
  await dialogs[1].accept();
  await expect(page).toHaveURL(/\/admin\/customers/);
  await expect(name).toHaveCount(0);
  await page.goto(edit);
  await expect(name).toHaveValue(original);
  // Unchanged: leaving asks nothing.
  await menu.click();
  await expect(page).toHaveURL(/\/admin\/customers/);
  expect(dialogs).toHaveLength(2);
});
