/**
 * `npm run bench:board`: the lead board in a browser (issue 16: "a board with 2,000 leads renders
 * its first screen in ≤ 500 ms and a drop round-trips in ≤ 100 ms at p95; columns page or
 * virtualise instead of loading everything").
 *
 * Builds the web app (or takes a build: --web-root DIR --no-build), makes a fresh embedded
 * database (PGlite) with the demo and the board topped up to --leads leads (./leads.ts
 * `loadLeads`), starts the app on it as its own process (`server/main.ts`, DEMO=0), signs in as
 * admin through the login page (the board view: `leadsView` 'kanban', the default) and measures
 * in the system's Chromium (headless, 1366×768):
 *
 * - **first screen**, until the four column headers show their counts and every non-empty column
 *   shows its first card (the page's own MutationObserver, installed before the app runs; "shown"
 *   is the frame after that):
 *   - the first visit (empty cache), from navigation start;
 *   - --loads visits of /admin/leads with the browser's cache warm, from navigation start (the
 *     app shell boots each time);
 *   - --loads times from the click on "Leads" in the menu (the app already running, on
 *     Notifications before each click): the board's own first screen.
 * - **cards in the page** per column after the first screen (virtualisation: a few, whatever the
 *   column holds), and after scrolling the largest column to its end (its pages loaded as the
 *   list is scrolled).
 * - **drop**: --drops times a column's top card dragged with the mouse (pointer down, a few
 *   steps, onto the top card of the next open column, up; Done is left out: it asks for a close
 *   reason first), timed from the pointer's release until the card is in its new column (the
 *   optimistic move) and until it is confirmed (the server's answer arrived and the card lost its
 *   spinner); the move request's own time from the browser's resource timing.
 *
 * Options: --leads N (2000) · --loads N (10) · --drops N (20) · --root DIR (the checkout to build
 * and start) · --web-root DIR with --no-build · --label TEXT · --out DIR (bench/results) ·
 * --trace DIR (one more click from the menu and one more drop, not counted, recorded as Chromium
 * traces there: open them in DevTools' Performance panel).
 * Writes bench/results/board-web-<timestamp>[-label].json and .md.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { type Browser, chromium, type Page } from '@playwright/test';
import { openDatabase } from '../../server/db/index.ts';
import { migrate } from '../../server/db/migrate.ts';
import { seedDemo } from '../../server/demo/index.ts';
import { LEAD_STATUSES, type LeadStatus } from '../../src/schema/leads.ts';
import { BOARD_TARGETS, type BoardLoad, loadLeads } from './leads.ts';
import { type Latencies, latencies } from './load.ts';
import { type AppProcess, gitDescription, REPO_ROOT, startApp, uptime } from './server.ts';

const CHROME_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--disable-dev-shm-usage',
];
const ADMIN = 'admin@demo.gscrm.ch';
const PASSWORD = 'Bench-Board-Passw0rd!';
const VIEWPORT = { width: 1366, height: 768 };

const { values } = parseArgs({
  options: {
    leads: { type: 'string', default: '2000' },
    loads: { type: 'string', default: '10' },
    drops: { type: 'string', default: '20' },
    root: { type: 'string', default: REPO_ROOT },
    'web-root': { type: 'string' },
    'no-build': { type: 'boolean', default: false },
    label: { type: 'string' },
    trace: { type: 'string' },
    out: { type: 'string', default: path.join(REPO_ROOT, 'bench', 'results') },
  },
});
const LEADS = Number(values.leads);
const LOADS = Math.max(1, Number(values.loads));
const DROPS = Math.max(1, Number(values.drops));
const ROOT = path.resolve(values.root);
const TRACE_DIR = values.trace ? path.resolve(values.trace) : undefined;
/** What a trace records: the main thread's work (scripting, style, layout, paint) and JS samples. */
const TRACE_CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-devtools.timeline.frame',
  'v8.execute',
  'disabled-by-default-v8.cpu_profiler',
  'blink.user_timing',
  'loading',
];

const log = (message: string) =>
  console.log(`[bench:board ${new Date().toISOString().slice(11, 19)}] ${message}`);

