/**
 * Payouts (issue 17; docs/ARCHITECTURE.md "Commissions"; the ledger side in ./payout-lines.ts).
 *
 * Generic CRUD of `payouts`, with these hooks:
 * - scope: a user sees their own payouts; manage-commissions sees all (writes need it anyway);
 * - create {user_id, period, note?}: under the user's payout lock, refused when the user has a
 *   payout for that month (422 `payoutExists` on period) or no ready line up to it (422
 *   `payoutNothingToPay` on user_id); the lines are read and locked (prepare: total, rounded to
 *   0.05 CHF, and line_count), then frozen into the payout (afterWrite), in the write's transaction;
 * - update: only the note, only while new (409 `payoutFrozen`; another user or month: 422
 *   `readOnly`);
 * - delete: only a new payout (409 `payoutFrozen`); its lines are ready again.
 * Own routes (manage-commissions unless said):
 *   POST /api/payouts/run {period}       → {data: {created, payouts}}: one payout per user with
 *                                           ready lines up to that month and none for it yet
 *   POST /api/payouts/:id/approve        new → approved (approved_at/by)
 *   POST /api/payouts/:id/pay            approved → paid (paid_at/by), its lines paid
 *                                         (wrong status: 409 `payoutWrongStatus`; `version` in the
 *                                         body or If-Match: 409 with the current record when stale)
 *   GET  /api/payouts/:id/statement.pdf  the statement (./statement.ts): the payout's user or
 *                                         manage-commissions (404 otherwise)
 *   GET  /api/payouts/export?period&format=csv|xlsx  the month's payouts (./payout-export.ts)
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { writeTransaction } from '../audit/context.ts';
import type { SessionUser } from '../auth/sessions.ts';
import { modelOf, scopeFor } from '../customers/access.ts';
import { LANGUAGES, type Language, languageOf } from '../customers/labels.ts';
import type { ResourceHooks } from '../crud/hooks.ts';
import {
  assertExpectedVersion,
  conflictSchema,
  etagOf,
  expectedVersion,
  VersionConflict,
} from '../crud/write.ts';
import type { DB } from '../db/index.ts';
import { type ResourceRow, resourceDb } from '../db/resource.ts';
import { idOf } from '../db/values.ts';
import { releaseLabel } from '../i18n/source.ts';
import {
  addError,
  ApiError,
  type FieldErrors,
  issue,
  notFound,
  validationError,
} from '../http/errors.ts';
import { dataSchema } from '../http/lists.ts';
import { type IdParams, idParams } from '../http/params.ts';
import { responseSchema } from '../http/validation.ts';
import {
  attachLines,
  hasPayout,
  lockPayoutUser,
  mayManageCommissions,
  MANAGE_COMMISSIONS,
  payLines,
  readyLines,
  releaseLines,
  usersToPay,
} from './payout-lines.ts';
import { EXPORT_FORMATS, type ExportFormat, payoutExport } from './payout-export.ts';
import { payoutStatement } from './statement.ts';

const PERIOD = {
  type: 'string',
  pattern: '^[0-9]{4}-(0[1-9]|1[0-2])$',
  description: 'A month, YYYY-MM.',
} as const;

/** A payout status as a message names it: its label in the language, lower case. */
export function statusLabel(status: unknown, language?: string | null): string {
  const lang = languageOf(language);
  return releaseLabel(`enums.payoutStatus.${String(status ?? 'new')}`, lang).toLocaleLowerCase(
    lang,
  );
}

const frozen = (row: ResourceRow, language?: string | null) =>
  new ApiError(409, issue('payoutFrozen', { status: statusLabel(row.status, language) }));

/** The lines prepare read for a payout being created, by its transaction (afterWrite takes them). */
const gathered = new WeakMap<DB, number[]>();

