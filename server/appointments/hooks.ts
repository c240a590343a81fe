/**
 * CRUD hooks of appointments (issue 15; registered by ./index.ts). Visibility is generic: an
 * appointment is its consultant's (`consultantId`, x-owner) and follows its customer (`clientId`,
 * x-owner-via), so a consultant sees their own and their customers' appointments, creates them
 * for customers they see (another customer is "unknown", 422) and is always the consultant of
 * what they create. These hooks add:
 * - validate: the times (./times.ts: end after start, same Swiss day) and the status rules
 *   (./rules.ts), on the locked stored record merged with the body;
 * - prepare: both time pairs in step; on create the address from the customer when the body gives
 *   none (street, address_number → number, zip, city); the canton from the zip and the
 *   coordinates from the zip unless given (./postcodes.ts; on update again when the zip changes
 *   and the coordinates do not); `cancel_status` 'to_rebook' when the status becomes 5 or 6 and
 *   none is given;
 * - the list's own parameters `type` and `region`;
 * - afterWrite: the consultant an appointment is given to (on create or a change of consultant) is
 *   notified, unless they made the change themselves.
 */
import { type SqlBool, sql } from 'kysely';
import dayjs from 'dayjs';
import { APPOINTMENT_TYPE_FILTERS, SWISS_TIME_ZONE } from '../../src/schema/appointments.ts';
import type { ResourceHooks, ScopeCondition, WriteContext } from '../crud/hooks.ts';
import type { DB } from '../db/index.ts';
import type { ResourceRow } from '../db/resource.ts';
import { notifyUser } from '../notifications/notify.ts';
import { lookupPostcode } from './postcodes.ts';
import { becomesCancelled, statusErrors } from './rules.ts';
import { instant, normaliseTimes } from './times.ts';
import { isBlank } from '../db/values.ts';

const ADDRESS = ['street', 'number', 'zip', 'city'] as const;

/** The place of a zip: canton and coordinates (all null when the table does not know it). */
export function placeOf(zip: unknown) {
  const found = lookupPostcode(zip);
  return {
    canton: found?.canton ?? null,
    latitude: found?.latitude ?? null,
    longitude: found?.longitude ?? null,
  };
}

/** The customer's address as an appointment's (street, number, zip, city). */
export async function customerAddress(db: DB, customerId: number) {
  const customer = await db
    .selectFrom('customers')
    .select(['street', 'address_number', 'zip', 'city'])
    .where('id', '=', customerId)
    .executeTakeFirst();
  return customer
    ? {
        street: customer.street,
        number: customer.address_number,
        zip: customer.zip,
        city: customer.city,
      }
    : undefined;
}

async function prepareAppointment(values: ResourceRow, context: WriteContext) {
  const { db, mode, existing } = context;
  const out: ResourceRow = { ...values };
  const { times } = normaliseTimes(values, existing);
  if (times) Object.assign(out, times);

  // Who booked it: the call centre's pass-on of a closure goes to them (server/commissions/).
  if (mode === 'create' && context.principal) out.booked_by = context.principal.id;
  if (mode === 'create' && ADDRESS.every((column) => isBlank(values[column]))) {
    const address = await customerAddress(db, Number(values.client_id));
    if (address) Object.assign(out, address);
  }
  const stored = existing ?? {};
  const zipChanged = mode === 'create' || ('zip' in out && out.zip !== stored.zip);
  if (zipChanged) {
    const place = placeOf(out.zip);
    out.canton = place.canton;
    const coordinatesGiven =
      mode === 'create'
        ? !isBlank(values.latitude) || !isBlank(values.longitude)
        : ('latitude' in values && values.latitude !== stored.latitude) ||
          ('longitude' in values && values.longitude !== stored.longitude);
    if (!coordinatesGiven) {
      out.latitude = place.latitude;
      out.longitude = place.longitude;
    }
  }
  if (mode === 'create' && !('status' in out)) out.status = 1;
  const cancelStatus = 'cancel_status' in out ? out.cancel_status : stored.cancel_status;
  if (becomesCancelled(out, existing) && isBlank(cancelStatus)) out.cancel_status = 'to_rebook';
  return out;
}

