/**
 * Contracts in personal-data requests (nFADP; server/customers/personal-data.ts). A contract is kept
 * for the legal retention (accounting and supervisory records: ten years), so erasing a person
 * never deletes it:
 * - the export (`collect`) carries the contracts of the customer, or those insuring the household
 *   member;
 * - the erasure (`retain`) keeps those contracts and blanks what describes the person in them: the
 *   client snapshot, the note, the business name and the free texts of the previous insurance
 *   (insurer, product, numbers, dates, premiums and commissions stay). A customer's contracts no
 *   longer name a household member (the members are deleted with the customer); a member's
 *   contracts keep naming it, and the member stays pseudonymised (personal-data.ts keeps a row that
 *   kept records point to). The contracts' advice-protocol flags are recomputed, since the
 *   customer's documents are gone.
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
import { refreshProtocolMissing } from './hooks.ts';

const columnOf = (subject: PersonalDataSubject) =>
  subject.resource === 'customers' ? 'customer_id' : 'household_member_id';

export const contractPersonalData: PersonalDataHook = {
  name: 'contracts',
  async collect(db: DB, subject: PersonalDataSubject) {
    const rows = await resourceDb(db)
      .selectFrom('contracts')
      .selectAll()
      .where(columnOf(subject), '=', subject.id)
      .orderBy('id')
      .execute();
    return {
      contracts: rows.map(({ [SEARCH_DOCUMENT_COLUMN]: _derived, ...row }) => row),
    };
  },
  async retain(trx: Transaction<Tables>, subject: PersonalDataSubject) {
    const kept = await sql<{ id: number }>`update contracts set
        client = '{}'::jsonb,
        note = null,
        business_name = null,
        previous_insurance = coalesce(previous_insurance, '{}'::jsonb)
          - 'reason' - 'termination_note' - 'termination_consultant_note',
        household_member_id = case when ${subject.resource === 'customers'}
          then null else household_member_id end
      where ${sql.ref(columnOf(subject))} = ${subject.id}
      returning id`.execute(trx);
    await refreshProtocolMissing(
      trx,
      kept.rows.map((row) => Number(row.id)),
    );
    return [{ table: 'contracts', kept: kept.rows.length }];
  },
};

let declared = false;

/** Declares the contracts' personal data once per process (every app shares the declarations). */
export function declareContractPersonalData(): void {
  if (declared) return;
  declared = true;
  declarePersonalData(contractPersonalData);
}
