/**
 * The reminders feature (issue 15; docs/ARCHITECTURE.md "Appointments, reminders, tasks and
 * notifications"): reminders are schema CRUD; this plugin adds their rules and jobs.
 */
import type { FastifyInstance } from 'fastify';

export default async function reminders(app: FastifyInstance): Promise<void> {
  void app;
}
