/**
 * The mail feature: delivers the outbox (./mailer.ts) through the `mail.deliver` job and serves
 * the outbox to user managers:
 *   GET /api/mail/outbox?page&per_page&to&kind   newest first → { data, meta }
 *   GET /api/mail/outbox/:id                     → { data }
 * Links with a token (password reset, invitation) are hidden in these answers; only in
 * outbox-only mode does a reader see the link of an account with strictly fewer rights than their
 * own. The decision and why: ./outbox.ts.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { notFound } from '../http/errors.ts';
import {
  countAtMost,
  dataSchema,
  listMetaSchema,
  listSchema,
  pageAnswer,
  type PageQuery,
  pageSchema,
  perPageSchema,
} from '../http/lists.ts';
import { type IdParams, idParams } from '../http/params.ts';
import {
  activateMailer,
  deactivateMailer,
  DELIVERY_POLICY,
  Mailer,
  type MailerOptions,
  transportFromEnv,
} from './mailer.ts';
import { outboxAnswer } from './outbox.ts';

const outboxRow = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    created_at: { type: 'string' },
    kind: { type: 'string' },
    to_address: { type: 'string' },
    subject: { type: 'string' },
    body: { type: ['string', 'null'] },
    user_id: { type: ['integer', 'null'] },
    status: { type: 'string' },
    attempts: { type: 'integer' },
    sent_at: { type: ['string', 'null'] },
    error: { type: ['string', 'null'] },
    /** A link with a token was hidden (it is only in the delivered mail). */
    redacted: { type: 'boolean' },
  },
} as const;

interface OutboxQuery extends PageQuery {
  to?: string;
  kind?: string;
}

export default async function mail(app: FastifyInstance, options: MailerOptions): Promise<void> {
  const transport = options.transport ?? (await transportFromEnv());
  const mailer = new Mailer(app.db, {
    ...options,
    transport,
    from: options.from ?? process.env.MAIL_FROM ?? undefined,
    jobs: options.jobs ?? app.jobs,
  });
  app.jobs.define('mail.deliver', DELIVERY_POLICY, (job) =>
    mailer.deliverOne(job.data.outboxId, job.lastAttempt),
  );
  if (transport) app.log.info('Mail: SMTP delivery through the job queue.');
  activateMailer(mailer);
  app.addHook('onReady', async () => mailer.start(options.intervalMs));
  app.addHook('onClose', async () => {
    mailer.stop();
    deactivateMailer(mailer);
  });

  app.get<{ Querystring: OutboxQuery }>(
    '/api/mail/outbox',
    {
      config: { access: 'manage-users' },
      schema: {
        tags: ['mail'],
        summary: 'Mails the server wrote (newest first); in demo mode and tests, nothing leaves.',
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            page: pageSchema(100_000),
            per_page: perPageSchema(200, 25),
            to: { type: 'string', maxLength: 254 },
            kind: { type: 'string', maxLength: 50 },
          },
        },
        response: {
          200: listSchema(outboxRow, listMetaSchema({ transport: { type: 'string' } })),
        },
      },
    },
    async (request) => {
      const query = request.query;
      let base = app.db.selectFrom('outbox');
      if (query.to) base = base.where(sql`lower(to_address)`, '=', query.to.trim().toLowerCase());
      if (query.kind) base = base.where('kind', '=', query.kind);
      const page = await pageAnswer(query, {
        rows: (limit, offset) =>
          base.selectAll().orderBy('id', 'desc').limit(limit).offset(offset).execute(),
        count: countAtMost(app.db, base),
      });
      const data = await outboxAnswer(
        app.db,
        request.principal!,
        page.data,
        mailer.mode,
        request.ip,
      );
      return { data, meta: { ...page.meta, transport: mailer.mode } };
    },
  );

  app.get<{ Params: IdParams }>(
    '/api/mail/outbox/:id',
    {
      config: { access: 'manage-users' },
      schema: {
        tags: ['mail'],
        summary: 'One mail of the outbox.',
        params: idParams,
        response: { 200: dataSchema(outboxRow) },
      },
    },
    async (request) => {
      const row = await app.db
        .selectFrom('outbox')
        .selectAll()
        .where('id', '=', request.params.id)
        .executeTakeFirst();
      if (!row) throw notFound('Mail');
      const [mail] = await outboxAnswer(app.db, request.principal!, [row], mailer.mode, request.ip);
      return { data: mail };
    },
  );
}
