/**
 * Documents on contracts (issue 14): a document may name a contract (`documents.contractId`), which
 * must be a contract of the document's customer (422 `notOfCustomer` naming contract_id; one the
 * user may not see is the generic reference check's). An advice protocol added to, changed on or
 * removed from a contract recomputes the contract's protocolMissing in the same transaction; only a
 * signed one (signedOn, not in the future) counts. Used
 * by the documents' CRUD hooks and the upload route (server/customers/).
 */
import type { DB } from '../db/index.ts';
import type { ResourceRow } from '../db/resource.ts';
import { addError, type FieldErrors, issue } from '../http/errors.ts';
import { swissToday } from '../customers/rules.ts';
import { ADVICE_PROTOCOL, refreshProtocolMissing } from './hooks.ts';

const idOf = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isInteger(value) ? value : undefined;

/**
 * The contract a document names must be one of its customer, and its signing day not in the
 * future (Swiss today) (`record`: wire keys, merged).
 */
export async function documentContractErrors(
  db: DB,
  record: ResourceRow,
  errors: FieldErrors = {},
  today = swissToday(),
): Promise<FieldErrors> {
  if (typeof record.signed_on === 'string' && record.signed_on > today)
    addError(errors, 'signed_on', issue('notInFuture'));
  const contractId = idOf(record.contract_id);
  const customerId = idOf(record.customer_id);
  if (contractId === undefined || customerId === undefined) return errors;
  const contract = await db
    .selectFrom('contracts')
    .select('customer_id')
    .where('id', '=', contractId)
    .executeTakeFirst();
  // An unknown contract is the generic reference check's (422 naming contract_id).
  if (contract && contract.customer_id !== customerId)
    addError(errors, 'contract_id', issue('notOfCustomer'));
  return errors;
}

/**
 * After a document was written or deleted: the contracts whose protocolMissing may have changed
 * (the one it names now and the one it named before, when either version is an advice protocol).
 */
export async function afterDocumentWrite(
  db: DB,
  row: ResourceRow | undefined,
  before?: ResourceRow,
): Promise<void> {
  const touched = [row, before].flatMap((version) =>
    version && version.document_type === ADVICE_PROTOCOL ? (idOf(version.contract_id) ?? []) : [],
  );
  // A document that was a protocol and is another type now: the one before counts too.
  await refreshProtocolMissing(db, touched);
}
