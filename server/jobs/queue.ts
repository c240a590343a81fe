/**
 * The job queue (pg-boss 10, schema `pgboss`) over the app's own database connection, on both
 * engines: typed job names and payloads, enqueue (also inside a Kysely transaction), workers,
 * recurring schedules and the admin's view of the jobs. docs/ARCHITECTURE.md §Background jobs.
 */
import { CompiledQuery, sql } from 'kysely';
import PgBoss from 'pg-boss';
import type { Database, DB } from '../db/index.ts';

/**
 * Every job name and the payload it carries. A feature adds its own jobs by declaration merging
 * (`declare module '../jobs/queue.ts' { interface JobPayloads { 'x.y': { id: number } } }`), so
 * `send` and `define` check the payload against the name.
 */
export interface JobPayloads {
  /** Deliver one outbox mail by SMTP (server/mail/mailer.ts). */
  'mail.deliver': { outboxId: number };
  /** Analyse the tables that grew (PGlite has no autovacuum; server/db/statistics.ts). */
  'db.statistics': Record<string, never>;
}
export type JobName = keyof JobPayloads;

/** How a job of one name is retried and when a running one counts as abandoned. */
export interface JobPolicy {
  /** Retries after the first attempt fails (default 3). */
  retryLimit?: number;
  /** Seconds before the first retry (default 10). */
  retryDelay?: number;
  /** Double the delay at every retry (default true). */
  retryBackoff?: boolean;
  /**
   * Seconds a job may run; past that it is taken for the job of a crashed server and retried
   * (default 15 minutes).
   */
  expireInSeconds?: number;
}

export interface SendOptions {
  /** Enqueue in this transaction: the job exists only if the transaction commits. */
  db?: DB;
  /** Not before this time (a Date), or this many seconds from now. */
  startAfter?: Date | number;
  /** At most one queued job with this key (pg-boss singletonKey). */
  singletonKey?: string;
}

/** What a handler receives: the payload and, to decide about a last attempt, the attempt count. */
export interface JobContext<N extends JobName> {
  id: string;
  name: N;
  data: JobPayloads[N];
  retryCount: number;
  retryLimit: number;
  /** True when a failure now marks the job failed for good. */
  lastAttempt: boolean;
}

export type JobHandler<N extends JobName> = (job: JobContext<N>) => Promise<void>;

interface Definition {
  policy: Required<JobPolicy>;
  handler: (job: JobContext<JobName>) => Promise<void>;
}

export const JOB_STATES = [
  'created',
  'retry',
  'active',
  'completed',
  'cancelled',
  'failed',
] as const;
export type JobState = (typeof JOB_STATES)[number];

/** One job as the admin screen shows it. */
export interface JobRow {
  id: string;
  name: string;
  state: JobState;
  data: unknown;
  retry_count: number;
  retry_limit: number;
  start_after: string;
  started_on: string | null;
  created_on: string;
  completed_on: string | null;
  /** The error of a failed attempt (pg-boss keeps it in `output`). */
  error: string | null;
}

export interface QueueOptions {
  /** Run the workers, the schedules and the supervision (expiry) in this process. */
  work: boolean;
  /** Seconds between polls of a worker (minimum 0.5; default 1). */
  pollingIntervalSeconds?: number;
  /**
   * Workers per job name in this process (default 2). A pg-boss 10 worker fetches one job per
   * poll, so a process runs about concurrency ÷ interval jobs per second and name.
   */
  concurrency?: number;
  /** Seconds between maintenance passes: expiry of abandoned jobs, archiving (default 60). */
  maintenanceIntervalSeconds?: number;
  /** Errors of the background loops (a poll or maintenance pass failed); default: a warning. */
  onError?: (error: Error) => void;
}

const DEFAULT_POLICY: Required<JobPolicy> = {
  retryLimit: 3,
  retryDelay: 10,
  retryBackoff: true,
  expireInSeconds: 15 * 60,
};

/**
 * pg-boss's `db` adapter over a Kysely connection. On a transaction (`send` with `db`) each call
 * is one statement of that transaction. On PGlite (one connection) every call waits its turn on
 * the dialect's connection queue, so it never lands inside someone else's transaction, and
 * parameterless text (pg-boss's migrations are several statements in one string) runs with
 * `exec`, which the extended protocol refuses. On PostgreSQL, node-pg sends parameterless text
 * with the simple protocol, which takes several statements.
 */
