/**
 * The account feature (issue 3): registration, password flows, settings, offer credentials and
 * the user managers' actions (./routes.ts), and the rules of the identity resources users,
 * external-users, sub-brokers, sub-broker-rules and lead-sources (./hooks.ts).
 */
import type { FastifyInstance } from 'fastify';
import {
  externalUserHooks,
  leadSourceHooks,
  subBrokerHooks,
  subBrokerRuleHooks,
  userHooks,
} from './hooks.ts';
import { accountRoutes } from './routes.ts';

export default async function account(app: FastifyInstance): Promise<void> {
  app.resourceHooks.add('users', userHooks);
  app.resourceHooks.add('external-users', externalUserHooks);
  app.resourceHooks.add('sub-brokers', subBrokerHooks);
  app.resourceHooks.add('sub-broker-rules', subBrokerRuleHooks);
  app.resourceHooks.add('lead-sources', leadSourceHooks);
  accountRoutes(app);
}
