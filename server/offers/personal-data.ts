/**
 * Offers in personal-data requests (nFADP; server/customers/personal-data.ts). An offer is
 * correspondence before a contract, not a record the brokerage must keep (an accepted one lives on
 * as its closure), so erasing a customer deletes their offers; the export carries them.
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

export const offerPersonalData: PersonalDataHook = {
  name: 'offers',
  async collect(db: DB, subject: PersonalDataSubject): Promise<Record<string, unknown[]>> {
    if (subject.resource !== 'customers') return {};
    const rows = await resourceDb(db)
      .selectFrom('offers')
      .selectAll()
      .where('customer_id', '=', subject.id)
      .orderBy('id')
      .execute();
    return { offers: rows.map(({ [SEARCH_DOCUMENT_COLUMN]: _derived, ...row }) => row) };
  },
  async retain(trx: Transaction<Tables>, subject: PersonalDataSubject) {
    if (subject.resource !== 'customers') return [];
    await sql`delete from offers where customer_id = ${subject.id}`.execute(trx);
    return [{ table: 'offers', kept: 0 }];
  },
};

let declared = false;

/** Declares the offers' personal data (once per process). */
export function declareOfferPersonalData(): void {
  if (declared) return;
  declared = true;
  declarePersonalData(offerPersonalData);
}