export function queueAdapter(database: Database, transaction?: DB): PgBoss.Db {
  const raw = (text: string, values: unknown[] | undefined) =>
    CompiledQuery.raw(text, values ?? []);
  if (transaction) {
    return {
      executeSql: async (text, values) => ({
        rows: (await transaction.executeQuery(raw(text, values))).rows as unknown[],
      }),
    };
  }
  if (database.engine === 'postgres') {
    return {
      executeSql: async (text, values) => ({
        rows: (await database.db.executeQuery(raw(text, values))).rows as unknown[],
      }),
    };
  }
  return {
    executeSql: (text, values) =>
      database.db.connection().execute(async (connection) => {
        if (values && values.length > 0)
          return { rows: (await connection.executeQuery(raw(text, values))).rows as unknown[] };
        return { rows: await database.exclusive((exec) => exec(text)) };
      }),
  };
}

const errorOf = (output: unknown): string | null => {
  if (output === null || output === undefined) return null;
  if (typeof output === 'object' && 'message' in output) return String(output.message);
  if (typeof output === 'string') return output;
  return null;
};

/** The queue of one app: pg-boss started on the app's database, plus the job definitions. */
export class JobQueue {
  readonly boss: PgBoss;
  private readonly definitions = new Map<JobName, Definition>();
  private readonly schedules: { name: JobName; cron: string; data: object }[] = [];
  private started = false;
  /** The workers' and schedules' start (ready()), awaited before stopping. */
  private working: Promise<void> = Promise.resolve();
  /** pg-boss worker ids per job name, to wake them when this process sends a job. */
  private readonly workers = new Map<JobName, string[]>();

  constructor(
    private readonly database: Database,
    private readonly options: QueueOptions,
  ) {
    this.boss = new PgBoss({
      db: queueAdapter(database),
      schema: 'pgboss',
      // Supervision expires the jobs of a crashed server; scheduling runs the crons. Both only
      // where work is done (the server), not in API tests.
      supervise: options.work,
      schedule: options.work,
      migrate: true,
      maintenanceIntervalSeconds: options.maintenanceIntervalSeconds ?? 60,
    });
    // An 'error' event nobody listens to would end the process; a failed poll (the database
    // restarting, say) is retried at the next one.
    this.boss.on('error', options.onError ?? ((error) => console.warn(`Jobs: ${error.message}`)));
  }

  /**
   * Installs or migrates the `pgboss` schema. Under the migrations' advisory lock: pg-boss 10's
   * own lock does not stop two servers installing at once (`CREATE SCHEMA` raced, seen in
   * tests/api/multi-server.test.ts).
   */
  async start(): Promise<void> {
    await this.database.exclusive(() => this.boss.start());
    this.started = true;
  }

  /** Declares a job: its retry policy and handler. Call before the app is ready. */
  define<N extends JobName>(name: N, policy: JobPolicy, handler: JobHandler<N>): void {
    if (this.definitions.has(name)) throw new Error(`job ${name} defined twice`);
    this.definitions.set(name, {
      policy: { ...DEFAULT_POLICY, ...policy },
      handler: handler as unknown as Definition['handler'],
    });
  }

  /** A recurring job (cron, server time zone UTC); runs once per tick across all servers. */
  schedule<N extends JobName>(name: N, cron: string, data: JobPayloads[N]): void {
    this.schedules.push({ name, cron, data: data as object });
  }

  /** Creates the queues of the defined jobs, then (when working) starts workers and schedules. */
  async ready(): Promise<void> {
    // One server at a time (the migrations' advisory lock): pg-boss creates a partition per
    // queue, and two servers creating the same one at once deadlock.
    await this.database.exclusive(async () => {
      for (const [name, definition] of this.definitions) {
        const queue = { name, policy: 'standard' as const, ...definition.policy };
        if (await this.boss.getQueue(name)) await this.boss.updateQueue(name, queue);
        else await this.boss.createQueue(name, queue);
      }
    });
    if (!this.options.work) return;
    // The workers and schedules start beside the first requests, not before them: a job waits
    // in its queue (created above, so jobs can be sent at once) until a worker polls it. On
    // PGlite this was about 0.4 s of every start.
    this.working = this.startWorking().catch((error: unknown) =>
      (this.options.onError ?? ((failure: Error) => console.warn(`Jobs: ${failure.message}`)))(
        error as Error,
      ),
    );
  }

