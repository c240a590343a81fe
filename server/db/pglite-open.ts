/**
 * Starting PGlite on a data folder, with nothing but Node's own modules and the worker's client:
 * the folder's lock, the database's creation from the prepared image (or initdb), the worker
 * thread. The server's entry (server/main.ts) calls this first, before it loads the rest of the
 * app (Kysely, Fastify, ajv…), so PGlite starts in its thread while the main thread loads and
 * builds the app: the two cores work at once. ./index.ts wraps the started worker in Kysely
 * (openPglite, pgliteDatabase).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { extractImage, findImage } from './image.ts';
import { PgliteWorkerClient } from './pglite-client.ts';

export class DataFolderInUseError extends Error {}

/** Who holds a data folder: written to `gscrm.lock` and answered on the lock socket. */
interface LockHolder {
  pid: number;
  host: string;
  since: string;
}

/**
 * The lock of one data folder, whatever path leads to it: a local socket only one process can
 * listen on. The kernel frees it the moment its process ends (also on `kill -9`), and no other
 * program holds it by chance, so neither a crash nor a reused pid can fool it. Linux: an
 * abstract socket (no file at all); Windows: a named pipe; elsewhere a socket file in the temp
 * folder, which a crash leaves behind and the next start removes once nobody answers on it.
 */
function lockAddress(folder: string): { address: string; file?: string } {
  const id = createHash('sha256').update(folder).digest('hex').slice(0, 32);
  if (process.platform === 'linux') return { address: `\0gscrm-data-${id}` };
  if (process.platform === 'win32') return { address: `\\\\?\\pipe\\gscrm-data-${id}` };
  const file = path.join(os.tmpdir(), `gscrm-data-${id}.sock`);
  return { address: file, file };
}

const listen = (server: net.Server, address: string) =>
  new Promise<void>((resolve, reject) => {
    const failed = (error: Error) => reject(error);
    server.once('error', failed);
    server.listen(address, () => {
      server.off('error', failed);
      resolve();
    });
  });

/** Asks the process holding the lock who it is; undefined when nobody answers within a second. */
function askHolder(address: string): Promise<Partial<LockHolder> | 'nobody' | undefined> {
  return new Promise((resolve) => {
    let text = '';
    const socket = net.connect(address);
    const done = (answer: Partial<LockHolder> | 'nobody' | undefined) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    // A holder busy in a long query accepts the connection but answers late: then it is alive.
    const timer = setTimeout(() => done(undefined), 1000);
    socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
    socket.on('end', () => done(parseHolder(text)));
    socket.on('error', (error: NodeJS.ErrnoException) =>
      done(error.code === 'ECONNREFUSED' || error.code === 'ENOENT' ? 'nobody' : undefined),
    );
  });
}

/** A holder as written to the lock file (JSON; older versions wrote the bare pid). */
function parseHolder(text: string): Partial<LockHolder> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'number') return { pid: value };
    if (value && typeof value === 'object' && 'pid' in value && typeof value.pid === 'number') {
      const host = 'host' in value && typeof value.host === 'string' ? value.host : undefined;
      return { pid: value.pid, host };
    }
  } catch {
    // Unreadable: the holder is unknown, which the message says.
  }
  return undefined;
}

/**
 * PGlite allows one process per data folder. Takes the folder's lock (above) or throws
 * DataFolderInUseError naming the process that has it; answers the function that releases it.
 * `gscrm.lock` in the folder only says who holds it (for people and the message): whatever it
 * contains, even the pid of a live unrelated process, it never blocks a start.
 */