const slug = (status: LeadStatus) => status.replace(' ', '-');

const describeScreen = (screen: Screen) =>
  `shown after ${screen.shown.toFixed(0)} ms (DOM complete ${screen.ready.toFixed(0)}; column requests ${screen.requestsFrom.toFixed(0)}–${screen.requestsUntil.toFixed(0)}; page CPU ${screen.cpuMs.toFixed(0)} ms; long tasks ${screen.longTasksMs} ms, the longest ${screen.longestTaskMs})`;

/**
 * CPU time the browser's renderer processes have used so far (ms; DevTools protocol
 * `SystemInfo.getProcessInfo`): what the page cost, apart from the waiting a busy machine adds.
 */
let rendererCpuMs: () => Promise<number> = () => Promise.resolve(NaN);

/**
 * What the page runs before the app (each navigation): a MutationObserver that notes when the
 * board's first screen is complete — since navigation start, or since the last click on the
 * menu's "Leads" — and, per drop, when the dragged card is in its new column and when it is
 * confirmed. Times are the page's `performance.now()` (0 = navigation start).
 */
function pageProbe() {
  const slugs = ['new', 'not-reached', 'to-do', 'closed'];
  interface Probe {
    start: number;
    longTasks: Array<[number, number]>;
    ready?: number;
    shown?: number;
    drop?: {
      id: string;
      column: string;
      released?: number;
      moved?: number;
      confirmed?: number;
    };
  }
  const probe: Probe = { start: 0, longTasks: [] };
  (window as unknown as { __board: Probe }).__board = probe;
  // The main thread's long tasks (> 50 ms): what a slow frame was busy with.
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      probe.longTasks.push([Math.round(entry.startTime), Math.round(entry.duration)]);
  }).observe({ type: 'longtask', buffered: true });
  const complete = () => {
    for (const name of slugs) {
      const count = document.querySelector(`[data-testid="lead-column-${name}-count"]`);
      const text = count?.textContent?.trim() ?? '';
      if (!/^\d+$/.test(text)) return false;
      if (
        Number(text) > 0 &&
        !document.querySelector(`[data-testid="lead-column-${name}"] [data-testid="lead-card"]`)
      )
        return false;
    }
    return true;
  };
  const check = () => {
    const now = performance.now();
    if (probe.ready === undefined && complete()) {
      probe.ready = now;
      requestAnimationFrame(() => setTimeout(() => (probe.shown = performance.now()), 0));
    }
    const drop = probe.drop;
    if (drop?.released !== undefined) {
      const card = document.querySelector(
        `[data-testid="lead-column-${drop.column}"] [data-testid="lead-card"][data-lead-id="${drop.id}"]`,
      );
      if (card && drop.moved === undefined) drop.moved = now;
      // Confirmed: the grip without its pending mark (it shows a spinner while the move is sent).
      if (
        card?.querySelector('[data-testid="lead-card-grip"]:not([data-pending])') &&
        drop.confirmed === undefined
      )
        drop.confirmed = now;
    }
  };
  new MutationObserver(check).observe(document, {
    childList: true,
    subtree: true,
    characterData: true,
    attributes: true,
    attributeFilter: ['data-lead-id', 'data-testid', 'data-pending'],
  });
  document.addEventListener(
    'click',
    (event) => {
      const link = (event.target as Element | null)?.closest?.('a');
      if (link?.getAttribute('href')?.endsWith('/leads')) {
        probe.start = performance.now();
        probe.ready = undefined;
        probe.shown = undefined;
      }
    },
    true,
  );
  document.addEventListener(
    'pointerup',
    () => {
      if (probe.drop && probe.drop.released === undefined) {
        probe.drop.released = performance.now();
        check();
      }
    },
    true,
  );
}

interface Screen {
  /** ms from the start (navigation or click) until the DOM was complete, and the frame after. */
  ready: number;
  shown: number;
  /** The main thread's long tasks between the start and `shown`: their sum and the longest. */
  longTasksMs: number;
  longestTaskMs: number;
  /** CPU of the renderer from just before the start until `shown` was read (ms). */
  cpuMs: number;
  /** The four column requests: first sent and last answered, ms from the start. */
  requestsFrom: number;
  requestsUntil: number;
  counts: Record<string, number>;
  cardsInPage: Record<string, number>;
}

