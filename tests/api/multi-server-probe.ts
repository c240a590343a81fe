/**
 * The `test.probe` job of the multi-server tests: records each run (job, worker, attempt) in
 * `multi_server_runs`, and on its first attempt sleeps `sleepMs` (a job a killed worker leaves
 * unfinished).
 */
import { sql } from 'kysely';
import type { DB } from '../../server/db/index.ts';
import type { JobContext, JobPolicy } from '../../server/jobs/queue.ts';

declare module '../../server/jobs/queue.ts' {
  interface JobPayloads {
    'test.probe': { n: number; sleepMs?: number };
  }
}

/** Short expiry: a job of a killed worker is taken up again after 3 s. */
export const PROBE_POLICY: JobPolicy = {
  retryLimit: 3,
  retryDelay: 0,
  retryBackoff: false,
  expireInSeconds: 3,
};

export const RUNS_TABLE = sql`
  create table if not exists multi_server_runs (
    job_id text not null, n integer not null, worker text not null, attempt integer not null,
    started_at timestamptz not null default clock_timestamp(), finished_at timestamptz)`;

export async function recordProbe(
  db: DB,
  job: JobContext<'test.probe'>,
  worker: string,
): Promise<void> {
  await sql`insert into multi_server_runs (job_id, n, worker, attempt)
    values (${job.id}, ${job.data.n}, ${worker}, ${job.retryCount})`.execute(db);
  if (job.retryCount === 0 && job.data.sleepMs)
    await new Promise((resolve) => setTimeout(resolve, job.data.sleepMs));
  await sql`update multi_server_runs set finished_at = clock_timestamp()
    where job_id = ${job.id} and worker = ${worker} and attempt = ${job.retryCount}`.execute(db);
}
