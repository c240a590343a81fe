/**
 * The languages feature (issue 4; docs/ARCHITECTURE.md §8): the localization API — reading the
 * texts (./translations.ts), editing them (./edit.ts) and the reports of missing keys
 * (./missing.ts). The texts are seeded and kept in step with the release at start-up (./sync.ts).
 */
import type { FastifyInstance } from 'fastify';
import { editRoutes } from './edit.ts';
import { missingRoutes } from './missing.ts';
import { translationRoutes } from './translations.ts';

export default async function i18n(app: FastifyInstance): Promise<void> {
  await app.register(translationRoutes);
  await app.register(editRoutes);
  await app.register(missingRoutes);
}
