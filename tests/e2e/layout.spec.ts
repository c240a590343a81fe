/**
 * Screens that fit (issue 12): at 1366×768 (laptop) and 1024×768 (tablet), in German (the longest
 * labels), the main screens show no control or text wider than its box: nothing is cut off without
 * an ellipsis, a text cut with an ellipsis says the whole of it in a title or tooltip, and the page
 * never scrolls sideways. Scroll containers (a wide table in its card, scrollable tabs) are allowed.
 * The menu fits or scrolls: its last entry can be reached and no label is cut. A full-page
 * screenshot of each screen is kept with the test's results.
 *
 * One sign-in per size, the screens in sequence.
 */
import { expect, type Page, type TestInfo, test } from '@playwright/test';
import { login } from './helpers.ts';

const SIZES = [
  { width: 1366, height: 768 },
  { width: 1024, height: 768 },
] as const;

/** A minimal PDF (the server checks the type by content). */
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
/** A file name without spaces, longer than any column: it must wrap, not widen the table. */
const LONG_NAME = 'Versicherungspolice_Hausrat_und_Privathaftpflicht_2026_unterschrieben_final';

interface Screen {
  name: string;
  path: string;
  /** What shows once the screen has its content. */
  ready: (page: Page) => Promise<void>;
}

const visible = (selector: string) => async (page: Page) => {
  // Lists can take a while on the first visit (the e2e database is cold).
  await expect(page.locator(selector).first()).toBeVisible({ timeout: 30_000 });
};
const testId = (id: string) => visible(`[data-testid="${id}"]`);

const SCREENS: Screen[] = [
  { name: 'dashboard', path: '/admin/dashboard', ready: testId('recent-customers') },
  { name: 'customers', path: '/admin/customers', ready: visible('table tbody tr.RaDatagrid-row') },
  { name: 'customer-overview', path: '/admin/customers/1', ready: testId('customer-name') },
  {
    name: 'customer-household',
    path: '/admin/customers/1?tab=household',
    ready: testId('member-add'),
  },
  {
    name: 'customer-documents',
    path: '/admin/customers/1?tab=documents',
    ready: async (page) => {
      await expect(page.getByTestId('documents-table')).toContainText(LONG_NAME);
    },
  },
  { name: 'customer-notes', path: '/admin/customers/1?tab=notes', ready: testId('history-list') },
  { name: 'customer-edit', path: '/admin/customers/1/edit', ready: visible('input[name="city"]') },
  { name: 'customer-new', path: '/admin/customers/new', ready: visible('input[name="city"]') },
  {
    name: 'translation-keys',
    path: '/admin/translation-keys',
    ready: visible('table tbody tr'),
  },
  { name: 'users', path: '/admin/users', ready: visible('table tbody tr') },
  { name: 'sub-brokers', path: '/admin/sub-brokers', ready: visible('table tbody tr') },
  { name: 'outbox', path: '/admin/outbox', ready: visible('table tbody tr') },
  { name: 'jobs', path: '/admin/jobs', ready: visible('table thead') },
  { name: 'audit-log', path: '/admin/audit-log', ready: testId('history-list') },
  { name: 'products', path: '/admin/products', ready: visible('table tbody tr') },
];

interface Overflow {
  text: string;
  element: string;
  reason: string;
}

/**
 * Texts that do not fit their box, found in the page: a text wider than the element holding it
 * (it spills out: "OCHLADE" on a squeezed button), a text cut off by an ancestor that hides what
 * overflows (a card, a cell, a menu), and a text cut with an ellipsis whose whole wording no
 * title or aria-label gives. Scroll containers (overflow auto/scroll) end the search: what
 * scrolls is reachable. Plus the page itself scrolling sideways. Icons and other decorations
 * drawn outside their box on purpose (negative margins) are not texts and do not count.
 */
