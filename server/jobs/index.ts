/**
 * The background-jobs feature: starts the queue (./queue.ts) on the app's database, decorates it
 * as `app.jobs` for the other features (define a job, send one, also inside a transaction), runs
 * the workers only when asked (`buildApp({ jobs: { work: true } })`, the server process), and
 * serves the admin's view:
 *   GET  /api/jobs?state&name&page&per_page   newest first → { data, meta }
 *   POST /api/jobs/:id/retry                  a failed job back in the queue → { data }
 * Both need `manage-users` (admins; see docs/ARCHITECTURE.md §Background jobs for why no new
 * permission).
 */
import type { FastifyInstance } from 'fastify';
import { refreshStatistics } from '../db/statistics.ts';
import { ApiError, notFound } from '../http/errors.ts';
import {
  dataSchema,
  listMeta,
  listSchema,
  offsetOf,
  type PageQuery,
  pageSchema,
  perPageSchema,
} from '../http/lists.ts';
import { JOB_STATES, JobQueue, type JobState, type QueueOptions } from './queue.ts';

declare module 'fastify' {
  interface FastifyInstance {
    jobs: JobQueue;
  }
}

export type JobsOptions = Partial<QueueOptions>;

/** How often PGlite's statistics are checked (./statistics.ts of server/db): every 15 minutes. */
export const STATISTICS_CRON = '*/15 * * * *';

const jobRow = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    state: { type: 'string', enum: [...JOB_STATES] },
    data: {},
    retry_count: { type: 'integer' },
    retry_limit: { type: 'integer' },
    start_after: { type: 'string' },
    started_on: { type: ['string', 'null'] },
    created_on: { type: 'string' },
    completed_on: { type: ['string', 'null'] },
    error: { type: ['string', 'null'] },
  },
} as const;

const UUID = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

interface JobsQuery extends PageQuery {
  state?: JobState;
  name?: string;
}

async function jobs(app: FastifyInstance, options: JobsOptions): Promise<void> {
  // Loop errors go to the console (./queue.ts): the request logger is off by default.
  const queue = new JobQueue(app.database, { ...options, work: options.work ?? false });
  // Started now, so that jobs can be sent as soon as the features are registered.
  await queue.start();
  app.decorate('jobs', queue);
  // PGlite runs no autovacuum: the planner's statistics of the tables that grew, refreshed here.
  if (app.database.engine === 'pglite') {
    queue.define('db.statistics', { retryLimit: 0 }, async () => {
      await refreshStatistics(app.database.db);
    });
    queue.schedule('db.statistics', STATISTICS_CRON, {});
  }
  app.addHook('onReady', async () => queue.ready());
  app.addHook('onClose', async () => queue.stop());

  app.get<{ Querystring: JobsQuery }>(
    '/api/jobs',
    {
      config: { access: 'manage-users' },
      schema: {
        tags: ['jobs'],
        summary: 'Background jobs (queued, running, failed, completed), newest first.',
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            page: pageSchema(100_000),
            per_page: perPageSchema(200, 25),
            state: { type: 'string', enum: [...JOB_STATES] },
            name: { type: 'string', maxLength: 100 },
          },
        },
        response: { 200: listSchema(jobRow) },
      },
    },
    async (request) => {
      const query = request.query;
      const { rows, total } = await queue.list({
        state: query.state,
        name: query.name,
        limit: query.per_page,
        offset: offsetOf(query),
      });
      return { data: rows, meta: listMeta(query.page, query.per_page, total) };
    },
  );

  app.post<{ Params: { id: string } }>(
    '/api/jobs/:id/retry',
    {
      config: { access: 'manage-users' },
      schema: {
        tags: ['jobs'],
        summary: 'Puts a failed job back in the queue.',
        params: {
          type: 'object',
          additionalProperties: false,
          required: ['id'],
          properties: { id: { type: 'string', pattern: UUID } },
        },
        response: { 200: dataSchema(jobRow) },
      },
    },
    async (request) => {
      const id = request.params.id.toLowerCase();
      const job = await queue.get(id);
      if (!job) throw notFound('Job');
      if (job.state !== 'failed') throw new ApiError(409, 'jobNotFailed');
      await queue.retry(job.name, id);
      return { data: await queue.get(id) };
    },
  );
}

// Not encapsulated: `app.jobs` is for every feature registered after this one.
Object.defineProperty(jobs, Symbol.for('skip-override'), { value: true });
export default jobs;
