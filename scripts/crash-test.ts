/**
 * Crash test (issue 10): does every write the server acknowledged survive a `kill -9`?
 * For each engine — PGlite in a fresh data folder, then PostgreSQL in a fresh database on
 * TEST_DATABASE_URL's server (there the app server is killed, not PostgreSQL) — it starts the app
 * server (server/main.ts) as a child process on the loopback, drives write load through the API
 * with a few concurrent clients (customers created, their notes updated, household members
 * added), kills the server with SIGKILL at a random moment, restarts it and checks that every
 * write answered 2xx so far is stored as answered; N cycles. Prints a summary per engine and
 * exits 1 when a write was lost, a write was refused, or the server did not come back.
 *   npm run crash-test -- [--cycles 5] [--clients 4] [--engine both|pglite|postgres]
 *                         [--min-ms 1000] [--max-ms 4000] [--seed 42] [--timeout 900]
 * An update in flight at the kill may or may not be stored: either value passes.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';

const { values: args } = parseArgs({
  options: {
    cycles: { type: 'string', default: '5' },
    clients: { type: 'string', default: '4' },
    engine: { type: 'string', default: 'both' },
    'min-ms': { type: 'string', default: '1000' },
    'max-ms': { type: 'string', default: '4000' },
    seed: { type: 'string', default: String(Date.now() % 1_000_000) },
    timeout: { type: 'string', default: '900' },
  },
});
const CYCLES = Number(args.cycles);
const CLIENTS = Number(args.clients);
const MIN_MS = Number(args['min-ms']);
const MAX_MS = Number(args['max-ms']);
const SEED = Number(args.seed);
const TIMEOUT_MS = Number(args.timeout) * 1000;
for (const [name, value] of Object.entries({ CYCLES, CLIENTS, MIN_MS, MAX_MS, SEED, TIMEOUT_MS }))
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number`);
if (CYCLES < 1 || CLIENTS < 1 || MAX_MS < MIN_MS) throw new Error('bad --cycles/--clients/--*-ms');
if (!['both', 'pglite', 'postgres'].includes(String(args.engine)))
  throw new Error('--engine is both, pglite or postgres');
const ENGINES = (args.engine === 'both' ? ['pglite', 'postgres'] : [args.engine]) as Engine[];
type Engine = 'pglite' | 'postgres';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const PASSWORD = 'Crash-Test-Passw0rd!';
const ADMIN = 'admin@demo.gscrm.ch';
const HOST = '127.0.0.1';
const deadline = Date.now() + TIMEOUT_MS;

/** A small seeded generator (mulberry32), so a run can be repeated with --seed. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}
const random = seeded(SEED);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A free port on the loopback (the server is started on it right after). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, HOST, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

interface Server {
  child: ChildProcess;
  base: string;
  log: string[];
}

/** Starts server/main.ts and waits until /api/health answers; throws with its log otherwise. */
async function startServer(env: NodeJS.ProcessEnv, port: number): Promise<Server> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'server/main.ts')], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), HOST },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log: string[] = [];
  const keep = (chunk: Buffer) => {
    log.push(chunk.toString());
    if (log.length > 200) log.splice(0, log.length - 200);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const base = `http://${HOST}:${port}`;
  const until = Math.min(deadline, Date.now() + 180_000);
  while (Date.now() < until) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(
        `the server exited (${child.exitCode ?? child.signalCode}):\n${log.join('')}`,
      );
    try {
      const response = await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(2000) });
      if (response.ok) return { child, base, log };
    } catch {
      // Not listening yet.
    }
    await sleep(100);
  }
  child.kill('SIGKILL');
  throw new Error(`the server did not answer /api/health in time:\n${log.join('')}`);
}

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });

/** A write as the clients saw it. */
interface Acknowledged {
  resource: 'customers' | 'household-members';
  id: number;
  /** The field checked afterwards and the value the 2xx answer confirmed. */
  field: string;
  value: string;
  /** A later update sent without an answer (in flight at the kill): that value passes too. */
  pending: string[];
}

interface Tally {
  creates: number;
  updates: number;
  members: number;
  /** Requests that had no answer because the server was killed: outcome unknown, allowed. */
  inFlight: number;
  /** Non-2xx answers and failures outside a kill: each makes the run fail. */
  errors: string[];
  missing: string[];
  restartsMs: number[];
  verified: number;
}

type Answer = { status: number; body: Record<string, unknown> } | 'no answer';

