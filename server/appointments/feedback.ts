/**
 * `POST /api/appointments/:id/feedback` (issue 15): how an appointment went, and what follows from
 * it, in ONE transaction — nothing half-done on any failure:
 *
 *  1. the appointment is locked (404 when the caller may not see it; 409 with the current record
 *     when `version` is sent and stale);
 *  2. refused: feedback already given (409 `feedbackGiven`), cancelled (409 `feedbackNotPossible`),
 *     not yet begun (409 `feedbackTooEarly`), not planned (status 15: 422 `statusTransition` on
 *     `status`); a status that does not fit `has_taken_place` (2 or 10 when it took place, 7 when
 *     not: 422 `feedbackStatus`), a reminder due before today (422 `notInPast` on
 *     `reminder.due_date`), a follow-up that starts in the past or ends before it starts or on
 *     another day (422 on `follow_up_appointment.date_start` / `.date_end`);
 *  3. written: the follow-up appointment (same customer and consultant, status 1, type follow_up
 *     by default, `previous_appointment_id`, address from the body or the appointment), the
 *     reminder (for the appointment's consultant, else the writer; assigned by the writer; the
 *     customer; category follow_up by default), the feedback (`user_id` the writer, with the ids
 *     of both), the appointment's status and `feedback_id`;
 *  4. when the customer's lead source has "feedback to" enabled with an address, the
 *     'feedback-to-lead-source' mail goes to the outbox (a copy to each bcc address), in the
 *     writer's language, with the source's subject when it has one;
 *  5. the after-feedback handlers run in the same transaction (`app.feedbackHandlers`): the
 *     extension point of later features — the leads feature (issue 16) moves the linked lead there.
 *     A handler that throws rolls everything back.
 *
 * The audit trail is written by the tables' triggers in this transaction (writeTransaction carries
 * the user and the request id). Feedbacks are then schema CRUD for reading; an update may change
 * only note, comment and address (feedbackHooks).
 */
import type { FastifyInstance } from 'fastify';
import type { Transaction } from 'kysely';
import { PLANNED_STATUSES } from '../../src/schema/appointments.ts';
import type { SessionUser } from '../auth/sessions.ts';
import { writeTransaction } from '../audit/context.ts';
import { modelOf, scopeFor } from '../customers/access.ts';
import { assertExpectedVersion, conflictSchema, VersionConflict } from '../crud/write.ts';
import type { ResourceHooks } from '../crud/hooks.ts';
import type { Tables } from '../db/index.ts';
import { type ResourceRow, resourceDb } from '../db/resource.ts';
import {
  addError,
  ApiError,
  assertNoErrors,
  type FieldErrors,
  issue,
  notFound,
} from '../http/errors.ts';
import { dataSchema } from '../http/lists.ts';
import { type IdParams, idParams } from '../http/params.ts';
import { responseSchema } from '../http/validation.ts';
import { sendMail } from '../mail/mailer.ts';
import { renderMail } from '../mail/templates.ts';
import { notifyAssigned, placeOf, swissWhen } from './hooks.ts';
import { isCancelledStatus, isFeedbackStatus, statusLabel, transitionIssue } from './rules.ts';
import { clockTime, instant, rangeErrors, swissToday, timesOf } from './times.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** What runs after an appointment's feedback, in its transaction (./feedback.ts). */
    feedbackHandlers: FeedbackHandlers;
  }
}

/** What the feedback call wrote, handed to the after-feedback handlers. */
export interface FeedbackOutcome {
  /** The feedback's transaction: write with it, throw to roll everything back. */
  db: Transaction<Tables>;
  principal: SessionUser;
  /** The appointment as it was before (locked) and as it is now. */
  before: ResourceRow;
  appointment: ResourceRow;
  feedback: ResourceRow;
  reminder?: ResourceRow;
  followUp?: ResourceRow;
}

export type AfterFeedback = (outcome: FeedbackOutcome) => Promise<void> | void;

