/**
 * CSV imports (docs/ARCHITECTURE.md "CSV imports"): one machinery — file, columns and values,
 * checks, duplicates' choices, the write's transaction, the routes — for every resource that
 * describes itself (./resource.ts): customers (server/customers/import.ts) and leads (./leads.ts),
 * at /api/<resource>/import/preview and /api/<resource>/import. Registered after the customers and
 * leads features, whose rules, blacklist and board positions it uses.
 */
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { customerImport } from '../customers/import.ts';
import { IMPORT_MAX_BYTES } from './file.ts';
import { leadImport } from './leads.ts';
import type { ResourceImport } from './resource.ts';
import { importRoutes } from './routes.ts';

/** The resources with a CSV import. */
export const IMPORTS: readonly ResourceImport[] = [customerImport, leadImport];

export default async function imports(app: FastifyInstance): Promise<void> {
  // Multipart for these routes only; an oversized file is detected per request (`truncated`),
  // answered 413 and nothing kept.
  await app.register(multipart, {
    limits: { fileSize: IMPORT_MAX_BYTES, files: 1 },
    throwFileSizeLimit: false,
  });
  for (const description of IMPORTS) await importRoutes(app, description);
}
