/**
 * Opens the database: PGlite in a data folder by default, PostgreSQL when DATABASE_URL is set.
 * Both go through Kysely with the same SQL and the same migrations.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { extractImage, findImage } from './image.ts';
import { PgliteWorkerClient } from './pglite-client.ts';
import { withNamedStatements } from './named-statements.ts';
import { PGliteDialect } from './pglite-dialect.ts';
import { TYPE_PARSERS } from './type-parsers.ts';

import type { Database as Tables } from '../../src/types/database.ts';

/** The database, typed by the generated interface of every table (src/types/database.ts). */
export type DB = Kysely<Tables>;
export type { Tables };
export type Row = Record<string, unknown>;
const MIGRATION_LOCK_KEY = 727_001;

export interface Database {
  engine: 'pglite' | 'postgres';
  db: DB;
  /**
   * Run `fn` on one dedicated session that no other app server can enter at the same time
   * (PostgreSQL advisory lock; PGlite is one process per folder anyway). `exec` runs one or more
   * SQL statements as text and answers the rows of the last one.
   */
  exclusive<T>(fn: (exec: (sqlText: string) => Promise<Row[]>) => Promise<T>): Promise<T>;
  /**
   * Resolves when the database answers (the health check). PostgreSQL: `select 1` on a pooled
   * connection. PGlite: without queueing behind a running query (see PgliteWorkerClient.ping).
   */
  ping(): Promise<void>;
  /**
   * PGlite only (one process per data folder, so every write passes here): calls `listener` for
   * every committed NOTIFY on `channel`, before the committing statement's promise resolves. What
   * caches may rely on to be exact (server/auth/sessions.ts). PostgreSQL's servers would hear each
   * other only later, so they cache nothing and have no such method.
   */
  listen?(channel: string, listener: (payload: string) => void): Promise<void>;
  close(): Promise<void>;
}

/** PGlite's database, with where it came from and a way to take an image of it (./image.ts). */
export interface PgliteDatabase extends Database {
  engine: 'pglite';
  /** existing: the data folder had one; image: loaded from a prepared image; initdb: new. */
  origin: 'existing' | 'image' | 'initdb';
  /** The data folder as a tar, after a checkpoint (only of a database nobody else uses yet). */
  snapshot(): Promise<Uint8Array>;
}

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
}

/**
 * Opens PGlite in a worker thread (./pglite-worker.ts) on `<dataDir>/pgdata`, or in memory.
 * A new database is loaded from the prepared image when there is one, else made by initdb. A
 * creation cut short (killed mid-way) is noticed by its marker file and started over.
 */
export async function openPglite(
  dataDir: string | undefined,
  options: PgliteOptions = {},
): Promise<PgliteDatabase> {
  const unlock = dataDir ? await lockDataFolder(dataDir) : async () => {};
  const pgdata = dataDir ? path.join(dataDir, 'pgdata') : undefined;
  const creating = dataDir ? path.join(dataDir, 'pgdata.creating') : undefined;
  const wanted = options.image ?? dataDir !== undefined;
  let client: PgliteWorkerClient;
  let origin: PgliteDatabase['origin'];
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
      client = await PgliteWorkerClient.open({
        dataDir: pgdata,
        imageFile: pgdata ? undefined : image,
      });
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
  const db: DB = new Kysely({ dialect: new PGliteDialect(client) });
  return {
    engine: 'pglite',
    db,
    origin,
    // Straight to PGlite, not through the dialect's connection queue: callers (the job queue's
    // adapter) may hold that connection while they call this.
    exclusive: (fn) => fn((sqlText) => client.exec(sqlText)),
    ping: () => client.ping(),
    listen: (channel, listener) => client.listen(channel, listener),
    snapshot: () => client.dump(),
    close: async () => {
      try {
        await db.destroy();
      } finally {
        await unlock();
      }
    },
  };
}

export async function openPostgres(connectionString: string): Promise<Database> {
  const pool = new pg.Pool({
    connectionString,
    max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
    types: {
      getTypeParser: ((oid: number, format?: string) =>
        TYPE_PARSERS[oid] ??
        pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
    },
  });
  // An idle connection the server ends (restart, failover, a dropped test database) must not crash
  // the process: the pool replaces it on the next query.
  pool.on('error', (error) => {
    console.warn(`PostgreSQL: an idle connection was closed (${error.message})`);
  });
  try {
    const probe = await pool.connect();
    probe.release();
  } catch (error) {
    await pool.end();
    throw new Error(`Could not connect to DATABASE_URL: ${(error as Error).message}`);
  }
  // The statements every request sends are planned once per connection (./named-statements.ts).
  const db: DB = new Kysely({ dialect: new PostgresDialect({ pool: withNamedStatements(pool) }) });
  return {
    engine: 'postgres',
    db,
    exclusive: async (fn) => {
      const session = await pool.connect();
      try {
        await session.query(`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`);
        return await fn(async (sqlText) => {
          const result = (await session.query(sqlText)) as unknown as
            pg.QueryResult | pg.QueryResult[];
          const last = Array.isArray(result) ? result.at(-1) : result;
          return (last?.rows ?? []) as Row[];
        });
      } finally {
        await session.query(`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`).catch(() => {});
        session.release();
      }
    },
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    close: () => db.destroy(),
  };
}

export interface DatabaseConfig {
  databaseUrl?: string;
  /** PGlite data folder; undefined means in memory. */
  dataDir?: string;
}

export function openDatabase(config: DatabaseConfig): Promise<Database> {
  return config.databaseUrl ? openPostgres(config.databaseUrl) : openPglite(config.dataDir);
}
