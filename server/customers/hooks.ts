/**
 * CRUD hooks of customers, household members and documents (registered by ./index.ts).
 * Visibility and ownership are generic (server/access/visibility.ts: customers.assignedTo is
 * `x-owner`, subBrokerId `x-sub-broker`; household members and documents follow their customer
 * through `x-owner-via`; a consultant's new customers are assigned to the consultant). These hooks
 * add the rules of ./rules.ts and the clean-up of stored files.
 */
import { afterDocumentWrite, documentContractErrors } from '../contracts/documents.ts';
import type { ResourceHooks } from '../crud/hooks.ts';
import { getStorage } from '../storage/index.ts';
import { checkCustomer, hasErrors, merged, personErrors } from './rules.ts';

async function removeStored(key: unknown): Promise<void> {
  if (typeof key === 'string' && key) await getStorage().remove(key);
}

export const customerHooks: ResourceHooks = {
  async validate(body, { db, existing }) {
    const errors = await checkCustomer(db, merged(existing, body));
    return hasErrors(errors) ? errors : undefined;
  },
  async afterWrite(row, { mode, existing }) {
    if (mode === 'delete') await removeStored(row.avatar);
    else if (existing?.avatar && existing.avatar !== row.avatar)
      await removeStored(existing.avatar);
  },
};

export const householdMemberHooks: ResourceHooks = {
  validate(body, { existing }) {
    const errors = personErrors(merged(existing, body));
    return hasErrors(errors) ? errors : undefined;
  },
};

/**
 * Documents: the uploader is recorded; a document on a contract must name a contract of its
 * customer, and an advice protocol added, changed or removed recomputes the contract's
 * protocolMissing (server/contracts/documents.ts).
 */
export const documentHooks: ResourceHooks = {
  async validate(body, { db, existing }) {
    const errors = await documentContractErrors(db, merged(existing, body));
    return hasErrors(errors) ? errors : undefined;
  },
  prepare(values, { mode, principal }) {
    return mode === 'create' && principal ? { ...values, uploaded_by: principal.id } : values;
  },
  async afterWrite(row, { db, mode, existing }) {
    if (mode === 'delete') {
      await afterDocumentWrite(db, undefined, row);
      await removeStored(row.document_file);
    } else await afterDocumentWrite(db, row, existing);
  },
};