async function readScreen(page: Page, cpuBefore: number): Promise<Screen> {
  await page.waitForFunction(
    () => (window as unknown as { __board?: { shown?: number } }).__board?.shown !== undefined,
    undefined,
    { timeout: 60_000, polling: 50 },
  );
  const cpuMs = (await rendererCpuMs()) - cpuBefore;
  const screen = await page.evaluate(() => {
    const probe = (
      window as unknown as {
        __board: {
          start: number;
          ready: number;
          shown: number;
          longTasks: Array<[number, number]>;
        };
      }
    ).__board;
    const tasks = probe.longTasks.filter(
      ([start, duration]) => start + duration > probe.start && start < probe.shown,
    );
    const lists = performance
      .getEntriesByType('resource')
      .filter((entry) => /\/api\/leads\?/.test(entry.name) && entry.startTime >= probe.start - 1)
      .map((entry) => entry as PerformanceResourceTiming);
    const counts: Record<string, number> = {};
    const cardsInPage: Record<string, number> = {};
    for (const name of ['new', 'not-reached', 'to-do', 'closed']) {
      counts[name] = Number(
        document.querySelector(`[data-testid="lead-column-${name}-count"]`)?.textContent ?? NaN,
      );
      cardsInPage[name] = document.querySelectorAll(
        `[data-testid="lead-column-${name}"] [data-testid="lead-card"]`,
      ).length;
    }
    return {
      ready: probe.ready - probe.start,
      shown: probe.shown - probe.start,
      longTasksMs: tasks.reduce((sum, [, duration]) => sum + duration, 0),
      longestTaskMs: Math.max(0, ...tasks.map(([, duration]) => duration)),
      // NaN when the browser kept no timing of them (seen once in a while).
      requestsFrom: lists.length
        ? Math.min(...lists.map((entry) => entry.startTime)) - probe.start
        : Number.NaN,
      requestsUntil: lists.length
        ? Math.max(...lists.map((entry) => entry.responseEnd)) - probe.start
        : Number.NaN,
      counts,
      cardsInPage,
    };
  });
  return { ...screen, cpuMs };
}

interface Series extends Latencies {
  runs: number[];
  /** The four column requests: from the start until the last answered (p50). */
  requestsUntilP50: number;
  /** The renderer's CPU and the main thread's long tasks per run (p50, ms). */
  cpuP50: number;
  longTasksP50: number;
  target: number;
  met: boolean;
}

function series(screens: Screen[], target: number): Series {
  const shown = screens.map((screen) => screen.shown);
  const stats = latencies(shown);
  return {
    ...stats,
    runs: shown.map((value) => Math.round(value)),
    requestsUntilP50: latencies(
      screens.map((screen) => screen.requestsUntil).filter((value) => Number.isFinite(value)),
    ).p50,
    cpuP50: latencies(screens.map((screen) => screen.cpuMs)).p50,
    longTasksP50: latencies(screens.map((screen) => screen.longTasksMs)).p50,
    target,
    met: stats.p95 <= target,
  };
}

