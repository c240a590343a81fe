/**
 * Offers in personal-data requests (nFADP; server/customers/personal-data.ts). An offer is
 * correspondence before a contract, not a record the brokerage must keep (an accepted one lives on
 * as its closure), so erasing a customer deletes their offers; the export carries them.
 */
import { declareCustomerRows } from '../customers/personal-data.ts';

/** Declares the offers' personal data (once per process). */
export const declareOfferPersonalData = () =>
  declareCustomerRows({ name: 'offers', table: 'offers', column: 'customer_id' });
