/**
 * Appointments and their feedback in personal-data requests (nFADP; server/customers/personal-data.ts).
 * Nothing obliges the brokerage to keep them, so erasing a customer deletes them:
 * - the export (`collect`) carries the customer's appointments and their feedback;
 * - the erasure (`retain`) deletes the feedback of the customer's appointments and the
 *   appointments (links to them from other records — a follow-up's previous appointment, a
 *   reminder's appointment, another feedback's follow-up — are cleared first) and keeps none. The
 *   customer's reminders are the reminders feature's to declare.
 */
import { sql, type Transaction } from 'kysely';
import type { DB, Tables } from '../db/index.ts';
import { resourceDb } from '../db/resource.ts';
import { SEARCH_DOCUMENT_COLUMN } from '../db/search-sql.ts';
import {
  declarePersonalData,
  type PersonalDataHook,
  type PersonalDataSubject,
} from '../customers/personal-data.ts';

const withoutDerived = (rows: Record<string, unknown>[]) =>
  rows.map(({ [SEARCH_DOCUMENT_COLUMN]: _derived, ...row }) => row);

export const appointmentPersonalData: PersonalDataHook = {
  name: 'appointments',
  async collect(db: DB, subject: PersonalDataSubject): Promise<Record<string, unknown[]>> {
    if (subject.resource !== 'customers') return {};
    const appointments = await resourceDb(db)
      .selectFrom('appointments')
      .selectAll()
      .where('client_id', '=', subject.id)
      .orderBy('id')
      .execute();
    const ids = appointments.map((row) => Number(row.id));
    const feedbacks =
      ids.length === 0
        ? []
        : await resourceDb(db)
            .selectFrom('feedbacks')
            .selectAll()
            .where('appointment_id', 'in', ids)
            .orderBy('id')
            .execute();
    return {
      appointments: withoutDerived(appointments),
      feedbacks: withoutDerived(feedbacks),
    };
  },
  async retain(trx: Transaction<Tables>, subject: PersonalDataSubject) {
    if (subject.resource !== 'customers') return [];
    const gone = sql`(select id from appointments where client_id = ${subject.id})`;
    await sql`update appointments set feedback_id = null, previous_appointment_id = null
      where client_id = ${subject.id}`.execute(trx);
    await sql`update appointments set previous_appointment_id = null
      where previous_appointment_id in ${gone}`.execute(trx);
    await sql`update reminders set appointment_id = null where appointment_id in ${gone}`.execute(
      trx,
    );
    await sql`update feedbacks set follow_up_appointment_id = null
      where follow_up_appointment_id in ${gone}`.execute(trx);
    await sql`delete from feedbacks where appointment_id in ${gone}`.execute(trx);
    await sql`delete from appointments where client_id = ${subject.id}`.execute(trx);
    return [{ table: 'appointments', kept: 0 }];
  },
};

let declared = false;

/** Declares the appointments' personal data (once per process). */
export function declareAppointmentPersonalData(): void {
  if (declared) return;
  declared = true;
  declarePersonalData(appointmentPersonalData);
}
