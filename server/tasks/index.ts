/** The signed-in user's worklist (issue 15): GET /api/tasks. */
import type { FastifyInstance } from 'fastify';

export default async function tasks(app: FastifyInstance): Promise<void> {
  void app;
}
