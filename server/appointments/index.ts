/**
 * The appointments feature (issue 15; docs/ARCHITECTURE.md "Appointments, reminders, tasks and
 * notifications"): appointments and feedbacks are schema CRUD; this plugin adds their rules
 * (./hooks.ts, ./rules.ts, ./times.ts, ./postcodes.ts), the double-booking check (./overlaps.ts),
 * the feedback call with its after-feedback handlers (./feedback.ts), the feedback's image
 * (./feedback-image.ts) and what a personal-data request does with them (./personal-data.ts).
 *
 * Not encapsulated (as fastify-plugin would do): `app.feedbackHandlers` is decorated on the root,
 * so a feature registered after this one (leads, issue 16) adds its handler there.
 */
import type { FastifyInstance } from 'fastify';
import { FeedbackHandlers, feedbackHooks, feedbackRoutes } from './feedback.ts';
import { feedbackImageRoutes } from './feedback-image.ts';
import { appointmentHooks } from './hooks.ts';
import { overlapRoutes } from './overlaps.ts';
import { declareAppointmentPersonalData } from './personal-data.ts';

export default async function appointments(app: FastifyInstance): Promise<void> {
  app.decorate('feedbackHandlers', new FeedbackHandlers());
  app.resourceHooks.add('appointments', appointmentHooks);
  app.resourceHooks.add('feedbacks', feedbackHooks);
  declareAppointmentPersonalData();
  await app.register(overlapRoutes);
  await app.register(feedbackRoutes);
  await app.register(feedbackImageRoutes);
}
Object.defineProperty(appointments, Symbol.for('skip-override'), { value: true });