/** Scrolls a column to its end until every card is loaded (or 60 steps): pages, cards in the page. */
async function scrollColumn(page: Page, status: LeadStatus) {
  const scroller = page.getByTestId(`lead-column-${slug(status)}-scroll`);
  let requests = 0;
  const count = (request: { url: () => string }) => {
    const url = new URL(request.url());
    if (url.pathname === '/api/leads' && url.searchParams.get('status') === status) requests += 1;
  };
  page.on('request', count);
  let maxInPage = 0;
  let loaded = 0;
  for (let step = 0; step < 60; step++) {
    await scroller.evaluate((element) => element.scrollTo({ top: element.scrollHeight }));
    await page.waitForTimeout(250);
    await page.waitForLoadState('networkidle');
    const inPage = await page
      .getByTestId(`lead-column-${slug(status)}`)
      .getByTestId('lead-card')
      .count();
    maxInPage = Math.max(maxInPage, inPage);
    loaded = await scroller.evaluate(
      (element) => Math.round(element.scrollHeight / 92), // cards × (about 84 px + 8 px gap)
    );
    const atEnd = await scroller.evaluate(
      (element) =>
        element.scrollTop + element.clientHeight >= element.scrollHeight - 2 &&
        !element.querySelector('[role="progressbar"]'),
    );
    if (atEnd && step > 0) {
      const again = await scroller.evaluate((element) => element.scrollHeight);
      await page.waitForTimeout(300);
      if ((await scroller.evaluate((element) => element.scrollHeight)) === again) break;
    }
  }
  page.off('request', count);
  const inPageAtEnd = await page
    .getByTestId(`lead-column-${slug(status)}`)
    .getByTestId('lead-card')
    .count();
  return { status, requests, approxCardsLoaded: loaded, maxCardsInPage: maxInPage, inPageAtEnd };
}

interface DropSample {
  id: number;
  from: LeadStatus;
  to: LeadStatus;
  /** From the pointer's release: the card in its new column; confirmed (server answered). */
  moved: number;
  confirmed: number;
  /** The main thread's long tasks between the release and the confirmation (sum, ms). */
  longTasksMs: number;
  /** CPU of the renderer from just before the release until the confirmation was read (ms). */
  cpuMs: number;
  /** The move request: sent after the release, its own duration (resource timing). */
  requestSentAfter: number;
  requestMs: number;
  status: number;
}

const OPEN: LeadStatus[] = ['new', 'not reached', 'to do'];

async function drop(page: Page, round: number): Promise<DropSample> {
  const from = OPEN[round % OPEN.length];
  const to = OPEN[(round + 1) % OPEN.length];
  const card = page
    .getByTestId(`lead-column-${slug(from)}`)
    .getByTestId('lead-card')
    .first();
  const target = page
    .getByTestId(`lead-column-${slug(to)}`)
    .getByTestId('lead-card')
    .first();
  const id = Number(await card.getAttribute('data-lead-id'));
  const a = await card.boundingBox();
  const b = await target.boundingBox();
  if (!a || !b) throw new Error('drop: a card has no box');
  await page.evaluate(
    ([leadId, column]) => {
      performance.clearResourceTimings();
      (window as unknown as { __board: { drop?: unknown } }).__board.drop = { id: leadId, column };
    },
    [String(id), slug(to)] as const,
  );
  const answered = page.waitForResponse(
    (response) => response.url().endsWith(`/api/leads/${id}/move`),
    { timeout: 30_000 },
  );
  // As a hand does it (tests/e2e/leads.spec.ts): grab near the top, a few steps, onto the top
  // card of the target (its upper half: the card goes on top), a moment for dnd-kit, release.
  await page.mouse.move(a.x + a.width / 2, a.y + 12);
  await page.mouse.down();
  await page.mouse.move(a.x + a.width / 2 + 10, a.y + 22, { steps: 4 });
  await page.mouse.move(b.x + b.width / 2, b.y + 12, { steps: 16 });
  await page.waitForTimeout(150);
  const cpuBefore = await rendererCpuMs();
  await page.mouse.up();
  const response = await answered;
  await page.waitForFunction(
    () =>
      (window as unknown as { __board: { drop?: { confirmed?: number } } }).__board.drop
        ?.confirmed !== undefined,
    undefined,
    { timeout: 30_000, polling: 50 },
  );
  const timing = await page.evaluate(() => {
    const probe = (
      window as unknown as {
        __board: {
          drop: { released: number; moved: number; confirmed: number };
          longTasks: Array<[number, number]>;
        };
      }
    ).__board;
    const drop = probe.drop;
    const tasks = probe.longTasks.filter(
      ([start, duration]) => start + duration > drop.released && start < drop.confirmed,
    );
    const request = performance
      .getEntriesByType('resource')
      .map((entry) => entry as PerformanceResourceTiming)
      .find((entry) => entry.name.endsWith('/move'));
    return {
      moved: drop.moved - drop.released,
      confirmed: drop.confirmed - drop.released,
      longTasksMs: tasks.reduce((sum, [, duration]) => sum + duration, 0),
      requestSentAfter: request ? request.startTime - drop.released : NaN,
      requestMs: request ? request.responseEnd - request.startTime : NaN,
    };
  });
  const cpuMs = (await rendererCpuMs()) - cpuBefore;
  await page.waitForTimeout(400); // the drop animation ends
  return { id, from, to, ...timing, cpuMs, status: response.status() };
}

