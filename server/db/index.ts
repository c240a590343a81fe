/**
 * Opens the database: PGlite in a data folder by default, PostgreSQL when DATABASE_URL is set.
 * Both go through Kysely with the same SQL and the same migrations.
 */
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { PgliteWorkerApi } from './pglite-client.ts';
import { withNamedStatements } from './named-statements.ts';
import { PGliteDialect } from './pglite-dialect.ts';
import { type PgliteOptions, startPglite } from './pglite-open.ts';
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

export {
  DataFolderInUseError,
  lockDataFolder,
  type PgliteOptions,
  type StartedPglite,
  startPglite,
} from './pglite-open.ts';

/** PGlite's database, with where it came from and a way to take an image of it (./image.ts). */
export interface PgliteDatabase extends Database {
  engine: 'pglite';
  /** existing: the data folder had one; image: loaded from a prepared image; initdb: new. */
  origin: 'existing' | 'image' | 'initdb';
  /** The data folder as a tar, after a checkpoint (only of a database nobody else uses yet). */
  snapshot(): Promise<Uint8Array>;
}

/**
 * Opens PGlite in a worker thread (./pglite-worker.ts) on `<dataDir>/pgdata`, or in memory; a new
 * database from the prepared image when there is one, else by initdb (./pglite-open.ts).
 */
export async function openPglite(
  dataDir: string | undefined,
  options: PgliteOptions = {},
): Promise<PgliteDatabase> {
  const started = await startPglite(dataDir, options);
  return { ...pgliteDatabase(started), origin: started.origin };
}

/**
 * Kysely and the Database methods on a PGlite worker's client, or on a gated view of one
 * (server/main.ts builds the app on it while PGlite starts). `close` closes it, then unlocks.
 */
export function pgliteDatabase({
  client,
  unlock,
}: {
  client: PgliteWorkerApi;
  unlock(): Promise<void>;
}): Omit<PgliteDatabase, 'origin'> {
  const db: DB = new Kysely({ dialect: new PGliteDialect(client) });
  return {
    engine: 'pglite',
    db,
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
