/**
 * `npm run bench` — the API benchmark of the customer list on both engines (issue 13).
 *
 *   npm run bench -- [--rows 100000] [--engines pglite,postgres] [--postgres URL]
 *                    [--duration 5] [--sort-rounds 2] [--connections 20] [--label before]
 *                    [--accept-encoding 'gzip, deflate, br' (a browser's; '' for none)]
 *                    [--contracts-per-customer 3] [--appointments 200000 (0: none)]
 *                    [--leads 2000 (0: none)] [--board-rounds 100] [--drop-rounds 300]
 *                    [--drop-clients 10] [--commissions 1 (0: none)] [--only leads|commissions]
 *
 * Per engine: loads N generated customers and the demo users into a fresh database (PGlite: a
 * temporary data folder; PostgreSQL: a temporary database on the server of --postgres, default
 * TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/test, dropped afterwards), starts the app
 * as its own process, signs in, and runs each case with autocannon (`--connections` keep-alive
 * connections, `--duration` seconds): page 1 as admin, `search=müller`, `sort=last_name`, every
 * other sortable column briefly (`--sort-rounds` requests per connection; the worst is "any sort"), page 2000, a consultant's page 1, and
 * the health check's latency while searches run. On PostgreSQL also the raw baseline: the SQL the
 * app sent for page 1 (captured on the wire, ./capture.ts) sent straight through `pg` by as many
 * clients. The lead board (issue 16, ./leads.ts): the board topped up to --leads leads before the
 * app starts; its first screen (the four column requests at once) as admin and as the call centre,
 * drops one at a time and by --drop-clients clients at once. `--only leads` (`npm run
 * bench:leads`) loads no customer book and runs only the board's cases. Commissions (issue 17,
 * ./commissions.ts): with contracts, the demo's rules settle every generated closure before the
 * app starts (the batch recompute, timed), then my commissions, its totals and the leaderboard
 * are measured; `--only commissions` (`npm run bench:commissions`) loads customers and contracts
 * and runs only those. Writes bench/results/api-<timestamp>[-label].json and .md.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase } from '../../server/db/index.ts';
import { type CapturedStatement, startCaptureProxy, statementRole } from './capture.ts';
import { BENCH_PASSWORD, withTemporaryDatabase } from './common.ts';
import { loadBook } from './data.ts';
import { commissionCases, type RecomputeResult, recomputeBook } from './commissions.ts';
import { type BoardLoad, type LeadsResult, loadLeads, runLeadCases } from './leads.ts';
import {
  hammer,
  type LoadResult,
  probe,
  type ProbeResult,
  rawLoad,
  type RawResult,
} from './load.ts';
import { renderMarkdown } from './report.ts';
import {
  type AppProcess,
  backendsCpuMs,
  gitDescription,
  machineDescription,
  REPO_ROOT,
  signIn,
  startApp,
  uptime,
} from './server.ts';

const { values: args } = parseArgs({
  options: {
    rows: { type: 'string', default: '100000' },
    'contracts-per-customer': { type: 'string', default: '3' },
    appointments: { type: 'string', default: '200000' },
    engines: { type: 'string', default: 'pglite,postgres' },
    postgres: { type: 'string' },
    duration: { type: 'string', default: '5' },
    'sort-rounds': { type: 'string', default: '2' },
    connections: { type: 'string', default: '20' },
    'accept-encoding': { type: 'string', default: 'gzip, deflate, br' },
    leads: { type: 'string', default: '2000' },
    'board-rounds': { type: 'string', default: '100' },
    'drop-rounds': { type: 'string', default: '300' },
    'drop-clients': { type: 'string', default: '10' },
    commissions: { type: 'string', default: '1' },
    only: { type: 'string' },
    label: { type: 'string', default: '' },
    out: { type: 'string', default: path.join(REPO_ROOT, 'bench/results') },
  },
});
/**
 * `--only leads`: the lead board's cases alone, on the demo without the customer book.
 * `--only commissions`: customers and contracts, the recompute and the commission cases alone.
 */
if (args.only !== undefined && args.only !== 'leads' && args.only !== 'commissions')
  throw new Error(`--only ${args.only}: only 'leads' and 'commissions' are known`);
