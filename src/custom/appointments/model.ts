/**
 * The pure pieces of the appointment screens (issue 15): times in Swiss local time and how they
 * travel (the form's date + start + end, the calendar's wall-clock dates, the API's ISO instants),
 * the statuses a form may offer, the calendar's events and colours, the map link, who may give
 * feedback and what the feedback call sends. The server checks the same rules
 * (server/appointments/); the browser only offers what fits.
 */
import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';
import type { ApiRecord } from '../../resources/records.ts';
import { getModel } from '../../resources/registry.ts';
import {
  APPOINTMENT_TRANSITIONS,
  type AppointmentStatus,
  FEEDBACK_STATUSES,
  PLANNED_STATUSES,
  SWISS_TIME_ZONE,
} from '../../schema/appointments.ts';
import type { FieldModel } from '../../schema/model.ts';

dayjs.extend(utc);
dayjs.extend(timezone);

export type Appointment = ApiRecord<'appointments'>;
export type Feedback = ApiRecord<'feedbacks'>;

export const appointmentModel = () => getModel('appointments');

export const fieldOf = (name: string): FieldModel => {
  const field = appointmentModel().fields.find((candidate) => candidate.name === name);
  if (!field) throw new Error(`appointments has no field ${name}`);
  return field;
};

// ---------------------------------------------------------------------------------------------
// Times (Swiss local time)

const TIME = /^([01]\d|2[0-3]):([0-5]\d)(:[0-5]\d)?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** 'HH:mm' of a time the server or an input gives ('08:30', '08:30:00'); undefined otherwise. */
export function shortTime(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const match = TIME.exec(value);
  return match ? `${match[1]}:${match[2]}` : undefined;
}

/** The instant (ISO 8601, UTC) of a Swiss local date and time; undefined when either is not one. */
export function swissToIso(date: unknown, time: unknown): string | undefined {
  const hhmm = shortTime(time);
  if (typeof date !== 'string' || !DATE.test(date) || !hhmm) return undefined;
  const moment = dayjs.tz(`${date} ${hhmm}`, 'YYYY-MM-DD HH:mm', SWISS_TIME_ZONE);
  return moment.isValid() ? moment.toISOString() : undefined;
}

/** The Swiss local date ('YYYY-MM-DD') and time ('HH:mm') of an instant. */
export function isoToSwiss(iso: unknown): { date: string; time: string } | undefined {
  if (typeof iso !== 'string' || iso === '') return undefined;
  const moment = dayjs(iso);
  if (!moment.isValid()) return undefined;
  const swiss = moment.tz(SWISS_TIME_ZONE);
  return { date: swiss.format('YYYY-MM-DD'), time: swiss.format('HH:mm') };
}

/** An appointment's Swiss date, start and end ('HH:mm'), from its date/times or its instants. */
export function swissTimesOf(
  record: Pick<Appointment, 'date' | 'startTime' | 'endTime' | 'dateStart' | 'dateEnd'>,
): { date: string; start: string; end: string } | undefined {
  const start = isoToSwiss(record.dateStart);
  const end = isoToSwiss(record.dateEnd);
  const date = record.date ?? start?.date;
  const from = shortTime(record.startTime) ?? start?.time;
  const until = shortTime(record.endTime) ?? end?.time;
  return date && from && until ? { date, start: from, end: until } : undefined;
}

/**
 * The calendar runs in UTC as a stand-in for Swiss local time (no time zone plugin needed, and it
 * shows the same hours in every browser's zone): a wall-clock 'YYYY-MM-DDTHH:mm' of Switzerland
 * is given as that time in UTC, and a date the calendar reports is read back through its UTC parts.
 */
export const wallOf = (date: string, time: string): string => `${date}T${time}:00Z`;

/** The instant of a calendar date (UTC parts = Swiss wall clock). */
export function wallToIso(date: Date): string {
  const wall = dayjs(date).utc().format('YYYY-MM-DD HH:mm:ss');
  return dayjs.tz(wall, 'YYYY-MM-DD HH:mm:ss', SWISS_TIME_ZONE).toISOString();
}

