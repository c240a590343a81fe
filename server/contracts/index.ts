/**
 * The contracts feature (issue 14; docs/ARCHITECTURE.md "Contracts"): contracts are schema CRUD
 * (schemas/contracts.schema.json); this plugin adds their rules and computed figures (./hooks.ts),
 * the exports (./export.ts) and the household coverage view (./coverage.ts).
 */
import type { FastifyInstance } from 'fastify';
import { coverageRoutes } from './coverage.ts';
import { contractExportRoutes } from './export.ts';
import { contractHooks } from './hooks.ts';
import { declareContractPersonalData } from './personal-data.ts';

export default async function contracts(app: FastifyInstance): Promise<void> {
  app.resourceHooks.add('contracts', contractHooks);
  declareContractPersonalData();
  await app.register(contractExportRoutes);
  await app.register(coverageRoutes);
}
