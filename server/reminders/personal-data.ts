/**
 * Reminders in personal-data requests (nFADP; server/customers/personal-data.ts). A reminder about
 * a customer is working material, not a record the brokerage must keep, so erasing a customer
 * deletes their reminders (a feedback's link to one is cleared first); the export carries them.
 */
import { sql } from 'kysely';
import { declareCustomerRows } from '../customers/personal-data.ts';

/** Declares the reminders' personal data (once per process). */
export const declareReminderPersonalData = () =>
  declareCustomerRows({
    name: 'reminders',
    table: 'reminders',
    column: 'client_id',
    async beforeDelete(trx, customerId) {
      await sql`update feedbacks set reminder_id = null
        where reminder_id in (select id from reminders where client_id = ${customerId})`.execute(
        trx,
      );
    },
  });
