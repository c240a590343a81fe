import { type APIRequestContext, expect, type Page } from '@playwright/test';

export const PASSWORD = 'E2e-Passw0rd!';

export async function login(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.goto('/login');
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="password"]').fill(password);
  await page.locator('button[type="submit"]').click();
  await expect(page).not.toHaveURL(/\/login/);
}

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