const ONLY_LEADS = args.only === 'leads';
const ONLY_COMMISSIONS = args.only === 'commissions';
const ROWS = ONLY_LEADS ? 0 : Number(args.rows);
/** Contracts generated per customer (300,000 over 100,000 customers by default: issue 14). */
const CONTRACTS_PER_CUSTOMER = ONLY_LEADS ? 0 : Number(args['contracts-per-customer']);
/** Generated appointments (issue 15; 0: none, and no appointment cases). */
const APPOINTMENTS = ONLY_LEADS || ONLY_COMMISSIONS ? 0 : Number(args.appointments);
/** Leads on the board (issue 16): the demo's topped up with generated ones (0: no board cases). */
const LEADS = ONLY_COMMISSIONS ? 0 : Number(args.leads);
/** The batch recompute and the commission cases (issue 17), on the generated contracts. */
const COMMISSIONS = CONTRACTS_PER_CUSTOMER > 0 && (ONLY_COMMISSIONS || args.commissions !== '0');
/** First screens per user; drops one at a time; clients dropping at once (30 drops each). */
const BOARD_ROUNDS = Number(args['board-rounds']);
const DROP_ROUNDS = Number(args['drop-rounds']);
const DROP_CLIENTS = Number(args['drop-clients']);
const DROPS_PER_CLIENT = 30;
const DURATION = Number(args.duration);
/** Requests per connection for each extra sort column (all answered, none cut off). */
const SORT_ROUNDS = Number(args['sort-rounds']);
const CONNECTIONS = Number(args.connections);
/** What a browser sends: the answers are compressed where the app compresses (its real cost). */
const ACCEPT_ENCODING = args['accept-encoding'] as string;
const ENGINES = (args.engines ?? '').split(',').map((engine) => engine.trim());
const POSTGRES =
  args.postgres ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
for (const engine of ENGINES)
  if (engine !== 'pglite' && engine !== 'postgres') throw new Error(`unknown engine ${engine}`);

/** The temporary PostgreSQL database while its engine runs (its backends' CPU is counted). */
let DB_NAME: string | undefined;

const ADMIN = 'admin@demo.gscrm.ch';
const CONSULTANT = 'consultant@demo.gscrm.ch';
const CALL_CENTRE = 'callcenter@demo.gscrm.ch';
const LIST = '/api/customers?page=1&per_page=25';

export interface CaseResult extends Partial<LoadResult> {
  name: string;
  path: string;
  user: string;
  /** `meta` of the answer (total, pages) as the warm-up request got it. */
  meta?: Record<string, unknown>;
  /** Rows on the page the warm-up got. */
  rowsOnPage?: number;
  warmUpMs?: number;
  /** CPU of the app process per request sent (ms). */
  appCpuMsPerRequest?: number;
  /** CPU of the database's backends per request sent (ms; PostgreSQL). */
  dbCpuMsPerRequest?: number;
  /** What the reader must know: errors, non-2xx, too few samples. */
  flags: string[];
}

export interface EngineResult {
  engine: 'pglite' | 'postgres';
  generation: { seconds: number; rows: number };
  startMs: number;
  cases: CaseResult[];
  sorts: CaseResult[];
  anySort?: CaseResult;
  /** Contract lists and the household coverage view (issue 14), on the generated contracts. */
  contracts?: CaseResult[];
  /** Appointment lists, the calendar week and the tasks (issue 15), on the generated ones. */
  appointments?: CaseResult[];
  healthDuringSearch?: ProbeResult & { search: CaseResult };
  /** The lead board (issue 16): its data and cases (./leads.ts). */
  leads?: LeadsResult;
  /** The board as loaded before the app started. */
  board?: BoardLoad;
  /** Commissions (issue 17): the batch recompute before the app started, then the cases. */
  recompute?: RecomputeResult;
  commissions?: CaseResult[];
  memory: { rssMb: number; peakMb: number };
  loadAverage: { before: number[]; after: number[] };
  raw?: Array<{ name: string; statements: CapturedStatement[]; result: RawResult }>;
  /** The HTTP floor (./floor-server.ts): a bare Fastify + pg server sending page 1's statements. */
  floor?: { statements: CapturedStatement[]; result: LoadResult };
  captured?: Record<string, CapturedStatement[]>;
}

