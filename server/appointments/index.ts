/**
 * The appointments feature (issue 15; docs/ARCHITECTURE.md "Appointments, reminders, tasks and
 * notifications"): appointments and feedbacks are schema CRUD; this plugin adds their rules.
 */
import type { FastifyInstance } from 'fastify';

export default async function appointments(app: FastifyInstance): Promise<void> {
  void app;
}
