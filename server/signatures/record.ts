/**
 * What a signing changes in the database, in the caller's transaction (the public route, and the
 * demo data): the signed PDF (already in the storage under `key`) becomes a new document beside the
 * original (`original_document_id`, signed that day, same customer, contract and type); a signed
 * advice protocol counts for its contract (protocolMissing); a signed broker mandate sets its
 * contract's brokerMandate and the contract's commissions follow; the request is closed with the
 * signing's record; the sender and the customer's consultant are notified.
 */
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { settleContract } from '../commissions/engine.ts';
import { afterDocumentWrite } from '../contracts/documents.ts';
import type { DB } from '../db/index.ts';
import { type ResourceRow, resourceDb } from '../db/resource.ts';
import { notifyUser } from '../notifications/notify.ts';

export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

export interface Signing {
  /** The request (locked by the caller) and its document. */
  request: ResourceRow;
  document: ResourceRow;
  /** The signed PDF and its storage key. */
  signed: Uint8Array;
  key: string;
  name: string;
  place: string;
  /** The Swiss day of the signing. */
  day: string;
  signedAt: Date;
  ip: string | null;
  userAgent: string | null;
}

/** "signed" in the request's language, for the signed version's name. */
const SIGNED: Record<string, string> = {
  de: 'unterschrieben',
  en: 'signed',
  fr: 'signé',
  it: 'firmato',
};

/** Records a signing; answers the closed request. */
export async function recordSigning(trx: DB, signing: Signing): Promise<ResourceRow> {
  const { request, document } = signing;
  const suffix = SIGNED[String(request.language)] ?? SIGNED.en;
  const base = String(request.document_name).slice(0, 200 - suffix.length - 3);
  const stored = await resourceDb(trx)
    .insertInto('documents')
    .values({
      customer_id: Number(document.customer_id),
      contract_id: document.contract_id ?? null,
      document_name: `${base} – ${suffix}`,
      document_type: document.document_type,
      document_related_to: document.document_related_to,
      signed_on: signing.day,
      document_file: signing.key,
      original_name: `${String(document.original_name ?? 'document')
        .replace(/\.pdf$/i, '')
        .slice(0, 240)}-signed.pdf`,
      mime_type: 'application/pdf',
      size_bytes: signing.signed.length,
      uploaded_by: null,
      original_document_id: Number(document.id),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  // A signed advice protocol counts for its contract (protocolMissing).
  await afterDocumentWrite(trx, stored);
  // A signed broker mandate: its contract is managed under the mandate.
  const contractId = document.contract_id === null ? null : Number(document.contract_id);
  if (document.document_type === 'mandate' && contractId !== null) {
    const changed = await trx
      .updateTable('contracts')
      .set({ broker_mandate: true, updated_at: sql`now()` })
      .where('id', '=', contractId)
      .where('broker_mandate', 'is not', true)
      .returning('id')
      .executeTakeFirst();
    if (changed) await settleContract(trx, contractId, { by: null });
  }
  const closed = await resourceDb(trx)
    .updateTable('signature_requests')
    .set({
      status: 'signed',
      signed_at: signing.signedAt,
      signed_name: signing.name,
      signed_place: signing.place,
      signed_ip: signing.ip?.slice(0, 100) ?? null,
      signed_user_agent: signing.userAgent?.slice(0, 512) ?? null,
      signed_hash: sha256(signing.signed),
      signed_document_id: Number(stored.id),
      updated_at: sql`now()`,
    })
    .where('id', '=', Number(request.id))
    .returningAll()
    .executeTakeFirstOrThrow();
  await notifySigned(trx, closed);
  return closed;
}

export const personName = (row: {
  first_name?: unknown;
  last_name?: unknown;
  organization?: unknown;
}) =>
  [row.organization, [row.first_name, row.last_name].filter(Boolean).join(' ')]
    .map((part) => (part === null || part === undefined ? '' : String(part).trim()))
    .filter(Boolean)
    .join(', ');

/** The sender and the customer's consultant (once each) hear that it was signed. */
async function notifySigned(db: DB, row: ResourceRow): Promise<void> {
  const customer = await db
    .selectFrom('customers')
    .select(['first_name', 'last_name', 'organization', 'assigned_to'])
    .where('id', '=', Number(row.customer_id))
    .executeTakeFirst();
  const recipients = new Set(
    [row.created_by, customer?.assigned_to]
      .filter((id) => id !== null && id !== undefined)
      .map(Number),
  );
  for (const userId of recipients) {
    await notifyUser(db, {
      kind: 'signature-signed',
      userId,
      level: 'success',
      values: {
        document: String(row.document_name),
        signer: String(row.signed_name),
        customer: customer ? personName(customer) : '',
        place: String(row.signed_place),
      },
      path: `customers/${String(row.customer_id)}?tab=documents`,
      customerId: Number(row.customer_id),
    });
  }
}
