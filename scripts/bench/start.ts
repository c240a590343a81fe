/**
 * Start-up benchmark (issue 13): how long the app takes until `GET /api/health` answers 200.
 *
 *   npm run bench:start [-- --rounds 3] [--server compiled|tsx] [--no-npm] [--root DIR]
 *                       [--label TEXT] [--out DIR]
 *
 * Cases, each measured `--rounds` times (round-robin, so a busy moment of the shared machine
 * spreads over all cases), wall time from spawn to the first 200 and CPU time of the whole process
 * tree until then (user + system of every process, finished children included):
 * - **first start**: the server on an empty temporary data folder (PGlite, demo data on, as a
 *   fresh clone's `npm start` after its build);
 * - **restart**: the server again on that folder;
 * - **npm start, clean build**: `npm start` in a fresh copy of the repository (tracked and
 *   untracked files, no build output; node_modules linked) on an empty data folder;
 * - **npm start, build up to date**: `npm start` again in that copy, on the same data folder.
 * `--server compiled` (default) runs the server as `npm start` does, `node .cache/server/main.mjs`
 * (built first when missing); `--server tsx` runs `server/main.ts` through tsx (before the bundle).
 * `--root DIR` measures another checkout (a worktree of an older commit, its node_modules linked).
 * The prepared database image (`.cache/pglite-image`, made by `postinstall`) is made first when
 * missing, as `npm ci` would. Writes `bench/results/start-<time>[-label].json` and `.md`.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { freePort, gitDescription, machineDescription, REPO_ROOT, uptime } from './server.ts';

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    server: { type: 'string', default: 'compiled' },
    'no-npm': { type: 'boolean', default: false },
    root: { type: 'string', default: REPO_ROOT },
    label: { type: 'string' },
    out: { type: 'string', default: path.join(REPO_ROOT, 'bench', 'results') },
  },
});
const ROOT = path.resolve(args.root as string);
const ROUNDS = Number(args.rounds);
const SERVER = args.server as 'compiled' | 'tsx';
const WITH_NPM = !args['no-npm'];
if (!['compiled', 'tsx'].includes(SERVER)) throw new Error('--server is compiled or tsx');
if (!fs.existsSync(path.join(ROOT, 'node_modules')))
  throw new Error(`${ROOT} has no node_modules (link the repository's: ln -s …/node_modules)`);

const CLOCK_TICKS = 100; // USER_HZ

/** Every process's parent and CPU (own + finished children), from /proc. */
function processTable(): Map<number, { ppid: number; cpuMs: number }> {
  const table = new Map<number, { ppid: number; cpuMs: number }>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // utime, stime, cutime, cstime (fields 14–17 of stat; 11–14 after the name)
      const ticks = [11, 12, 13, 14].reduce((sum, index) => sum + Number(fields[index]), 0);
      table.set(Number(entry), { ppid: Number(fields[1]), cpuMs: (ticks * 1000) / CLOCK_TICKS });
    } catch {
      // ended meanwhile
    }
  }
  return table;
}

/** CPU of a process and all its descendants, finished ones included (they were waited for). */
function treeCpuMs(rootPid: number): number {
  const table = processTable();
  let total = 0;
  const visit = (pid: number) => {
    total += table.get(pid)?.cpuMs ?? 0;
    for (const [child, info] of table) if (info.ppid === pid) visit(child);
  };
  visit(rootPid);
  return total;
}

interface Measurement {
  wallMs: number;
  cpuMs: number;
  /** What the server said it took ("ready in N ms"), when it says so. */
  readyMs?: number;
  /** Whether the build ran or found everything up to date (npm start cases). */
  built?: string;
}

interface Started {
  measurement: Measurement;
  stop(): Promise<void>;
}

