/**
 * Uploads survive hostile clients (issue 10), on both engines: a client that disconnects in the
 * middle of a multipart upload (documents and avatar), a slow client and an oversized body. The
 * app runs on a real port in a child process (tests/api/hostile/serve.ts), so a crash ends the
 * child and not the test runner: after each client the child must still run, /api/health must
 * answer 200, and the documents folder must hold no `.part` or other left-over file. A client
 * that stalls is cut off after the idle timeout (UPLOAD_IDLE_TIMEOUT_MS, short here).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN, DEMO_PASSWORD, ENGINE } from './harness.ts';

const SERVE = fileURLToPath(new URL('./hostile/serve.ts', import.meta.url));
const DOCUMENT_MAX = 512 * 1024;
const AVATAR_MAX = 256 * 1024;
const IDLE_MS = 1500;
const PDF_HEAD = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n');
const PNG_HEAD = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'gscrm-uploads-'));
interface Server {
  child: ChildProcess;
  port: number;
  pid: number;
  log: string[];
  token: string;
  customerId: number;
}
let server: Server | undefined;
const children: number[] = [];

const alive = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

async function start(): Promise<Server> {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVE], {
    env: {
      ...process.env,
      DOCUMENTS_DIR: folder,
      DOCUMENT_MAX_BYTES: String(DOCUMENT_MAX),
      AVATAR_MAX_BYTES: String(AVATAR_MAX),
      UPLOAD_IDLE_TIMEOUT_MS: String(IDLE_MS),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log: string[] = [];
  child.stderr?.on('data', (chunk: Buffer) => log.push(chunk.toString()));
  const { port, pid } = await new Promise<{ port: number; pid: number }>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(
      () => reject(new Error(`no port after 60 s: ${log.join('')}`)),
      60_000,
    );
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((candidate) => candidate.startsWith('{'));
      if (line) {
        clearTimeout(timer);
        resolve(JSON.parse(line) as { port: number; pid: number });
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}) before listening: ${log.join('')}`));
    });
  });
  children.push(pid);
  const base = `http://127.0.0.1:${port}`;
  const signIn = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: ADMIN, password: DEMO_PASSWORD }),
  });
  const { token } = (await signIn.json()) as { token: string };
  const list = await fetch(`${base}/api/customers?per_page=1&sort=id&order=asc`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const { data } = (await list.json()) as { data: Array<{ id: number }> };
  return { child, port, pid, log, token, customerId: data[0].id };
}

/** Every file under the documents folder (relative paths). */
const files = (): string[] =>
  fs
    .readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Sent {
  status?: number;
  body?: string;
}

/**
 * A multipart upload written by hand: the head of part `file`, `bytes` bytes of content in chunks
 * (`pauseMs` between them), then either the end of the form or (abort) a destroyed socket.
 */
function upload(
  target: Server,
  route: 'documents' | 'avatar',
  options: { head: Buffer; bytes: number; abort: boolean; chunk?: number; pauseMs?: number },
): Promise<Sent> {
  const boundary = `----hostile${Date.now().toString(16)}`;
  const filename = route === 'avatar' ? 'face.png' : 'contract.pdf';
  const type = route === 'avatar' ? 'image/png' : 'application/pdf';
  const start = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n` +
      `Content-Type: ${type}\r\n\r\n`,
  );
  const end = Buffer.from(`\r\n--${boundary}--\r\n`);
  const length = start.length + options.bytes + end.length;
  return new Promise<Sent>((resolve) => {
    const request = http.request({
      host: '127.0.0.1',
      port: target.port,
      method: 'POST',
      path: `/api/customers/${target.customerId}/${route}`,
      headers: {
        authorization: `Bearer ${target.token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        // An aborting client announces the whole body, so the server waits for more.
        'content-length': String(options.abort ? length + 10 * 1024 * 1024 : length),
      },
    });
    const answer: Sent = {};
    request.on('response', (response) => {
      answer.status = response.statusCode;
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ ...answer, body }));
      response.on('error', () => resolve(answer));
    });
    request.on('error', () => resolve(answer));
    void (async () => {
      const write = (data: Buffer) =>
        new Promise<void>((done) => (request.write(data) ? done() : request.once('drain', done)));
      await write(start);
      await write(options.head);
      let sent = options.head.length;
      const size = options.chunk ?? 16 * 1024;
      while (sent < options.bytes && !request.destroyed) {
        const part = Buffer.alloc(Math.min(size, options.bytes - sent), 0x41);
        await write(part);
        sent += part.length;
        if (options.pauseMs) await sleep(options.pauseMs);
      }
      if (options.abort) {
        // Let the server read what was sent, then vanish as a dropped connection does.
        await sleep(300);
        request.destroy();
        resolve(answer);
      } else {
        request.end(end);
      }
    })();
  });
}

/** The child still runs and answers /api/health, and nothing is left in the documents folder. */
async function expectSurvived(target: Server, kept: string[]): Promise<void> {
  await sleep(500);
  const problems: string[] = [];
  if (!alive(target.child)) {
    problems.push(`the server process ended: ${target.log.join('').slice(0, 600)}`);
  } else {
    const health = await fetch(`http://127.0.0.1:${target.port}/api/health`);
    if (health.status !== 200) problems.push(`/api/health answered ${health.status}`);
  }
  let left: string[] = [];
  for (let attempt = 0; attempt < 20; attempt++) {
    left = files().filter((file) => !kept.includes(file));
    if (left.length === 0) break;
    await sleep(100);
  }
  if (left.length > 0) problems.push(`files left in the documents folder: ${left.join(', ')}`);
  expect(problems).toEqual([]);
}