  /** The workers of every job, then the recurring jobs. */
  private async startWorking(): Promise<void> {
    for (const [name, definition] of this.definitions) {
      if (!this.started) return;
      await this.workOn(name, definition);
    }
    for (const entry of this.schedules) {
      if (!this.started) return;
      await this.boss.schedule(entry.name, entry.cron, entry.data);
    }
  }

  private async workOn(name: JobName, definition: Definition): Promise<void> {
    const ids: string[] = [];
    for (let n = 0; n < (this.options.concurrency ?? 2); n++)
      ids.push(await this.workOnce(name, definition));
    this.workers.set(name, ids);
  }

  private workOnce(name: JobName, definition: Definition): Promise<string> {
    return this.boss.work<JobPayloads[JobName]>(
      name,
      {
        includeMetadata: true,
        batchSize: 1,
        pollingIntervalSeconds: this.options.pollingIntervalSeconds ?? 1,
      },
      async ([job]) => {
        await definition.handler({
          id: job.id,
          name,
          data: job.data,
          retryCount: job.retryCount,
          retryLimit: job.retryLimit,
          lastAttempt: job.retryCount >= job.retryLimit,
        });
      },
    );
  }

  /** Enqueues a job; with `options.db` (a transaction) atomically with that transaction. */
  async send<N extends JobName>(
    name: N,
    data: JobPayloads[N],
    options: SendOptions = {},
  ): Promise<string> {
    const definition = this.definitions.get(name);
    if (!definition) throw new Error(`unknown job ${name}`);
    const startAfter =
      typeof options.startAfter === 'number'
        ? new Date(Date.now() + options.startAfter * 1000)
        : options.startAfter;
    // The policy goes with each job, so it holds whatever another server set on the queue.
    const id = await this.boss.send(name, data as object, {
      ...definition.policy,
      ...(startAfter ? { startAfter } : {}),
      ...(options.singletonKey ? { singletonKey: options.singletonKey } : {}),
      ...(options.db ? { db: queueAdapter(this.database, options.db) } : {}),
    });
    if (id === null) throw new Error(`job ${name} was not queued (singleton already queued)`);
    // A job sent outside a transaction is there now: wake one local worker instead of waiting
    // for its next poll (in a transaction it appears only at commit).
    const [worker] = this.workers.get(name) ?? [];
    if (worker && !options.db && !startAfter) this.boss.notifyWorker(worker);
    return id;
  }

  /** Jobs for the admin screen, newest first. */
  async list(filter: {
    state?: JobState;
    name?: string;
    id?: string;
    limit: number;
    offset: number;
  }): Promise<{ rows: JobRow[]; total: number }> {
    const where = sql.join(
      [
        sql`true`,
        ...(filter.state ? [sql`state = ${filter.state}::pgboss.job_state`] : []),
        ...(filter.name ? [sql`name = ${filter.name}`] : []),
        ...(filter.id ? [sql`id = ${filter.id}::uuid`] : []),
      ],
      sql` and `,
    );
    const rows = await sql<Omit<JobRow, 'error'> & { output: unknown }>`
      select id::text, name, state::text, data, retry_count, retry_limit, start_after, started_on,
        created_on, completed_on, output
      from pgboss.job where ${where}
      order by created_on desc, id desc limit ${filter.limit} offset ${filter.offset}`.execute(
      this.database.db,
    );
    const total = await sql<{ n: number }>`
      select count(*)::int as n from pgboss.job where ${where}`.execute(this.database.db);
    const iso = (value: unknown) => (value ? new Date(value as string).toISOString() : null);
    return {
      rows: rows.rows.map(({ output, ...row }) => ({
        ...row,
        start_after: iso(row.start_after)!,
        started_on: iso(row.started_on),
        created_on: iso(row.created_on)!,
        completed_on: iso(row.completed_on),
        error: row.state === 'completed' ? null : errorOf(output),
      })),
      total: Number(total.rows[0]?.n ?? 0),
    };
  }

  /** One job, or undefined when there is no such job (any more: completed jobs are archived). */
  async get(id: string): Promise<JobRow | undefined> {
    return (await this.list({ id, limit: 1, offset: 0 })).rows[0];
  }

  /** Puts a failed job back in the queue (its retry count starts again). */
  async retry(name: string, id: string): Promise<void> {
    await this.boss.retry(name, id);
  }

  /** Stops the workers, waiting for running jobs (up to `timeoutMs`). */
  async stop(timeoutMs = 20_000): Promise<void> {
    if (!this.started) return;
    this.started = false;
    await this.working;
    await this.boss.stop({ graceful: true, wait: true, timeout: timeoutMs, close: false });
  }
}
