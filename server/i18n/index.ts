/**
 * The languages feature (issue 4): the localization API (./routes.ts). The texts are seeded and
 * kept in step with the release at start-up by ./sync.ts.
 */
import type { FastifyInstance } from 'fastify';
import { localizationRoutes } from './routes.ts';

export default async function i18n(app: FastifyInstance): Promise<void> {
  localizationRoutes(app);
}
