/**
 * The app under test as its own process — `server/main.ts` through tsx's loader, as `npm start`
 * runs it (WEB_ROOT left to its default; the cases ask only the API) — so the measurement includes the real
 * HTTP stack, and the load generator does not share its event loop.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository the script runs from (works in a worktree of an older commit too). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The machine's uptime line with its load averages (`uptime`). */
export const uptime = (): string => execFileSync('uptime', { encoding: 'utf8' }).trim();

/**
 * The commit a report measured and whether tracked files differ from it (under `paths` when
 * given, else anywhere in the checkout `root`).
 */
export function gitDescription(
  root = REPO_ROOT,
  paths: string[] = [],
): { commit: string; dirty: boolean } {
  const git = (...parts: string[]) =>
    execFileSync('git', parts, { cwd: root, encoding: 'utf8' }).trim();
  try {
    return {
      commit: git('rev-parse', '--short', 'HEAD'),
      dirty: git('status', '--porcelain', '--untracked-files=no', '--', ...paths).length > 0,
    };
  } catch {
    return { commit: 'unknown', dirty: false };
  }
}

/** The machine as a report states it: cores, memory, Node, the load before the run and now. */
export function machineDescription(uptimeBefore: string) {
  return {
    cores: os.cpus().length,
    memoryGb: os.totalmem() / 2 ** 30,
    node: process.version,
    uptimeBefore,
    uptimeAfter: uptime(),
  };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Apps still running: ended with the benchmark, also when it is interrupted. */
const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

export interface AppProcess {
  url: string;
  pid: number;
  /** Milliseconds from spawn to the first healthy answer. */
  startMs: number;
  /** Resident memory now and the peak (VmRSS, VmHWM), in MB. */
  memory(): { rssMb: number; peakMb: number };
  /** CPU time the process has used (user + system, all threads), in ms. */
  cpuMs(): number;
  /** The process's output so far (for error messages). */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts the app with `env` (PGlite: DATA_DIR; PostgreSQL: DATABASE_URL) and waits until
 * `/api/health` answers 200. Demo seeding is off (DEMO=0): the benchmark loaded its own book.
 */
export async function startApp(
  env: Record<string, string>,
  timeoutMs = 180_000,
  script = 'server/main.ts',
): Promise<AppProcess> {
  const port = await freePort();
  const started = performance.now();
  let log = '';
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(REPO_ROOT, script)],
    {
      cwd: REPO_ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        NODE_ENV: 'production',
        PORT: String(port),
        HOST: '127.0.0.1',
        DEMO: '0',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  running.add(child);
  child.once('exit', () => running.delete(child));
  const append = (chunk: Buffer) => {
    log += chunk.toString();
    if (log.length > 50_000) log = log.slice(-50_000);
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  let exited: number | null | undefined;
  const exit = new Promise<void>((resolve) =>
    child.once('exit', (code) => {
      exited = code;
      resolve();
    }),
  );
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (exited !== undefined)
      throw new Error(`the app ended (code ${exited}) before healthy:\n${log}`);
    if (performance.now() - started > timeoutMs) {
      child.kill('SIGKILL');
      throw new Error(`the app was not healthy within ${timeoutMs / 1000} s:\n${log}`);
    }
    try {
      const response = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2000) });
      if (response.status === 200) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const startMs = performance.now() - started;
  const pid = child.pid as number;
  return {
    url,
    pid,
    startMs,
    memory() {
      const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
      const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
      return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
    },
    cpuMs: () => processCpuMs(pid),
    output: () => log,
    async stop() {
      if (exited !== undefined) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exit;
      clearTimeout(timer);
    },
  };
}

/** Signs in through the API and answers the Authorization header. */
export async function signIn(url: string, email: string, password: string): Promise<string> {
  const response = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (response.status !== 200)
    throw new Error(`sign-in of ${email}: ${response.status} ${await response.text()}`);
  return `Bearer ${((await response.json()) as { token: string }).token}`;
}

const CLOCK_TICKS = 100; // USER_HZ, 100 on Linux

/** user + system CPU of a process (all its threads), in ms; 0 when it is gone. */
export function processCpuMs(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

/**
 * CPU of the PostgreSQL backends serving `database` (found by their process title,
 * `postgres: … <user> <database> <client> …`; the server must run on this machine), by pid.
 */
export function backendsCpuMs(database: string): Map<number, number> {
  const cpu = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const title = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (title.startsWith('postgres: ') && title.includes(` ${database} `))
        cpu.set(Number(entry), processCpuMs(Number(entry)));
    } catch {
      // ended meanwhile
    }
  }
  return cpu;
}
