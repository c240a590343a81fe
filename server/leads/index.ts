/**
 * The leads feature (issue 16; docs/ARCHITECTURE.md "Leads"): leads and blacklist entries are
 * schema CRUD; this plugin adds their rules and visibility (./hooks.ts), the board's calls — move,
 * call attempts, convert (./board.ts, ./positions.ts), the blacklist (./blacklist.ts,
 * ./close.ts), the mails and notifications a lead sets off (./notify.ts), and what booking an
 * appointment from a lead and its feedback do to the lead (./appointments.ts), and what a
 * personal-data request does with leads and blacklist entries (./personal-data.ts). Registered after
 * the appointments feature, whose extension points it uses.
 */
import type { FastifyInstance } from 'fastify';
import { linkLeadsToAppointments } from './appointments.ts';
import { boardRoutes } from './board.ts';
import { blacklistHooks, leadHooks } from './hooks.ts';
import { declareLeadPersonalData } from './personal-data.ts';

export default async function leads(app: FastifyInstance): Promise<void> {
  app.resourceHooks.add('leads', leadHooks);
  app.resourceHooks.add('blacklist-entries', blacklistHooks);
  linkLeadsToAppointments(app);
  declareLeadPersonalData();
  await app.register(boardRoutes);
}
Object.defineProperty(leads, Symbol.for('skip-override'), { value: true });
