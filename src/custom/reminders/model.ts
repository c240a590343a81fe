/**
 * Reminders as the screens use them (spec §3 Reminder, §4 default filters): today and "overdue" in
 * Swiss time, the list's default filter (open, due up to today, mine), and which status moves the
 * signed-in user is offered (src/schema/appointments.ts REMINDER_TRANSITIONS: reopening is the
 * assigner's or the back office's). The server enforces the same rules (server/reminders/).
 */
import type { ApiRecord } from '../../resources/records.ts';
import {
  canMoveReminder,
  REMINDER_DEFAULT_TIME,
  REMINDER_STATUSES,
  type ReminderStatus,
  SWISS_TIME_ZONE,
} from '../../schema/appointments.ts';
import { swissToday } from '../../schema/swiss-time.ts';

export type Reminder = ApiRecord<'reminders'>;

function swissParts(now: Date): Record<string, string> {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: SWISS_TIME_ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(now);
  return Object.fromEntries(parts.map((part) => [part.type, part.value]));
}

/** Today in Switzerland as YYYY-MM-DD. */
export { swissToday };

/** The time of day in Switzerland as HH:mm. */
export function swissTime(now = new Date()): string {
  const parts = swissParts(now);
  return `${parts.hour}:${parts.minute}`;
}

/** A time as the screens show it (HH:mm; the API may answer HH:mm:ss). */
export const shortTime = (time: string | null | undefined): string =>
  time ? time.slice(0, 5) : '';

/** An open reminder whose due moment (its date at its time, else 08:00) has passed. */
export function isOverdue(
  reminder: Pick<Reminder, 'status' | 'dueDate' | 'time'>,
  now = new Date(),
): boolean {
  if ((reminder.status ?? 'open') !== 'open' || !reminder.dueDate) return false;
  const today = swissToday(now);
  if (reminder.dueDate !== today) return reminder.dueDate < today;
  return (shortTime(reminder.time) || REMINDER_DEFAULT_TIME) <= swissTime(now);
}

/** The status moves offered to `userId` for a reminder (reopen: its assigner or the back office). */
export function movesOf(
  reminder: Pick<Reminder, 'status' | 'assignerId'>,
  userId: number | undefined,
  backOffice: boolean,
): ReminderStatus[] {
  const from = reminder.status ?? 'open';
  return REMINDER_STATUSES.filter(
    (to) =>
      to !== from &&
      canMoveReminder(from, to) &&
      (to !== 'open' || backOffice || (userId !== undefined && reminder.assignerId === userId)),
  );
}

/** The reminders list's filter when it opens (spec §4): open, due up to today, mine. */
export const defaultListFilter = (userId: number | undefined, now = new Date()) => ({
  status: 'open',
  dueDate_lte: swissToday(now),
  ...(userId ? { userId } : {}),
});

/** The `?clientId=` of the create page, when it names a customer. */
export function clientIdOf(search: string): number | undefined {
  const value = Number(new URLSearchParams(search).get('clientId'));
  return Number.isInteger(value) && value > 0 ? value : undefined;
}

/** The instant a Swiss calendar day (YYYY-MM-DD) begins. */
export function swissMidnight(day: string): Date {
  const guess = Date.parse(`${day}T00:00:00Z`);
  const parts = swissParts(new Date(guess));
  const wall = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
  );
  return new Date(guess - (wall - guess));
}

/** The first and last instant of today in Switzerland, as ISO date-times (list filters). */
export function swissTodayRange(now = new Date()): { from: string; to: string } {
  const today = swissToday(now);
  const start = swissMidnight(today);
  const next = new Date(Date.parse(`${today}T00:00:00Z`) + 36 * 3_600_000)
    .toISOString()
    .slice(0, 10);
  const end = new Date(swissMidnight(next).getTime() - 1);
  return { from: start.toISOString(), to: end.toISOString() };
}
