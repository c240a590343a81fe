/**
 * The customers feature (issue 6): customers, household members and documents are schema CRUD;
 * this plugin adds their rules (./hooks.ts) and the routes beyond CRUD (./routes.ts).
 */
import type { FastifyInstance } from 'fastify';
import { customerHooks, documentHooks, householdMemberHooks } from './hooks.ts';
import { customerRoutes } from './routes.ts';

export default async function customers(app: FastifyInstance): Promise<void> {
  app.resourceHooks.add('customers', customerHooks);
  app.resourceHooks.add('household-members', householdMemberHooks);
  app.resourceHooks.add('documents', documentHooks);
  await app.register(customerRoutes);
}