/** Spawns `command` (own process group), waits for health, measures; `stop` ends the group. */
async function measureStart(
  command: string[],
  cwd: string,
  env: Record<string, string>,
  timeoutMs = 240_000,
): Promise<Started> {
  const port = await freePort();
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env, PORT: String(port) };
  childEnv.HOST = '127.0.0.1';
  for (const key of ['DEMO', 'DATABASE_URL', 'WEB_ROOT', 'npm_lifecycle_event'])
    delete childEnv[key];
  let log = '';
  const started = performance.now();
  const child: ChildProcess = spawn(command[0], command.slice(1), {
    cwd,
    env: childEnv,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const pid = child.pid as number;
  let exited: number | null | undefined;
  const exit = new Promise<void>((resolve) =>
    child.once('exit', (code) => {
      exited = code;
      resolve();
    }),
  );
  const append = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-50_000);
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  const stop = async () => {
    try {
      process.kill(-pid, 'SIGTERM');
    } catch {
      return;
    }
    const deadline = Date.now() + 20_000;
    let killed = false;
    // The whole group, so the data folder is free for the next case.
    for (;;) {
      try {
        process.kill(-pid, 0);
      } catch {
        break;
      }
      if (!killed && Date.now() > deadline) {
        process.kill(-pid, 'SIGKILL');
        killed = true;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await exit;
  };
  for (;;) {
    if (exited !== undefined) throw new Error(`${command.join(' ')} ended (${exited}):\n${log}`);
    if (performance.now() - started > timeoutMs) {
      await stop();
      throw new Error(`${command.join(' ')} not healthy within ${timeoutMs / 1000} s:\n${log}`);
    }
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/health`, {
        signal: AbortSignal.timeout(2000),
      });
      if (response.status === 200) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  const wallMs = performance.now() - started;
  const cpuMs = treeCpuMs(pid);
  // The log line may trail the health answer by a moment.
  await new Promise((resolve) => setTimeout(resolve, 200));
  const ready = /ready in (\d+) ms/.exec(log);
  const built = [...log.matchAll(/^(Built the \w+|The \w+ build is up to date)/gm)]
    .map((match) => match[1].replace(/^The (\w+) build is up to date$/, '$1 up to date'))
    .join(', ');
  return {
    measurement: {
      wallMs,
      cpuMs,
      readyMs: ready ? Number(ready[1]) : undefined,
      built: built || undefined,
    },
    stop,
  };
}

const temporary = fs.mkdtempSync(path.join(os.tmpdir(), 'gscrm-bench-start-'));
process.on('exit', () => fs.rmSync(temporary, { recursive: true, force: true }));
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

const imageDir = path.join(ROOT, '.cache', 'pglite-image');
const tsx = path.join(ROOT, 'node_modules', '.bin', 'tsx');
function prepare(): void {
  // As after `npm ci` (postinstall): the prepared database image, and for the compiled server
  // its build (the first-start case measures the server, not the build).
  execFileSync(tsx, ['scripts/prepare-db.ts'], { cwd: ROOT, stdio: 'inherit' });
  if (SERVER === 'compiled')
    execFileSync(tsx, ['scripts/build.ts', '--server-only'], { cwd: ROOT, stdio: 'inherit' });
}

function serverCommand(): string[] {
  return SERVER === 'compiled'
    ? [process.execPath, '.cache/server/main.mjs']
    : [process.execPath, '--import', 'tsx', 'server/main.ts'];
}

/** A copy of the checkout as a fresh clone has it: its files, no build output, node_modules linked. */
function freshCopy(target: string): void {
  const files = execFileSync('git', ['ls-files', '-z', '-co', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
  })
    .split('\0')
    // A linked node_modules (a file to git, which ignores only the folder) is linked below.
    .filter((file) => file && file !== 'node_modules');
  for (const file of files) {
    const from = path.join(ROOT, file);
    if (!fs.existsSync(from)) continue; // deleted in the working tree
    fs.mkdirSync(path.dirname(path.join(target, file)), { recursive: true });
    fs.copyFileSync(from, path.join(target, file));
  }
  fs.symlinkSync(
    fs.realpathSync(path.join(ROOT, 'node_modules')),
    path.join(target, 'node_modules'),
  );
}

const CASES = [
  'first start',
  'restart',
  ...(WITH_NPM ? ['npm start, clean build', 'npm start, build up to date'] : []),
] as const;
type CaseName = (typeof CASES)[number];

const startedAt = new Date();
const uptimeBefore = uptime();
console.log(`machine: ${os.cpus().length} cores; ${uptimeBefore}`);
prepare();
const results = new Map<CaseName, Measurement[]>(CASES.map((name) => [name, []]));
const record = (name: CaseName, measurement: Measurement) => {
  results.get(name)?.push(measurement);
  console.log(
    `  ${name.padEnd(28)} ${(measurement.wallMs / 1000).toFixed(2)} s wall, ${(measurement.cpuMs / 1000).toFixed(2)} s CPU` +
      `${measurement.readyMs ? `, server says ready in ${measurement.readyMs} ms` : ''}${measurement.built ? ` (${measurement.built})` : ''}`,
  );
};

for (let round = 1; round <= ROUNDS; round++) {
  console.log(`round ${round}/${ROUNDS}`);
  const dataDir = path.join(temporary, `data-${round}`);
  const env = { DATA_DIR: dataDir, PGLITE_IMAGE_DIR: imageDir };
  for (const name of ['first start', 'restart'] as const) {
    const run = await measureStart(serverCommand(), ROOT, env);
    await run.stop();
    record(name, run.measurement);
  }
  if (!WITH_NPM) continue;
  const copy = path.join(temporary, `copy-${round}`);
  freshCopy(copy);
  const npmEnv = {
    DATA_DIR: path.join(temporary, `npm-data-${round}`),
    PGLITE_IMAGE_DIR: imageDir,
  };
  for (const name of ['npm start, clean build', 'npm start, build up to date'] as const) {
    const run = await measureStart(['npm', 'start', '--silent'], copy, npmEnv);
    await run.stop();
    record(name, run.measurement);
  }
  fs.rmSync(copy, { recursive: true, force: true });
}

const median = (numbers: number[]) => {
  const sorted = [...numbers].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const TARGETS: Record<CaseName, number> = {
  'first start': 5000,
  restart: 2000,
  'npm start, clean build': 12000,
  'npm start, build up to date': 12000,
};
const report = {
  startedAt: startedAt.toISOString(),
  label: args.label,
  root: ROOT,
  server: SERVER,
  rounds: ROUNDS,
  git: gitDescription(ROOT),
  machine: machineDescription(uptimeBefore),
  cases: CASES.map((name) => {
    const runs = results.get(name) ?? [];
    return {
      name,
      targetMs: TARGETS[name],
      medianWallMs: median(runs.map((run) => run.wallMs)),
      minWallMs: Math.min(...runs.map((run) => run.wallMs)),
      medianCpuMs: median(runs.map((run) => run.cpuMs)),
      runs,
    };
  }),
};

const seconds = (ms: number) => (ms / 1000).toFixed(2);
const markdown = [
  `# Start-up benchmark ${report.startedAt}${report.label ? ` (${report.label})` : ''}`,
  '',
  `Commit ${report.git.commit}${report.git.dirty ? ' with uncommitted changes' : ''} in ${ROOT}; ` +
    `server run ${SERVER === 'compiled' ? 'compiled (`node .cache/server/main.mjs`)' : 'through tsx (`server/main.ts`)'}; ` +
    `${ROUNDS} rounds; time to the first 200 of \`GET /api/health\`; CPU of the whole process tree until then.`,
  '',
  `Machine: ${report.machine.cores} cores, ${report.machine.memoryGb.toFixed(1)} GB, Node ${report.machine.node}, shared.`,
  `Load before: \`${report.machine.uptimeBefore}\``,
  `Load after: \`${report.machine.uptimeAfter}\``,
  '',
  '| case | target | median wall s | min wall s | median CPU s | runs (wall / CPU s) |',
  '|---|---|---|---|---|---|',
  ...report.cases.map(
    (kase) =>
      `| ${kase.name} | ≤ ${seconds(kase.targetMs)} | ${seconds(kase.medianWallMs)} | ${seconds(kase.minWallMs)} | ${seconds(kase.medianCpuMs)} | ` +
      `${kase.runs.map((run) => `${seconds(run.wallMs)} / ${seconds(run.cpuMs)}${run.built ? ` (${run.built})` : ''}`).join('; ')} |`,
  ),
  '',
].join('\n');

fs.mkdirSync(args.out as string, { recursive: true });
const stamp = startedAt.toISOString().replace(/[-:]/g, '').replace(/\..*/, '').replace('T', '-');
const base = path.join(args.out as string, `start-${stamp}${args.label ? `-${args.label}` : ''}`);
fs.writeFileSync(`${base}.json`, `${JSON.stringify(report, null, 2)}\n`);
fs.writeFileSync(`${base}.md`, markdown);
console.log(`\n${markdown}\nWritten: ${base}.{json,md}`);
