/**
 * Offers' statuses and moves (issue 18), shared by the server's rules (server/offers/) and the
 * screens' actions (src/custom/offers/):
 * - by a write of `status`: draft → sent | expired, sent → draft | expired, expired → draft;
 * - by the actions: accept from draft or sent (makes the closure), decline from draft, sent or
 *   expired (can make a non-closure);
 * - accepted and declined are final: such an offer keeps everything but its note.
 */
import { PAYMENTS_PER_YEAR, type PaymentCycle } from './figures.ts';

export const OFFER_STATUSES = ['draft', 'sent', 'accepted', 'declined', 'expired'] as const;
export type OfferStatus = (typeof OFFER_STATUSES)[number];

const WRITE_MOVES: Record<OfferStatus, readonly OfferStatus[]> = {
  draft: ['sent', 'expired'],
  sent: ['draft', 'expired'],
  expired: ['draft'],
  accepted: [],
  declined: [],
};

/** Whether a write may move an offer's status from → to (staying is always allowed). */
export const canMoveOffer = (from: OfferStatus, to: OfferStatus): boolean =>
  from === to || WRITE_MOVES[from].includes(to);

export const canAccept = (status: OfferStatus): boolean => status === 'draft' || status === 'sent';
export const canDecline = (status: OfferStatus): boolean =>
  status === 'draft' || status === 'sent' || status === 'expired';
export const isDecided = (status: OfferStatus): boolean =>
  status === 'accepted' || status === 'declined';

/** What a decided offer may still change. */
export const DECIDED_EDITABLE = ['note'] as const;

/** The premium a year: per payment × payments a year; a single premium as it is. */
export function offerAnnualPremium(premium: number, cycle: PaymentCycle): number {
  const perYear = PAYMENTS_PER_YEAR[cycle];
  const centimes = Math.round(premium * 100) * (perYear === 0 ? 1 : perYear);
  return centimes / 100;
}