/** The calendar's "now": Swiss wall-clock time as a UTC date. */
export function swissNow(now: Date = new Date()): Date {
  const wall = dayjs(now).tz(SWISS_TIME_ZONE).format('YYYY-MM-DDTHH:mm:ss');
  return new Date(`${wall}Z`);
}

/** Today in Switzerland ('YYYY-MM-DD'). */
export const swissToday = (now: Date = new Date()): string =>
  dayjs(now).tz(SWISS_TIME_ZONE).format('YYYY-MM-DD');

/** The date-time a duration after a Swiss time ('HH:mm'), capped at 23:59 of the same day. */
export function timePlus(time: string, minutes: number): string {
  const hhmm = shortTime(time);
  if (!hhmm) return time;
  const [hours, mins] = hhmm.split(':').map(Number);
  const total = Math.min(hours * 60 + mins + minutes, 23 * 60 + 59);
  return `${String(Math.floor(total / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`;
}

// ---------------------------------------------------------------------------------------------
// Statuses

export const isPlanned = (status: unknown): boolean =>
  PLANNED_STATUSES.includes(status as AppointmentStatus);

export const isCancelled = (status: unknown): boolean => status === 5 || status === 6;

/** What a new appointment may start as. */
export const CREATE_STATUSES: readonly AppointmentStatus[] = [1, 3, 15];

/**
 * The statuses the form offers: the stored one and where it may move (APPOINTMENT_TRANSITIONS),
 * never the ones only feedback sets (2, 7, 10) unless stored; on create the starting ones.
 */
export function statusChoices(stored: number | null | undefined): AppointmentStatus[] {
  if (stored === null || stored === undefined) return [...CREATE_STATUSES];
  const next = (APPOINTMENT_TRANSITIONS[stored as AppointmentStatus] ?? []).filter(
    (status) => !FEEDBACK_STATUSES.includes(status),
  );
  return [stored as AppointmentStatus, ...next];
}

/** The colour of a status in the calendar and its chip (background; text white on each). */
export const STATUS_COLORS: Record<AppointmentStatus, string> = {
  1: '#1f4e79', // default: the app's primary
  3: '#0277bd', // open
  15: '#b26a00', // not assigned
  2: '#2e7d32', // took place
  10: '#1b5e20', // first took place
  7: '#616161', // did not take place
  5: '#c62828', // cancelled
  6: '#ad1457', // cancelled by the customer
};

export const statusColor = (status: unknown): string =>
  STATUS_COLORS[status as AppointmentStatus] ?? STATUS_COLORS[1];

// ---------------------------------------------------------------------------------------------
// Calendar

export interface CalendarEvent {
  id: string;
  title: string;
  start: string;
  end: string;
  backgroundColor: string;
  borderColor: string;
  textColor: string;
  editable: boolean;
  classNames: string[];
  extendedProps: { record: Appointment };
}

/** An appointment as a calendar event (UTC wall clock, see wallOf); movable while planned. */
export function calendarEventOf(record: Appointment, canMove = true): CalendarEvent | undefined {
  const times = swissTimesOf(record);
  if (!times) return undefined;
  const color = statusColor(record.status);
  const place = [record.city].filter(Boolean).join(' ');
  return {
    id: String(record.id),
    title: [record.clientName, place].filter(Boolean).join(' · ') || `#${record.id}`,
    start: wallOf(times.date, times.start),
    end: wallOf(times.date, times.end),
    backgroundColor: color,
    borderColor: color,
    textColor: '#ffffff',
    editable: canMove && isPlanned(record.status),
    classNames: [`appointment-status-${record.status ?? 1}`],
    extendedProps: { record },
  };
}

/** The API's range filter of the calendar's visible range (UTC wall dates, end exclusive). */
export function rangeFilter(
  start: Date,
  end: Date,
): { dateStart_gte: string; dateStart_lte: string } {
  const last = new Date(end.getTime() - 1000);
  return { dateStart_gte: wallToIso(start), dateStart_lte: wallToIso(last) };
}

/** FullCalendar's locale code of the app's language (English with Monday and 24 h: en-gb). */
export const CALENDAR_LOCALES: Record<string, string> = {
  de: 'de',
  en: 'en-gb',
  fr: 'fr',
  it: 'it',
};