/** "12.03.2027 09:30" in Swiss time. */
export const swissWhen = (value: unknown): string => {
  const ms = instant(value);
  return ms === undefined ? '' : dayjs(ms).tz(SWISS_TIME_ZONE).format('DD.MM.YYYY HH:mm');
};

/** "Bahnhofstrasse 1, 8001 Zürich" (the parts there are). */
export const placeText = (row: ResourceRow): string =>
  [
    [row.street, row.number].filter((part) => !isBlank(part)).join(' '),
    [row.zip, row.city].filter((part) => !isBlank(part)).join(' '),
  ]
    .filter((part) => part !== '')
    .join(', ');

/** Tells the consultant an appointment was given to them (in the write's transaction). */
export async function notifyAssigned(db: DB, row: ResourceRow): Promise<void> {
  await notifyUser(db, {
    kind: 'appointment-assigned',
    userId: Number(row.consultant_id),
    values: {
      when: swissWhen(row.date_start),
      customer: String(row.client_name ?? ''),
      place: placeText(row),
    },
    path: `appointments/${String(row.id)}`,
    customerId: Number(row.client_id),
  });
}

/** Where-conditions of the `type` list parameter (now: the request's time). */
export function typeCondition(type: unknown): ScopeCondition | undefined {
  switch (type) {
    case 'past':
      return () => sql<SqlBool>`${sql.ref('appointments.date_end')} < now()`;
    case 'missing_feedbacks':
      // The partial index appointments_feedback_missing_idx (migration 0025).
      return () =>
        sql<SqlBool>`(${sql.ref('appointments.date_end')} < now() and ${sql.ref('appointments.feedback_id')} is null and ${sql.ref('appointments.status')} in (1, 3))`;
    case 'unassigned':
      return () =>
        sql<SqlBool>`(${sql.ref('appointments.consultant_id')} is null and ${sql.ref('appointments.status')} in (1, 3, 15) and ${sql.ref('appointments.date_end')} >= now())`;
    default:
      return undefined;
  }
}

export const appointmentHooks: ResourceHooks = {
  validate(body, { existing, principal }) {
    const { errors } = normaliseTimes(body, existing);
    for (const [field, list] of Object.entries(statusErrors(body, existing, principal?.language)))
      errors[field] = [...(errors[field] ?? []), ...list];
    return Object.keys(errors).length > 0 ? errors : undefined;
  },
  prepare: prepareAppointment,
  listParameters: {
    type: {
      type: 'string',
      enum: [...APPOINTMENT_TYPE_FILTERS],
      description:
        'all; past: ended (date_end before now); missing_feedbacks: ended, still planned (status 1 or 3), no feedback; unassigned: no consultant, planned or not assigned (1, 3, 15), not ended.',
    },
    region: {
      type: 'string',
      enum: ['all', 'mine'],
      description:
        "mine: only appointments in the signed-in user's districts (canton in users.district_ids); all: no condition.",
    },
  },
  listConditions(query, { principal }) {
    const conditions: ScopeCondition[] = [];
    const type = typeCondition(query.type);
    if (type) conditions.push(type);
    if (query.region === 'mine') {
      const id = principal?.id ?? 0;
      conditions.push(
        () =>
          sql<SqlBool>`${sql.ref('appointments.canton')} in (select jsonb_array_elements_text(u.district_ids) from users u where u.id = ${id})`,
      );
    }
    return conditions;
  },
  async afterWrite(row, { db, mode, existing, principal }) {
    if (mode === 'delete' || row.consultant_id === null || row.consultant_id === undefined) return;
    if (mode === 'update' && existing?.consultant_id === row.consultant_id) return;
    if (principal && Number(row.consultant_id) === principal.id) return;
    await notifyAssigned(db, row);
  },
};
