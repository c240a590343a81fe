import { AxeBuilder } from '@axe-core/playwright';
import { type APIRequestContext, expect, type Locator, type Page } from '@playwright/test';

export const PASSWORD = 'E2e-Passw0rd!';

export async function login(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.goto('/login');
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="password"]').fill(password);
  await page.locator('button[type="submit"]').click();
  await expect(page).not.toHaveURL(/\/login/);
}

/**
 * The data rows of a react-admin list (in `scope`). Not `tbody tr`: a list still loading after a
 * second shows placeholder rows in the same table (ra-ui-materialui's DatagridLoading), and a
 * click on one of those opens nothing — on a loaded machine the first row was a placeholder.
 */
export const listRows = (scope: Page | Locator): Locator =>
  scope.locator('tbody tr.RaDatagrid-row');

/**
 * Sets a user's stored language back (through the API). The language menu saves the choice on
 * the server, so a test that switches it must restore it even when it fails half-way: every later
 * test signing in as that user would otherwise see another language.
 */
export async function restoreLanguage(
  request: APIRequestContext,
  email: string,
  language = 'de',
): Promise<void> {
  const signIn = await request.post('/api/auth/login', { data: { email, password: PASSWORD } });
  expect(signIn.ok()).toBe(true);
  const { token } = (await signIn.json()) as { token: string };
  const answer = await request.put('/api/account/settings', {
    headers: { Authorization: `Bearer ${token}` },
    data: { language },
  });
  expect(answer.ok(), await answer.text()).toBe(true);
}

/** A bearer token of a demo user (the API's login). */
export async function tokenOf(request: APIRequestContext, email: string): Promise<string> {
  const answer = await request.post('/api/auth/login', { data: { email, password: PASSWORD } });
  expect(answer.ok()).toBe(true);
  return ((await answer.json()) as { token: string }).token;
}

/** One API call with a token; fails the test on an error answer; answers its `data`. */
export async function apiData<T>(
  request: APIRequestContext,
  token: string,
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  path: string,
  data?: unknown,
): Promise<T> {
  const answer = await request.fetch(`/api/${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}` },
    data,
  });
  expect(answer.ok(), `${method} ${path}: ${await answer.text()}`).toBe(true);
  return ((await answer.json()) as { data: T }).data;
}

/** With SHOTS=<folder>, a screenshot of the page once it is quiet. */
export async function shot(page: Page, name: string, settle = 400): Promise<void> {
  const folder = process.env.SHOTS;
  if (!folder) return;
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(settle);
  await page.screenshot({ path: `${folder}/${name}.png` });
}

/** No serious or critical accessibility violation (axe, WCAG 2.x A and AA) on the page as it is. */
export async function expectAccessible(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  const blocking = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      id: violation.id,
      targets: violation.nodes.map((node) => node.target.join(' ')).slice(0, 5),
    }));
  expect(blocking).toEqual([]);
}