async function main() {
  const started = new Date();
  const uptimeBefore = uptime();
  const cpu = os.cpus();
  const machine = `${cpu.length} × ${cpu[0]?.model ?? 'cpu'}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GB, Node ${process.version}`;
  log(`machine: ${machine}; ${uptimeBefore}`);
  const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'gscrm-bench-board-'));
  const webRoot = values['web-root'] ? path.resolve(values['web-root']) : path.join(temp, 'web');
  const dataDir = path.join(temp, 'data');
  let app: AppProcess | undefined;
  let browser: Browser | undefined;
  try {
    if (!values['no-build']) {
      log(`building ${ROOT} into ${webRoot}`);
      const buildStarted = performance.now();
      execFileSync(
        path.join(ROOT, 'node_modules', '.bin', 'vite'),
        ['build', '--logLevel', 'error', '--outDir', webRoot, '--emptyOutDir'],
        { cwd: ROOT, stdio: 'inherit' },
      );
      log(`built in ${((performance.now() - buildStarted) / 1000).toFixed(0)} s`);
    }

    log(`data: the demo and ${LEADS} leads on the board in ${dataDir}`);
    const database = await openDatabase({ dataDir });
    let board: BoardLoad;
    try {
      await migrate(database);
      await seedDemo(database.db, { password: PASSWORD });
      board = await loadLeads(database, LEADS, log);
    } finally {
      await database.close();
    }

    app = await startApp({
      DATA_DIR: dataDir,
      WEB_ROOT: webRoot,
      APP_ENV: 'production',
      LOG_REQUESTS: '0',
    });
    log(`app healthy after ${(app.startMs / 1000).toFixed(1)} s at ${app.url}`);

    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      headless: true,
      args: CHROME_FLAGS,
    });
    const processes = await browser.newBrowserCDPSession();
    rendererCpuMs = async () => {
      const info = (await processes.send('SystemInfo.getProcessInfo')) as {
        processInfo: Array<{ type: string; cpuTime: number }>;
      };
      return info.processInfo
        .filter((process) => process.type === 'renderer')
        .reduce((sum, process) => sum + process.cpuTime * 1000, 0);
    };
    const context = await browser.newContext({ viewport: VIEWPORT, baseURL: app.url });
    // tsx (esbuild, keepNames) wraps named functions in `__name(...)`: the page gets it too, so
    // the functions below run there as written.
    await context.addInitScript({ content: 'window.__name = (fn) => fn;' });
    await context.addInitScript(pageProbe);
    const page = await context.newPage();

    // Signed in through the login page, as a user does.
    await page.goto('/login');
    await page.locator('input[name="email"]').fill(ADMIN);
    await page.locator('input[name="password"]').fill(PASSWORD);
    await page.locator('button[type="submit"]').click();
    await page.waitForURL((url) => !url.pathname.startsWith('/login'), { timeout: 60_000 });
    await page.waitForLoadState('networkidle');
    const leadsView = await page.evaluate(() => {
      const user = JSON.parse(localStorage.getItem('user') ?? '{}') as {
        preferences?: { leadsView?: string };
      };
      return user.preferences?.leadsView ?? 'kanban (the default)';
    });
    log(`signed in as ${ADMIN}; leadsView: ${leadsView}`);

    // The first visit of the board (the login page loaded the entry, not the board's chunk).
    await context.clearCookies();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.clearBrowserCache');
    const coldCpu = await rendererCpuMs();
    await page.goto('/admin/leads');
    const cold = await readScreen(page, coldCpu);
    log(`first visit (empty cache): ${describeScreen(cold)}`);
    if ((await page.getByTestId('leads-page').getAttribute('data-view')) !== 'kanban')
      throw new Error('the leads page does not show the board (leadsView)');
    await page.waitForLoadState('networkidle');

    const loads: Screen[] = [];
    for (let run = 0; run < LOADS; run++) {
      const cpuBefore = await rendererCpuMs();
      await page.goto('/admin/leads');
      loads.push(await readScreen(page, cpuBefore));
      await page.waitForLoadState('networkidle');
      log(`visit ${run + 1}/${LOADS} (cache warm): ${describeScreen(loads[run])}`);
    }
    const cardsInPage = loads[loads.length - 1].cardsInPage;
    const counts = loads[loads.length - 1].counts;

    // From the menu: the app running, on Notifications before each click.
    const clicks: Screen[] = [];
    await page.goto('/admin/notifications');
    await page.waitForLoadState('networkidle');
    for (let run = 0; run < LOADS; run++) {
      await page.evaluate(() => performance.clearResourceTimings());
      const cpuBefore = await rendererCpuMs();
      await page.locator('a[href="/admin/leads"]').first().click();
      clicks.push(await readScreen(page, cpuBefore));
      await page.waitForLoadState('networkidle');
      log(`from the menu ${run + 1}/${LOADS}: ${describeScreen(clicks[run])}`);
      await page.locator('a[href="/admin/notifications"]').first().click();
      await page.waitForURL((url) => url.pathname.endsWith('/notifications'));
      await page.waitForLoadState('networkidle');
    }

    if (TRACE_DIR && browser) {
      fs.mkdirSync(TRACE_DIR, { recursive: true });
      await browser.startTracing(page, {
        path: path.join(TRACE_DIR, 'board-from-menu.trace.json'),
        categories: TRACE_CATEGORIES,
      });
      await page.evaluate(() => performance.clearResourceTimings());
      const cpuBefore = await rendererCpuMs();
      await page.locator('a[href="/admin/leads"]').first().click();
      const traced = await readScreen(page, cpuBefore);
      await browser.stopTracing();
      log(`traced from the menu (not counted): ${describeScreen(traced)}`);
    }

    // Drops, on a board freshly loaded.
    await page.goto('/admin/leads');
    await readScreen(page, 0);
    await page.waitForLoadState('networkidle');
    const drops: DropSample[] = [];
    for (let round = 0; round < DROPS; round++) {
      const sample = await drop(page, round);
      drops.push(sample);
      log(
        `drop ${round + 1}/${DROPS} (${sample.from} → ${sample.to}, ${sample.status}): in its column after ${sample.moved.toFixed(0)} ms, confirmed after ${sample.confirmed.toFixed(0)} ms (page CPU ${sample.cpuMs.toFixed(0)} ms; long tasks ${sample.longTasksMs} ms; request ${sample.requestMs.toFixed(0)} ms, sent ${sample.requestSentAfter.toFixed(0)} ms after the release)`,
      );
    }

    if (TRACE_DIR && browser) {
      await browser.startTracing(page, {
        path: path.join(TRACE_DIR, 'board-drop.trace.json'),
        categories: TRACE_CATEGORIES,
      });
      const traced = await drop(page, DROPS);
      await browser.stopTracing();
      log(
        `traced drop (not counted): confirmed after ${traced.confirmed.toFixed(0)} ms (long tasks ${traced.longTasksMs} ms)`,
      );
    }

    // Virtualisation and paging: the largest column scrolled to its end.
    const largest = [...LEAD_STATUSES].sort(
      (x, y) => (counts[slug(y)] ?? 0) - (counts[slug(x)] ?? 0),
    )[0];
    const scrolled = await scrollColumn(page, largest);
    log(
      `scrolled ${largest} (${counts[slug(largest)]} cards) to its end: ${scrolled.requests} page requests, at most ${scrolled.maxCardsInPage} cards in the page (${scrolled.inPageAtEnd} at the end)`,
    );
    const chromiumVersion = browser.version();
    await browser.close();
    browser = undefined;

    const dropMoved = latencies(drops.map((sample) => sample.moved));
    const dropConfirmed = latencies(drops.map((sample) => sample.confirmed));
    const dropRequest = latencies(
      drops.map((sample) => sample.requestMs).filter((value) => Number.isFinite(value)),
    );
    const report = {
      startedAt: started.toISOString(),
      git: gitDescription(ROOT, ['server', 'src', 'schemas']),
      machine: { description: machine, uptimeBefore, uptimeAfter: uptime() },
      chromium: chromiumVersion,
      viewport: VIEWPORT,
      board,
      leadsView,
      targets: BOARD_TARGETS,
      firstScreen: {
        coldVisit: cold,
        warmVisits: series(loads, BOARD_TARGETS.firstScreenMs),
        fromMenu: series(clicks, BOARD_TARGETS.firstScreenMs),
        runs: { warmVisits: loads, fromMenu: clicks },
      },
      columns: LEAD_STATUSES.map((status) => ({
        status,
        total: counts[slug(status)],
        cardsInPage: cardsInPage[slug(status)],
      })),
      scrolled,
      drop: {
        moved: dropMoved,
        confirmed: {
          ...dropConfirmed,
          target: BOARD_TARGETS.dropMs,
          met: dropConfirmed.p95 <= BOARD_TARGETS.dropMs,
        },
        request: dropRequest,
        cpu: latencies(drops.map((sample) => sample.cpuMs)),
        longTasks: latencies(drops.map((sample) => sample.longTasksMs)),
        statuses: drops.reduce<Record<string, number>>((all, sample) => {
          all[sample.status] = (all[sample.status] ?? 0) + 1;
          return all;
        }, {}),
        samples: drops,
      },
      appMemory: app.memory(),
      minutes: (Date.now() - started.getTime()) / 60_000,
    };
    fs.mkdirSync(values.out, { recursive: true });
    const stamp = started.toISOString().replace(/[-:]/g, '').replace(/\..*/, '').replace('T', '-');
    const name = `board-web-${stamp}${values.label ? `-${values.label}` : ''}`;
    fs.writeFileSync(path.join(values.out, `${name}.json`), `${JSON.stringify(report, null, 2)}\n`);
    const markdown = renderBoardMarkdown(report);
    fs.writeFileSync(path.join(values.out, `${name}.md`), markdown);
    console.log(`\n${markdown}`);
    log(`written ${path.join(values.out, name)}.{json,md}`);
  } finally {
    await browser?.close();
    await app?.stop();
    fs.rmSync(temp, { recursive: true, force: true });
  }
}

