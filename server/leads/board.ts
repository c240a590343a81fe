/**
 * The lead board's own calls (issue 16), each one transaction on the locked lead, inside the
 * principal's scope (404 outside it):
 * - POST /api/leads/{id}/move — one drop: the card goes to a column, right below `after_id` (none:
 *   on top), taking a position between its neighbours (./positions.ts); no other card is written.
 *   Closing needs a close reason; 'appointment set' comes only from booking the appointment.
 *   A stale board (after_id no longer in that column) is 409 naming after_id; a stale card
 *   (version) the usual 409 with the current record.
 * - POST /api/leads/{id}/call-attempts — records a call (outcome, note); the lead may change
 *   column (src/schema/leads.ts columnAfterCall).
 * - POST /api/leads/{id}/convert — makes a customer of a prospect (a lead without customer) from
 *   its person and contact fields, source, recommendation and assignee, and links it.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import {
  APPOINTMENT_SET,
  columnAfterCall,
  LEAD_CALL_OUTCOMES,
  LEAD_CLOSE_STATUSES,
  LEAD_STATUSES,
  type LeadCallOutcome,
  type LeadStatus,
} from '../../src/schema/leads.ts';
import { writeTransaction } from '../audit/context.ts';
import type { SessionUser } from '../auth/sessions.ts';
import { modelOf, scopeFor } from '../customers/access.ts';
import { checkCustomer } from '../customers/rules.ts';
import { assertExpectedVersion, conflictSchema, VersionConflict } from '../crud/write.ts';
import type { DB } from '../db/index.ts';
import { type ResourceRow, resourceDb } from '../db/resource.ts';
import { ApiError, assertNoErrors, issue, notFound, validationError } from '../http/errors.ts';
import { dataSchema } from '../http/lists.ts';
import { type IdParams, idParams } from '../http/params.ts';
import { responseSchema } from '../http/validation.ts';
import { INT_MAX } from '../../src/schema/limits.ts';
import { blacklistPerson } from './close.ts';
import { leadHooks } from './hooks.ts';
import { lockColumn, positionBelow, topPosition } from './positions.ts';

interface MoveBody {
  status: LeadStatus;
  after_id?: number | null;
  version?: number;
  close_status?: string | null;
}

interface CallBody {
  outcome: LeadCallOutcome;
  note?: string;
  version?: number;
}

const id = { type: 'integer', minimum: 1, maximum: INT_MAX } as const;
const version = { ...id, description: 'The version of the lead the change is based on.' };

export async function boardRoutes(app: FastifyInstance): Promise<void> {
  const model = modelOf(app, 'leads');
  const record = responseSchema(model.schema);
  const one = dataSchema(record);
  // A move's 409: a stale card (the current record) or a stale board (the field it names).
  const conflict = conflictSchema(record);
  const staleSchema = {
    ...conflict,
    properties: {
      ...conflict.properties,
      errors: { type: 'object', additionalProperties: true },
      error_keys: { type: 'object', additionalProperties: true },
    },
  };

  /** The lead, locked for the transaction, inside the principal's scope; its version checked. */
  const locked = async (trx: DB, request: FastifyRequest, leadId: number, expected?: number) => {
    const row = await resourceDb(trx)
      .selectFrom('leads')
      .selectAll()
      .where('id', '=', leadId)
      .where(scopeFor(app, 'leads', request.principal as SessionUser, trx))
      .forNoKeyUpdate()
      .executeTakeFirst();
    if (!row) throw notFound(model.title);
    if (expected !== undefined) assertExpectedVersion(model, row, { version: expected });
    return row;
  };

  /** The lead as the principal may see it (contact fields its source hides blanked). */
  const present = async (request: FastifyRequest, row: ResourceRow) =>
    (
      await leadHooks.present!([row], {
        db: app.db,
        model,
        models: app.models,
        principal: request.principal,
      })
    )[0];

  const answer = async (
    request: FastifyRequest,
    reply: FastifyReply,
    work: () => Promise<ResourceRow>,
  ) => {
    try {
      const row = await work();
      return reply.send({ data: await present(request, row) });
    } catch (error) {
      if (error instanceof VersionConflict) {
        const conflict = error.answer;
        return reply
          .status(409)
          .send({ ...conflict, current: await present(request, conflict.current) });
      }
      throw error;
    }
  };

  app.post<{ Params: IdParams; Body: MoveBody }>(
    '/api/leads/:id/move',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['leads'],
        summary:
          'Move a lead on the board: to a column (status), right below after_id (none: on top); closing needs close_status.',
        params: idParams,
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['status'],
          properties: {
            status: { type: 'string', enum: [...LEAD_STATUSES] },
            after_id: { anyOf: [id, { type: 'null' }] },
            version,
            close_status: {
              anyOf: [{ type: 'string', enum: [...LEAD_CLOSE_STATUSES] }, { type: 'null' }],
            },
          },
        },
        response: { 200: one, 409: staleSchema },
      },
    },
    async (request, reply) =>
      answer(request, reply, () =>
        writeTransaction(app.db, request, async (trx) => {
          const body = request.body;
          const before = await locked(trx, request, request.params.id, body.version);
          const closing = body.status === 'closed';
          const keepsReason =
            before.status === 'closed' &&
            (body.close_status ?? before.close_status) === before.close_status;
          const reason = closing
            ? (body.close_status ?? (keepsReason ? before.close_status : null))
            : null;
          if (closing && !reason)
            throw validationError({ close_status: [issue('leadCloseStatusRequired')] });
          if (closing && reason === APPOINTMENT_SET && before.close_status !== APPOINTMENT_SET)
            throw validationError({ close_status: [issue('leadAppointmentNeeded')] });
          await lockColumn(trx, body.status);
          const afterId = body.after_id ?? null;
          const position =
            afterId === null
              ? await topPosition(trx, body.status)
              : await positionBelow(trx, body.status, afterId, Number(before.id));
          if (position === undefined) {
            throw new ApiError(409, issue('staleBoardPosition', { id: afterId ?? 0 }), {
              after_id: [issue('staleBoardPosition', { id: afterId ?? 0 })],
            });
          }
          const reopened = before.status === 'closed' && !closing;
          const row = await resourceDb(trx)
            .updateTable('leads')
            .set({
              status: body.status,
              close_status: reason,
              position,
              closed_at: closing
                ? before.status === 'closed'
                  ? before.closed_at
                  : sql`now()`
                : null,
              // A reopened lead forgets the appointment it was closed with.
              ...(reopened ? { appointment_id: null } : {}),
              updated_at: sql`now()`,
            })
            .where('id', '=', Number(before.id))
            .returningAll()
            .executeTakeFirstOrThrow();
          if (reason === 'blacklist' && before.close_status !== 'blacklist')
            await blacklistPerson(trx, row, request.principal?.id ?? null);
          return row;
        }),
      ),
  );

  app.post<{ Params: IdParams; Body: CallBody }>(
    '/api/leads/:id/call-attempts',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['leads'],
        summary:
          'Record a call attempt (outcome, note); a lead not reached leaves "new" for "not reached", one reached goes to "to do".',
        params: idParams,
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['outcome'],
          properties: {
            outcome: { type: 'string', enum: [...LEAD_CALL_OUTCOMES] },
            note: { type: 'string', maxLength: 1000 },
            version,
          },
        },
        response: { 200: one, 409: conflictSchema(record) },
      },
    },
    async (request, reply) =>
      answer(request, reply, () =>
        writeTransaction(app.db, request, async (trx) => {
          const body = request.body;
          const before = await locked(trx, request, request.params.id, body.version);
          const attempts = Array.isArray(before.call_attempts) ? before.call_attempts : [];
          if (attempts.length >= 500)
            throw validationError({ outcome: [issue('maxItems', { limit: 500 })] });
          const at = new Date().toISOString();
          const attempt = {
            at,
            outcome: body.outcome,
            ...(body.note?.trim() ? { note: body.note.trim() } : {}),
            user_id: request.principal?.id,
          };
          const next = columnAfterCall(before.status as LeadStatus, body.outcome);
          let position: string | undefined;
          if (next) {
            await lockColumn(trx, next);
            position = await topPosition(trx, next);
          }
          return resourceDb(trx)
            .updateTable('leads')
            .set({
              call_attempts: JSON.stringify([...attempts, attempt]),
              attempt_count: attempts.length + 1,
              last_attempt_at: at,
              ...(next ? { status: next, position } : {}),
              updated_at: sql`now()`,
            })
            .where('id', '=', Number(before.id))
            .returningAll()
            .executeTakeFirstOrThrow();
        }),
      ),
  );

  const customers = modelOf(app, 'customers');
  app.post<{ Params: IdParams }>(
    '/api/leads/:id/convert',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['leads'],
        summary:
          'Make a customer of a prospect lead from its person, contact, source, recommendation and assignee, and link it.',
        params: idParams,
        response: {
          201: dataSchema({
            type: 'object',
            properties: { customer_id: { type: 'integer' }, lead: record },
          }),
        },
      },
    },
    async (request, reply) => {
      const principal = request.principal as SessionUser;
      const outcome = await writeTransaction(app.db, request, async (trx) => {
        const lead = await locked(trx, request, request.params.id);
        if (lead.customer_id !== null)
          throw new ApiError(409, issue('leadConverted', { id: Number(lead.id) }));
        const customer: ResourceRow = {
          is_company: lead.is_company === true,
          organization: lead.organization,
          first_name: lead.first_name,
          last_name: lead.last_name,
          email: lead.email,
          phone_number: lead.phone_number,
          street: lead.street,
          zip: lead.zip,
          city: lead.city,
          country: 'CH',
          correspondence_languages: JSON.stringify(lead.language ? [lead.language] : []),
          lead_source: lead.lead_source,
          recommended_by: lead.recommended_by,
          recommended_by_customer_id: lead.recommended_by_customer_id,
          // A consultant's customers are their own (x-owner); others keep the lead's assignee.
          assigned_to: principal.role === 'CONSULTANT' ? principal.id : lead.assigned_to,
        };
        assertNoErrors(await checkCustomer(trx, customer));
        const created = await resourceDb(trx)
          .insertInto(customers.table)
          .values(customer)
          .returning('id')
          .executeTakeFirstOrThrow();
        const row = await resourceDb(trx)
          .updateTable('leads')
          .set({ customer_id: created.id, updated_at: sql`now()` })
          .where('id', '=', Number(lead.id))
          .returningAll()
          .executeTakeFirstOrThrow();
        return { customer_id: Number(created.id), lead: row };
      });
      return reply
        .status(201)
        .send({ data: { ...outcome, lead: await present(request, outcome.lead) } });
    },
  );
}