export const payoutHooks: ResourceHooks = {
  scope({ principal }) {
    if (!principal || mayManageCommissions(principal)) return undefined;
    return (eb) => eb('payouts.user_id', '=', principal.id);
  },

  async validate(body, { db, mode, existing, principal }) {
    if (mode === 'update') {
      if (existing && existing.status !== 'new') throw frozen(existing, principal?.language);
      const errors: FieldErrors = {};
      for (const column of ['user_id', 'period']) {
        if (column in body && String(body[column]) !== String(existing?.[column]))
          addError(errors, column, issue('readOnly'));
      }
      return Object.keys(errors).length > 0 ? errors : undefined;
    }
    const userId = idOf(body.user_id);
    const period = body.period;
    // Both are required by the schema; an unknown user is the reference check's to answer.
    if (userId === null || typeof period !== 'string') return undefined;
    await lockPayoutUser(db, userId);
    if (await hasPayout(db, userId, period)) return { period: [issue('payoutExists', { period })] };
    return undefined;
  },

  async prepare(values, { db, mode }) {
    if (mode === 'update') return 'note' in values ? { note: values.note } : {};
    const lines = await readyLines(db, Number(values.user_id), String(values.period));
    if (lines.ids.length === 0) throw validationError({ user_id: [issue('payoutNothingToPay')] });
    gathered.set(db, lines.ids);
    return { ...values, status: 'new', total: lines.total, line_count: lines.ids.length };
  },

  async afterWrite(row, { db, mode, principal }) {
    if (mode === 'create') {
      const ids = gathered.get(db) ?? [];
      gathered.delete(db);
      await attachLines(db, Number(row.id), ids);
    } else if (mode === 'delete') {
      if (row.status !== 'new') throw frozen(row, principal?.language);
      await releaseLines(db, Number(row.id));
    }
  },
};

