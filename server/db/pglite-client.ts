/**
 * The main thread's side of PGlite in a worker thread (./pglite-worker.ts): requests go out as
 * messages and come back as promises. If the worker dies (an uncaught error, a WASM abort, a
 * terminate), every waiting request and every later one fails with PgliteWorkerStoppedError:
 * an error, never a hang.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import {
  deserializeError,
  type QueryResult,
  type WorkerAnswers,
  type WorkerInit,
  type WorkerMessage,
  type WorkerRequest,
} from './pglite-protocol.ts';
import { queryMessage, readAnswer } from './pglite-wire.ts';

export class PgliteWorkerStoppedError extends Error {}

/** Where the app asked: the stack of the caller of the client's method. */
const callerStack = (): string | undefined => new Error().stack?.split('\n').slice(3).join('\n');

/** How long a single request may run before a health check stops vouching for the worker. */
const BUSY_LIMIT_MS = 60_000;
/** How long an idle worker may take to answer a ping. */
const PING_TIMEOUT_MS = 5_000;

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  stack?: string;
  since: number;
}

type Request = WorkerRequest extends infer R
  ? R extends { id: number }
    ? Omit<R, 'id'>
    : never
  : never;

/**
 * The compiled worker's path relative to this file, set when the server runs as the bundle
 * `npm start` builds (scripts/build.ts); undefined when it runs from the sources through tsx.
 */
declare const GSCRM_WORKER_BUNDLE: string | undefined;

/**
 * Starts the worker. Compiled (the bundle of `npm start`), the worker is a JavaScript file beside
 * the bundle. From the sources (`npm run dev`, the tests), TypeScript runs through tsx, and a
 * worker thread does not inherit the main thread's loader: a small bootstrap registers tsx's
 * loader in the worker before it imports the .ts file.
 */
function startWorker(init: WorkerInit): Worker {
  if (typeof GSCRM_WORKER_BUNDLE === 'string')
    return new Worker(new URL(GSCRM_WORKER_BUNDLE, import.meta.url), { workerData: init });
  const workerUrl = new URL('./pglite-worker.ts', import.meta.url);
  // tsx's ESM API (its `import` export; require.resolve answers the `require` one beside it).
  const tsxApi = pathToFileURL(
    createRequire(import.meta.url)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  );
  const bootstrap =
    `import(${JSON.stringify(tsxApi.href)})\n` +
    `  .then(({ register }) => { register(); return import(${JSON.stringify(workerUrl.href)}); })\n` +
    `  .catch((error) => { throw error; });\n`;
  return new Worker(bootstrap, { eval: true, workerData: init });
}

/** What the rest of the server uses of a client: PgliteWorkerClient, or a gated view of one. */
export interface PgliteWorkerApi {
  query<R>(sql: string, params?: readonly unknown[]): Promise<QueryResult & { rows: R[] }>;
  exec(sql: string): Promise<WorkerAnswers['exec']>;
  listen(channel: string, listener: (payload: string) => void): Promise<void>;
  dump(): Promise<Uint8Array>;
  ping(): Promise<void>;
  close(): Promise<void>;
  readonly closed: boolean;
}

/**
 * A view of a client still starting: every request waits until the client is there and `gate`
 * has opened, then goes to it (straight to it once both are). server/main.ts builds the app on
 * such a view while PGlite opens in its thread, and opens the gate once the database is migrated,
 * so nothing of the app reaches the database before. A failed start fails every request.
 */
export function gatedClient(
  client: Promise<PgliteWorkerApi>,
  gate: Promise<unknown>,
): PgliteWorkerApi {
  let open: PgliteWorkerApi | undefined;
  const opening = Promise.all([client, gate]).then(([ready]) => (open = ready));
  // Reported by the requests that wait for it (and by whoever awaits the start itself).
  opening.catch(() => {});
  const via = <T>(send: (ready: PgliteWorkerApi) => Promise<T>): Promise<T> =>
    open ? send(open) : opening.then(send);
  return {
    query: <R>(sql: string, params?: readonly unknown[]) =>
      via((ready) => ready.query<R>(sql, params)),
    exec: (sql) => via((ready) => ready.exec(sql)),
    listen: (channel, listener) => via((ready) => ready.listen(channel, listener)),
    dump: () => via((ready) => ready.dump()),
    ping: () => via((ready) => ready.ping()),
    close: () => via((ready) => ready.close()),
    get closed() {
      return open?.closed ?? false;
    },
  };
}

export class PgliteWorkerClient implements PgliteWorkerApi {
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Map<string, ((payload: string) => void)[]>();
  private nextId = 1;
  private failure: Error | undefined;
  private closing = false;
  private readonly exited: Promise<void>;

  private constructor(private readonly worker: Worker) {
    this.exited = new Promise((resolve) => worker.once('exit', () => resolve()));
    worker.on('message', (message: WorkerMessage) => {
      if (message.kind === 'notification') {
        for (const listener of this.listeners.get(message.channel) ?? []) listener(message.payload);
        return;
      }
      if (message.kind !== 'answer') return;
      const pending = this.pending.get(message.id);
      if (!pending) return;
      this.pending.delete(message.id);
      this.refWhileBusy();
      if (message.ok) pending.resolve(message.value);
      else pending.reject(deserializeError(message.error, pending.stack));
    });
    worker.on('error', (error) => this.fail(`failed: ${error.message}`));
    worker.on('exit', (code) => this.fail(`stopped (exit code ${code})`));
    worker.on('messageerror', (error) => this.fail(`sent an unreadable message: ${error.message}`));
  }

