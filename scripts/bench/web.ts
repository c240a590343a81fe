/**
 * `npm run bench:web`: how light the web app loads. Builds the app (or uses a build), starts it on a
 * fresh demo data folder (embedded PGlite) in a temporary folder on a free port, and runs Lighthouse
 * (desktop preset, the system's Chromium, headless) N times (default 5) on `/login` and on
 * `/admin/customers` signed in; reports the median performance score, total blocking time, CLS, LCP
 * and FCP, and the compressed size of what index.html loads up front (its scripts, module preloads
 * and style sheets, brotli). Writes `bench/results/web-<date>[-<label>].json` and `.md`.
 *
 * Every run starts with a cold browser cache (cleared through the DevTools protocol), as a first
 * visit. The signed-in page gets its session the way the app keeps it (src/auth/session.ts: `token`
 * and `user` in localStorage), signed in through the API; Lighthouse then runs with its storage
 * reset off, so the session stays.
 *
 * Options: --runs N (5) · --root DIR (the checkout to build and start; default this one, e.g. an
 * older commit's worktree for a before/after) · --web-root DIR with --no-build (an existing build)
 * · --label TEXT (file name suffix) · --out DIR (bench/results) · --pages login,customers (which
 * pages; both) · --throttling simulate|provided (Lighthouse's throttling method; the desktop
 * preset's `simulate` by default: lantern estimates the metrics from the observed trace, `provided`
 * reports what was observed) · --trace DIR (keeps each run's Chromium trace and Lighthouse report
 * there, for a look at the main thread in DevTools or a script).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import zlib from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import puppeteer from 'puppeteer-core';
import { toCamelDeep } from '../../src/schema/case.ts';

const CHROME_FLAGS = [
  '--headless=new',
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
const PASSWORD = 'Bench-Web-Passw0rd!';
const REPO = path.resolve(import.meta.dirname, '../..');

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    root: { type: 'string', default: REPO },
    'web-root': { type: 'string' },
    'no-build': { type: 'boolean', default: false },
    label: { type: 'string' },
    out: { type: 'string', default: path.join(REPO, 'bench', 'results') },
    pages: { type: 'string', default: 'login,customers' },
    throttling: { type: 'string', default: 'simulate' },
    trace: { type: 'string' },
  },
});
const RUNS = Math.max(1, Number(values.runs));
const ROOT = path.resolve(values.root);
const PAGES = new Set(values.pages.split(','));
const THROTTLING = values.throttling === 'provided' ? 'provided' : 'simulate';
const TRACE_DIR = values.trace ? path.resolve(values.trace) : undefined;

const log = (message: string) => console.log(`[bench:web ${new Date().toISOString()}] ${message}`);

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

const median = (numbers: number[]): number => {
  const sorted = [...numbers].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** The entry's files and everything it imports statically, from Vite's manifest (`build.manifest`). */
function entryImports(webRoot: string): string[] {
  const file = path.join(webRoot, '.vite', 'manifest.json');
  if (!fs.existsSync(file)) return [];
  const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<
    string,
    { file: string; imports?: string[]; css?: string[]; isEntry?: boolean }
  >;
  const urls = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || seen.has(key)) return;
    seen.add(key);
    urls.add(`/${chunk.file}`);
    for (const css of chunk.css ?? []) urls.add(`/${css}`);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) visit(key);
  return [...urls];
}

/**
 * What index.html loads before anything runs: scripts, module preloads, style sheets, and what the
 * entry imports statically (index.html no longer names those: vite.config.ts `modulePreload`).
 */
export function entrySize(webRoot: string) {
  const html = fs.readFileSync(path.join(webRoot, 'index.html'), 'utf8');
  const files = new Set<string>(entryImports(webRoot));
  for (const match of html.matchAll(/<(?:script|link)\b[^>]*>/gi)) {
    const tag = match[0];
    const url = /\s(?:src|href)="([^"]+)"/i.exec(tag)?.[1];
    if (!url || !url.startsWith('/')) continue;
    const isScript = /^<script/i.test(tag);
    const rel = /\srel="([^"]+)"/i.exec(tag)?.[1] ?? '';
    if (isScript || /modulepreload|stylesheet/.test(rel)) files.add(url.split('?')[0]);
  }
  let raw = 0;
  let brotli = 0;
  let gzip = 0;
  for (const url of files) {
    const file = path.join(webRoot, url);
    const body = fs.readFileSync(file);
    raw += body.length;
    brotli += fs.existsSync(`${file}.br`)
      ? fs.statSync(`${file}.br`).size
      : zlib.brotliCompressSync(body).length;
    gzip += fs.existsSync(`${file}.gz`)
      ? fs.statSync(`${file}.gz`).size
      : zlib.gzipSync(body, { level: 9 }).length;
  }
  return { files: files.size, raw, brotli, gzip };
}

