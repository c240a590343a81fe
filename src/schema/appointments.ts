/**
 * Appointments and reminders: the facts both sides rely on (spec §4; docs/ARCHITECTURE.md
 * "Appointments, reminders, tasks and notifications"). The server enforces the transitions
 * (server/appointments/, server/reminders/); the web app offers only the allowed ones.
 */

/** Appointment status codes as numbers on the wire (spec §4). */
export const APPOINTMENT_STATUS = {
  default: 1,
  tookPlace: 2,
  open: 3,
  cancelled: 5,
  cancelledByClient: 6,
  didNotTakePlace: 7,
  firstTookPlace: 10,
  notAssigned: 15,
} as const;
export type AppointmentStatus = (typeof APPOINTMENT_STATUS)[keyof typeof APPOINTMENT_STATUS];
export const APPOINTMENT_STATUSES: readonly AppointmentStatus[] = [1, 2, 3, 5, 6, 7, 10, 15];

/** Translation key of a status's label (`enums.appointmentStatus.<code>`). */
export const appointmentStatusKey = (status: number): string => `enums.appointmentStatus.${status}`;

/** Statuses only the feedback call sets (it took place, first took place, did not take place). */
export const FEEDBACK_STATUSES: readonly AppointmentStatus[] = [2, 10, 7];
/** Still to take place: may get feedback once begun, may be moved, counts for double booking. */
export const PLANNED_STATUSES: readonly AppointmentStatus[] = [1, 3];
/** Cancelled (by us or by the customer). */
export const CANCELLED_STATUSES: readonly AppointmentStatus[] = [5, 6];

/**
 * The transitions a write of the appointment itself may make (PUT/PATCH `status`). The feedback
 * call moves a planned appointment (1, 3) to 2, 10 or 7; nothing else does. Unchanged is always
 * allowed.
 *   1 default   → 3 open, 5 cancelled, 6 cancelled by client, 15 was not assigned
 *   3 open      → 1 default, 5, 6, 15
 *   15 not assigned → 1 default, 3 open (assigned after all), 5 cancelled
 *   5, 6 cancelled → 1 default, 3 open (taken up again)
 *   2, 7, 10 (feedback given): final
 */
export const APPOINTMENT_TRANSITIONS: Readonly<
  Record<AppointmentStatus, readonly AppointmentStatus[]>
> = {
  1: [3, 5, 6, 15],
  3: [1, 5, 6, 15],
  15: [1, 3, 5],
  5: [1, 3],
  6: [1, 3],
  2: [],
  7: [],
  10: [],
};

export const canMoveAppointment = (from: number, to: number): boolean =>
  from === to ||
  (APPOINTMENT_TRANSITIONS[from as AppointmentStatus] ?? []).includes(to as AppointmentStatus);

/** The appointments list's type filter (spec §4). */
export const APPOINTMENT_TYPE_FILTERS = ['all', 'past', 'missing_feedbacks', 'unassigned'] as const;
export type AppointmentTypeFilter = (typeof APPOINTMENT_TYPE_FILTERS)[number];

/** The customers list's open-issue filter (spec §4), from the customers' reminders. */
export const OPEN_ISSUE_FILTERS = ['open-due', 'open-not-due', 'closed', 'none'] as const;
export type OpenIssueFilter = (typeof OPEN_ISSUE_FILTERS)[number];

export const REMINDER_STATUSES = ['open', 'resolved', 'cancelled'] as const;
export type ReminderStatus = (typeof REMINDER_STATUSES)[number];

/**
 * Reminder transitions: open → resolved | cancelled (its user, its assigner, the back office);
 * resolved | cancelled → open only by the assigner or the back office (`reopenByAssigner`).
 */
export const REMINDER_TRANSITIONS: Readonly<Record<ReminderStatus, readonly ReminderStatus[]>> = {
  open: ['resolved', 'cancelled'],
  resolved: ['open'],
  cancelled: ['open'],
};

export const canMoveReminder = (from: string, to: string): boolean =>
  from === to ||
  (REMINDER_TRANSITIONS[from as ReminderStatus] ?? []).includes(to as ReminderStatus);

/** The time a reminder without a time falls due on its due date (Swiss local time). */
export const REMINDER_DEFAULT_TIME = '08:00';

/** Swiss local time, in which dates and times of appointments and reminders are meant. */
export { SWISS_TIME_ZONE } from './swiss-time.ts';

/** Lead time of the renewal and termination reminders, in days, unless configured. */
export const DEFAULT_DEADLINE_LEAD_DAYS = 60;
