/**
 * Rules for customers and household members that a schema cannot say (docs/ARCHITECTURE.md
 * §Customers). They run on the record as it will be stored (the stored record merged with the
 * body), so a PATCH of one field is checked against the others. Used by the CRUD hooks and by the
 * CSV import, so both refuse the same rows with the same messages.
 *
 * - date of birth: not in the future, not before 1900;
 * - partnership date: not in the future, not before the date of birth;
 * - permit type: only for foreign nationals (a Swiss national has no permit);
 * - zip: four digits (1000–9999) when the country is Switzerland or Liechtenstein, free elsewhere;
 * - a company needs its organization name (first and last name then name its contact person and
 *   may be empty); a person needs first and last name (the schema requires neither, so a company
 *   can be saved with its name alone);
 * - recommendedByCustomerId: an existing customer (checked generically), not the customer itself;
 * - assignedTo: an existing (generic check) and active user.
 * Email and phone formats, enums and lengths are the schema's (pattern/format).
 */
import type { DB } from '../db/index.ts';
import type { ResourceRow } from '../db/resource.ts';
import { addError, type ErrorIssue, type FieldErrors, issue } from '../http/errors.ts';
import { swissToday } from '../../src/schema/swiss-time.ts';

export type { FieldErrors } from '../http/errors.ts';

/** Countries whose postal codes are four digits. */
export const FOUR_DIGIT_ZIP_COUNTRIES = new Set(['CH', 'LI']);
export const SWISS_ZIP = /^[1-9][0-9]{3}$/;
export const EARLIEST_BIRTH_DATE = '1900-01-01';

/** Today in Switzerland as YYYY-MM-DD (dates on the wire are plain dates). */
export { swissToday };

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value : undefined;

/**
 * A date column's value as YYYY-MM-DD: the wire and PostgreSQL give text, PGlite may give a Date
 * at UTC midnight.
 */
export function dateText(value: unknown): string | undefined {
  if (value instanceof Date)
    return Number.isNaN(value.getTime()) ? undefined : value.toISOString().slice(0, 10);
  return text(value);
}

function add(errors: FieldErrors, field: string, found: ErrorIssue): void {
  addError(errors, field, found);
}

/** Rules shared by customers and household members (wire keys). */
export function personErrors(record: ResourceRow, today = swissToday()): FieldErrors {
  const errors: FieldErrors = {};
  const birth = dateText(record.date_of_birth);
  const partnership = dateText(record.partnership_date);
  if (birth && birth > today) add(errors, 'date_of_birth', issue('notInFuture'));
  if (birth && birth < EARLIEST_BIRTH_DATE) add(errors, 'date_of_birth', issue('notBefore1900'));
  if (partnership && partnership > today) add(errors, 'partnership_date', issue('notInFuture'));
  if (partnership && birth && partnership < birth)
    add(errors, 'partnership_date', issue('notBeforeBirth'));
  if (text(record.permit_type) && record.nationality === 'CH')
    add(errors, 'permit_type', issue('noPermitForSwiss'));
  return errors;
}

/** Rules of a customer that need no database (wire keys). */
export function customerErrors(record: ResourceRow, today = swissToday()): FieldErrors {
  const errors = personErrors(record, today);
  const zip = text(record.zip);
  const country = text(record.country);
  if (zip && country && FOUR_DIGIT_ZIP_COUNTRIES.has(country) && !SWISS_ZIP.test(zip.trim()))
    add(errors, 'zip', issue('swissZip', { country }));
  // A company needs its name (its contact person's names are optional); a person both names.
  if (record.is_company === true) {
    if (!text(record.organization)) add(errors, 'organization', issue('companyName'));
  } else {
    if (!text(record.first_name)) add(errors, 'first_name', issue('personName'));
    if (!text(record.last_name)) add(errors, 'last_name', issue('personName'));
  }
  if (
    record.id !== undefined &&
    record.recommended_by_customer_id !== null &&
    record.recommended_by_customer_id !== undefined &&
    Number(record.recommended_by_customer_id) === Number(record.id)
  )
    add(errors, 'recommended_by_customer_id', issue('notItself'));
  return errors;
}

/** Ids among `ids` that belong to users who exist but are disabled. */
export async function inactiveUsers(db: DB, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('users')
    .select('id')
    .where('id', 'in', ids)
    .where('is_active', '=', false)
    .execute();
  return new Set(rows.map((row) => Number(row.id)));
}

/** Every customer rule, database ones included, for the merged record. */
export async function checkCustomer(db: DB, record: ResourceRow): Promise<FieldErrors> {
  const errors = customerErrors(record);
  const assigned = record.assigned_to;
  if (typeof assigned === 'number' && (await inactiveUsers(db, [assigned])).has(assigned))
    add(errors, 'assigned_to', issue('disabledUser'));
  return errors;
}

const SERVER_KEYS = new Set(['id', 'created_at', 'updated_at']);

/** The stored record with the body's fields over it (undefined and server-owned keys keep). */
export function merged(existing: ResourceRow | undefined, body: ResourceRow): ResourceRow {
  const out: ResourceRow = { ...(existing ?? {}) };
  for (const [key, value] of Object.entries(body)) {
    if (value !== undefined && !SERVER_KEYS.has(key)) out[key] = value;
  }
  return out;
}

export const hasErrors = (errors: FieldErrors): boolean => Object.keys(errors).length > 0;
