/**
 * The rules of an appointment's status (src/schema/appointments.ts, spec §4), checked on the
 * locked stored record merged with the body:
 * - on create any status but the feedback's (2, 7, 10: `setByFeedback`); 1 by default;
 * - on update unchanged, or a transition of APPOINTMENT_TRANSITIONS (`statusTransition`
 *   {from, to}, the statuses' labels in the writer's language); to 2, 7 or 10 only through
 *   POST /api/appointments/:id/feedback (`setByFeedback`); never empty (`required`).
 */
import {
  type AppointmentStatus,
  appointmentStatusKey,
  canMoveAppointment,
  CANCELLED_STATUSES,
  FEEDBACK_STATUSES,
} from '../../src/schema/appointments.ts';
import { addError, type ErrorIssue, type FieldErrors, issue } from '../http/errors.ts';
import { releaseLabel } from '../i18n/source.ts';

type Row = Record<string, unknown>;

/** The status's label in a language (the release's texts; German by default). */
export function statusLabel(status: unknown, language?: string | null): string {
  const key = appointmentStatusKey(Number(status));
  const label = releaseLabel(key, language);
  return label === key ? String(status) : label;
}

export const isFeedbackStatus = (status: unknown): boolean =>
  FEEDBACK_STATUSES.includes(status as AppointmentStatus);
export const isCancelledStatus = (status: unknown): boolean =>
  CANCELLED_STATUSES.includes(status as AppointmentStatus);

/** `statusTransition` with the two statuses' labels. */
export const transitionIssue = (from: unknown, to: unknown, language?: string | null): ErrorIssue =>
  issue('statusTransition', {
    from: statusLabel(from, language),
    to: statusLabel(to, language),
  });

/** Errors of the status a write sets (none when it sends none). */
export function statusErrors(
  body: Row,
  existing: Row | undefined,
  language?: string | null,
): FieldErrors {
  const errors: FieldErrors = {};
  if (!('status' in body) || body.status === undefined) return errors;
  const to = body.status;
  if (to === null) {
    addError(errors, 'status', issue('required'));
    return errors;
  }
  const from = existing ? (existing.status ?? 1) : undefined;
  if (from === to) return errors;
  if (isFeedbackStatus(to)) addError(errors, 'status', issue('setByFeedback'));
  else if (from !== undefined && !canMoveAppointment(Number(from), Number(to)))
    addError(errors, 'status', transitionIssue(from, to, language));
  return errors;
}

/** The status changes to cancelled (5, 6) with this write. */
export const becomesCancelled = (body: Row, existing: Row | undefined): boolean =>
  isCancelledStatus(body.status) && !(existing && isCancelledStatus(existing.status));
