/**
 * Appointments and their feedback in personal-data requests (nFADP; server/customers/personal-data.ts).
 * Nothing obliges the brokerage to keep them, so erasing a customer deletes them:
 * - the export (`collect`) carries the customer's appointments and their feedback, and (`files`)
 *   the feedback's images, as `feedbacks/<id>-image.<ext>` in the zip;
 * - the erasure (`retain`) deletes the feedback of the customer's appointments and the
 *   appointments (links to them from other records — a follow-up's previous appointment, a
 *   reminder's appointment, another feedback's follow-up — are cleared first) and keeps none; the
 *   feedback's images leave the storage after the erasure commits. The customer's reminders are
 *   the reminders feature's to declare.
 */
import { sql, type Transaction } from 'kysely';
import type { DB, Tables } from '../db/index.ts';
import { resourceDb } from '../db/resource.ts';
import { SEARCH_DOCUMENT_COLUMN } from '../db/search-sql.ts';
import {
  declarePersonalData,
  type PersonalDataFile,
  type PersonalDataHook,
  type PersonalDataSubject,
} from '../customers/personal-data.ts';
import { feedbackImageType } from './feedback-image.ts';

const withoutDerived = (rows: Record<string, unknown>[]) =>
  rows.map(({ [SEARCH_DOCUMENT_COLUMN]: _derived, ...row }) => row);

/** The feedbacks of the customer's appointments that have an image. */
const feedbackImages = (db: DB, customerId: number) =>
  db
    .selectFrom('feedbacks as f')
    .innerJoin('appointments as a', 'a.id', 'f.appointment_id')
    .select(['f.id', 'f.image'])
    .where('a.client_id', '=', customerId)
    .where('f.image', 'is not', null)
    .orderBy('f.id')
    .execute();

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
  async files(db: DB, subject: PersonalDataSubject): Promise<PersonalDataFile[]> {
    if (subject.resource !== 'customers') return [];
    return (await feedbackImages(db, subject.id)).flatMap(({ id, image }) =>
      image
        ? [{ key: image, name: `feedbacks/${id}-image.${feedbackImageType(image).extension}` }]
        : [],
    );
  },
  async retain(trx: Transaction<Tables>, subject: PersonalDataSubject) {
    if (subject.resource !== 'customers') return [];
    // Read before the rows go; the files leave the storage once the erasure is committed.
    const images = (await feedbackImages(trx, subject.id)).flatMap(({ image }) =>
      image ? [image] : [],
    );
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
    return [{ table: 'appointments', kept: 0, files: images }];
  },
};

let declared = false;

/** Declares the appointments' personal data (once per process). */
export function declareAppointmentPersonalData(): void {
  if (declared) return;
  declared = true;
  declarePersonalData(appointmentPersonalData);
}