  /** Starts a worker and opens PGlite in it; rejects with PGlite's error when it cannot open. */
  static async open(init: WorkerInit): Promise<PgliteWorkerClient> {
    const worker = startWorker(init);
    await new Promise<void>((resolve, reject) => {
      const onMessage = (message: WorkerMessage) => {
        if (message.kind === 'ready') done();
        else if (message.kind === 'failed') done(deserializeError(message.error));
      };
      const onError = (error: Error) => done(error);
      const onExit = (code: number) => done(new Error(`the PGlite worker exited (code ${code})`));
      const done = (error?: Error) => {
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        if (error) {
          void worker.terminate();
          reject(error);
        } else resolve();
      };
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
    });
    const client = new PgliteWorkerClient(worker);
    client.refWhileBusy();
    return client;
  }

  /** Whether close() was called (a failed worker still wants close() to end its thread). */
  get closed(): boolean {
    return this.closing;
  }

  /** The thread itself (tests end it to see a crash surface as an error). */
  get thread(): Worker {
    return this.worker;
  }

  /**
   * One statement: sent and read as wire protocol in this thread (./pglite-wire.ts), so the worker
   * only runs PostgreSQL. Notifications it committed reach the listeners before it resolves.
   */
  async query<R>(
    sql: string,
    params: readonly unknown[] = [],
  ): Promise<QueryResult & { rows: R[] }> {
    // One stack for both ways to fail: the worker's (request) and PostgreSQL's (readAnswer).
    const stack = callerStack();
    const answer = (await this.request(
      { op: 'wire', message: queryMessage(sql, params) },
      stack,
    )) as Uint8Array;
    try {
      return readAnswer(answer, (channel, payload) => {
        for (const listener of this.listeners.get(channel) ?? []) listener(payload);
      }) as QueryResult & { rows: R[] };
    } catch (error) {
      // Where the app asked is what helps.
      if (error instanceof Error) error.stack = `${error.name}: ${error.message}\n${stack ?? ''}`;
      throw error;
    }
  }

  /** One or more statements as text (simple protocol); answers the rows of the last one. */
  exec(sql: string): Promise<WorkerAnswers['exec']> {
    return this.request({ op: 'exec', sql }) as Promise<WorkerAnswers['exec']>;
  }

  /**
   * Calls `listener` with the payload of every NOTIFY on `channel` once committed, before the
   * answer of the statement that committed it (see the worker).
   */
  async listen(channel: string, listener: (payload: string) => void): Promise<void> {
    const known = this.listeners.get(channel);
    if (known) {
      known.push(listener);
      return;
    }
    this.listeners.set(channel, [listener]);
    await this.request({ op: 'listen', channel });
  }

  /** The data folder as a tar after a checkpoint (./image.ts). */
  dump(): Promise<Uint8Array> {
    return this.request({ op: 'dump' }) as Promise<Uint8Array>;
  }

  /**
   * Whether the database answers, without waiting behind a running query: a worker busy with a
   * request (for less than a minute) is alive, since it blocks only while PostgreSQL works; an
   * idle one must answer a ping within 5 s. A stopped worker fails at once.
   */
  async ping(): Promise<void> {
    if (this.failure) throw this.failure;
    if (this.closing) throw new PgliteWorkerStoppedError('The embedded database is closed.');
    const oldest = Math.min(...[...this.pending.values()].map((pending) => pending.since));
    if (this.pending.size > 0 && Date.now() - oldest < BUSY_LIMIT_MS) return;
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.request({ op: 'ping' }),
        new Promise((_, reject) => {
          timer = setTimeout(
            () => reject(new Error('The embedded database does not answer.')),
            PING_TIMEOUT_MS,
          );
        }),
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Closes PGlite (its files are consistent afterwards) and ends the thread. */
  async close(): Promise<void> {
    if (this.closing) return this.exited;
    if (this.failure) {
      this.closing = true;
      await this.worker.terminate();
      return;
    }
    const closed = this.request({ op: 'close' });
    this.closing = true;
    try {
      await closed;
    } finally {
      // The worker ends by itself after answering; terminate in case it cannot.
      const timer = setTimeout(() => void this.worker.terminate(), 5_000);
      await this.exited;
      clearTimeout(timer);
    }
  }

  private request(request: Request, stack = callerStack()): Promise<unknown> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.closing)
      return Promise.reject(new PgliteWorkerStoppedError('The embedded database is closed.'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, stack, since: Date.now() });
      this.refWhileBusy();
      try {
        // Copied, not transferred: for a message this small, transferring costs more.
        this.worker.postMessage({ ...request, id } as WorkerRequest);
      } catch (error) {
        // A parameter that cannot cross threads (a function, say): this request fails alone.
        this.pending.delete(id);
        this.refWhileBusy();
        reject(error as Error);
      }
    });
  }

  /** The worker keeps the process alive only while a request waits for it (like a socket). */
  private refWhileBusy(): void {
    if (this.pending.size > 0) this.worker.ref();
    else this.worker.unref();
  }

  private fail(reason: string): void {
    if (this.failure) return;
    const expected = this.closing && this.pending.size === 0;
    this.failure = new PgliteWorkerStoppedError(`The embedded database (PGlite worker) ${reason}.`);
    if (!expected) console.error(this.failure.message);
    for (const pending of this.pending.values()) pending.reject(this.failure);
    this.pending.clear();
  }
}