/** The largest page the API gives (server/http: per_page ≤ 500). */
export const CALENDAR_PAGE = 500;

// ---------------------------------------------------------------------------------------------
// Address

export interface AddressParts {
  street?: string | null;
  number?: string | null;
  zip?: string | null;
  city?: string | null;
}

/** 'Bahnhofstrasse 1, 8001 Zürich' (the parts there are); '' when none. */
export function addressText(address: AddressParts): string {
  const line1 = [address.street, address.number].filter(Boolean).join(' ').trim();
  const line2 = [address.zip, address.city].filter(Boolean).join(' ').trim();
  return [line1, line2].filter(Boolean).join(', ');
}

/** A link to the address on OpenStreetMap (opened by the user; nothing is fetched), or undefined. */
export function mapLink(address: AddressParts): string | undefined {
  const text = addressText(address);
  return text
    ? `https://www.openstreetmap.org/search?query=${encodeURIComponent(text)}`
    : undefined;
}

/** The customer's address as the appointment's fields (customers: addressNumber → number). */
export function addressOfCustomer(customer: {
  street?: string | null;
  addressNumber?: string | null;
  zip?: string | null;
  city?: string | null;
}): Record<keyof AddressParts, string | undefined> {
  return {
    street: customer.street ?? undefined,
    number: customer.addressNumber ?? undefined,
    zip: customer.zip ?? undefined,
    city: customer.city ?? undefined,
  };
}

// ---------------------------------------------------------------------------------------------
// Form

const empty = (value: unknown) => value === undefined || value === null || value === '';

/**
 * What the form sends: the Swiss date and times, and the instants computed from them (the same
 * moment, so the server keeps both in step); no cancellation fields unless cancelled; none of the
 * server's own fields.
 */
export function appointmentBody(values: Record<string, unknown>): Record<string, unknown> {
  const {
    dateStart: _dateStart,
    dateEnd: _dateEnd,
    clientName: _clientName,
    canton: _canton,
    feedbackId: _feedbackId,
    previousAppointmentId: _previous,
    feedbackNotifiedAt: _notified,
    ...rest
  } = values;
  const body: Record<string, unknown> = { ...rest };
  const startTime = shortTime(values.startTime);
  const endTime = shortTime(values.endTime);
  if (startTime) body.startTime = startTime;
  if (endTime) body.endTime = endTime;
  const dateStart = swissToIso(values.date, startTime);
  const dateEnd = swissToIso(values.date, endTime);
  if (dateStart) body.dateStart = dateStart;
  if (dateEnd) body.dateEnd = dateEnd;
  if (!isCancelled(values.status)) {
    if (empty(body.cancelReason)) delete body.cancelReason;
    if (empty(body.cancelStatus)) delete body.cancelStatus;
  }
  return body;
}

// ---------------------------------------------------------------------------------------------
// Feedback

/**
 * Whether the feedback can be given now: a planned appointment without feedback that has begun.
 * (The server also checks who may write it.)
 */
export function canGiveFeedback(
  record: Pick<Appointment, 'status' | 'feedbackId' | 'dateStart'> | undefined,
  now: Date = new Date(),
): boolean {
  if (!record || record.feedbackId || !isPlanned(record.status)) return false;
  const start = Date.parse(record.dateStart);
  return Number.isFinite(start) && start <= now.getTime();
}

// ---------------------------------------------------------------------------------------------
// The feedback's image (POST|GET|DELETE /api/feedbacks/:id/image)

/**
 * What the picker offers: a phone's photo. The server reads the type from the content and takes
 * JPEG, PNG, WebP and HEIC (server/customers/files.ts FEEDBACK_IMAGE_KINDS); HEIC's extensions are
 * listed too, as browsers off Apple's systems often give such a file no type.
 */
export const FEEDBACK_IMAGE_ACCEPT =
  'image/jpeg,image/png,image/webp,image/heic,image/heif,.jpg,.jpeg,.png,.webp,.heic,.heif';

const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/heic', 'image/heif']);
const IMAGE_EXTENSIONS = new Set(['jpg', 'jpeg', 'png', 'webp', 'heic', 'heif']);

