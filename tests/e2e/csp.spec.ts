/**
 * The built app runs under the server's Content-Security-Policy (issue 10; server/http/security.ts):
 * the login page, the dashboard, the customers list and a customer's page (with its picture shown
 * as a blob: image) cause no CSP violation — none reported by the browser's
 * `securitypolicyviolation` events, none in the console, no page error. A first test proves the
 * listener can fail: an inline script injected into the page is refused and reported.
 */
import { expect, type Page, test } from '@playwright/test';
import { listRows, login } from './helpers.ts';

declare global {
  interface Window {
    __cspViolations?: string[];
    __injected?: boolean;
  }
}

/** Collects CSP violations from the page's events, its console and its errors. */
function watchViolations(page: Page): () => Promise<string[]> {
  const seen: string[] = [];
  page.on('console', (message) => {
    if (
      /Content Security Policy|Refused to (execute|load|apply|connect|frame)/i.test(message.text())
    )
      seen.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => seen.push(`pageerror: ${error.message}`));
  // Runs before the page's own scripts on every navigation (injected by the browser's devtools
  // protocol, so the CSP does not apply to this listener itself).
  void page.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      window.__cspViolations?.push(
        `${event.violatedDirective} blocked ${event.blockedURI || 'inline'} (${event.sourceFile}:${event.lineNumber})`,
      );
    });
  });
  return async () => {
    const reported = await page.evaluate(() => window.__cspViolations ?? []).catch(() => []);
    return [...seen, ...reported.map((text) => `event: ${text}`)];
  };
}

/** Opens a page, checks that it was sent with the CSP, and waits until it has settled. */
async function open(page: Page, path: string): Promise<void> {
  const response = await page.goto(path);
  const csp = response?.headers()['content-security-policy'] ?? '';
  expect(csp, `${path} is served with a CSP`).toContain("script-src 'self'");
  await page.waitForLoadState('networkidle');
}

test('the check can fail: an injected inline script is refused and reported', async ({ page }) => {
  const violations = watchViolations(page);
  await open(page, '/login');
  await page.evaluate(() => {
    const script = document.createElement('script');
    script.textContent = 'window.__injected = true;';
    document.body.append(script);
  });
  await expect.poll(async () => (await violations()).length).toBeGreaterThan(0);
  expect(await page.evaluate(() => window.__injected)).toBeUndefined();
});

test('login page, dashboard, customers list and a customer: no CSP violation', async ({ page }) => {
  const violations = watchViolations(page);
  await open(page, '/login');
  await expect(page.locator('input[name="email"]')).toBeVisible();
  expect(await violations(), 'login page').toEqual([]);

  await login(page, 'admin@demo.gscrm.ch');
  await open(page, '/admin/dashboard');
  await expect(page.getByRole('menu').first()).toBeVisible();
  expect(await violations(), 'dashboard').toEqual([]);

  await open(page, '/admin/customers');
  await expect(listRows(page).first()).toBeVisible();
  expect(await violations(), 'customers list').toEqual([]);

  // A cell past the selection checkbox opens the record.
  await listRows(page).first().locator('td').nth(2).click();
  await expect(page).toHaveURL(/\/admin\/customers\/\d+/);
  await page.waitForLoadState('networkidle');
  expect(await violations(), 'a customer').toEqual([]);
});

test('consultant area and the API documentation: no CSP violation', async ({ page }) => {
  const violations = watchViolations(page);
  await login(page, 'consultant@demo.gscrm.ch');
  await open(page, '/consultant/dashboard');
  await expect(page.getByRole('menu').first()).toBeVisible();
  expect(await violations(), 'consultant dashboard').toEqual([]);

  await open(page, '/api/docs');
  await expect(page.locator('.swagger-ui').first()).toBeVisible();
  expect(await violations(), 'API documentation').toEqual([]);
});
