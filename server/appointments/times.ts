/**
 * An appointment's two ways of saying when (schemas/appointments.schema.json): the instants
 * `date_start` / `date_end` (ISO date-times, the truth) and the Swiss local `date`, `start_time`,
 * `end_time` (Europe/Zurich). A write may send either; the server keeps both in step:
 *
 * - a pair is "changed" when the write sends a value of it that differs from the stored one (on
 *   create: sends it at all), so a complete record sent back unchanged moves nothing;
 * - the instants changed → the local fields are computed from them (the instants win also when
 *   both changed and disagree: they are the truth);
 * - only local fields changed → the instants are computed from them, missing parts taken from the
 *   stored record (PATCH `{ start_time: '09:00' }` moves the start on the same day);
 * - the end must be after the start (`endBeforeStart`) and on the same Swiss day
 *   (`notSameDay`), reported on `date_end` (or `end_time` when the local fields were written).
 */
import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';
import { SWISS_TIME_ZONE } from '../../src/schema/appointments.ts';
import { addError, type FieldErrors, issue } from '../http/errors.ts';
import { swissToday } from '../../src/schema/swiss-time.ts';

dayjs.extend(utc);
dayjs.extend(timezone);

type Row = Record<string, unknown>;

export interface AppointmentTimes {
  date_start: string;
  date_end: string;
  date: string;
  start_time: string;
  end_time: string;
}

const TIME = /^([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?/;

/** 'HH:MM:SS' of a time value ('08:30', '08:30:00'); undefined when it is none. */
export function clockTime(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const match = TIME.exec(value);
  return match ? `${match[1]}:${match[2]}:${match[3] ?? '00'}` : undefined;
}

/** Milliseconds of an instant (ISO text or Date); undefined when it is none. */
export function instant(value: unknown): number | undefined {
  if (value instanceof Date) return value.getTime();
  if (typeof value !== 'string' || value === '') return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

/** The Swiss local date and clock time of an instant. */
export function swissParts(ms: number): { date: string; time: string } {
  const local = dayjs(ms).tz(SWISS_TIME_ZONE);
  return { date: local.format('YYYY-MM-DD'), time: local.format('HH:mm:ss') };
}

/** The instant of a Swiss local date and time. */
export function swissInstant(date: string, time: string): number {
  return dayjs.tz(`${date} ${time}`, 'YYYY-MM-DD HH:mm:ss', SWISS_TIME_ZONE).valueOf();
}

/** The Swiss local date today (or of `now`). */
export { swissToday };

/** All five fields from two instants. */
export function timesOf(start: number, end: number): AppointmentTimes {
  const from = swissParts(start);
  const to = swissParts(end);
  return {
    date_start: new Date(start).toISOString(),
    date_end: new Date(end).toISOString(),
    date: from.date,
    start_time: from.time,
    end_time: to.time,
  };
}

/** Errors of a start and an end (instants): end after start, on the same Swiss day. */
export function rangeErrors(
  start: number,
  end: number,
  fields: { end: string },
  errors: FieldErrors = {},
): FieldErrors {
  if (end <= start) addError(errors, fields.end, issue('endBeforeStart'));
  else if (swissParts(start).date !== swissParts(end).date)
    addError(errors, fields.end, issue('notSameDay'));
  return errors;
}

const dateOf = (value: unknown): string | undefined =>
  typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value) ? value.slice(0, 10) : undefined;

/**
 * The five time fields a write leads to (body merged with the stored record), or none when it
 * changes no time; with the errors of the result.
 */
export function normaliseTimes(
  body: Row,
  existing: Row | undefined,
): { times?: AppointmentTimes; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const stored = existing ?? {};
  const sent = (column: string) => column in body && body[column] !== undefined;
  const changed = (column: string, same: (a: unknown, b: unknown) => boolean) =>
    sent(column) && (!existing || !same(body[column], stored[column]));
  const sameInstant = (a: unknown, b: unknown) => instant(a) === instant(b);
  const sameTime = (a: unknown, b: unknown) => clockTime(a) === clockTime(b);
  const sameDate = (a: unknown, b: unknown) => dateOf(a) === dateOf(b);

  const instantsChanged = changed('date_start', sameInstant) || changed('date_end', sameInstant);
  const localChanged =
    changed('date', sameDate) || changed('start_time', sameTime) || changed('end_time', sameTime);
  if (!instantsChanged && !localChanged) return { errors };

  if (instantsChanged) {
    const start = instant(sent('date_start') ? body.date_start : stored.date_start);
    const end = instant(sent('date_end') ? body.date_end : stored.date_end);
    if (start === undefined) addError(errors, 'date_start', issue('required'));
    if (end === undefined) addError(errors, 'date_end', issue('required'));
    if (start === undefined || end === undefined) return { errors };
    rangeErrors(start, end, { end: 'date_end' }, errors);
    return { times: timesOf(start, end), errors };
  }

  // Only the local fields changed: missing parts from the stored record (its instants).
  const storedStart = instant(stored.date_start);
  const storedEnd = instant(stored.date_end);
  const pick = (column: string, fallback: string | undefined, read: (v: unknown) => unknown) =>
    (sent(column) ? read(body[column]) : (read(stored[column]) ?? fallback)) as string | undefined;
  const date = pick(
    'date',
    storedStart === undefined ? undefined : swissParts(storedStart).date,
    dateOf,
  );
  const startTime = pick(
    'start_time',
    storedStart === undefined ? undefined : swissParts(storedStart).time,
    clockTime,
  );
  const endTime = pick(
    'end_time',
    storedEnd === undefined ? undefined : swissParts(storedEnd).time,
    clockTime,
  );
  if (!date) addError(errors, 'date', issue('required'));
  if (!startTime) addError(errors, 'start_time', issue('required'));
  if (!endTime) addError(errors, 'end_time', issue('required'));
  if (!date || !startTime || !endTime) return { errors };
  const start = swissInstant(date, startTime);
  const end = swissInstant(date, endTime);
  rangeErrors(start, end, { end: 'end_time' }, errors);
  return { times: timesOf(start, end), errors };
}
