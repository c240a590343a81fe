/**
 * Offers' actions (issue 18; registered by ./index.ts):
 *   POST /api/offers/{id}/accept  {version?, contract_number?, signing_date?, start_date?}
 *        → {data: offer, contract} — the closure made in the same transaction through the
 *        contracts' own create (validation, rules, commission engine, audit: `app.records`):
 *        customer, insurer, product, consultant, premium and payment cycle of the offer, status
 *        application (sent to the insurer), signed today unless given, starting at the offer's
 *        start unless given; the offer accepted, decidedAt and contractId set.
 *   POST /api/offers/{id}/decline {version?, reason, non_closure?}
 *        → {data: offer, contract?} — declined with the reason; with non_closure a non-closure of
 *        the same customer, product and insurer with that reason.
 *   GET  /api/offers/{id}/offer.pdf?language — the offer as PDF (./pdf.ts).
 * Both actions on an offer the user may see (404 otherwise), from the statuses of
 * src/schema/offers.ts (409 `offerNotAcceptable` / `offerNotDeclinable`), based on its version
 * when one is given (409 with the current record).
 *
 * `expireOffers`: draft and sent offers whose last valid day has passed become expired (the
 * nightly job 'offers.expire').
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { canAccept, canDecline, type OfferStatus } from '../../src/schema/offers.ts';
import { swissToday } from '../../src/schema/swiss-time.ts';
import { writeTransaction } from '../audit/context.ts';
import type { SessionUser } from '../auth/sessions.ts';
import { modelOf, scopeFor } from '../customers/access.ts';
import { LANGUAGES, type Language } from '../customers/labels.ts';
import {
  assertExpectedVersion,
  conflictSchema,
  etagOf,
  expectedVersion,
  VersionConflict,
} from '../crud/write.ts';
import type { DB } from '../db/index.ts';
import { type ResourceRow, resourceDb } from '../db/resource.ts';
import { SEARCH_DOCUMENT_COLUMN } from '../db/search-sql.ts';
import { releaseLabel } from '../i18n/source.ts';
import { ApiError, issue, notFound } from '../http/errors.ts';
import { type IdParams, idParams } from '../http/params.ts';
import { responseSchema } from '../http/validation.ts';
import { offerStatusLabel } from './hooks.ts';
import { offerPdf } from './pdf.ts';

const DATE = { type: 'string', format: 'date' } as const;
const VERSION = {
  type: 'integer',
  minimum: 1,
  description: 'The version of the offer the action is based on.',
} as const;
const REASONS = [
  'price',
  'stayed_with_insurer',
  'health_questions',
  'rejected_by_insurer',
  'no_need',
  'postponed',
  'other',
] as const;

interface AcceptBody {
  version?: number;
  contract_number?: string;
  signing_date?: string;
  start_date?: string;
}

interface DeclineBody {
  version?: number;
  reason: (typeof REASONS)[number];
  non_closure?: boolean;
}

/** Draft and sent offers past their last valid day become expired; answers how many. */
export async function expireOffers(db: DB, today = swissToday()): Promise<number> {
  const result = await db
    .updateTable('offers')
    .set({ status: 'expired', updated_at: sql`now()` })
    .where('status', 'in', ['draft', 'sent'])
    .where('valid_until', '<', today)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function offerActions(app: FastifyInstance): Promise<void> {
  const model = modelOf(app, 'offers');
  const record = responseSchema(model.schema);
  const withContract = {
    type: 'object',
    properties: {
      data: record,
      contract: {
        type: ['object', 'null'],
        additionalProperties: true,
        description:
          'The closure (accept) or non-closure (decline) made, as GET /api/contracts/{id}.',
      },
    },
  };
  const tags = ['offers'];

  /** The offer inside the principal's scope (404 outside it), locked when asked. */
  const offerOf = async (db: DB, request: FastifyRequest, id: number, lock = false) => {
    const query = resourceDb(db)
      .selectFrom('offers')
      .selectAll()
      .where('id', '=', id)
      .where(scopeFor(app, 'offers', request.principal as SessionUser, db));
    const row = await (lock ? query.forNoKeyUpdate() : query).executeTakeFirst();
    if (!row) throw notFound(model.title);
    return row;
  };

  const statusLabel = (status: unknown, request: FastifyRequest) =>
    offerStatusLabel(status, request.principal?.language);

  /** What the closure or non-closure made from an offer takes from it. */
  const contractFrom = (offer: ResourceRow, request: FastifyRequest) => ({
    customer_id: offer.customer_id,
    product_id: offer.product_id,
    company_id: offer.company_id,
    ...(offer.consultant_id ? { consultant_id: offer.consultant_id } : {}),
    note: releaseLabel('app.offers.contractNote', request.principal?.language).replace(
      '{{id}}',
      String(offer.id),
    ),
  });

  const decide = async (
    trx: DB,
    offer: ResourceRow,
    values: { status: OfferStatus; decline_reason?: string; contract_id: number | null },
  ) =>
    resourceDb(trx)
      .updateTable('offers')
      .set({ ...values, decided_at: sql`now()`, updated_at: sql`now()` })
      .where('id', '=', Number(offer.id))
      .returningAll()
      .executeTakeFirstOrThrow();

  /** Runs an action; a write based on an old version answers 409 with the current offer. */
  const run = async (
    request: FastifyRequest<{ Params: IdParams; Body: { version?: number } | null }>,
    reply: FastifyReply,
    act: (trx: DB, offer: ResourceRow) => Promise<{ offer: ResourceRow; contract: unknown }>,
  ) => {
    const expected = expectedVersion(request.body ?? undefined, request.headers['if-match']);
    try {
      const done = await writeTransaction(app.db, request, async (trx) => {
        const offer = await offerOf(trx, request, request.params.id, true);
        assertExpectedVersion(model, offer, expected);
        return act(trx, offer);
      });
      const contract = done.contract as ResourceRow | null;
      if (contract) delete contract[SEARCH_DOCUMENT_COLUMN];
      return reply
        .header('etag', etagOf(done.offer))
        .send({ data: done.offer, contract: contract ?? null });
    } catch (error) {
      if (error instanceof VersionConflict) return reply.status(409).send(error.answer);
      throw error;
    }
  };

  app.post<{ Params: IdParams; Body: AcceptBody | null }>(
    '/api/offers/:id/accept',
    {
      config: { access: 'authenticated' },
      schema: {
        tags,
        summary:
          'Accept a draft or sent offer: its closure is made in the same step (status application).',
        params: idParams,
        body: {
          type: ['object', 'null'],
          additionalProperties: false,
          properties: {
            version: VERSION,
            contract_number: { type: 'string', maxLength: 100 },
            signing_date: DATE,
            start_date: DATE,
          },
        },
        response: { 200: withContract, 409: conflictSchema(record) },
      },
    },
    (request, reply) =>
      run(request, reply, async (trx, offer) => {
        if (!canAccept(offer.status as OfferStatus))
          throw new ApiError(
            409,
            issue('offerNotAcceptable', { status: statusLabel(offer.status, request) }),
          );
        const body = request.body ?? {};
        const contract = await app.records.of('contracts').create(trx, request, {
          ...contractFrom(offer, request),
          contract_type: 'closure',
          status: 'application',
          payment_cycle: offer.payment_cycle ?? 'annual',
          signing_date: body.signing_date ?? swissToday(),
          ...(body.start_date || offer.start_date
            ? { start_date: body.start_date ?? offer.start_date }
            : {}),
          ...(body.contract_number ? { contract_number: body.contract_number } : {}),
          insurance: { premium: Number(offer.premium) },
        });
        const decided = await decide(trx, offer, {
          status: 'accepted',
          contract_id: Number(contract.id),
        });
        return { offer: decided, contract };
      }),
  );

  app.post<{ Params: IdParams; Body: DeclineBody }>(
    '/api/offers/:id/decline',
    {
      config: { access: 'authenticated' },
      schema: {
        tags,
        summary:
          'Decline a draft, sent or expired offer with the reason; with non_closure a non-closure is made with it.',
        params: idParams,
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['reason'],
          properties: {
            version: VERSION,
            reason: { type: 'string', enum: [...REASONS] },
            non_closure: { type: 'boolean', default: false },
          },
        },
        response: { 200: withContract, 409: conflictSchema(record) },
      },
    },
    (request, reply) =>
      run(request, reply, async (trx, offer) => {
        if (!canDecline(offer.status as OfferStatus))
          throw new ApiError(
            409,
            issue('offerNotDeclinable', { status: statusLabel(offer.status, request) }),
          );
        const contract = request.body.non_closure
          ? await app.records.of('contracts').create(trx, request, {
              ...contractFrom(offer, request),
              contract_type: 'non-closure',
              reason: request.body.reason,
            })
          : null;
        const decided = await decide(trx, offer, {
          status: 'declined',
          decline_reason: request.body.reason,
          contract_id: contract ? Number(contract.id) : null,
        });
        return { offer: decided, contract };
      }),
  );

  app.get<{ Params: IdParams; Querystring: { language?: Language } }>(
    '/api/offers/:id/offer.pdf',
    {
      config: { access: 'authenticated' },
      schema: {
        tags,
        summary:
          "The offer as PDF (customer, insurer, product, premium, cover, validity), in the language asked for or the customer's correspondence language.",
        params: idParams,
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: { language: { type: 'string', enum: [...LANGUAGES] } },
        },
      },
    },
    async (request, reply) => {
      const offer = await offerOf(app.db, request, request.params.id);
      const pdf = await offerPdf(app.db, offer, request.query.language);
      reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="${pdf.fileName}"`)
        .header('cache-control', 'private, no-store');
      return reply.send(pdf.pdf);
    },
  );
}
