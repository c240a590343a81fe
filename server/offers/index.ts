/**
 * The offers feature (issue 18; docs/ARCHITECTURE.md "Offers"): offers are schema CRUD
 * (schemas/offers.schema.json) with their rules (./hooks.ts), the actions accept (the closure in
 * the same step), decline (optionally a non-closure) and the offer as PDF (./actions.ts), the
 * nightly expiry of offers past their validity, and their place in personal-data requests
 * (./personal-data.ts). Registered after contracts and commissions: accepting writes a closure
 * through the contracts' own create, which the commission engine follows.
 */
import type { FastifyInstance } from 'fastify';
import { expireOffers, offerActions } from './actions.ts';
import { offerHooks } from './hooks.ts';
import { declareOfferPersonalData } from './personal-data.ts';

declare module '../jobs/queue.ts' {
  interface JobPayloads {
    /** Draft and sent offers past their validity become expired (daily). */
    'offers.expire': Record<string, never>;
  }
}

/** When offers past their validity expire: every night, 01:10 UTC. */
export const EXPIRE_CRON = '10 1 * * *';

export default async function offers(app: FastifyInstance): Promise<void> {
  app.resourceHooks.add('offers', offerHooks);
  declareOfferPersonalData();
  app.jobs.define('offers.expire', { retryLimit: 2, retryDelay: 60 }, async () => {
    await expireOffers(app.db);
  });
  app.jobs.schedule('offers.expire', EXPIRE_CRON, {});
  await app.register(offerActions);
}
Object.defineProperty(offers, Symbol.for('skip-override'), { value: true });