async function waitForHealth(base: string, server: ChildProcess, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the server stopped (${server.exitCode})`);
    try {
      if ((await fetch(`${base}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('the server did not become healthy in time');
}

interface Sample {
  score: number;
  tbt: number;
  cls: number;
  lcp: number;
  fcp: number;
  speedIndex: number;
  bytes: number;
}

interface PageResult {
  path: string;
  signedIn: boolean;
  runs: Sample[];
  median: Sample;
  /** Of the last run: what moved (CLS), what blocked the main thread, what was loaded. */
  details: {
    layoutShifts: { selector: string; snippet: string; score: number }[];
    longTasks: { url: string; startTime: number; duration: number }[];
    /** Main-thread time by kind (script evaluation, style & layout, …), ms. */
    mainThread: Record<string, number>;
    scripts: { url: string; transferSize: number }[];
  };
}

async function main() {
  const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'gscrm-bench-web-'));
  const webRoot = values['web-root'] ? path.resolve(values['web-root']) : path.join(temp, 'web');
  const started = Date.now();
  const loadBefore = os.loadavg()[0];
  let server: ChildProcess | undefined;
  let chrome: chromeLauncher.LaunchedChrome | undefined;
  try {
    if (!values['no-build']) {
      log(`building ${ROOT} into ${webRoot}`);
      execFileSync(
        path.join(ROOT, 'node_modules', '.bin', 'vite'),
        ['build', '--logLevel', 'error', '--outDir', webRoot, '--emptyOutDir'],
        { cwd: ROOT, stdio: 'inherit' },
      );
    }
    const entry = entrySize(webRoot);
    log(`entry: ${entry.files} files, ${entry.raw} B, brotli ${entry.brotli} B`);

    const port = await freePort();
    const base = `http://localhost:${port}`;
    log(`starting the app on ${base} (fresh demo data in ${temp})`);
    server = spawn(path.join(ROOT, 'node_modules', '.bin', 'tsx'), ['server/main.ts'], {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(port),
        DATA_DIR: path.join(temp, 'data'),
        WEB_ROOT: webRoot,
        DEMO: '1',
        DEMO_PASSWORD: PASSWORD,
        APP_ENV: 'production',
        DATABASE_URL: '',
        LOG_REQUESTS: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let serverLog = '';
    server.stdout?.on('data', (chunk: Buffer) => (serverLog += chunk.toString()));
    server.stderr?.on('data', (chunk: Buffer) => (serverLog += chunk.toString()));
    const startedServer = Date.now();
    try {
      await waitForHealth(base, server, 180_000);
    } catch (error) {
      console.error(serverLog);
      throw error;
    }
    log(`healthy after ${Date.now() - startedServer} ms`);

    const login = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: ADMIN, password: PASSWORD }),
    });
    if (!login.ok) throw new Error(`sign-in failed: ${login.status} ${await login.text()}`);
    const session = (await login.json()) as { token: string; user: Record<string, unknown> };
    const user = toCamelDeep(session.user) as { role?: string };

    chrome = await chromeLauncher.launch({
      chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      chromeFlags: CHROME_FLAGS,
      logLevel: 'error',
    });
    const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });

    /** A first visit: empty cache; localStorage empty or holding the session. */
    async function prepare(signedIn: boolean) {
      const page = await browser.newPage();
      await page.goto(`${base}/api/health`);
      await page.evaluate(
        (token, userJson, role) => {
          localStorage.clear();
          sessionStorage.clear();
          if (token) {
            localStorage.setItem('token', token);
            localStorage.setItem('role', role);
            localStorage.setItem('user', userJson);
            localStorage.setItem('externalUserMode', 'no');
          }
        },
        signedIn ? session.token : '',
        JSON.stringify(user),
        String(user.role ?? ''),
      );
      const cdp = await page.createCDPSession();
      await cdp.send('Network.clearBrowserCache');
      await cdp.detach();
      await page.close();
    }

    async function audit(pagePath: string, signedIn: boolean): Promise<PageResult> {
      const runs: Sample[] = [];
      let details: PageResult['details'] = {
        layoutShifts: [],
        longTasks: [],
        mainThread: {},
        scripts: [],
      };
      for (let run = 1; run <= RUNS; run += 1) {
        // Lighthouse sometimes loses a trace on a busy machine (NO_NAVSTART …): that run again.
        let lhr: NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr'] | undefined;
        for (let attempt = 1; ; attempt += 1) {
          await prepare(signedIn);
          const result = await lighthouse(
            `${base}${pagePath}`,
            {
              port: chrome?.port,
              output: 'json',
              logLevel: 'error',
              onlyCategories: ['performance'],
              disableStorageReset: true,
              throttlingMethod: THROTTLING,
            },
            desktopConfig,
          );
          if (!result?.lhr) throw new Error(`Lighthouse gave no result for ${pagePath}`);
          if (!result.lhr.runtimeError) {
            lhr = result.lhr;
            if (TRACE_DIR) {
              fs.mkdirSync(TRACE_DIR, { recursive: true });
              const name = `${pagePath.replace(/\W+/g, '-').replace(/^-/, '')}-${run}`;
              const trace = (result.artifacts as { Trace?: unknown }).Trace;
              fs.writeFileSync(path.join(TRACE_DIR, `${name}.trace.json`), JSON.stringify(trace));
              fs.writeFileSync(path.join(TRACE_DIR, `${name}.lhr.json`), JSON.stringify(lhr));
            }
            break;
          }
          if (attempt >= 3) throw new Error(`${pagePath}: ${result.lhr.runtimeError.message}`);
          log(`${pagePath} run ${run}: ${result.lhr.runtimeError.code}, again`);
        }
        if (!lhr) throw new Error(`Lighthouse gave no result for ${pagePath}`);
        const finalUrl = lhr.finalDisplayedUrl;
        if (!finalUrl.endsWith(pagePath)) {
          throw new Error(`${pagePath} ended on ${finalUrl} (the session was not taken?)`);
        }
        const numeric = (id: string) => Number(lhr.audits[id]?.numericValue ?? NaN);
        const sample: Sample = {
          score: Math.round((lhr.categories.performance.score ?? 0) * 100),
          tbt: Math.round(numeric('total-blocking-time')),
          cls: Number(numeric('cumulative-layout-shift').toFixed(3)),
          lcp: Math.round(numeric('largest-contentful-paint')),
          fcp: Math.round(numeric('first-contentful-paint')),
          speedIndex: Math.round(numeric('speed-index')),
          bytes: Math.round(numeric('total-byte-weight')),
        };
        log(
          `${pagePath} run ${run}/${RUNS}: score ${sample.score}, TBT ${sample.tbt} ms, CLS ${sample.cls}, LCP ${sample.lcp} ms, ${sample.bytes} B`,
        );
        runs.push(sample);
        const items = (id: string) =>
          ((lhr.audits[id]?.details as { items?: Record<string, unknown>[] } | undefined)?.items ??
            []) as Record<string, unknown>[];
        details = {
          layoutShifts: items('layout-shifts').map((item) => {
            const node = (item.node ?? {}) as { selector?: string; snippet?: string };
            return {
              selector: node.selector ?? '',
              snippet: (node.snippet ?? '').slice(0, 120),
              score: Number(Number(item.score ?? 0).toFixed(4)),
            };
          }),
          longTasks: items('long-tasks').map((item) => ({
            url: String(item.url ?? ''),
            startTime: Math.round(Number(item.startTime ?? 0)),
            duration: Math.round(Number(item.duration ?? 0)),
          })),
          mainThread: Object.fromEntries(
            items('mainthread-work-breakdown').map((item) => [
              String(item.groupLabel ?? item.group),
              Math.round(Number(item.duration ?? 0)),
            ]),
          ),
          scripts: items('network-requests')
            .filter((item) => item.resourceType === 'Script' || item.resourceType === 'Fetch')
            .map((item) => ({
              url: String(item.url ?? '').replace(base, ''),
              transferSize: Number(item.transferSize ?? 0),
            })),
        };
      }
      const key = (name: keyof Sample) => median(runs.map((sample) => sample[name]));
      return {
        path: pagePath,
        signedIn,
        runs,
        details,
        median: {
          score: key('score'),
          tbt: key('tbt'),
          cls: key('cls'),
          lcp: key('lcp'),
          fcp: key('fcp'),
          speedIndex: key('speedIndex'),
          bytes: key('bytes'),
        },
      };
    }

    const pages: PageResult[] = [];
    if (PAGES.has('login')) pages.push(await audit('/login', false));
    if (PAGES.has('customers')) pages.push(await audit('/admin/customers', true));
    await browser.disconnect();

    let commit = '';
    try {
      commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT })
        .toString()
        .trim();
    } catch {
      // not a checkout
    }
    const report = {
      date: new Date().toISOString(),
      commit,
      root: ROOT,
      runs: RUNS,
      lighthouse: `desktop preset${THROTTLING === 'provided' ? ' (throttling: provided, no simulation)' : ''}, performance only, cold cache, median`,
      machine: `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, node ${process.version}`,
      // TBT is main-thread time: on a shared machine it follows the others' load; read it with this.
      loadAverage: { start: loadBefore, end: os.loadavg()[0] },
      entry,
      pages,
      seconds: Math.round((Date.now() - started) / 1000),
    };
    fs.mkdirSync(values.out, { recursive: true });
    const stamp = report.date.slice(0, 16).replace(/[:T]/g, '-');
    const name = `web-${stamp}${values.label ? `-${values.label}` : ''}`;
    fs.writeFileSync(path.join(values.out, `${name}.json`), `${JSON.stringify(report, null, 2)}\n`);
    const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
    const markdown = [
      `# Web app load (${report.date}${commit ? `, ${commit}` : ''}${values.label ? `, ${values.label}` : ''})`,
      '',
      `Lighthouse 12, ${report.lighthouse} of ${RUNS}; ${report.machine}; load average ${report.loadAverage.start.toFixed(1)} at the start, ${report.loadAverage.end.toFixed(1)} at the end.`,
      '',
      `Entry (what index.html loads up front, ${entry.files} files): ${kb(entry.raw)} raw, **${kb(entry.brotli)} brotli**, ${kb(entry.gzip)} gzip.`,
      '',
      '| page | score | TBT | CLS | LCP | FCP | Speed Index | bytes sent |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
      ...pages.map(
        (page) =>
          `| \`${page.path}\`${page.signedIn ? ' (signed in)' : ''} | ${page.median.score} | ${page.median.tbt} ms | ${page.median.cls} | ${page.median.lcp} ms | ${page.median.fcp} ms | ${page.median.speedIndex} ms | ${kb(page.median.bytes)} |`,
      ),
      '',
      `Runs (score / TBT): ${pages.map((page) => `${page.path}: ${page.runs.map((run) => `${run.score}/${run.tbt}`).join(', ')}`).join('; ')}.`,
      '',
      'Last run, per page: long tasks (start + duration, ms) and main-thread time by kind (ms).',
      '',
      ...pages.flatMap((page) => [
        `- \`${page.path}\`: ${page.details.longTasks.map((task) => `${task.startTime}+${task.duration}`).join(', ') || 'none'}; ${Object.entries(
          page.details.mainThread,
        )
          .map(([kind, ms]) => `${kind} ${ms}`)
          .join(', ')}`,
      ]),
      '',
      `Took ${report.seconds} s.`,
      '',
    ].join('\n');
    fs.writeFileSync(path.join(values.out, `${name}.md`), markdown);
    console.log(`\n${markdown}`);
    log(`written ${path.join(values.out, name)}.{json,md}`);
  } finally {
    await chrome?.kill();
    if (server && server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((resolve) => {
        const timer = setTimeout(() => {
          server?.kill('SIGKILL');
          resolve(undefined);
        }, 10_000);
        server?.once('exit', () => {
          clearTimeout(timer);
          resolve(undefined);
        });
      });
    }
    fs.rmSync(temp, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
