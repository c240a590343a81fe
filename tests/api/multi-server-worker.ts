/**
 * A job worker process for tests/api/multi-server.test.ts: works on `test.probe` jobs of the
 * database at DATABASE_URL and records every run in `multi_server_runs`, so the test can count
 * runs per job and kill this process (kill -9) in the middle of one.
 */
import { sql } from 'kysely';
import { openPostgres } from '../../server/db/index.ts';
import { JobQueue } from '../../server/jobs/queue.ts';
import { PROBE_POLICY, recordProbe } from './multi-server-probe.ts';

const database = await openPostgres(process.env.DATABASE_URL!);
const queue = new JobQueue(database, {
  work: true,
  pollingIntervalSeconds: 0.5,
  concurrency: 4,
  maintenanceIntervalSeconds: 1,
});
await queue.start();
queue.define('test.probe', PROBE_POLICY, (job) =>
  recordProbe(database.db, job, process.env.WORKER!),
);
await queue.ready();
await sql`select 1`.execute(database.db);
process.stdout.write('ready\n');
