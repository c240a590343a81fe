/**
 * The customers feature (issue 6; docs/ARCHITECTURE.md "Customers, households and documents"):
 * customers, household members and documents are schema CRUD; this plugin adds their rules
 * (./hooks.ts) and the routes beyond CRUD — duplicates, merge and household conversion
 * (./records.ts), documents and pictures (./documents.ts), the CSV export (./export-routes.ts),
 * personal-data export and erasure (./personal-data.ts). Every route checks the record like
 * `GET /api/<resource>/:id` does (./access.ts): a record the user may not see answers 404. The CSV
 * import is server/import/ (customers and leads); what is customer-specific in it: ./import.ts.
 */
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { documentMaxBytes } from './files.ts';
import { customerHooks, documentHooks, householdMemberHooks } from './hooks.ts';
import { exportRoutes } from './export-routes.ts';
import { personalDataRoutes } from './personal-data.ts';
import { documentRoutes } from './documents.ts';
import { recordRoutes } from './records.ts';

export default async function customers(app: FastifyInstance): Promise<void> {
  app.resourceHooks.add('customers', customerHooks);
  app.resourceHooks.add('household-members', householdMemberHooks);
  app.resourceHooks.add('documents', documentHooks);

  // Multipart for the routes of this feature only. Oversized files are detected per route
  // (`truncated`), answered 413 and nothing kept.
  await app.register(multipart, {
    limits: { fileSize: documentMaxBytes(), files: 1 },
    throwFileSizeLimit: false,
  });
  await app.register(recordRoutes);
  await app.register(documentRoutes);
  await app.register(exportRoutes);
  await app.register(personalDataRoutes);
}
