/**
 * Several app servers on one PostgreSQL (PostgreSQL project only; PGlite is one process): two
 * real servers (`server/main.ts` as child processes on their own loopback ports) with documents on
 * S3 (s3rver in this process), two job workers as child processes. A session made on one server
 * is valid on the other, the login throttle is shared, a document uploaded through one is served
 * by the other, 100 jobs run 100 times and never twice, and killing a server (kill -9) leaves the
 * other serving while a killed worker's unfinished job is taken up again.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openPostgres } from '../../server/db/index.ts';
import { syncTranslations } from '../../server/i18n/sync.ts';
import { migrate } from '../../server/db/migrate.ts';
import { JobQueue } from '../../server/jobs/queue.ts';
import { loadResourceModels } from '../../server/schemas.ts';
import { ADMIN, CONSULTANT, DEMO_PASSWORD, ENGINE } from './harness.ts';
import { multipart, PDF } from './multipart.ts';
import { PROBE_POLICY, RUNS_TABLE } from './multi-server-probe.ts';

const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const ROOT = path.resolve(import.meta.dirname, '../..');
const BUCKET = 'gscrm-multi';

interface Child {
  process: ChildProcess;
  output: string;
}
const children: Child[] = [];

/** Starts a Node child running `script` (TypeScript through tsx) and waits for `readyText`. */
function start(script: string, env: Record<string, string>, readyText: string): Promise<Child> {
  const child: Child = {
    process: spawn(process.execPath, ['--import', 'tsx', script], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
    output: '',
  };
  children.push(child);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${script} not ready:\n${child.output}`)),
      60_000,
    );
    const read = (chunk: Buffer) => {
      child.output += chunk.toString();
      if (child.output.includes(readyText)) {
        clearTimeout(timer);
        resolve(child);
      }
    };
    child.process.stdout!.on('data', read);
    child.process.stderr!.on('data', read);
    child.process.on('exit', (code) => {
      clearTimeout(timer);
      if (!child.output.includes(readyText))
        reject(new Error(`${script} exited (${code}):\n${child.output}`));
    });
  });
}

const killed = (child: Child) =>
  new Promise<void>((resolve) => {
    if (child.process.exitCode !== null || child.process.signalCode !== null) return resolve();
    child.process.once('exit', () => resolve());
    child.process.kill('SIGKILL');
  });

const until = async (check: () => Promise<boolean>, timeoutMs = 30_000) => {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

describe.skipIf(ENGINE !== 'postgres')('several app servers on one PostgreSQL', () => {
  const name = `gscrm_multi_${process.pid}_${randomBytes(4).toString('hex')}`;
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  let s3: S3rver;
  let s3Folder: string;
  let database: Database;
  let sender: JobQueue;
  const base: string[] = [];
  const serverChildren: Child[] = [];
  const workerChildren = new Map<string, Child>();

  const call = (server: number, route: string, init: RequestInit = {}, token?: string) =>
    fetch(`${base[server]}${route}`, {
      ...init,
      headers: {
        ...(init.headers as Record<string, string>),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
    });
  const login = (server: number, email: string, password = DEMO_PASSWORD) =>
    call(server, '/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: ADMIN_URL });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();

    s3Folder = fs.mkdtempSync(path.join(os.tmpdir(), 'gscrm-s3-'));
    s3 = new S3rver({
      address: '127.0.0.1',
      port: 0,
      silent: true,
      directory: s3Folder,
      configureBuckets: [{ name: BUCKET, configs: [] }],
    });
    const address = await s3.run();
    const env = (port: number) => ({
      DATABASE_URL: databaseUrl,
      HOST: '127.0.0.1',
      PORT: String(port),
      DEMO: '1',
      DEMO_PASSWORD,
      APP_ENV: 'local',
      WEB_ROOT: path.join(s3Folder, 'no-web'),
      STORAGE: 's3',
      S3_ENDPOINT: `http://127.0.0.1:${address.port}`,
      S3_BUCKET: BUCKET,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: '1',
    });
    // The first start migrates and seeds; the second finds both done.
    for (const port of [18181 + (process.pid % 500), 18781 + (process.pid % 500)]) {
      serverChildren.push(await start('server/main.ts', env(port), 'GS CRM is running'));
      base.push(`http://127.0.0.1:${port}`);
    }
    database = await openPostgres(databaseUrl);
    await RUNS_TABLE.execute(database.db);
    sender = new JobQueue(database, { work: false });
    await sender.start();
    sender.define('test.probe', PROBE_POLICY, async () => {});
    await sender.ready();
  }, 180_000);

  afterAll(async () => {
    for (const child of children) await killed(child);
    await sender?.stop(1000);
    await database?.close();
    await s3?.close();
    if (s3Folder) fs.rmSync(s3Folder, { recursive: true, force: true });
    const admin = new pg.Client({ connectionString: ADMIN_URL });
    await admin.connect();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  });

  it('accepts on one server the session made on the other', async () => {
    const signedIn = await login(0, ADMIN);
    expect(signedIn.status).toBe(200);
    const { token } = (await signedIn.json()) as { token: string };
    expect((await call(1, '/api/customers?per_page=1', {}, token)).status).toBe(200);
    expect((await call(0, '/api/customers?per_page=1', {}, token)).status).toBe(200);
    await call(1, '/api/auth/logout', { method: 'POST' }, token);
    expect((await call(0, '/api/customers?per_page=1', {}, token)).status).toBe(401);
  });

  it('shares the login throttle: the account budget spent across both servers', async () => {
    const target = 'consultant2@demo.gscrm.ch';
    const statuses: number[] = [];
    for (let batch = 0; batch < 10; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) => login(i % 2, target, `Wrong-${batch}-${i}!x`)),
      );
      statuses.push(...answers.map((answer) => answer.status));
    }
    expect(statuses.filter((status) => status === 401)).toHaveLength(100);
    // The 101st password is refused on both servers: the budget lives in the database.
    expect((await login(0, target, 'Wrong-again!x')).status).toBe(429);
    expect((await login(1, target, 'Wrong-again!x')).status).toBe(429);
  }, 120_000);

  it('serves from one server the document uploaded through the other (S3)', async () => {
    const token = ((await (await login(0, CONSULTANT)).json()) as { token: string }).token;
    const customer = await database.db
      .selectFrom('customers as c')
      .innerJoin('users as u', 'u.id', 'c.assigned_to')
      .select('c.id')
      .where('u.email', '=', CONSULTANT)
      .orderBy('c.id')
      .executeTakeFirstOrThrow();
    const body = multipart([
      ['document_name', 'Police S3'],
      ['document_type', 'policy'],
      { name: 'file', filename: 'police.pdf', content: PDF, contentType: 'application/pdf' },
    ]);
    const uploaded = await call(
      0,
      `/api/customers/${customer.id}/documents`,
      { method: 'POST', body: new Uint8Array(body.payload), headers: body.headers },
      token,
    );
    expect(uploaded.status, await uploaded.clone().text()).toBe(201);
    const document = ((await uploaded.json()) as { data: { id: number; document_file: string } })
      .data;
    const download = await call(1, `/api/documents/${document.id}/download`, {}, token);
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer())).toEqual(PDF);
    // The bytes are in the object store, not on a server's disk.
    const stored = fs
      .readdirSync(s3Folder, { recursive: true })
      .map(String)
      .filter((file) => file.includes(path.basename(document.document_file)));
    expect(stored.length).toBeGreaterThan(0);
  });

  it('runs a job enqueued 100 times 100 times, never twice, with two workers', async () => {
    for (const worker of ['w1', 'w2'])
      workerChildren.set(
        worker,
        await start(
          'tests/api/multi-server-worker.ts',
          { DATABASE_URL: databaseUrl, WORKER: worker },
          'ready',
        ),
      );
    const startedAt = Date.now();
    for (let n = 0; n < 100; n++) await sender.send('test.probe', { n });
    await until(async () => {
      const row = await sql<{ n: number }>`select count(*)::int as n from multi_server_runs
        where finished_at is not null`.execute(database.db);
      return row.rows[0].n >= 100;
    }, 60_000);
    const seconds = (Date.now() - startedAt) / 1000;
    await new Promise((resolve) => setTimeout(resolve, 1500)); // a duplicate would show by now
    const runs = await sql<{ runs: number; jobs: number; numbers: number }>`
      select count(*)::int as runs, count(distinct job_id)::int as jobs,
        count(distinct n)::int as numbers from multi_server_runs`.execute(database.db);
    const perWorker = await sql<{ worker: string; runs: number }>`
      select worker, count(*)::int as runs from multi_server_runs group by worker order by worker`.execute(
      database.db,
    );
    console.log(
      `100 jobs, 2 workers: ${seconds.toFixed(1)} s (${(100 / seconds).toFixed(0)} jobs/s), ` +
        `per worker ${perWorker.rows.map((row) => `${row.worker}=${row.runs}`).join(' ')}`,
    );
    expect(runs.rows[0]).toEqual({ runs: 100, jobs: 100, numbers: 100 });
    expect(perWorker.rows).toHaveLength(2); // both took a share
  }, 120_000);

  it('after kill -9: the other server serves, the killed worker’s job is taken up again', async () => {
    const [server0] = serverChildren;
    const id = await sender.send('test.probe', { n: 1000, sleepMs: 60_000 });
    let first: { worker: string } | undefined;
    await until(async () => {
      const row = await sql<{ worker: string }>`select worker from multi_server_runs
        where job_id = ${id}`.execute(database.db);
      first = row.rows[0];
      return first !== undefined;
    });
    // Kill the worker that runs the job, and one of the servers.
    const running = workerChildren.get(first!.worker)!;
    const killedAt = Date.now();
    await killed(running);
    await killed(server0);

    // The other server still serves.
    expect((await call(1, '/api/health')).status).toBe(200);
    expect((await login(1, ADMIN)).status).toBe(200);

    await until(async () => {
      const row = await sql<{ n: number }>`select count(*)::int as n from multi_server_runs
        where job_id = ${id} and attempt > 0 and finished_at is not null`.execute(database.db);
      return row.rows[0].n === 1;
    }, 60_000);
    const pickUp = (Date.now() - killedAt) / 1000;
    const again = await sql<{ worker: string; attempt: number }>`select worker, attempt
      from multi_server_runs where job_id = ${id} order by attempt`.execute(database.db);
    console.log(
      `job of the killed worker ${first!.worker} done again by ${again.rows.at(-1)!.worker} ` +
        `${pickUp.toFixed(1)} s after the kill (expiry 3 s)`,
    );
    expect(again.rows.at(-1)!.worker).not.toBe(first!.worker);
  }, 120_000);
});