beforeEach(async () => {
  // One server for all tests while it survives; a new one after a crash.
  if (!server || !alive(server.child)) {
    server = await start();
    // The demo data's own files (the signature demo's PDFs) are not the uploads': the tests
    // count what an upload leaves from an empty folder.
    for (const file of files()) fs.rmSync(path.join(folder, file), { force: true });
  }
}, 90_000);
afterEach(() => {
  // A test that failed early may leave files: the next one starts from an empty folder.
  for (const file of files()) fs.rmSync(path.join(folder, file), { force: true });
});
afterAll(async () => {
  if (server && alive(server.child)) {
    const child = server.child;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await Promise.race([exited, sleep(10_000)]);
  }
  fs.rmSync(folder, { recursive: true, force: true });
  // A crashed child could not drop its PostgreSQL database: drop what it left.
  if (ENGINE === 'postgres') {
    const admin = new pg.Client({
      connectionString: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    });
    await admin.connect();
    for (const pid of children) {
      const { rows } = await admin.query<{ datname: string }>(
        'select datname from pg_database where datname like $1',
        [`gscrm_test_${pid}_%`],
      );
      for (const row of rows)
        await admin.query(`drop database if exists ${row.datname} with (force)`);
    }
    await admin.end();
  }
}, 60_000);

describe('a client that disconnects in the middle of an upload', () => {
  it('documents: the server keeps serving and keeps no partial file (abort after 300 KB)', async () => {
    const target = server!;
    await upload(target, 'documents', { head: PDF_HEAD, bytes: 300 * 1024, abort: true });
    await expectSurvived(target, []);
  }, 60_000);

  it('documents: the same when the client drops before the type is known (10 KB)', async () => {
    const target = server!;
    await upload(target, 'documents', { head: PDF_HEAD, bytes: 10 * 1024, abort: true });
    await expectSurvived(target, []);
  }, 60_000);

  it('avatar: the server keeps serving and keeps no partial file (abort after 200 KB)', async () => {
    const target = server!;
    await upload(target, 'avatar', { head: PNG_HEAD, bytes: 200 * 1024, abort: true });
    await expectSurvived(target, []);
  }, 60_000);
});

describe('a client that disconnects in the middle of an upload the server refuses', () => {
  it('a PNG named .pdf (refused by type, then dropped after 300 KB)', async () => {
    const target = server!;
    await upload(target, 'documents', { head: PNG_HEAD, bytes: 300 * 1024, abort: true });
    await expectSurvived(target, []);
  }, 60_000);

  it('content of no accepted type, dropped after 300 KB', async () => {
    const target = server!;
    const noise = Buffer.alloc(1024, 0x41);
    await upload(target, 'documents', { head: noise, bytes: 300 * 1024, abort: true });
    await expectSurvived(target, []);
  }, 60_000);
});

/**
 * A client that sends the head of a form and some content, then nothing (the connection stays
 * open): answers how long the server took to close the connection, or undefined if it did not
 * within `waitMs`.
 */
function stall(target: Server, bytes: number, waitMs: number): Promise<number | undefined> {
  const boundary = `----stall${Date.now().toString(16)}`;
  const start = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.pdf"\r\n` +
      `Content-Type: application/pdf\r\n\r\n`,
  );
  return new Promise((resolve) => {
    const request = http.request({
      host: '127.0.0.1',
      port: target.port,
      method: 'POST',
      path: `/api/customers/${target.customerId}/documents`,
      headers: {
        authorization: `Bearer ${target.token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(start.length + bytes + 1024 * 1024),
      },
    });
    let stalledAt = 0;
    const timer = setTimeout(() => {
      request.destroy();
      resolve(undefined);
    }, waitMs);
    const closed = () => {
      clearTimeout(timer);
      resolve(stalledAt ? Date.now() - stalledAt : 0);
    };
    request.on('error', closed);
    request.on('response', (response) => {
      response.resume();
      response.on('close', closed);
    });
    request.write(Buffer.concat([start, PDF_HEAD, Buffer.alloc(bytes - PDF_HEAD.length, 0x41)]));
    stalledAt = Date.now();
  });
}

describe('a client that stalls in the middle of an upload', () => {
  it('is cut off after the idle timeout; the server keeps serving and keeps no partial file', async () => {
    const target = server!;
    const closedAfter = await stall(target, 100 * 1024, IDLE_MS * 6);
    expect(closedAfter, 'the server closed the stalled upload').toBeDefined();
    expect(closedAfter!).toBeGreaterThanOrEqual(IDLE_MS - 200);
    await expectSurvived(target, []);
  }, 60_000);
});

describe('slow and oversized clients', () => {
  it('a slow client (2 KB every 30 ms) gets its document stored, and only it', async () => {
    const target = server!;
    const before = files();
    const answer = await upload(target, 'documents', {
      head: PDF_HEAD,
      bytes: 80 * 1024,
      abort: false,
      chunk: 2 * 1024,
      pauseMs: 30,
    });
    expect(answer.status, answer.body).toBe(201);
    const stored = files().filter((file) => !before.includes(file));
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatch(/^documents\/[0-9a-f-]{36}\.pdf$/);
    await expectSurvived(target, stored);
  }, 60_000);

  it('an oversized document answers 413 and nothing is kept', async () => {
    const target = server!;
    const answer = await upload(target, 'documents', {
      head: PDF_HEAD,
      bytes: DOCUMENT_MAX * 2,
      abort: false,
    });
    expect(answer.status, answer.body).toBe(413);
    await expectSurvived(target, []);
  }, 60_000);

  it('an oversized avatar answers 413 and nothing is kept', async () => {
    const target = server!;
    const answer = await upload(target, 'avatar', {
      head: PNG_HEAD,
      bytes: AVATAR_MAX * 2,
      abort: false,
    });
    expect(answer.status, answer.body).toBe(413);
    await expectSurvived(target, []);
  }, 60_000);
});
