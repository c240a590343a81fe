/**
 * A small Kysely dialect for PGlite (PostgreSQL compiled to WASM, one connection), which runs in a
 * worker thread (./pglite-client.ts) or, for a caller that opens one itself, in this thread.
 * PGlite runs one query at a time, so connections are handed out one at a time: a transaction
 * holds the only connection until it commits or rolls back, and other queries wait for it.
 */
import {
  CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type Driver,
  type Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';

/** What the dialect needs of PGlite: `PGlite` itself and `PgliteWorkerClient` both fit. */
export interface PgliteClient {
  query<R>(
    sql: string,
    params?: unknown[],
  ): Promise<{ rows: R[]; affectedRows?: number | undefined }>;
  close(): Promise<void>;
  readonly closed: boolean;
}

class PGliteConnection implements DatabaseConnection {
  constructor(private readonly pg: PgliteClient) {}

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.pg.query<R>(compiledQuery.sql, [...compiledQuery.parameters]);
    const command = compiledQuery.sql.trimStart().slice(0, 6).toUpperCase();
    const changesRows = ['INSERT', 'UPDATE', 'DELETE', 'MERGE '].includes(command);
    return {
      rows: result.rows,
      numAffectedRows:
        changesRows && result.affectedRows !== undefined ? BigInt(result.affectedRows) : undefined,
    };
  }

  // eslint-disable-next-line require-yield -- PGlite has no cursors; streaming is not offered.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streamQuery is not supported on PGlite; page with LIMIT/OFFSET instead');
  }
}

class PGliteDriver implements Driver {
  private readonly connection: PGliteConnection;
  private queue: Promise<void> = Promise.resolve();
  private release: (() => void) | undefined;

  constructor(private readonly pg: PgliteClient) {
    this.connection = new PGliteConnection(pg);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    const previous = this.queue;
    let release!: () => void;
    this.queue = new Promise<void>((resolve) => {
      release = resolve;
    });
    await previous;
    this.release = release;
    return this.connection;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) {
    const isolation = settings.isolationLevel ? ` isolation level ${settings.isolationLevel}` : '';
    await connection.executeQuery(CompiledQuery.raw(`begin${isolation}`));
  }

  async commitTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async releaseConnection(): Promise<void> {
    const release = this.release;
    this.release = undefined;
    release?.();
  }

  async destroy(): Promise<void> {
    if (!this.pg.closed) await this.pg.close();
  }
}

export class PGliteDialect implements Dialect {
  constructor(private readonly pg: PgliteClient) {}
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.pg);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
  /** Kysely passes the database whatever its table types; the introspector reads the catalogue. */
  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new PostgresIntrospector(db);
  }
}
