/**
 * Leads and the blacklist in personal-data requests (nFADP; server/customers/personal-data.ts):
 * - the export (`collect`) carries the customer's leads, the leads that name the customer as
 *   their recommender, and the customer's blacklist entries;
 * - the erasure (`retain`) deletes the customer's leads (nothing obliges the brokerage to keep
 *   them), clears the recommender link of others, and keeps the customer's blacklist entries
 *   with only what honours the objection — the e-mail address and phone number, no name, no
 *   customer link — so the erased person is still never called again. Those entries do not
 *   point at the customer any more, so the customer row itself can go.
 */
import { sql } from 'kysely';
import { resourceDb } from '../db/resource.ts';
import { SEARCH_DOCUMENT_COLUMN } from '../db/search-sql.ts';
import { declarePersonalData, type PersonalDataHook } from '../customers/personal-data.ts';

const withoutDerived = (rows: Record<string, unknown>[]) =>
  rows.map(({ [SEARCH_DOCUMENT_COLUMN]: _derived, ...row }) => row);

export const leadPersonalData: PersonalDataHook = {
  name: 'leads',
  async collect(db, subject): Promise<Record<string, unknown[]>> {
    if (subject.resource !== 'customers') return {};
    const leads = await resourceDb(db)
      .selectFrom('leads')
      .selectAll()
      .where((eb) =>
        eb.or([
          eb('customer_id', '=', subject.id),
          eb('recommended_by_customer_id', '=', subject.id),
        ]),
      )
      .orderBy('id')
      .execute();
    const blacklist = await resourceDb(db)
      .selectFrom('blacklist_entries')
      .selectAll()
      .where('customer_id', '=', subject.id)
      .orderBy('id')
      .execute();
    return { leads: withoutDerived(leads), blacklist_entries: withoutDerived(blacklist) };
  },
  async retain(trx, subject) {
    if (subject.resource !== 'customers') return [];
    await sql`update leads set recommended_by_customer_id = null
      where recommended_by_customer_id = ${subject.id}`.execute(trx);
    await sql`delete from leads where customer_id = ${subject.id}`.execute(trx);
    await sql`update blacklist_entries set customer_id = null, first_name = null, last_name = null,
      organization = null, reason = null where customer_id = ${subject.id}`.execute(trx);
    return [{ table: 'leads', kept: 0 }];
  },
};

let declared = false;

/** Declares the leads' personal data (once per process). */
export function declareLeadPersonalData(): void {
  if (declared) return;
  declared = true;
  declarePersonalData(leadPersonalData);
}