const f = (value: number) => (Number.isNaN(value) ? '–' : value.toFixed(0));
const verdict = (met: boolean) => (met ? 'met' : '**not met**');

function renderBoardMarkdown(report: {
  startedAt: string;
  git: { commit: string; dirty: boolean };
  machine: { description: string; uptimeBefore: string; uptimeAfter: string };
  chromium: string;
  viewport: { width: number; height: number };
  board: BoardLoad;
  firstScreen: { coldVisit: Screen; warmVisits: Series; fromMenu: Series };
  columns: Array<{ status: LeadStatus; total: number; cardsInPage: number }>;
  scrolled: Awaited<ReturnType<typeof scrollColumn>>;
  drop: {
    moved: Latencies;
    confirmed: Latencies & { target: number; met: boolean };
    request: Latencies;
    cpu: Latencies;
    longTasks: Latencies;
    statuses: Record<string, number>;
  };
  minutes: number;
}): string {
  const { firstScreen: first, drop: dropped, board } = report;
  const row = (label: string, item: Series) =>
    `| ${label} | ${item.samples} | ${f(item.p50)} | **${f(item.p95)}** | ${f(item.max)} | ${f(item.requestsUntilP50)} | ${f(item.cpuP50)} | ${f(item.longTasksP50)} | ≤ ${item.target} ms | ${verdict(item.met)} |`;
  return [
    `# Lead board in the browser ${report.startedAt}`,
    '',
    `Commit ${report.git.commit}${report.git.dirty ? ' with uncommitted changes in server/src/schemas' : ''}; Chromium ${report.chromium} headless, ${report.viewport.width}×${report.viewport.height}; the app on PGlite (\`server/main.ts\`, production build); whole run ${report.minutes.toFixed(1)} min.`,
    '',
    `Machine: ${report.machine.description}, shared.`,
    `Load before: \`${report.machine.uptimeBefore}\``,
    `Load after: \`${report.machine.uptimeAfter}\``,
    '',
    `Board: ${board.total.toLocaleString('en')} leads (${board.demo} demo + ${board.generated} generated; ${LEAD_STATUSES.map((status) => `${status} ${board.perColumn[status]}`).join(', ')}), as admin (sees all).`,
    '',
    '## First screen',
    '',
    'Until the four column headers show their counts and every non-empty column shows its first card (the frame after the DOM had it). Page CPU: what the renderer process used meanwhile (DevTools protocol `SystemInfo.getProcessInfo`), apart from the waiting for a core a busy machine adds.',
    '',
    '| how | runs | p50 ms | p95 ms | max ms | column requests answered (p50 ms) | page CPU (p50 ms) | main-thread long tasks (p50 ms) | target (p95) | target met |',
    '|---|---|---|---|---|---|---|---|---|---|',
    row(
      'visit of /admin/leads, cache warm (from navigation start: the app shell boots)',
      first.warmVisits,
    ),
    row('click on "Leads" in the menu (the app running)', first.fromMenu),
    `| first visit, empty cache (from navigation start) | 1 | ${f(first.coldVisit.shown)} | – | – | ${f(first.coldVisit.requestsUntil)} | ${f(first.coldVisit.cpuMs)} | ${f(first.coldVisit.longTasksMs)} | – | – |`,
    '',
    `Runs (ms): visits ${first.warmVisits.runs.join(', ')}; from the menu ${first.fromMenu.runs.join(', ')}.`,
    '',
    '## Cards in the page (virtualisation, paging)',
    '',
    '| column | count | cards in the page after the first screen |',
    '|---|---|---|',
    ...report.columns.map(
      (column) => `| ${column.status} | ${column.total} | ${column.cardsInPage} |`,
    ),
    '',
    `The largest column (${report.scrolled.status}) scrolled to its end: ${report.scrolled.requests} page requests of 30 cards while scrolling, at most ${report.scrolled.maxCardsInPage} cards in the page at any step (${report.scrolled.inPageAtEnd} at the end).`,
    '',
    '## Drop (mouse)',
    '',
    `A column's top card onto the top card of the next open column, ${dropped.confirmed.samples} times; answers ${Object.entries(
      dropped.statuses,
    )
      .map(([status, count]) => `${count}× ${status}`)
      .join(', ')}.`,
    '',
    "| from the pointer's release until | p50 ms | p95 ms | max ms | target (p95) | target met |",
    '|---|---|---|---|---|---|',
    `| the card is in its new column (optimistic) | ${f(dropped.moved.p50)} | ${f(dropped.moved.p95)} | ${f(dropped.moved.max)} | – | – |`,
    `| the server answered and the card is confirmed (round trip) | ${f(dropped.confirmed.p50)} | **${f(dropped.confirmed.p95)}** | ${f(dropped.confirmed.max)} | ≤ ${dropped.confirmed.target} ms | ${verdict(dropped.confirmed.met)} |`,
    `| (the move request alone, resource timing) | ${f(dropped.request.p50)} | ${f(dropped.request.p95)} | ${f(dropped.request.max)} | – | – |`,
    `| (page CPU from the release until confirmed) | ${f(dropped.cpu.p50)} | ${f(dropped.cpu.p95)} | ${f(dropped.cpu.max)} | – | – |`,
    `| (main-thread long tasks meanwhile) | ${f(dropped.longTasks.p50)} | ${f(dropped.longTasks.p95)} | ${f(dropped.longTasks.max)} | – | – |`,
    '',
  ].join('\n');
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