/**
 * The after-feedback handlers of one app, run in the order added. A feature adds its own from its
 * plugin (`app.feedbackHandlers.add('leads', moveLead)`); `add` answers a function that removes it
 * again (tests inject a failing one to prove the call is atomic).
 */
export class FeedbackHandlers {
  private readonly handlers = new Map<string, AfterFeedback>();

  add(name: string, handler: AfterFeedback): () => void {
    if (this.handlers.has(name)) throw new Error(`After-feedback handler ${name} added twice`);
    this.handlers.set(name, handler);
    return () => {
      if (this.handlers.get(name) === handler) this.handlers.delete(name);
    };
  }

  async run(outcome: FeedbackOutcome): Promise<void> {
    for (const handler of [...this.handlers.values()]) await handler(outcome);
  }
}

interface ReminderInput {
  due_date: string;
  time?: string;
  subject: string;
  description?: string;
  category?: string;
}

interface FollowUpInput {
  address?: string;
  address_no?: string;
  zipcode?: string;
  city?: string;
  date_start: string;
  date_end: string;
  comment?: string;
  type?: string;
}

export interface FeedbackBody {
  has_taken_place: boolean;
  is_reached_by_phone?: boolean;
  status: 2 | 7 | 10;
  note?: string;
  comment?: string;
  address?: string;
  /** The appointment's version the feedback is based on (409 when stale). */
  version?: number;
  reminder?: ReminderInput;
  follow_up_appointment?: FollowUpInput;
}

const text = (maxLength: number) => ({ type: 'string', maxLength });

/** The body's schema: enums and lengths from the resources' schemas, so they cannot drift. */
function bodySchema(app: FastifyInstance) {
  const field = (resource: string, name: string) => {
    const found = modelOf(app, resource).schema.properties?.[name];
    if (!found) throw new Error(`${resource} has no field ${name}`);
    const { description: _d, default: _default, readOnly: _r, ...rest } = found;
    return rest as Record<string, unknown>;
  };
  return {
    type: 'object',
    additionalProperties: false,
    required: ['has_taken_place', 'status'],
    properties: {
      has_taken_place: { type: 'boolean' },
      is_reached_by_phone: { type: 'boolean' },
      status: {
        type: 'integer',
        enum: [2, 10, 7],
        description: '2 took place, 10 first took place (has_taken_place true); 7 did not (false).',
      },
      note: text(5000),
      comment: text(2000),
      address: text(300),
      version: {
        type: 'integer',
        minimum: 1,
        description: "The appointment's version the feedback is based on: 409 when it is stale.",
      },
      reminder: {
        type: 'object',
        additionalProperties: false,
        required: ['due_date', 'subject'],
        properties: {
          due_date: { type: 'string', format: 'date' },
          time: { type: 'string', format: 'time' },
          subject: field('reminders', 'subject'),
          description: field('reminders', 'description'),
          category: field('reminders', 'category'),
        },
      },
      follow_up_appointment: {
        type: 'object',
        additionalProperties: false,
        required: ['date_start', 'date_end'],
        properties: {
          address: {
            ...field('appointments', 'street'),
            description: 'Street (default: the appointment’s).',
          },
          address_no: field('appointments', 'number'),
          zipcode: field('appointments', 'zip'),
          city: field('appointments', 'city'),
          date_start: { type: 'string', format: 'date-time' },
          date_end: { type: 'string', format: 'date-time' },
          comment: field('appointments', 'comment'),
          type: { ...field('appointments', 'appointmentType'), description: 'Default follow_up.' },
        },
      },
    },
  };
}

/** 422 errors of the body (against the clock: now). */
function bodyErrors(body: FeedbackBody, now: number): FieldErrors {
  const errors: FieldErrors = {};
  const fits = body.has_taken_place ? body.status === 2 || body.status === 10 : body.status === 7;
  if (!fits) addError(errors, 'status', issue('feedbackStatus'));
  if (body.reminder && body.reminder.due_date < swissToday(now))
    addError(errors, 'reminder.due_date', issue('notInPast'));
  const followUp = body.follow_up_appointment;
  if (followUp) {
    const start = instant(followUp.date_start) ?? 0;
    const end = instant(followUp.date_end) ?? 0;
    if (start < now) addError(errors, 'follow_up_appointment.date_start', issue('notInPast'));
    rangeErrors(start, end, { end: 'follow_up_appointment.date_end' }, errors);
  }
  return errors;
}

