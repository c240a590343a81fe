/** Payouts (issue 17): see ./index.ts. Being written. */
import type { FastifyInstance } from 'fastify';
import type { ResourceHooks } from '../crud/hooks.ts';

export const payoutHooks: ResourceHooks = {};

export async function payoutRoutes(_app: FastifyInstance): Promise<void> {}
