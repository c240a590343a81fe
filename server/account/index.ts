/**
 * The account feature (issue 3; docs/ARCHITECTURE.md "Identity and access"): registration
 * (./registration.ts), password flows (./password.ts), the user's own settings and offer
 * credentials (./settings.ts), the user managers' actions (./users.ts), and the rules of the
 * identity resources users, external-users, sub-brokers, sub-broker-rules and lead-sources
 * (./hooks.ts). Throttles in ./throttles.ts, every step in the audit log.
 */
import type { FastifyInstance } from 'fastify';
import {
  externalUserHooks,
  leadSourceHooks,
  subBrokerHooks,
  subBrokerRuleHooks,
  userHooks,
} from './hooks.ts';
import { passwordRoutes } from './password.ts';
import { registrationRoutes } from './registration.ts';
import { settingsRoutes } from './settings.ts';
import { userAdminRoutes } from './users.ts';

export default async function account(app: FastifyInstance): Promise<void> {
  if (app.database.engine === 'postgres') {
    if (!process.env.SECRET_KEY)
      app.log.warn('SECRET_KEY is not set: offer credentials use a key kept in the database.');
    if (!process.env.PUBLIC_URL)
      app.log.warn('PUBLIC_URL is not set: links in mails point at http://localhost.');
  }
  app.resourceHooks.add('users', userHooks);
  app.resourceHooks.add('external-users', externalUserHooks);
  app.resourceHooks.add('sub-brokers', subBrokerHooks);
  app.resourceHooks.add('sub-broker-rules', subBrokerRuleHooks);
  app.resourceHooks.add('lead-sources', leadSourceHooks);

  await app.register(registrationRoutes);
  await app.register(passwordRoutes);
  await app.register(settingsRoutes);
  await app.register(userAdminRoutes);
}