async function call(
  base: string,
  token: string | undefined,
  method: string,
  url: string,
  body?: unknown,
): Promise<Answer> {
  try {
    const response = await fetch(`${base}${url}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    let parsed: Record<string, unknown> = {};
    try {
      parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      parsed = { text };
    }
    return { status: response.status, body: parsed };
  } catch {
    return 'no answer';
  }
}

async function login(base: string): Promise<string> {
  const answer = await call(base, undefined, 'POST', '/api/auth/login', {
    email: ADMIN,
    password: PASSWORD,
  });
  if (answer === 'no answer' || answer.status !== 200)
    throw new Error(`sign-in failed: ${JSON.stringify(answer)}`);
  return String(answer.body.token);
}

const idOf = (answer: { body: Record<string, unknown> }) =>
  Number((answer.body.data as { id?: unknown } | undefined)?.id);

/**
 * One client: creates customers, updates the notes of its own customers (one client per record,
 * so the last acknowledged value is well defined) and adds household members, until `stop()`.
 */
async function client(
  number: number,
  cycle: number,
  base: string,
  token: string,
  own: Acknowledged[],
  tally: Tally,
  killed: () => boolean,
): Promise<void> {
  let step = 0;
  const failed = (what: string, answer: Answer) => {
    if (answer === 'no answer' && killed()) tally.inFlight++;
    else if (tally.errors.length < 1000)
      tally.errors.push(
        `${what}: ${answer === 'no answer' ? 'no answer' : `${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`}`,
      );
  };
  const customers = own.filter((write) => write.resource === 'customers');
  while (!killed()) {
    step++;
    const marker = `c${cycle}-k${number}-s${step}`;
    const choice = random();
    if (choice < 0.4 || customers.length === 0) {
      const answer = await call(base, token, 'POST', '/api/customers', {
        first_name: 'Crash',
        last_name: `Test ${marker}`,
        notes: marker,
      });
      if (answer !== 'no answer' && answer.status === 201) {
        const write: Acknowledged = {
          resource: 'customers',
          id: idOf(answer),
          field: 'notes',
          value: marker,
          pending: [],
        };
        own.push(write);
        customers.push(write);
        tally.creates++;
      } else failed(`create customer ${marker}`, answer);
    } else if (choice < 0.8) {
      const target = customers[Math.floor(random() * customers.length)];
      target.pending.push(marker);
      const answer = await call(base, token, 'PATCH', `/api/customers/${target.id}`, {
        notes: marker,
      });
      if (answer !== 'no answer' && answer.status === 200) {
        target.value = marker;
        target.pending = [];
        tally.updates++;
      } else {
        // Refused: that value was not stored; no answer: it may have been.
        if (answer !== 'no answer') target.pending.pop();
        failed(`update customer ${target.id}`, answer);
      }
    } else {
      const parent = customers[Math.floor(random() * customers.length)];
      const answer = await call(base, token, 'POST', '/api/household-members', {
        customer_id: parent.id,
        first_name: 'Member',
        last_name: marker,
      });
      if (answer !== 'no answer' && answer.status === 201) {
        own.push({
          resource: 'household-members',
          id: idOf(answer),
          field: 'last_name',
          value: marker,
          pending: [],
        });
        tally.members++;
      } else failed(`create member ${marker}`, answer);
    }
  }
}

/** Checks every acknowledged write against the stored records (100 ids per list request). */
async function verify(base: string, token: string, writes: Acknowledged[], tally: Tally) {
  const missing: string[] = [];
  for (const resource of ['customers', 'household-members'] as const) {
    const ofResource = writes.filter((write) => write.resource === resource);
    for (let start = 0; start < ofResource.length; start += 100) {
      const batch = ofResource.slice(start, start + 100);
      const query = batch.map((write) => `id=${write.id}`).join('&');
      const answer = await call(base, token, 'GET', `/api/${resource}?${query}&per_page=500`);
      if (answer === 'no answer' || answer.status !== 200)
        throw new Error(`reading ${resource} failed: ${JSON.stringify(answer).slice(0, 300)}`);
      const stored = new Map(
        (answer.body.data as Array<Record<string, unknown>>).map((row) => [Number(row.id), row]),
      );
      for (const write of batch) {
        const row = stored.get(write.id);
        const value = row?.[write.field];
        if (!row) missing.push(`${resource} ${write.id} (${write.value}) is gone`);
        else if (value !== write.value && !write.pending.includes(String(value)))
          missing.push(
            `${resource} ${write.id}: ${write.field} is ${JSON.stringify(value)}, acknowledged ${write.value}`,
          );
      }
    }
  }
  tally.verified = writes.length;
  tally.missing = missing;
}

/** The engine's database: a data folder or a fresh PostgreSQL database, and how to remove it. */
async function prepare(engine: Engine): Promise<{ env: NodeJS.ProcessEnv; drop(): Promise<void> }> {
  const documents = fs.mkdtempSync(path.join(os.tmpdir(), 'gscrm-crash-docs-'));
  const common = {
    DEMO: '1',
    DEMO_PASSWORD: PASSWORD,
    DOCUMENTS_DIR: documents,
    WEB_ROOT: path.join(documents, 'no-web-app'),
    APP_ENV: 'local',
    LOG_REQUESTS: '0',
  };
  if (engine === 'pglite') {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gscrm-crash-data-'));
    return {
      env: { ...common, DATA_DIR: dataDir, DATABASE_URL: '' },
      drop: async () => {
        fs.rmSync(dataDir, { recursive: true, force: true });
        fs.rmSync(documents, { recursive: true, force: true });
      },
    };
  }
  const name = `gscrm_crash_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    env: { ...common, DATABASE_URL: url.toString() },
    drop: async () => {
      const client = new pg.Client({ connectionString: ADMIN_URL });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
      fs.rmSync(documents, { recursive: true, force: true });
    },
  };
}

async function run(engine: Engine): Promise<Tally & { ms: number }> {
  const started = Date.now();
  const tally: Tally = {
    creates: 0,
    updates: 0,
    members: 0,
    inFlight: 0,
    errors: [],
    missing: [],
    restartsMs: [],
    verified: 0,
  };
  const { env, drop } = await prepare(engine);
  const port = await freePort();
  const writes: Acknowledged[][] = Array.from({ length: CLIENTS }, () => []);
  let server: Server | undefined;
  try {
    process.stderr.write(`${engine}: first start (migrations, demo data)…\n`);
    server = await startServer(env, port);
    for (let cycle = 1; cycle <= CYCLES; cycle++) {
      if (Date.now() > deadline) throw new Error(`--timeout reached in cycle ${cycle}`);
      const token = await login(server.base);
      let killed = false;
      const load = writes.map((own, index) =>
        client(index + 1, cycle, server!.base, token, own, tally, () => killed),
      );
      const after = MIN_MS + Math.floor(random() * (MAX_MS - MIN_MS + 1));
      await sleep(after);
      const victim = server.child;
      killed = true;
      victim.kill('SIGKILL');
      await exited(victim);
      await Promise.all(load);
      const restart = Date.now();
      server = await startServer(env, port);
      tally.restartsMs.push(Date.now() - restart);
      await verify(server.base, await login(server.base), writes.flat(), tally);
      process.stderr.write(
        `${engine}: cycle ${cycle}/${CYCLES} killed after ${after} ms of load; ` +
          `${tally.verified} records checked against every acknowledged write, ${tally.missing.length} missing\n`,
      );
      if (tally.missing.length > 0) break;
    }
  } finally {
    if (server && server.child.exitCode === null && server.child.signalCode === null) {
      server.child.kill('SIGTERM');
      await Promise.race([exited(server.child), sleep(15_000)]);
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
    }
    await drop().catch((error: unknown) =>
      process.stderr.write(`${engine}: cleaning up failed: ${String(error)}\n`),
    );
  }
  return { ...tally, ms: Date.now() - started };
}

process.stderr.write(
  `crash test: ${CYCLES} cycles per engine, ${CLIENTS} clients, kill after ${MIN_MS}–${MAX_MS} ms of load, seed ${SEED}\n`,
);
const results: Array<[Engine, Awaited<ReturnType<typeof run>>]> = [];
let failed = false;
for (const engine of ENGINES) {
  try {
    results.push([engine, await run(engine)]);
  } catch (error) {
    failed = true;
    process.stderr.write(`${engine}: ${(error as Error).message}\n`);
  }
}

const rows = results.map(([engine, r]) => {
  const average = r.restartsMs.reduce((sum, ms) => sum + ms, 0) / (r.restartsMs.length || 1);
  return {
    engine,
    cycles: r.restartsMs.length,
    acknowledged: r.creates + r.updates + r.members,
    'creates/updates/members': `${r.creates}/${r.updates}/${r.members}`,
    'in flight at kill': r.inFlight,
    missing: r.missing.length,
    errors: r.errors.length,
    'restart avg/max': `${(average / 1000).toFixed(1)} s / ${(Math.max(0, ...r.restartsMs) / 1000).toFixed(1)} s`,
    time: `${Math.round(r.ms / 1000)} s`,
  };
});
console.table(rows);
for (const [engine, r] of results) {
  for (const line of r.missing.slice(0, 20)) console.log(`${engine} missing: ${line}`);
  for (const line of r.errors.slice(0, 20)) console.log(`${engine} error: ${line}`);
  if (r.missing.length > 0 || r.errors.length > 0 || r.restartsMs.length < CYCLES) failed = true;
}
console.log(failed ? 'CRASH TEST FAILED' : 'Every acknowledged write survived.');
process.exit(failed ? 1 : 0);