/**
 * Whether a picked file looks like a photo the server takes, by its type or its name (some
 * systems give a HEIC no type or a generic one); the server has the last word, by the content.
 */
export function isFeedbackImageFile(file: { name: string; type: string }): boolean {
  if (IMAGE_TYPES.has(file.type.toLowerCase())) return true;
  const extension = /\.([A-Za-z0-9]+)$/.exec(file.name)?.[1]?.toLowerCase();
  return extension !== undefined && IMAGE_EXTENSIONS.has(extension);
}

/** The statuses feedback may set: took place / first took place, or did not take place. */
export const feedbackStatusChoices = (hasTakenPlace: boolean): AppointmentStatus[] =>
  hasTakenPlace ? [2, 10] : [7];

export interface FeedbackValues {
  /** 'yes' / 'no' in the dialog's radio buttons (or a boolean). */
  hasTakenPlace?: boolean | 'yes' | 'no' | null;
  isReachedByPhone?: boolean | null;
  status?: number | null;
  note?: string | null;
  comment?: string | null;
  address?: string | null;
  withReminder?: boolean;
  reminder?: {
    dueDate?: string | null;
    time?: string | null;
    subject?: string | null;
    description?: string | null;
    category?: string | null;
  };
  withFollowUp?: boolean;
  followUp?: {
    date?: string | null;
    startTime?: string | null;
    endTime?: string | null;
    address?: string | null;
    addressNo?: string | null;
    zipcode?: string | null;
    city?: string | null;
    comment?: string | null;
    type?: string | null;
  };
}

const withoutEmpty = (object: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(object).filter(([, value]) => !empty(value)));

/**
 * The body of POST /api/appointments/:id/feedback (camelCase; the API client snake_cases it):
 * `isReachedByPhone` only when it did not take place, the reminder and the follow-up only when
 * their sections are on (the follow-up's date and times become its instants).
 */
export function feedbackBody(values: FeedbackValues): Record<string, unknown> {
  const tookPlace = values.hasTakenPlace === true || values.hasTakenPlace === 'yes';
  const body: Record<string, unknown> = withoutEmpty({
    hasTakenPlace: tookPlace,
    isReachedByPhone: tookPlace ? undefined : values.isReachedByPhone === true,
    status: empty(values.status) ? undefined : Number(values.status),
    note: values.note,
    comment: values.comment,
    address: values.address,
  });
  if (values.withReminder && values.reminder) {
    const reminder = values.reminder;
    body.reminder = withoutEmpty({
      dueDate: reminder.dueDate,
      time: shortTime(reminder.time),
      subject: reminder.subject,
      description: reminder.description,
      category: reminder.category,
    });
  }
  if (values.withFollowUp && values.followUp) {
    const followUp = values.followUp;
    body.followUpAppointment = withoutEmpty({
      address: followUp.address,
      addressNo: followUp.addressNo,
      zipcode: followUp.zipcode,
      city: followUp.city,
      dateStart: swissToIso(followUp.date, followUp.startTime),
      dateEnd: swissToIso(followUp.date, followUp.endTime),
      comment: followUp.comment,
      type: followUp.type,
    });
  }
  return body;
}

/**
 * The server names the follow-up's fields as the API does (`followUpAppointment.dateStart`); the
 * dialog's inputs are the date and the times: each error is shown on the input that set it.
 */
export function feedbackErrorsForForm(errors: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  const renamed: Record<string, string> = {
    'followUpAppointment.dateStart': 'followUp.date',
    'followUpAppointment.dateEnd': 'followUp.endTime',
    'followUpAppointment.address': 'followUp.address',
    'followUpAppointment.addressNo': 'followUp.addressNo',
    'followUpAppointment.zipcode': 'followUp.zipcode',
    'followUpAppointment.city': 'followUp.city',
    'followUpAppointment.comment': 'followUp.comment',
    'followUpAppointment.type': 'followUp.type',
    followUpAppointment: 'followUp.date',
  };
  for (const [path, message] of Object.entries(errors)) out[renamed[path] ?? path] = message;
  return out;
}