/** The customer's lead source's "feedback to" mail, when it is enabled with an address. */
async function mailLeadSource(
  trx: Transaction<Tables>,
  principal: SessionUser,
  appointment: ResourceRow,
  feedback: ResourceRow,
): Promise<void> {
  const source = await trx
    .selectFrom('customers as c')
    .innerJoin('lead_sources as s', 's.id', 'c.lead_source')
    .select(['s.feedback_to', 's.name_de', 's.name_en', 's.name_fr', 's.name_it'])
    .where('c.id', '=', Number(appointment.client_id))
    .executeTakeFirst();
  const settings = (source?.feedback_to ?? {}) as {
    enabled?: boolean;
    email?: string;
    bcc?: string;
    subject?: string;
  };
  if (!source || settings.enabled !== true || !settings.email) return;
  const language = ['de', 'en', 'fr', 'it'].includes(principal.language ?? '')
    ? (principal.language as 'de' | 'en' | 'fr' | 'it')
    : 'de';
  const names = { de: source.name_de, en: source.name_en, fr: source.name_fr, it: source.name_it };
  const rendered = renderMail('feedback-to-lead-source', language, {
    when: swissWhen(appointment.date_start),
    customer: String(appointment.client_name ?? ''),
    source: String(names[language] ?? source.name_de ?? ''),
    status: statusLabel(feedback.status, language),
    note: String(feedback.note ?? ''),
  });
  const subject = settings.subject?.trim() ? settings.subject.trim() : rendered.subject;
  const copies = (settings.bcc ?? '')
    .split(/[,;]/)
    .map((address) => address.trim())
    .filter((address) => address !== '' && address !== settings.email);
  for (const to of [settings.email, ...copies]) {
    await sendMail(trx, {
      kind: 'feedback-to-lead-source',
      to,
      subject,
      body: rendered.body,
      customerId: Number(appointment.client_id),
    });
  }
}

