/**
 * Offers on the screens (issue 18): the record as the API answers it (camelCase), the actions its
 * status allows (src/schema/offers.ts, the server's rules) and their paths.
 */
import { canAccept, canDecline, canMoveOffer, type OfferStatus } from '../../schema/offers.ts';

export interface Offer {
  id: number;
  version?: number;
  customerId: number;
  customerName?: string | null;
  consultantId?: number | null;
  companyId: number;
  productId: number;
  premium: number;
  paymentCycle?: string | null;
  annualPremium?: number | null;
  coverSummary?: string | null;
  startDate?: string | null;
  validUntil?: string | null;
  status: OfferStatus;
  source?: 'manual' | 'comparison';
  /** The car comparison it was made from (source comparison). */
  comparisonDraftId?: number | null;
  contractId?: number | null;
  declineReason?: string | null;
  note?: string | null;
}

export type OfferAction = 'send' | 'accept' | 'decline' | 'revise';

/** The actions an offer's status allows, in the order they are offered. */
export function offerActionsOf(status: OfferStatus): OfferAction[] {
  const out: OfferAction[] = [];
  if (canMoveOffer(status, 'sent') && status !== 'sent') out.push('send');
  if (canAccept(status)) out.push('accept');
  if (canDecline(status)) out.push('decline');
  if (status === 'expired') out.push('revise');
  return out;
}

export const offerPdfPath = (id: number, language: string) =>
  `offers/${id}/offer.pdf?language=${encodeURIComponent(language)}`;
export const offerPdfName = (id: number) => `offer-${id}.pdf`;

export const DECLINE_REASONS = [
  'price',
  'stayed_with_insurer',
  'health_questions',
  'rejected_by_insurer',
  'no_need',
  'postponed',
  'other',
] as const;
