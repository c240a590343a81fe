/**
 * Leads and appointments (issue 16; DOMAIN.md §3 "a lead ends in an appointment"):
 * - booking an appointment from a lead (appointments.leadId) closes the lead as 'appointment
 *   set', links the appointment, gives a prospect the appointment's customer, and puts the card
 *   on top of Done — in the appointment's transaction. The lead must be open (or already closed
 *   with this appointment) and, when it has a customer, be that customer's;
 * - an appointment from a lead that is cancelled, or whose feedback says it did not take place,
 *   sends the lead back to "to do" (on top) to be booked again; one that took place leaves it
 *   closed.
 * Added to the appointments feature's resource and feedback hooks (extension points), so the
 * appointments feature does not know about leads.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { CANCELLED_STATUSES } from '../../src/schema/appointments.ts';
import { APPOINTMENT_SET } from '../../src/schema/leads.ts';
import type { ResourceExtension } from '../crud/hooks.ts';
import type { DB } from '../db/index.ts';
import type { ResourceRow } from '../db/resource.ts';
import { type FieldErrors, addError, issue } from '../http/errors.ts';
import { merged } from '../customers/rules.ts';
import { lockColumn, topPosition } from './positions.ts';
import { idOf } from '../db/values.ts';

/** Closes the lead with the appointment (the lead must exist; its rules were checked). */
async function closeWithAppointment(db: DB, leadId: number, appointment: ResourceRow) {
  await lockColumn(db, 'closed');
  const position = await topPosition(db, 'closed');
  await db
    .updateTable('leads')
    .set({
      status: 'closed',
      close_status: APPOINTMENT_SET,
      appointment_id: Number(appointment.id),
      customer_id: sql`coalesce(customer_id, ${idOf(appointment.client_id)})`,
      closed_at: sql`now()`,
      position,
      updated_at: sql`now()`,
    })
    .where('id', '=', leadId)
    .execute();
}

/**
 * Sends the lead of an appointment that did not happen back to "to do" (if it was closed by it;
 * `deleted`: the appointment is gone, and the foreign key already cleared the lead's link).
 */
export async function reopenLead(db: DB, appointment: ResourceRow, deleted = false): Promise<void> {
  const leadId = idOf(appointment.lead_id);
  if (leadId === null) return;
  const lead = await db
    .selectFrom('leads')
    .select(['id', 'status', 'close_status', 'appointment_id'])
    .where('id', '=', leadId)
    .forNoKeyUpdate()
    .executeTakeFirst();
  const closedByIt = deleted
    ? lead?.close_status === APPOINTMENT_SET && lead.appointment_id === null
    : lead?.appointment_id === Number(appointment.id);
  if (!lead || lead.status !== 'closed' || !closedByIt) return;
  await lockColumn(db, 'to do');
  const position = await topPosition(db, 'to do');
  await db
    .updateTable('leads')
    .set({
      status: 'to do',
      close_status: null,
      closed_at: null,
      appointment_id: null,
      position,
      updated_at: sql`now()`,
    })
    .where('id', '=', leadId)
    .execute();
}

export const appointmentLeadExtension: ResourceExtension = {
  async validate(body, { db, existing }) {
    const record = merged(existing, body);
    const leadId = idOf(record.lead_id);
    if (leadId === null || (existing && idOf(existing.lead_id) === leadId)) return undefined;
    const lead = await db
      .selectFrom('leads')
      .select(['id', 'status', 'customer_id', 'appointment_id'])
      .where('id', '=', leadId)
      .executeTakeFirst();
    // An unknown or invisible lead is the generic reference check's (422 naming lead_id).
    if (!lead) return undefined;
    const errors: FieldErrors = {};
    const own = existing && lead.appointment_id === Number(existing.id);
    if (lead.status === 'closed' && !own)
      addError(errors, 'lead_id', issue('leadClosed', { id: leadId }));
    const client = idOf(record.client_id);
    if (lead.customer_id !== null && client !== null && lead.customer_id !== client)
      addError(errors, 'client_id', issue('leadOtherCustomer', { id: leadId }));
    return Object.keys(errors).length > 0 ? errors : undefined;
  },
  async afterWrite(row, { db, mode, existing }) {
    if (mode === 'delete') {
      await reopenLead(db, row, true);
      return;
    }
    const leadId = idOf(row.lead_id);
    if (leadId === null) return;
    const status = Number(row.status);
    if (CANCELLED_STATUSES.includes(status as 5 | 6)) {
      if (!existing || !CANCELLED_STATUSES.includes(Number(existing.status) as 5 | 6))
        await reopenLead(db, row);
      return;
    }
    if (mode === 'create' || idOf(existing?.lead_id) !== leadId)
      await closeWithAppointment(db, leadId, row);
  },
};

/** Registers the extension and the feedback handler (appointments must be registered first). */
export function linkLeadsToAppointments(app: FastifyInstance): void {
  app.resourceHooks.extend('appointments', 'leads', appointmentLeadExtension);
  app.feedbackHandlers.add('leads', async ({ db, appointment, feedback }) => {
    // 7: did not take place (spec §4); 2 and 10 leave the lead closed.
    if (Number(feedback.status) === 7) await reopenLead(db, appointment);
  });
}