/** Creates the payout of one user for a month from their ready lines (none: undefined). */
async function createPayout(
  db: DB,
  userId: number,
  period: string,
): Promise<ResourceRow | undefined> {
  await lockPayoutUser(db, userId);
  if (await hasPayout(db, userId, period)) return undefined;
  const lines = await readyLines(db, userId, period);
  if (lines.ids.length === 0) return undefined;
  const row = await resourceDb(db)
    .insertInto('payouts')
    .values({
      user_id: userId,
      period,
      status: 'new',
      total: lines.total,
      line_count: lines.ids.length,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await attachLines(db, Number(row.id), lines.ids);
  return row;
}

const STEPS = {
  approve: { from: 'new', to: 'approved', at: 'approved_at', by: 'approved_by' },
  pay: { from: 'approved', to: 'paid', at: 'paid_at', by: 'paid_by' },
} as const;

export async function payoutRoutes(app: FastifyInstance): Promise<void> {
  const model = modelOf(app, 'payouts');
  const record = responseSchema(model.schema);
  const one = dataSchema(record);
  const tags = ['payouts'];

  /** The payout inside the principal's scope (404 outside it), locked when asked. */
  const payoutOf = async (db: DB, request: FastifyRequest, id: number, lock = false) => {
    const query = resourceDb(db)
      .selectFrom('payouts')
      .selectAll()
      .where('id', '=', id)
      .where(scopeFor(app, 'payouts', request.principal as SessionUser, db));
    const row = await (lock ? query.forNoKeyUpdate() : query).executeTakeFirst();
    if (!row) throw notFound(model.title);
    return row;
  };

  app.post<{ Body: { period: string } }>(
    '/api/payouts/run',
    {
      config: { access: MANAGE_COMMISSIONS },
      schema: {
        tags,
        summary:
          'Create the payouts of a month: one per user with ready lines up to that month and no payout for it yet.',
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['period'],
          properties: { period: PERIOD },
        },
        response: {
          200: dataSchema({
            type: 'object',
            properties: { created: { type: 'integer' }, payouts: { type: 'array', items: record } },
          }),
        },
      },
    },
    async (request) => {
      const { period } = request.body;
      const payouts = await writeTransaction(app.db, request, async (trx) => {
        const created: ResourceRow[] = [];
        for (const userId of await usersToPay(trx, period)) {
          const row = await createPayout(trx, userId, period);
          if (row) created.push(row);
        }
        return created;
      });
      return { data: { created: payouts.length, payouts } };
    },
  );

  for (const [action, step] of Object.entries(STEPS)) {
    app.post<{ Params: IdParams; Body: { version?: number } | undefined }>(
      `/api/payouts/:id/${action}`,
      {
        config: { access: MANAGE_COMMISSIONS },
        schema: {
          tags,
          summary:
            action === 'approve'
              ? 'Approve a new payout (approved_at/by).'
              : 'Pay an approved payout (paid_at/by); its lines become paid.',
          params: idParams,
          // No body at all is fine too (Fastify validates a missing body as null).
          body: {
            type: ['object', 'null'],
            additionalProperties: false,
            properties: {
              version: {
                type: 'integer',
                minimum: 1,
                description: 'The version of the payout the step is based on.',
              },
            },
          },
          response: { 200: one, 409: conflictSchema(record) },
        },
      },
      async (request, reply: FastifyReply) => {
        const expected = expectedVersion(request.body ?? undefined, request.headers['if-match']);
        try {
          const row = await writeTransaction(app.db, request, async (trx) => {
            const current = await payoutOf(trx, request, request.params.id, true);
            assertExpectedVersion(model, current, expected);
            if (current.status !== step.from) {
              const language = request.principal?.language;
              throw new ApiError(
                409,
                issue('payoutWrongStatus', {
                  status: statusLabel(current.status, language),
                  expected: statusLabel(step.from, language),
                }),
              );
            }
            const updated = await resourceDb(trx)
              .updateTable('payouts')
              .set({
                status: step.to,
                [step.at]: sql`now()`,
                [step.by]: request.principal?.id ?? null,
                updated_at: sql`now()`,
              })
              .where('id', '=', Number(current.id))
              .returningAll()
              .executeTakeFirstOrThrow();
            if (step.to === 'paid') await payLines(trx, Number(current.id));
            return updated;
          });
          return reply.header('etag', etagOf(row)).send({ data: row });
        } catch (error) {
          if (error instanceof VersionConflict) return reply.status(409).send(error.answer);
          throw error;
        }
      },
    );
  }

  app.get<{ Params: IdParams; Querystring: { language?: Language } }>(
    '/api/payouts/:id/statement.pdf',
    {
      config: { access: 'authenticated' },
      schema: {
        tags,
        summary:
          "The payout's statement as PDF (its user, month, lines with their explanation, total), in the language asked for or the payout user's. The payout's user or manage-commissions; 404 otherwise.",
        params: idParams,
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: { language: { type: 'string', enum: [...LANGUAGES] } },
        },
      },
    },
    async (request, reply) => {
      const payout = await payoutOf(app.db, request, request.params.id);
      const statement = await payoutStatement(app.db, payout, request.query.language);
      reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="${statement.fileName}"`)
        .header('cache-control', 'private, no-store');
      return reply.send(statement.pdf);
    },
  );

  app.get<{ Querystring: { period: string; format: ExportFormat; language?: Language } }>(
    '/api/payouts/export',
    {
      config: { access: MANAGE_COMMISSIONS },
      schema: {
        tags,
        summary:
          "A month's payouts for the accounting: CSV (UTF-8 with BOM, `;`: the payouts, then their lines) or XLSX (a sheet of payouts, a sheet of lines), in the language asked for or the user's.",
        querystring: {
          type: 'object',
          additionalProperties: false,
          required: ['period'],
          properties: {
            period: PERIOD,
            format: { type: 'string', enum: [...EXPORT_FORMATS], default: 'csv' },
            language: { type: 'string', enum: [...LANGUAGES] },
          },
        },
      },
    },
    async (request, reply) => {
      const { period, format } = request.query;
      const language = request.query.language ?? languageOf(request.principal?.language);
      const file = await payoutExport(app.db, period, format, language);
      reply
        .header('content-type', file.contentType)
        .header('content-disposition', `attachment; filename="${file.fileName}"`)
        .header('cache-control', 'private, no-store');
      return reply.send(file.body);
    },
  );
}
