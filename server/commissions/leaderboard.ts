/** The leaderboard (issue 17): see ./index.ts. Being written. */
import type { FastifyInstance } from 'fastify';

export async function leaderboardRoutes(_app: FastifyInstance): Promise<void> {}
