/**
 * CRUD hooks of offers (issue 18; registered by ./index.ts). Visibility is generic: consultantId is
 * `x-owner` and customerId `x-owner-via`. These hooks add:
 * - validate: the insurer offers the product (`notOffered` on company_id, as contracts); a write
 *   moves the status only along the moves of src/schema/offers.ts (`statusTransition` on status;
 *   accepted and declined come from their actions, ./actions.ts); an accepted or declined offer
 *   keeps everything but its note (409 `offerDecided`);
 * - prepare: the annual premium (never the client's); the consultant defaults to the customer's,
 *   else the writer; sentAt set when the offer is first marked sent;
 * - afterWrite on delete: an accepted or declined offer stays (409 `offerDecided`), it is the
 *   record of what the customer chose.
 */
import type { ResourceHooks, WriteContext } from '../crud/hooks.ts';
import type { ResourceRow } from '../db/resource.ts';
import { idOf } from '../db/values.ts';
import { companyOffers, productGroupOf } from '../contracts/rules.ts';
import { merged } from '../customers/rules.ts';
import { releaseLabel } from '../i18n/source.ts';
import { addError, ApiError, type FieldErrors, issue } from '../http/errors.ts';
import {
  canMoveOffer,
  DECIDED_EDITABLE,
  isDecided,
  offerAnnualPremium,
  type OfferStatus,
} from '../../src/schema/offers.ts';
import type { PaymentCycle } from '../../src/schema/figures.ts';

/** An offer status's name in the language (the release's texts). */
export const offerStatusLabel = (status: unknown, language?: string | null) =>
  releaseLabel(`enums.offerStatus.${String(status)}`, language);

/** 409 `offerDecided` naming the status, in the writer's language. */
export const decidedError = (status: string, language?: string | null) =>
  new ApiError(409, issue('offerDecided', { status: offerStatusLabel(status, language) }));

async function offerErrors(body: ResourceRow, context: WriteContext): Promise<FieldErrors> {
  const { db, existing, principal } = context;
  const errors: FieldErrors = {};
  const record = merged(existing, body);
  if (existing && isDecided(existing.status as OfferStatus)) {
    const changed = Object.keys(body).filter(
      (key) =>
        !(DECIDED_EDITABLE as readonly string[]).includes(key) &&
        key !== 'version' &&
        body[key] !== undefined &&
        JSON.stringify(body[key]) !== JSON.stringify(existing[key]),
    );
    if (changed.length > 0) throw decidedError(String(existing.status), principal?.language);
    return errors;
  }
  const from = (existing?.status ?? 'draft') as OfferStatus;
  const to = (record.status ?? 'draft') as OfferStatus;
  if (body.status === null) addError(errors, 'status', issue('required'));
  else if (existing ? !canMoveOffer(from, to) : to !== 'draft' && to !== 'sent')
    addError(
      errors,
      'status',
      issue('statusTransition', {
        from: offerStatusLabel(from, principal?.language),
        to: offerStatusLabel(to, principal?.language),
      }),
    );
  const companyId = idOf(record.company_id);
  const productId = idOf(record.product_id);
  const changed = !existing || 'company_id' in body || 'product_id' in body;
  if (changed && companyId !== null && productId !== null)
    // An unknown product is the generic reference check's (422 naming product_id).
    if (
      (await productGroupOf(db, productId)) !== undefined &&
      !(await companyOffers(db, companyId, productId))
    )
      addError(errors, 'company_id', issue('notOffered'));
  return errors;
}

export const offerHooks: ResourceHooks = {
  validate: offerErrors,
  async prepare(values: ResourceRow, context: WriteContext) {
    const { db, existing, principal } = context;
    const record = merged(existing, values);
    const out: ResourceRow = { ...values };
    if (existing && isDecided(existing.status as OfferStatus)) return out;
    out.annual_premium = offerAnnualPremium(
      Number(record.premium ?? 0),
      String(record.payment_cycle ?? 'annual') as PaymentCycle,
    );
    if (!existing && idOf(values.consultant_id) === null) {
      const customer = await db
        .selectFrom('customers')
        .select('assigned_to')
        .where('id', '=', idOf(record.customer_id) ?? 0)
        .executeTakeFirst();
      out.consultant_id = customer?.assigned_to ?? principal?.id ?? null;
    }
    if (record.status === 'sent' && (existing?.status !== 'sent' || !existing?.sent_at))
      out.sent_at = new Date();
    return out;
  },
  afterWrite(_row, context) {
    const { mode, existing, principal } = context;
    if (mode === 'delete' && existing && isDecided(existing.status as OfferStatus))
      throw decidedError(String(existing.status), principal?.language);
  },
};
