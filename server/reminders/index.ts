/**
 * The reminders feature (issue 15; docs/ARCHITECTURE.md "Appointments, reminders, tasks and
 * notifications"): reminders are schema CRUD; this plugin adds their rules (./hooks.ts) and the
 * background passes (./passes.ts) on the job queue:
 *   reminders.due              every minute   due reminders notify their user ('reminder-due')
 *   appointments.feedback-missing  every 15 min  feedback a day overdue notifies the consultant
 *   reminders.deadlines        daily 04:15 UTC renewal and termination reminders of contracts
 * pg-boss's cron runs each tick once across all servers; each pass claims its rows with
 * `for update skip locked` inside its transaction, so even two runs at once notify once.
 */
import type { FastifyInstance } from 'fastify';
import { reminderHooks } from './hooks.ts';
import { declareReminderPersonalData } from './personal-data.ts';
import { deadlineLeadDays, runDeadlinePass, runDuePass, runFeedbackPass } from './passes.ts';

declare module '../jobs/queue.ts' {
  interface JobPayloads {
    /** Notify the users of reminders that fell due (every minute). */
    'reminders.due': Record<string, never>;
    /** Notify consultants of appointments still without feedback a day after (every 15 min). */
    'appointments.feedback-missing': Record<string, never>;
    /** Create the renewal and termination reminders of contracts (daily). */
    'reminders.deadlines': Record<string, never>;
  }
}

export const DUE_CRON = '* * * * *';
export const FEEDBACK_CRON = '*/15 * * * *';
export const DEADLINES_CRON = '15 4 * * *';

/** The passes as job handlers: short expiry (a pass taking longer is taken for a crashed one). */
export const PASS_POLICY = { retryLimit: 2, retryDelay: 30, expireInSeconds: 10 * 60 };

export default async function reminders(app: FastifyInstance): Promise<void> {
  // A bad DEADLINE_REMINDER_DAYS stops the start here, not the nightly job.
  deadlineLeadDays();
  app.resourceHooks.add('reminders', reminderHooks);
  declareReminderPersonalData();
  app.jobs.define('reminders.due', PASS_POLICY, async () => {
    await runDuePass(app.db);
  });
  app.jobs.define('appointments.feedback-missing', PASS_POLICY, async () => {
    await runFeedbackPass(app.db);
  });
  app.jobs.define('reminders.deadlines', { ...PASS_POLICY, expireInSeconds: 60 * 60 }, async () => {
    await runDeadlinePass(app.db);
  });
  app.jobs.schedule('reminders.due', DUE_CRON, {});
  app.jobs.schedule('appointments.feedback-missing', FEEDBACK_CRON, {});
  app.jobs.schedule('reminders.deadlines', DEADLINES_CRON, {});
}