describe.skipIf(ENGINE !== 'postgres')('servers starting together', () => {
  it('migrate, sync the translations and install the job queue once, whoever comes first', async () => {
    const name = `gscrm_start_${process.pid}_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: ADMIN_URL });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(ADMIN_URL);
    url.pathname = `/${name}`;
    const models = loadResourceModels();
    const databases = await Promise.all([1, 2, 3].map(() => openPostgres(url.toString())));
    const queues: JobQueue[] = [];
    try {
      // What server/main.ts does before serving, three times at once on separate pools.
      const results = await Promise.all(
        databases.map(async (database) => {
          const applied = await migrate(database);
          const texts = await syncTranslations(database.db, { models });
          const queue = new JobQueue(database, { work: false });
          queues.push(queue);
          await queue.start();
          queue.define('test.probe', PROBE_POLICY, async () => {});
          await queue.ready();
          return { applied: applied.length, keys: texts.keysAdded };
        }),
      );
      // One start did the work, the others found it done.
      expect(results.filter((result) => result.applied > 0)).toHaveLength(1);
      expect(results.filter((result) => result.keys > 0)).toHaveLength(1);
      const queueRows = await sql<{ n: number }>`select count(*)::int as n from pgboss.queue
        where name = 'test.probe'`.execute(databases[0].db);
      expect(queueRows.rows[0].n).toBe(1);
      await queues[0].send('test.probe', { n: 1 });
    } finally {
      for (const queue of queues) await queue.stop(1000);
      for (const database of databases) await database.close();
      const drop = new pg.Client({ connectionString: ADMIN_URL });
      await drop.connect();
      await drop.query(`drop database if exists ${name} with (force)`);
      await drop.end();
    }
  }, 120_000);
});
