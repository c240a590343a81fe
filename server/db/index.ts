/**
 * Opens the database: PGlite in a data folder by default, PostgreSQL when DATABASE_URL is set.
 * Both go through Kysely with the same SQL and the same migrations.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PGlite, types as pgliteTypes } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { PGliteDialect } from './pglite-dialect.ts';

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
  close(): Promise<void>;
}

/** Type parsers shared by both engines: dates stay 'YYYY-MM-DD', numerics and bigints become numbers. */
const DATE_OID = 1082;
const NUMERIC_OID = 1700;
const INT8_OID = 20;
const parsers: Record<number, (value: string) => unknown> = {
  [DATE_OID]: (value) => value,
  [NUMERIC_OID]: (value) => Number.parseFloat(value),
  [INT8_OID]: (value) => Number.parseInt(value, 10),
};

export class DataFolderInUseError extends Error {}

/**
 * PGlite allows one process per data folder. A lock file with our pid guards it; a lock left by a
 * process that no longer runs is taken over.
 */
function lockDataFolder(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const lockPath = path.join(dataDir, 'gscrm.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockPath, String(process.pid), { flag: 'wx' });
      return () => fs.rmSync(lockPath, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number.parseInt(fs.readFileSync(lockPath, 'utf8'), 10);
      let alive = false;
      if (pid && pid !== process.pid) {
        try {
          process.kill(pid, 0);
          alive = true;
        } catch (killError) {
          alive = (killError as NodeJS.ErrnoException).code === 'EPERM';
        }
      }
      if (alive) {
        throw new DataFolderInUseError(
          `The data folder ${path.resolve(dataDir)} is in use by another GS CRM process (pid ${pid}). ` +
            'Stop that process or set DATA_DIR to another folder.',
        );
      }
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new DataFolderInUseError(`Could not lock the data folder ${path.resolve(dataDir)}.`);
}

export async function openPglite(dataDir: string | undefined): Promise<Database> {
  const unlock = dataDir ? lockDataFolder(dataDir) : () => {};
  let client: PGlite;
  try {
    // One options object: `new PGlite(undefined, options)` (in memory) would ignore the options.
    client = new PGlite({
      dataDir: dataDir ? path.join(dataDir, 'pgdata') : undefined,
      parsers: {
        [pgliteTypes.DATE]: parsers[DATE_OID],
        [pgliteTypes.NUMERIC]: parsers[NUMERIC_OID],
        [pgliteTypes.INT8]: parsers[INT8_OID],
      },
      // Trigram indexes for substring search (customers); PostgreSQL ships it as contrib.
      extensions: { pg_trgm },
    });
    await client.waitReady;
  } catch (error) {
    unlock();
    throw new Error(
      `Could not open the embedded database in ${dataDir ?? '(memory)'}: ${(error as Error).message}`,
    );
  }
  const db: DB = new Kysely({ dialect: new PGliteDialect(client) });
  return {
    engine: 'pglite',
    db,
    exclusive: (fn) =>
      fn(async (sqlText) => {
        const results = await client.exec(sqlText);
        return (results.at(-1)?.rows ?? []) as Row[];
      }),
    close: async () => {
      await db.destroy();
      unlock();
    },
  };
}

export async function openPostgres(connectionString: string): Promise<Database> {
  const pool = new pg.Pool({
    connectionString,
    max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
    types: {
      getTypeParser: ((oid: number, format?: string) =>
        parsers[oid] ??
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
  const db: DB = new Kysely({ dialect: new PostgresDialect({ pool }) });
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
