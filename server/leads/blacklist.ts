/**
 * The blacklist (do not contact; DOMAIN.md §3): people matched by customer, e-mail address
 * (without regard to case) or phone number (E.164). A lead closed as 'blacklist' adds its person
 * and closes the person's other open leads; new leads, the lead and customer imports and the call
 * lists (the tasks' "leads to call") refuse or leave out whoever matches.
 */
import { sql } from 'kysely';
import { toE164 } from '../../src/schema/phone.ts';
import type { DB } from '../db/index.ts';

/** What identifies a person on the blacklist; any one of them matching is enough. */
export interface PersonKeys {
  customerId?: number | null;
  email?: string | null;
  /** Any spelling: compared as E.164. */
  phoneNumber?: string | null;
}

/** The field a person matched the blacklist by, with the value that matched. */
export interface BlacklistMatch {
  field: 'customerId' | 'email' | 'phoneNumber';
  value: string;
}

const emailOf = (value: string | null | undefined) => value?.trim().toLowerCase() || undefined;
const phoneOf = (value: string | null | undefined) =>
  (value && (toE164(value) ?? value.trim())) || undefined;

/**
 * For each person, the first way it matches the blacklist (customer, then e-mail, then phone), by
 * index in `persons`; one query for all of them (the imports check a whole file at once).
 */
export async function blacklistMatches(
  db: DB,
  persons: PersonKeys[],
): Promise<Map<number, BlacklistMatch>> {
  const customers = [
    ...new Set(persons.map((p) => p.customerId).filter((id): id is number => !!id)),
  ];
  const emails = [...new Set(persons.map((p) => emailOf(p.email)).filter((e) => e !== undefined))];
  const phones = [
    ...new Set(persons.map((p) => phoneOf(p.phoneNumber)).filter((e) => e !== undefined)),
  ];
  const found = new Map<number, BlacklistMatch>();
  if (customers.length + emails.length + phones.length === 0) return found;
  const rows = await db
    .selectFrom('blacklist_entries')
    .select(['customer_id', sql<string | null>`lower(email)`.as('email'), 'phone_number'])
    .where((eb) =>
      eb.or([
        ...(customers.length > 0 ? [eb('customer_id', 'in', customers)] : []),
        ...(emails.length > 0 ? [eb(sql`lower(email)`, 'in', emails)] : []),
        ...(phones.length > 0 ? [eb('phone_number', 'in', phones)] : []),
      ]),
    )
    .execute();
  const byCustomer = new Set(rows.map((row) => row.customer_id).filter((id) => id !== null));
  const byEmail = new Set(rows.map((row) => row.email).filter((e) => e !== null));
  const byPhone = new Set(rows.map((row) => row.phone_number).filter((p) => p !== null));
  persons.forEach((person, index) => {
    const email = emailOf(person.email);
    const phone = phoneOf(person.phoneNumber);
    if (person.customerId && byCustomer.has(person.customerId)) {
      found.set(index, { field: 'customerId', value: String(person.customerId) });
    } else if (email && byEmail.has(email)) {
      found.set(index, { field: 'email', value: email });
    } else if (phone && byPhone.has(phone)) {
      found.set(index, { field: 'phoneNumber', value: phone });
    }
  });
  return found;
}

/** How one person matches the blacklist, if it does. */
export async function blacklistMatch(
  db: DB,
  person: PersonKeys,
): Promise<BlacklistMatch | undefined> {
  return (await blacklistMatches(db, [person])).get(0);
}