export async function feedbackRoutes(app: FastifyInstance): Promise<void> {
  const appointments = modelOf(app, 'appointments');
  const appointmentRecord = responseSchema(appointments.schema);
  app.post<{ Params: IdParams; Body: FeedbackBody }>(
    '/api/appointments/:id/feedback',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['appointments'],
        summary:
          "Give an appointment's feedback: stores it, sets the appointment's status, creates the optional reminder and follow-up appointment, moves the linked lead and mails the lead source when it asks for it — in one transaction.",
        params: idParams,
        body: bodySchema(app),
        response: {
          201: dataSchema({
            type: 'object',
            properties: {
              feedback: responseSchema(modelOf(app, 'feedbacks').schema),
              appointment: appointmentRecord,
              reminder: responseSchema(modelOf(app, 'reminders').schema),
              follow_up_appointment: appointmentRecord,
            },
          }),
          409: conflictSchema(appointmentRecord),
        },
      },
    },
    async (request, reply) => {
      const principal = request.principal as SessionUser;
      const body = request.body;
      const id = request.params.id;
      try {
        const outcome = await writeTransaction(app.db, request, async (trx) => {
          const before = await resourceDb(trx)
            .selectFrom('appointments')
            .selectAll()
            .where('id', '=', id)
            .where(scopeFor(app, 'appointments', principal, trx))
            .forNoKeyUpdate()
            .executeTakeFirst();
          if (!before) throw notFound(appointments.title);
          if (body.version !== undefined)
            assertExpectedVersion(appointments, before, { version: body.version });
          if (before.feedback_id !== null || isFeedbackStatus(before.status))
            throw new ApiError(409, 'feedbackGiven');
          if (isCancelledStatus(before.status)) throw new ApiError(409, 'feedbackNotPossible');
          if (!PLANNED_STATUSES.includes(before.status as 1 | 3)) {
            throw new ApiError(422, issue('invalidData', { fields: 'status' }), {
              status: [transitionIssue(before.status, body.status, principal.language)],
            });
          }
          const now = Date.now();
          if ((instant(before.date_start) ?? 0) > now) throw new ApiError(409, 'feedbackTooEarly');
          assertNoErrors(bodyErrors(body, now));

          const consultantId = before.consultant_id === null ? null : Number(before.consultant_id);
          let followUp: ResourceRow | undefined;
          if (body.follow_up_appointment) {
            const input = body.follow_up_appointment;
            const address = {
              street: input.address ?? before.street ?? null,
              number: input.address_no ?? before.number ?? null,
              zip: input.zipcode ?? before.zip ?? null,
              city: input.city ?? before.city ?? null,
            };
            const place = placeOf(address.zip);
            const sameZip = address.zip === before.zip && before.latitude !== null;
            followUp = await resourceDb(trx)
              .insertInto('appointments')
              .values({
                ...timesOf(instant(input.date_start)!, instant(input.date_end)!),
                ...address,
                canton: place.canton,
                latitude: sameZip ? before.latitude : place.latitude,
                longitude: sameZip ? before.longitude : place.longitude,
                client_id: before.client_id,
                consultant_id: consultantId,
                status: 1,
                appointment_type: input.type ?? 'follow_up',
                comment: input.comment ?? null,
                who_requested: 'consultant',
                previous_appointment_id: id,
              })
              .returningAll()
              .executeTakeFirstOrThrow();
            if (consultantId !== null && consultantId !== principal.id)
              await notifyAssigned(trx, followUp);
          }
          let reminder: ResourceRow | undefined;
          if (body.reminder) {
            const input = body.reminder;
            reminder = await resourceDb(trx)
              .insertInto('reminders')
              .values({
                subject: input.subject,
                status: 'open',
                due_date: input.due_date,
                time: clockTime(input.time) ?? null,
                date: swissToday(now),
                category: input.category ?? 'follow_up',
                description: input.description ?? null,
                user_id: consultantId ?? principal.id,
                assigner_id: principal.id,
                client_id: before.client_id,
                appointment_id: id,
              })
              .returningAll()
              .executeTakeFirstOrThrow();
          }
          const feedback = await resourceDb(trx)
            .insertInto('feedbacks')
            .values({
              appointment_id: id,
              has_taken_place: body.has_taken_place,
              is_reached_by_phone: body.is_reached_by_phone ?? null,
              status: body.status,
              note: body.note ?? null,
              comment: body.comment ?? null,
              address: body.address ?? null,
              user_id: principal.id,
              reminder_id: reminder?.id ?? null,
              follow_up_appointment_id: followUp?.id ?? null,
            })
            .returningAll()
            .executeTakeFirstOrThrow();
          const appointment = await resourceDb(trx)
            .updateTable('appointments')
            .set({ status: body.status, feedback_id: feedback.id, updated_at: new Date() })
            .where('id', '=', id)
            .returningAll()
            .executeTakeFirstOrThrow();
          await mailLeadSource(trx, principal, appointment, feedback);
          await app.feedbackHandlers.run({
            db: trx,
            principal,
            before,
            appointment,
            feedback,
            reminder,
            followUp,
          });
          return { feedback, appointment, reminder, follow_up_appointment: followUp };
        });
        return reply.status(201).send({ data: outcome });
      } catch (error) {
        if (error instanceof VersionConflict) return reply.status(409).send(error.answer);
        throw error;
      }
    },
  );
}

/** Feedbacks through the generic routes: after the feedback call only its texts change. */
export const feedbackHooks: ResourceHooks = {
  prepare(values, { mode }) {
    if (mode === 'create') return values;
    const out: ResourceRow = {};
    for (const column of ['note', 'comment', 'address'])
      if (column in values) out[column] = values[column];
    return out;
  },
};