export async function lockDataFolder(dataDir: string): Promise<() => Promise<void>> {
  fs.mkdirSync(dataDir, { recursive: true });
  const folder = fs.realpathSync(dataDir);
  const lockPath = path.join(folder, 'gscrm.lock');
  const holder: LockHolder = {
    pid: process.pid,
    host: os.hostname(),
    since: new Date().toISOString(),
  };
  const { address, file } = lockAddress(folder);
  const server = net.createServer((socket) => socket.end(JSON.stringify(holder)));
  // The lock must not keep the process alive, nor end it with an error on a failed answer.
  server.on('connection', (socket) => socket.on('error', () => {}));
  try {
    await listen(server, address);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    const answer = await askHolder(address);
    if (answer === 'nobody' && file) {
      // A socket file left by a process that ended without closing it: take it over. Should
      // another process do the same at this moment, one of the two listens fails again.
      fs.rmSync(file, { force: true });
      try {
        await listen(server, address);
      } catch (retry) {
        if ((retry as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw retry;
        throw inUse(folder, await askHolder(address), lockPath);
      }
    } else {
      throw inUse(folder, answer, lockPath);
    }
  }
  server.unref();
  fs.writeFileSync(lockPath, `${JSON.stringify(holder)}\n`);
  return async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    // The note goes with the lock, unless a later holder already wrote its own.
    const note = fs.existsSync(lockPath) ? fs.readFileSync(lockPath, 'utf8') : '';
    if (parseHolder(note)?.pid === process.pid) fs.rmSync(lockPath, { force: true });
  };
}

function inUse(
  folder: string,
  answer: Partial<LockHolder> | 'nobody' | undefined,
  lockPath: string,
): DataFolderInUseError {
  let holder = typeof answer === 'object' ? answer : undefined;
  if (!holder?.pid) {
    try {
      holder = parseHolder(fs.readFileSync(lockPath, 'utf8'));
    } catch {
      holder = undefined;
    }
  }
  const who = holder?.pid
    ? `pid ${holder.pid}${holder.host ? ` on ${holder.host}` : ''}`
    : 'pid unknown';
  return new DataFolderInUseError(
    `The data folder ${folder} is in use by another GS CRM process (${who}). ` +
      'Stop that process or set DATA_DIR to another folder.',
  );
}

export interface PgliteOptions {
  /**
   * A prepared image (./image.ts) to create a new database from instead of running initdb:
   * a file, true for the current release's image if one was made, false for none. Default: true
   * for a data folder, false in memory (tests that start from an empty database).
   */
  image?: string | boolean;
  /**
   * Called once the folder is locked and the worker thread is being started (its start then runs
   * beside whatever the caller does next: server/main.ts loads the rest of the server).
   */
  starting?: () => void;
}

export interface PgliteOptions {
  /**
   * A prepared image (./image.ts) to create a new database from instead of running initdb:
   * a file, true for the current release's image if one was made, false for none. Default: true
   * for a data folder, false in memory (tests that start from an empty database).
   */
  image?: string | boolean;
}

/** A PGlite worker that has opened its database, before Kysely is put on it (./index.ts). */
export interface StartedPglite {
  client: PgliteWorkerClient;
  /** existing: the data folder had one; image: loaded from a prepared image; initdb: new. */
  origin: 'existing' | 'image' | 'initdb';
  /** Frees the data folder's lock (after the worker is closed). */
  unlock(): Promise<void>;
}

/**
 * Opens PGlite in a worker thread (./pglite-worker.ts) on `<dataDir>/pgdata`, or in memory.
 * A new database is loaded from the prepared image when there is one, else made by initdb. A
 * creation cut short (killed mid-way) is noticed by its marker file and started over. On failure
 * the lock is freed again.
 */
export async function startPglite(
  dataDir: string | undefined,
  options: PgliteOptions = {},
): Promise<StartedPglite> {
  const unlock = dataDir ? await lockDataFolder(dataDir) : async () => {};
  const pgdata = dataDir ? path.join(dataDir, 'pgdata') : undefined;
  const creating = dataDir ? path.join(dataDir, 'pgdata.creating') : undefined;
  const wanted = options.image ?? dataDir !== undefined;
  let client: PgliteWorkerClient;
  let origin: StartedPglite['origin'];
  try {
    if (creating && pgdata && fs.existsSync(creating)) {
      // The last start died while creating the database: nothing of the app's is in it yet.
      fs.rmSync(pgdata, { recursive: true, force: true });
      fs.rmSync(creating, { force: true });
    }
    const exists = pgdata !== undefined && fs.existsSync(path.join(pgdata, 'PG_VERSION'));
    const image = exists ? undefined : wanted === true ? findImage() : wanted || undefined;
    origin = exists ? 'existing' : image ? 'image' : 'initdb';
    if (creating && !exists) fs.writeFileSync(creating, `${process.pid}\n`);
    try {
      // A data folder is unpacked here; in memory, PGlite loads the image itself.
      if (image && pgdata) extractImage(image, pgdata);
      const opening = PgliteWorkerClient.open({
        dataDir: pgdata,
        imageFile: pgdata ? undefined : image,
      });
      options.starting?.();
      client = await opening;
    } catch (error) {
      if (!image) throw error;
      // An unreadable image (cut short, another PGlite's) must not stop a start: initdb instead.
      console.warn(
        `The database image ${image} could not be loaded (${(error as Error).message}); creating the database instead.`,
      );
      if (pgdata) fs.rmSync(pgdata, { recursive: true, force: true });
      client = await PgliteWorkerClient.open({ dataDir: pgdata });
      origin = 'initdb';
    }
    if (creating) fs.rmSync(creating, { force: true });
  } catch (error) {
    await unlock();
    throw new Error(
      `Could not open the embedded database in ${dataDir ?? '(memory)'}: ${(error as Error).message}`,
    );
  }
  return { client, origin, unlock };
}
