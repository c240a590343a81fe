/**
 * The job queue (server/jobs/) on both engines: a delayed job waits, a failing job is retried and
 * then marked failed with its error (and an admin can put it back), a job sent in a transaction
 * exists only when the transaction commits, and the admin API answers only managers.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobQueue } from '../../server/jobs/queue.ts';
import { Mailer } from '../../server/mail/mailer.ts';
import { ADMIN, CONSULTANT, createTestApp, type TestApp } from './harness.ts';

declare module '../../server/jobs/queue.ts' {
  interface JobPayloads {
    'test.record': { label: string };
    'test.fail': { label: string };
  }
}

/** SMTP as the test wants it: failing for the recipients in `down`. */
const smtp = { sent: [] as string[], down: new Set<string>(), failOnce: new Set<string>() };

const RECORD_POLICY = { retryLimit: 0 };
const FAIL_POLICY = { retryLimit: 2, retryDelay: 1, retryBackoff: false };

let t: TestApp;
/** A second queue on the same database that works (the app of the harness does not). */
let worker: JobQueue;
const mailers: Mailer[] = [];
const runs: { label: string; at: number; attempt: number }[] = [];

const until = async (check: () => Promise<boolean> | boolean, timeoutMs = 15_000) => {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

const jobCount = async (name: string, label: string) =>
  Number(
    (
      await sql<{ n: number }>`select count(*)::int as n from pgboss.job
        where name = ${name} and data->>'label' = ${label}`.execute(t.database.db)
    ).rows[0].n,
  );

beforeAll(async () => {
  t = await createTestApp();
  worker = new JobQueue(t.database, { work: true, pollingIntervalSeconds: 0.5 });
  await worker.start();
  worker.define('test.record', RECORD_POLICY, async (job) => {
    runs.push({ label: job.data.label, at: Date.now(), attempt: job.retryCount });
  });
  worker.define('test.fail', FAIL_POLICY, async (job) => {
    runs.push({ label: job.data.label, at: Date.now(), attempt: job.retryCount });
    throw new Error(`boom ${job.retryCount}`);
  });
  const mailer = new Mailer(t.database.db, {
    jobs: worker,
    transport: {
      async send(mail) {
        if (smtp.down.has(mail.to)) throw new Error('SMTP down');
        if (smtp.failOnce.delete(mail.to)) throw new Error('SMTP busy');
        smtp.sent.push(mail.to);
      },
    },
  });
  mailers.push(mailer);
  worker.define('mail.deliver', { retryLimit: 1, retryDelay: 1, retryBackoff: false }, (job) =>
    mailer.deliverOne(job.data.outboxId, job.lastAttempt),
  );
  await worker.ready();
  // The app's queue knows the same names and policies (it only sends).
  t.app.jobs.define('test.record', RECORD_POLICY, async () => {});
  t.app.jobs.define('test.fail', FAIL_POLICY, async () => {});
  await t.app.ready();
});
afterAll(async () => {
  await worker?.stop(2000);
  await t?.close();
});

describe('job queue', () => {
  it('runs a job sent now, and a delayed job only when it falls due', async () => {
    const sentAt = Date.now();
    await t.app.jobs.send('test.record', { label: 'now' });
    await t.app.jobs.send('test.record', { label: 'later' }, { startAfter: 3 });
    await until(() => runs.some((run) => run.label === 'now'));
    expect(runs.some((run) => run.label === 'later')).toBe(false);
    await until(() => runs.some((run) => run.label === 'later'));
    const later = runs.find((run) => run.label === 'later')!;
    expect(later.at - sentAt).toBeGreaterThanOrEqual(2500);
    expect(runs.filter((run) => run.label === 'now')).toHaveLength(1);
  });

  it('retries a failing job, then marks it failed with the error; an admin retries it', async () => {
    const id = await t.app.jobs.send('test.fail', { label: 'failing' });
    await until(async () => (await t.app.jobs.get(id))?.state === 'failed', 25_000);
    const attempts = runs.filter((run) => run.label === 'failing');
    expect(attempts.map((run) => run.attempt)).toEqual([0, 1, 2]);
    const failed = await t.request({ as: ADMIN, method: 'GET', url: '/api/jobs?state=failed' });
    expect(failed.statusCode).toBe(200);
    const listed = (failed.json() as { data: { id: string; error: string; state: string }[] }).data;
    expect(listed.find((job) => job.id === id)).toMatchObject({
      state: 'failed',
      error: 'boom 2',
    });

    const retried = await t.request({ as: ADMIN, method: 'POST', url: `/api/jobs/${id}/retry` });
    expect(retried.statusCode).toBe(200);
    expect((retried.json() as { data: { state: string } }).data.state).toBe('retry');
    await until(() => runs.filter((run) => run.label === 'failing').length === 4);
    const again = await t.request({ as: ADMIN, method: 'POST', url: `/api/jobs/${id}/retry` });
    // Running or retrying again: only a failed job can be retried.
    expect([409, 200]).toContain(again.statusCode);
  });

  it('enqueues in a transaction: rolled back with it, kept when it commits', async () => {
    await expect(
      t.database.db.transaction().execute(async (trx) => {
        await t.app.jobs.send('test.record', { label: 'rolled-back' }, { db: trx });
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await jobCount('test.record', 'rolled-back')).toBe(0);

    await t.database.db.transaction().execute(async (trx) => {
      await t.app.jobs.send('test.record', { label: 'committed' }, { db: trx });
    });
    expect(await jobCount('test.record', 'committed')).toBe(1);
    await until(() => runs.some((run) => run.label === 'committed'));
  });

  it('delivers mail through the queue: retried when SMTP fails, then failed with the error', async () => {
    const [mailer] = mailers;
    const outboxRow = (id: number) =>
      t.database.db.selectFrom('outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    smtp.failOnce.add('busy@example.ch');
    smtp.down.add('down@example.ch');
    const mail = { kind: 'password-changed' as const, subject: 'S', body: 'B' };
    const [busy, down] = await t.database.db
      .transaction()
      .execute(async (trx) => [
        await mailer.enqueue(trx, { ...mail, to: 'busy@example.ch' }),
        await mailer.enqueue(trx, { ...mail, to: 'down@example.ch' }),
      ]);
    await until(async () => (await outboxRow(busy)).status === 'sent');
    expect(await outboxRow(busy)).toMatchObject({ status: 'sent', attempts: 2, body: null });
    await until(async () => (await outboxRow(down)).status === 'failed');
    expect(await outboxRow(down)).toMatchObject({
      status: 'failed',
      attempts: 2,
      error: 'SMTP down',
      body: 'B',
    });
    expect(smtp.sent.filter((to) => to === 'busy@example.ch')).toHaveLength(1);
    // A mail rolled back with its transaction has no job.
    await expect(
      t.database.db.transaction().execute(async (trx) => {
        await mailer.enqueue(trx, { ...mail, to: 'never@example.ch' });
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(
      Number(
        (
          await sql<{ n: number }>`select count(*)::int as n from pgboss.job
            where name = 'mail.deliver'`.execute(t.database.db)
        ).rows[0].n,
      ),
    ).toBe(2);
  });

  it('answers the jobs API to managers only, 404 for an unknown job, 400 for a bad id', async () => {
    expect((await t.request({ as: CONSULTANT, method: 'GET', url: '/api/jobs' })).statusCode).toBe(
      403,
    );
    expect(
      (
        await t.request({
          method: 'POST',
          url: '/api/jobs/00000000-0000-0000-0000-000000000000/retry',
        })
      ).statusCode,
    ).toBe(401);
    const unknown = await t.request({
      as: ADMIN,
      method: 'POST',
      url: '/api/jobs/00000000-0000-0000-0000-000000000000/retry',
    });
    expect(unknown.statusCode).toBe(404);
    const bad = await t.request({ as: ADMIN, method: 'POST', url: '/api/jobs/nope/retry' });
    expect(bad.statusCode).toBe(400);
    const page = await t.request({ as: ADMIN, method: 'GET', url: '/api/jobs?name=test.record' });
    expect(page.statusCode).toBe(200);
    const answer = page.json() as { data: { name: string }[]; meta: { total: number } };
    expect(answer.data.every((job) => job.name === 'test.record')).toBe(true);
    expect(answer.meta.total).toBeGreaterThanOrEqual(3);
  });
});