function findOverflows(): Overflow[] {
  const found: Overflow[] = [];
  const TOLERANCE = 1;
  const describe = (element: Element) => {
    const classes = [...element.classList].filter((name) => !name.startsWith('css-')).slice(0, 3);
    const testid = element.getAttribute('data-testid');
    return `${element.tagName.toLowerCase()}${testid ? `[data-testid=${testid}]` : ''}${classes.map((name) => `.${name}`).join('')}`;
  };
  const root = document.documentElement;
  if (root.scrollWidth > window.innerWidth + TOLERANCE) {
    found.push({
      text: `${root.scrollWidth}px wide at ${window.innerWidth}px`,
      element: 'html',
      reason: 'the page scrolls sideways',
    });
  }
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = (node.textContent ?? '').trim();
    const parent = node.parentElement;
    if (!text || !parent || ['SCRIPT', 'STYLE', 'NOSCRIPT'].includes(parent.tagName)) continue;
    const parentStyle = getComputedStyle(parent);
    if (parentStyle.visibility !== 'visible' || Number(parentStyle.opacity) === 0) continue;
    if (parent.closest('[aria-hidden="true"], .MuiCollapse-hidden')) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const box = range.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    const outside = (element: Element) => {
      const limit = element.getBoundingClientRect();
      return box.right > limit.right + TOLERANCE || box.left < limit.left - TOLERANCE;
    };
    // The element laying the text out (not an inline span inside it).
    let holder: Element = parent;
    while (
      holder.parentElement &&
      getComputedStyle(holder).display.startsWith('inline') &&
      getComputedStyle(holder).display !== 'inline-block' &&
      getComputedStyle(holder).display !== 'inline-flex'
    )
      holder = holder.parentElement;
    let problem: string | undefined;
    let where: Element = holder;
    for (
      let element: Element | null = parent;
      element && element !== document.body;
      element = element.parentElement
    ) {
      const style = getComputedStyle(element);
      const limit = element.getBoundingClientRect();
      // Visually hidden texts (screen-reader labels) are 1px boxes on purpose.
      if (limit.width <= 1 || limit.height <= 1) {
        problem = undefined;
        break;
      }
      if (style.overflowX === 'auto' || style.overflowX === 'scroll') break;
      if (!outside(element)) continue;
      if (style.overflowX === 'hidden' || style.overflowX === 'clip') {
        where = element;
        problem =
          style.textOverflow === 'ellipsis'
            ? element.closest('[title], [aria-label]')
              ? undefined
              : 'cut with an ellipsis and no title'
            : 'cut off';
        break;
      }
      if (element === holder) {
        where = element;
        problem = 'spills out of its box';
      }
    }
    if (problem) found.push({ text: text.slice(0, 60), element: describe(where), reason: problem });
  }
  return found;
}

async function checkScreen(page: Page, testInfo: TestInfo, label: string): Promise<void> {
  // Fonts and late layout (tables filling in) settle before measuring.
  await page.evaluate(() => document.fonts.ready);
  await page.waitForTimeout(300);
  const file = testInfo.outputPath(`${label}.png`);
  await page.screenshot({ path: file, fullPage: true });
  await testInfo.attach(label, { path: file, contentType: 'image/png' });
  const overflows = await page.evaluate(findOverflows);
  expect(overflows, `${label}: content wider than its box`).toEqual([]);
}

/**
 * Opens a screen inside the running app (the router follows the history), which is many times
 * faster than loading the whole app again for each screen.
 */
async function openInApp(page: Page, path: string): Promise<void> {
  await page.evaluate((target) => {
    window.history.pushState({}, '', target);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await expect(page).toHaveURL(path);
}

/** A document with a long name on customer 1, so the documents tab shows one. */
async function addDocument(page: Page): Promise<void> {
  await page.goto('/admin/customers/1?tab=documents');
  await page.getByTestId('document-file').setInputFiles({
    name: `${LONG_NAME}.pdf`,
    mimeType: 'application/pdf',
    buffer: PDF,
  });
  await page.getByTestId('document-upload').click();
  await expect(page.getByTestId('documents-table')).toContainText(LONG_NAME);
}

for (const size of SIZES) {
  test(`the main screens fit at ${size.width}×${size.height}`, async ({ page }, testInfo) => {
    // About 20 screens; generous for a loaded machine (each waits for its data).
    test.setTimeout(300_000);
    await page.setViewportSize(size);
    await page.goto('/login');
    // The first page of a fresh server waits for its translations.
    await expect(page.locator('input[name="email"]')).toBeVisible({ timeout: 30_000 });
    await checkScreen(page, testInfo, `${size.width}-login`);

    await login(page, 'admin@demo.gscrm.ch');
    await addDocument(page);
    for (const screen of SCREENS) {
      await test.step(screen.name, async () => {
        await openInApp(page, screen.path);
        await screen.ready(page);
        await checkScreen(page, testInfo, `${size.width}-${screen.name}`);
      });
    }

    // The menu: its last entry can be reached (the sidebar scrolls) and reads in full.
    const lastEntry = page.getByRole('menuitem', { name: 'Änderungsprotokoll' });
    await lastEntry.scrollIntoViewIfNeeded();
    await expect(lastEntry).toBeInViewport();
    const entry = page.getByRole('menuitem', { name: 'Zugewiesene Einmalzahlungen' });
    await entry.scrollIntoViewIfNeeded();
    await expect(entry).toBeInViewport();
  });
}
