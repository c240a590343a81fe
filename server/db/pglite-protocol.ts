/**
 * The messages between the app (main thread) and PGlite in its worker thread (./pglite-worker.ts,
 * ./pglite-client.ts). Every request carries an id; the worker answers each once, in order.
 * Values cross the thread boundary by structured clone (rows with Dates, Uint8Arrays, JSON).
 */

/** What the worker is started with (`workerData`). */
export interface WorkerInit {
  /** PostgreSQL's data folder (`<DATA_DIR>/pgdata`); undefined: in memory. */
  dataDir?: string;
  /** A prepared database image (tar, ./image.ts) to load instead of running initdb. */
  imageFile?: string;
}

export type WorkerRequest =
  | { id: number; op: 'query'; sql: string; params: unknown[] }
  /** Wire-protocol messages run through PostgreSQL as they are (./pglite-wire.ts). */
  | { id: number; op: 'wire'; message: Uint8Array }
  | { id: number; op: 'exec'; sql: string }
  | { id: number; op: 'ping' }
  | { id: number; op: 'dump' }
  | { id: number; op: 'close' }
  | { id: number; op: 'listen'; channel: string };

export interface QueryResult {
  rows: unknown[];
  affectedRows?: number;
}

/** What each request answers. */
export interface WorkerAnswers {
  query: QueryResult;
  /** PostgreSQL's answer, as wire-protocol messages (the buffer is transferred). */
  wire: Uint8Array;
  /** The rows of the last statement. */
  exec: Record<string, unknown>[];
  ping: null;
  /** The data folder as an uncompressed tar, after a checkpoint. */
  dump: Uint8Array;
  close: null;
  listen: null;
}

/** An error as it crosses the boundary: PostgreSQL's fields (code, constraint, table, …) kept. */
export interface SerializedError {
  name: string;
  message: string;
  stack?: string;
  fields: Record<string, string | number>;
}

export type WorkerMessage =
  | { kind: 'ready' }
  | { kind: 'failed'; error: SerializedError }
  | { kind: 'answer'; id: number; ok: true; value: unknown }
  | { kind: 'answer'; id: number; ok: false; error: SerializedError }
  /**
   * A NOTIFY on a channel the worker listens on. Posted while the statement that committed it is
   * answered, so it always arrives before that statement's answer.
   */
  | { kind: 'notification'; channel: string; payload: string };

/** The PostgreSQL error fields callers read (server/crud/write.ts maps constraint violations). */
const ERROR_FIELDS = [
  'code',
  'severity',
  'detail',
  'hint',
  'position',
  'internalPosition',
  'internalQuery',
  'where',
  'schema',
  'table',
  'column',
  'dataType',
  'constraint',
  'file',
  'line',
  'routine',
] as const;

export function serializeError(error: unknown): SerializedError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error), fields: {} };
  const fields: Record<string, string | number> = {};
  const source = error as unknown as Record<string, unknown>;
  for (const field of ERROR_FIELDS) {
    const value = source[field];
    if (typeof value === 'string' || typeof value === 'number') fields[field] = value;
  }
  return { name: error.name, message: error.message, stack: error.stack, fields };
}

/** The error rebuilt in the main thread: same message, name and PostgreSQL fields. */
export function deserializeError(serialized: SerializedError, callerStack?: string): Error {
  const error = new Error(serialized.message);
  error.name = serialized.name;
  Object.assign(error, serialized.fields);
  // Where the app asked (main thread) is what helps; the worker's side follows.
  error.stack = `${serialized.name}: ${serialized.message}\n${callerStack ?? ''}\n    (in the PGlite worker) ${serialized.stack?.split('\n').slice(1, 3).join(' ') ?? ''}`;
  return error;
}