const log = (text: string) => console.log(text);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** A warm-up request (plans, caches) that also checks the case answers 200 and reads its meta. */
async function warmUp(app: AppProcess, kase: CaseResult, auth: string, times: number) {
  const spent: number[] = [];
  for (let run = 0; run < times; run++) {
    const started = performance.now();
    const response = await fetch(`${app.url}${kase.path}`, { headers: { authorization: auth } });
    const text = await response.text();
    spent.push(performance.now() - started);
    if (response.status !== 200) {
      kase.flags.push(`warm-up answered ${response.status}: ${text.slice(0, 200)}`);
      return false;
    }
    if (run === 0) {
      const body = JSON.parse(text) as { data?: unknown[]; meta?: Record<string, unknown> };
      kase.meta = body.meta;
      kase.rowsOnPage = body.data?.length;
    }
  }
  kase.warmUpMs = Math.min(...spent);
  return true;
}

/**
 * Waits until the app is idle again: autocannon stops with up to `connections` requests still in
 * the server (on PGlite queued one after the other); the next case must not measure their tail.
 * Idle = a health check answers within 100 ms (at most a minute).
 */
async function settle(app: AppProcess): Promise<void> {
  const until = performance.now() + 60_000;
  while (performance.now() < until) {
    const started = performance.now();
    await (await fetch(`${app.url}/api/health`)).arrayBuffer();
    if (performance.now() - started < 100) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Runs one case: warm-up, then autocannon for at least `duration` seconds — longer (up to `cap`)
 * when a single request is slow, so every connection completes about two requests.
 */
async function runCase(
  app: AppProcess,
  kase: CaseResult,
  auth: string,
  duration: number,
  cap: number,
  warmUps = 3,
  amount?: number,
): Promise<CaseResult> {
  await settle(app);
  if (!(await warmUp(app, kase, auth, warmUps))) return kase;
  const wanted = Math.ceil((2 * CONNECTIONS * (kase.warmUpMs ?? 0)) / 1000);
  return measure(app, kase, auth, Math.max(duration, Math.min(cap, wanted)), amount);
}

/** The load of one case for `length` seconds (after its warm-up). */
async function measure(
  app: AppProcess,
  kase: CaseResult,
  auth: string,
  length: number,
  amount?: number,
): Promise<CaseResult> {
  const cpuBefore = app.cpuMs();
  const dbBefore = DB_NAME ? backendsCpuMs(DB_NAME) : undefined;
  const result = await hammer(`${app.url}${kase.path}`, {
    connections: CONNECTIONS,
    duration: length,
    amount,
    headers: ACCEPT_ENCODING
      ? { authorization: auth, 'accept-encoding': ACCEPT_ENCODING }
      : { authorization: auth },
  });
  Object.assign(kase, result);
  // CPU per request, counted once the requests still in the server are done: less sensitive to
  // the other work on a shared machine than the latencies.
  await settle(app);
  kase.appCpuMsPerRequest = (app.cpuMs() - cpuBefore) / Math.max(1, result.sent);
  if (dbBefore && DB_NAME) {
    let spent = 0;
    for (const [pid, ms] of backendsCpuMs(DB_NAME)) spent += ms - (dbBefore.get(pid) ?? 0);
    kase.dbCpuMsPerRequest = spent / Math.max(1, result.sent);
  }
  if (result.non2xx > 0)
    kase.flags.push(
      `${result.non2xx} non-2xx answers (${Object.entries(result.statuses)
        .map(([status, count]) => `${count}× ${status}`)
        .join(', ')})`,
    );
  if (result.errors > 0 || result.timeouts > 0)
    kase.flags.push(`${result.errors} errors, ${result.timeouts} timeouts`);
  if (result.samples < (amount ?? 2 * CONNECTIONS))
    kase.flags.push(`only ${result.samples} answers`);
  log(
    `  ${kase.name.padEnd(28)} ${result.reqPerSec.toFixed(1).padStart(7)} req/s  p50 ${result.p50.toFixed(0).padStart(5)}  p95 ${result.p95.toFixed(0).padStart(5)}  p99 ${result.p99.toFixed(0).padStart(5)} ms  (${result.durationS.toFixed(1)} s${kase.flags.length ? `; ${kase.flags.join('; ')}` : ''})`,
  );
  return kase;
}

/** The sortable columns of the customer list, as the app publishes them (OpenAPI `sort` enum). */
async function sortableColumns(app: AppProcess, auth: string): Promise<string[]> {
  const response = await fetch(`${app.url}/api/docs/json`, { headers: { authorization: auth } });
  const document = (await response.json()) as {
    paths?: Record<
      string,
      { get?: { parameters?: Array<{ name: string; schema?: { enum?: string[] } }> } }
    >;
  };
  const parameters = document.paths?.['/api/customers']?.get?.parameters ?? [];
  const columns = parameters.find((parameter) => parameter.name === 'sort')?.schema?.enum;
  if (!columns?.length)
    throw new Error('the OpenAPI document lists no sort columns for /api/customers');
  return columns;
}

const newCase = (name: string, pathname: string, user: string): CaseResult => ({
  name,
  path: pathname,
  user,
  flags: [],
});

/**
 * Contracts (issue 14): the lists of the contracts screens and the household coverage view of a
 * customer with contracts (the first generated customer that has three closures). A case whose
 * route answers 404 (not there yet) is reported as missing, not measured.
 */
async function runContractCases(
  app: AppProcess,
  admin: string,
  consultant: string,
): Promise<CaseResult[]> {
  const contracts = '/api/contracts?page=1&per_page=25';
  const probeCustomer = await fetch(
    `${app.url}${contracts}&contract_type=closure&sort=id&order=ASC`,
    {
      headers: { authorization: admin },
    },
  );
  const first = ((await probeCustomer.json()) as { data?: Array<{ customer_id: number }> })
    .data?.[0];
  const customerId = first?.customer_id ?? 1;
  const cases: Array<[CaseResult, string]> = [
    [newCase('contracts page 1 (closures)', `${contracts}&contract_type=closure`, ADMIN), admin],
    [
      newCase(
        'contracts search=müller',
        `${contracts}&contract_type=closure&search=${encodeURIComponent('müller')}`,
        ADMIN,
      ),
      admin,
    ],
    [newCase('broker contracts', `${contracts}&contract_type=closure&product_id=28`, ADMIN), admin],
    [
      newCase('contracts, consultant', `${contracts}&contract_type=closure`, CONSULTANT),
      consultant,
    ],
    [newCase("a customer's contracts", `${contracts}&customer_id=${customerId}`, ADMIN), admin],
    [newCase('household coverage', `/api/customers/${customerId}/coverage`, ADMIN), admin],
  ];
  const measured: CaseResult[] = [];
  const cap = Math.max(30, DURATION);
  for (const [kase, auth] of cases) {
    const answer = await fetch(`${app.url}${kase.path}`, { headers: { authorization: auth } });
    await answer.arrayBuffer();
    if (answer.status !== 200) {
      kase.flags.push(`not measured: the route answers ${answer.status}`);
      log(`  ${kase.name}: not measured (${answer.status})`);
      measured.push(kase);
      continue;
    }
    measured.push(await runCase(app, kase, auth, DURATION, cap));
  }
  return measured;
}

/** The Monday 00:00 of this week and the Sunday 23:59:59 after it, Swiss time, as ISO instants. */
function thisWeek(now = new Date()): { from: string; to: string } {
  const swiss = new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Europe/Zurich',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
  const day = new Date(`${swiss}T00:00:00Z`);
  const monday = new Date(day.getTime() - ((day.getUTCDay() + 6) % 7) * 86_400_000);
  // Swiss midnight is 22:00 or 23:00 UTC the day before; an hour's margin either way is enough
  // for a benchmark (the app's calendar sends the exact instants).
  const from = new Date(monday.getTime() - 2 * 3600_000);
  const to = new Date(monday.getTime() + 7 * 86_400_000 - 2 * 3600_000 - 1000);
  return { from: from.toISOString(), to: to.toISOString() };
}

/**
 * Appointments (issue 15): the list's first page as admin and as a consultant, a consultant's
 * calendar week (`date_start_gte` / `date_start_lte`, 200 a page, by start), and the tasks of a
 * consultant and of the call centre. A route that answers 404 is reported, not measured.
 */
async function runAppointmentCases(
  app: AppProcess,
  admin: string,
  consultant: string,
): Promise<CaseResult[]> {
  const callCentre = await signIn(app.url, CALL_CENTRE, BENCH_PASSWORD);
  const list = '/api/appointments?page=1&per_page=25';
  const week = thisWeek();
  const calendar = `/api/appointments?date_start_gte=${encodeURIComponent(week.from)}&date_start_lte=${encodeURIComponent(week.to)}&sort=date_start&order=ASC&per_page=200`;
  const cases: Array<[CaseResult, string]> = [
    [newCase('appointments page 1 (admin)', list, ADMIN), admin],
    [newCase('appointments, consultant', list, CONSULTANT), consultant],
    [newCase('calendar week, consultant', calendar, CONSULTANT), consultant],
    [newCase('tasks, consultant', '/api/tasks', CONSULTANT), consultant],
    [newCase('tasks, call centre', '/api/tasks', CALL_CENTRE), callCentre],
  ];
  const measured: CaseResult[] = [];
  const cap = Math.max(30, DURATION);
  for (const [kase, auth] of cases) {
    const answer = await fetch(`${app.url}${kase.path}`, { headers: { authorization: auth } });
    await answer.arrayBuffer();
    if (answer.status !== 200) {
      kase.flags.push(`not measured: the route answers ${answer.status}`);
      log(`  ${kase.name}: not measured (${answer.status})`);
      measured.push(kase);
      continue;
    }
    measured.push(await runCase(app, kase, auth, DURATION, cap));
  }
  return measured;
}

/**
 * Commissions (issue 17, ./commissions.ts): my commissions and its totals as the consultant, the
 * ledger as admin, the leaderboard's ranking and charts.
 */
async function runCommissionCases(app: AppProcess): Promise<CaseResult[]> {
  const admin = await signIn(app.url, ADMIN, BENCH_PASSWORD);
  const consultant = await signIn(app.url, CONSULTANT, BENCH_PASSWORD);
  const me = await fetch(`${app.url}/api/auth/me`, { headers: { authorization: consultant } });
  const id = ((await me.json()) as { data?: { id?: number } }).data?.id;
  if (!id) throw new Error("the consultant's id: /api/auth/me answered without one");
  const measured: CaseResult[] = [];
  const cap = Math.max(30, DURATION);
  for (const [name, pathname, who] of commissionCases(id)) {
    const kase = newCase(name, pathname, who === 'admin' ? ADMIN : CONSULTANT);
    measured.push(await runCase(app, kase, who === 'admin' ? admin : consultant, DURATION, cap));
  }
  return measured;
}

/** The cases of one engine against a running app. */
async function runCases(app: AppProcess, result: EngineResult): Promise<void> {
  const admin = await signIn(app.url, ADMIN, BENCH_PASSWORD);
  const consultant = await signIn(app.url, CONSULTANT, BENCH_PASSWORD);
  const cap = Math.max(30, DURATION);
  // A fresh process: JIT, caches and pools warm up on page 1 for two seconds (not recorded).
  await hammer(`${app.url}${LIST}`, {
    connections: CONNECTIONS,
    duration: 2,
    headers: { authorization: admin },
  });
  const main: Array<[CaseResult, string]> = [
    [newCase('page 1 (admin)', LIST, ADMIN), admin],
    [newCase('search=müller', `${LIST}&search=${encodeURIComponent('müller')}`, ADMIN), admin],
    [newCase('sort=last_name', `${LIST}&sort=last_name`, ADMIN), admin],
    [newCase('page 2000', '/api/customers?page=2000&per_page=25', ADMIN), admin],
    [newCase('consultant page 1', LIST, CONSULTANT), consultant],
  ];
  for (const [kase, auth] of main) result.cases.push(await runCase(app, kase, auth, DURATION, cap));
  const columns = (await sortableColumns(app, admin)).filter((column) => column !== 'last_name');
  log(
    `  any sort: ${columns.length} more sortable columns, ${SORT_ROUNDS * CONNECTIONS} requests each`,
  );
  for (const column of columns)
    result.sorts.push(
      await runCase(
        app,
        newCase(`sort=${column}`, `${LIST}&sort=${column}`, ADMIN),
        admin,
        0,
        0,
        1,
        SORT_ROUNDS * CONNECTIONS,
      ),
    );
  const measured = [result.cases[2], ...result.sorts].filter((kase) => kase.p95 !== undefined);
  result.anySort = measured.reduce<CaseResult | undefined>(
    (worst, kase) => (!worst || (kase.p95 ?? 0) > (worst.p95 ?? 0) ? kase : worst),
    undefined,
  );
  const failedSorts = [result.cases[2], ...result.sorts].filter((kase) => kase.flags.length > 0);
  if (result.anySort && failedSorts.length > 0)
    result.anySort = {
      ...result.anySort,
      flags: [
        ...result.anySort.flags,
        `flagged sorts: ${failedSorts.map((kase) => `${kase.name} (${kase.flags.join('; ')})`).join(', ')}`,
      ],
    };
  if (CONTRACTS_PER_CUSTOMER > 0) result.contracts = await runContractCases(app, admin, consultant);
  if (APPOINTMENTS > 0) result.appointments = await runAppointmentCases(app, admin, consultant);
  // The health check of a monitor while 20 clients search.
  const search = newCase('search=müller (beside health)', main[1][0].path, ADMIN);
  const length = Math.max(DURATION, 6);
  await settle(app);
  await warmUp(app, search, admin, 1);
  const [health, searched] = await Promise.all([
    probe(`${app.url}/api/health`, { startMs: 1000, stopMs: (length - 0.5) * 1000, pauseMs: 100 }),
    measure(app, search, admin, length),
  ]);
  result.healthDuringSearch = { ...health, search: searched };
  log(
    `  health during search: p50 ${health.p50.toFixed(0)}  p95 ${health.p95.toFixed(0)}  max ${health.max.toFixed(0)} ms (${health.samples} probes, ${health.failures} failed)`,
  );
}

function emptyResult(engine: 'pglite' | 'postgres'): EngineResult {
  return {
    engine,
    generation: { seconds: 0, rows: ROWS },
    startMs: 0,
    cases: [],
    sorts: [],
    memory: { rssMb: 0, peakMb: 0 },
    loadAverage: { before: os.loadavg(), after: [] },
  };
}

/** The lead board's cases (./leads.ts) against the running app. */
async function runBoardCases(app: AppProcess, board: BoardLoad): Promise<LeadsResult> {
  await settle(app);
  log(`  lead board: ${board.total} leads`);
  const database = DB_NAME;
  return runLeadCases(
    {
      url: app.url,
      headers: (auth): Record<string, string> =>
        ACCEPT_ENCODING
          ? { authorization: auth, 'accept-encoding': ACCEPT_ENCODING }
          : { authorization: auth },
      appCpu: () => app.cpuMs(),
      dbCpu: database ? () => backendsCpuMs(database) : undefined,
      log,
    },
    {
      admin: await signIn(app.url, ADMIN, BENCH_PASSWORD),
      callCentre: await signIn(app.url, CALL_CENTRE, BENCH_PASSWORD),
      board,
      rounds: BOARD_ROUNDS,
      drops: DROP_ROUNDS,
      dropClients: DROP_CLIENTS,
      dropsPerClient: DROPS_PER_CLIENT,
    },
  );
}

/** Starts the app on `env`'s database, runs every case into `result`, stops it. */
async function measureApp(env: Record<string, string>, result: EngineResult): Promise<void> {
  const app = await startApp(env);
  result.startMs = app.startMs;
  log(`  app healthy after ${seconds(app.startMs)}`);
  try {
    if (!ONLY_LEADS && !ONLY_COMMISSIONS) await runCases(app, result);
    if (result.recompute) result.commissions = await runCommissionCases(app);
    if (result.board) result.leads = await runBoardCases(app, result.board);
    result.memory = app.memory();
  } finally {
    await app.stop();
  }
}

/** The batch recompute of the loaded book (./commissions.ts), logged. */
async function recompute(db: Parameters<typeof recomputeBook>[0]): Promise<RecomputeResult> {
  const done = await recomputeBook(db, log);
  log(
    `  commissions: ${done.closures} closures in ${seconds(done.seconds * 1000)} (${done.contractsPerSecond.toFixed(0)}/s), ${done.written} lines written, ${done.lines} in the ledger; peak RSS ${done.rssPeakMb.toFixed(0)} MB (before ${done.rssBeforeMb.toFixed(0)}); again, nothing changed: ${done.again.closures} in ${seconds(done.again.seconds * 1000)}, ${done.again.written} lines written`,
  );
  return done;
}

async function benchPglite(): Promise<EngineResult> {
  const result = emptyResult('pglite');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gscrm-bench-'));
  const removeDataDir = () => fs.rmSync(dataDir, { recursive: true, force: true });
  process.once('exit', removeDataDir); // also when interrupted
  try {
    log(
      `\nPGlite: loading ${ROWS} customers${LEADS > 0 ? ` and ${LEADS} leads` : ''} into ${dataDir}`,
    );
    const started = performance.now();
    const database = await openDatabase({ dataDir });
    const loaded = await loadBook(
      database,
      ROWS,
      BENCH_PASSWORD,
      log,
      CONTRACTS_PER_CUSTOMER,
      APPOINTMENTS,
    );
    if (LEADS > 0) result.board = await loadLeads(database, LEADS, log);
    if (COMMISSIONS) result.recompute = await recompute(database.db);
    await database.close();
    result.generation = { seconds: loaded.seconds, rows: ROWS };
    log(
      `  customers in ${loaded.seconds.toFixed(1)} s (with the database's creation ${seconds(performance.now() - started)})`,
    );
    await measureApp({ DATA_DIR: dataDir }, result);
  } finally {
    removeDataDir();
    process.off('exit', removeDataDir);
  }
  result.loadAverage.after = os.loadavg();
  return result;
}

/** Starts the app against a capturing proxy and records the statements of each case's request. */
async function captureStatements(url: string): Promise<Record<string, CapturedStatement[]>> {
  const target = new URL(url);
  const proxy = await startCaptureProxy({
    host: target.hostname,
    port: Number(target.port || 5432),
  });
  const proxied = new URL(url);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(proxy.port);
  const app = await startApp({ DATABASE_URL: proxied.toString(), JOBS_WORK: '0' });
  const captured: Record<string, CapturedStatement[]> = {};
  try {
    const admin = await signIn(app.url, ADMIN, BENCH_PASSWORD);
    const requests: Array<[string, string]> = [
      ['page 1 (admin)', LIST],
      ['search=müller', `${LIST}&search=${encodeURIComponent('müller')}`],
    ];
    for (const [name, pathname] of requests) {
      // The first request warms the app's caches (session, planner); the second is recorded.
      for (let run = 0; run < 2; run++) {
        proxy.begin();
        const response = await fetch(`${app.url}${pathname}`, {
          headers: { authorization: admin },
        });
        await response.arrayBuffer();
        await new Promise((resolve) => setTimeout(resolve, 150));
        const statements = proxy.end().filter((statement) => !/pgboss/i.test(statement.text));
        if (response.status !== 200) throw new Error(`capture of ${pathname}: ${response.status}`);
        captured[name] = statements;
      }
    }
  } finally {
    await app.stop();
    await proxy.close();
  }
  return captured;
}

async function benchPostgres(): Promise<EngineResult> {
  const result = emptyResult('postgres');
  await withTemporaryDatabase(POSTGRES, async (url) => {
    log(
      `\nPostgreSQL: loading ${ROWS} customers${LEADS > 0 ? ` and ${LEADS} leads` : ''} into ${new URL(url).pathname.slice(1)}`,
    );
    const database = await openDatabase({ databaseUrl: url });
    const loaded = await loadBook(
      database,
      ROWS,
      BENCH_PASSWORD,
      log,
      CONTRACTS_PER_CUSTOMER,
      APPOINTMENTS,
    );
    if (LEADS > 0) result.board = await loadLeads(database, LEADS, log);
    if (COMMISSIONS) result.recompute = await recompute(database.db);
    await database.close();
    result.generation = { seconds: loaded.seconds, rows: ROWS };
    log(`  customers in ${loaded.seconds.toFixed(1)} s`);
    const captured = ONLY_LEADS || ONLY_COMMISSIONS ? {} : await captureStatements(url);
    if (!ONLY_LEADS && !ONLY_COMMISSIONS) result.captured = captured;
    DB_NAME = new URL(url).pathname.slice(1);
    try {
      await measureApp({ DATABASE_URL: url }, result);
    } finally {
      DB_NAME = undefined;
    }
    if (ONLY_LEADS || ONLY_COMMISSIONS) return;
    // The same statements straight through pg, as many clients as the app had connections.
    const byRole = (statements: CapturedStatement[], roles: string[]) =>
      statements.filter((statement) => roles.includes(statementRole(statement.text)));
    const page = captured['page 1 (admin)'];
    const search = captured['search=müller'];
    const variants: Array<[string, CapturedStatement[]]> = [
      ['page 1: page query only', byRole(page, ['page'])],
      ['page 1: page + count', byRole(page, ['page', 'count'])],
      ['page 1: every statement of the request', page],
      ['search=müller: page + count', byRole(search, ['page', 'count'])],
    ];
    result.raw = [];
    for (const [name, statements] of variants) {
      if (statements.length === 0) {
        log(`  raw ${name}: no such statement captured`);
        continue;
      }
      const database = new URL(url).pathname.slice(1);
      const raw = await rawLoad(url, statements, {
        clients: CONNECTIONS,
        duration: DURATION,
        cpu: () => [...backendsCpuMs(database).values()].reduce((sum, ms) => sum + ms, 0),
      });
      result.raw.push({ name, statements, result: raw });
      log(
        `  raw ${name.padEnd(40)} ${raw.reqPerSec.toFixed(1).padStart(7)} req/s  p50 ${raw.p50.toFixed(1)}  p95 ${raw.p95.toFixed(1)} ms, db CPU ${raw.dbCpuMsPerRequest?.toFixed(1)} ms/request (${statements.length} statements${raw.errors ? `, ${raw.errors} errors` : ''})`,
      );
    }
    result.floor = await measureFloor(url, byRole(page, ['page', 'count']));
  });
  result.loadAverage.after = os.loadavg();
  return result;
}

/**
 * The HTTP floor: page 1's page + count statements answered by a bare Fastify + pg server with the
 * app's compression (./floor-server.ts), loaded like the app's cases.
 */
async function measureFloor(
  url: string,
  statements: CapturedStatement[],
): Promise<{ statements: CapturedStatement[]; result: LoadResult }> {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gscrm-floor-')), 'statements.json');
  fs.writeFileSync(file, JSON.stringify(statements));
  const floor = await startApp(
    { DATABASE_URL: url, FLOOR_STATEMENTS: file },
    60_000,
    'scripts/bench/floor-server.ts',
  );
  try {
    const options = {
      connections: CONNECTIONS,
      headers: ACCEPT_ENCODING ? { 'accept-encoding': ACCEPT_ENCODING } : undefined,
    };
    await hammer(`${floor.url}/floor`, { ...options, duration: 1 }); // warm-up
    const loaded = await hammer(`${floor.url}/floor`, { ...options, duration: DURATION });
    log(
      `  HTTP floor (bare Fastify + pg, page + count) ${loaded.reqPerSec.toFixed(1).padStart(7)} req/s  p50 ${loaded.p50.toFixed(1)}  p95 ${loaded.p95.toFixed(1)} ms${loaded.non2xx ? `, ${loaded.non2xx} non-2xx` : ''}`,
    );
    return { statements, result: loaded };
  } finally {
    await floor.stop();
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  }
}

const startedAt = new Date();
const uptimeBefore = uptime();
log(
  ONLY_LEADS
    ? `GS CRM API benchmark, lead board only: ${LEADS} leads, ${BOARD_ROUNDS} first screens per user, ${DROP_ROUNDS} drops, ${DROP_CLIENTS} clients × ${DROPS_PER_CLIENT} drops`
    : `GS CRM API benchmark: ${ROWS} customers, ${LEADS} leads, ${CONNECTIONS} connections, ${DURATION} s per case`,
);
log(`machine: ${os.cpus().length} cores; ${uptimeBefore}`);
const engines: EngineResult[] = [];
for (const engine of ENGINES)
  engines.push(engine === 'pglite' ? await benchPglite() : await benchPostgres());
const label = args.label || (args.only ?? '');
const report = {
  startedAt: startedAt.toISOString(),
  minutes: (Date.now() - startedAt.getTime()) / 60_000,
  label,
  git: gitDescription(REPO_ROOT, ['server', 'src', 'schemas']),
  rows: ROWS,
  contractsPerCustomer: CONTRACTS_PER_CUSTOMER,
  appointments: APPOINTMENTS,
  only: args.only,
  leads: LEADS,
  boardRounds: BOARD_ROUNDS,
  dropRounds: DROP_ROUNDS,
  dropClients: DROP_CLIENTS,
  dropsPerClient: DROPS_PER_CLIENT,
  connections: CONNECTIONS,
  acceptEncoding: ACCEPT_ENCODING,
  duration: DURATION,
  sortRounds: SORT_ROUNDS,
  machine: machineDescription(uptimeBefore),
  engines,
};
fs.mkdirSync(args.out as string, { recursive: true });
const stamp = startedAt.toISOString().replace(/[-:]/g, '').replace(/\..*/, '').replace('T', '-');
const base = path.join(args.out as string, `api-${stamp}${label ? `-${label}` : ''}`);
fs.writeFileSync(`${base}.json`, `${JSON.stringify(report, null, 2)}\n`);
fs.writeFileSync(`${base}.md`, renderMarkdown(report));
log(`\n${renderMarkdown(report)}`);
log(`written: ${base}.json, ${base}.md (${report.minutes.toFixed(1)} min)`);
