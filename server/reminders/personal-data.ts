/**
 * Reminders in personal-data requests (nFADP; server/customers/personal-data.ts). A reminder about
 * a customer is working material, not a record the brokerage must keep, so erasing a customer
 * deletes their reminders (a feedback's link to one is cleared first); the export carries them.
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

export const reminderPersonalData: PersonalDataHook = {
  name: 'reminders',
  async collect(db: DB, subject: PersonalDataSubject): Promise<Record<string, unknown[]>> {
    if (subject.resource !== 'customers') return {};
    const rows = await resourceDb(db)
      .selectFrom('reminders')
      .selectAll()
      .where('client_id', '=', subject.id)
      .orderBy('id')
      .execute();
    return {
      reminders: rows.map(({ [SEARCH_DOCUMENT_COLUMN]: _derived, ...row }) => row),
    };
  },
  async retain(trx: Transaction<Tables>, subject: PersonalDataSubject) {
    if (subject.resource !== 'customers') return [];
    await sql`update feedbacks set reminder_id = null
      where reminder_id in (select id from reminders where client_id = ${subject.id})`.execute(trx);
    await sql`delete from reminders where client_id = ${subject.id}`.execute(trx);
    return [{ table: 'reminders', kept: 0 }];
  },
};

let declared = false;

/** Declares the reminders' personal data (once per process). */
export function declareReminderPersonalData(): void {
  if (declared) return;
  declared = true;
  declarePersonalData(reminderPersonalData);
}
