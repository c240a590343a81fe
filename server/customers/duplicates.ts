/**
 * Possible duplicates of a customer: the same name and date of birth, the same email
 * (case-insensitive), the same phone number (compared by its digits, +41/0041 read as 0), or for
 * companies the same organization name. One rule (`duplicateKeys` and `reasonsBetween`) serves the
 * create form's check (`findDuplicates`, one customer) and the CSV import (`findExistingDuplicates`,
 * a batch of rows in one query; `fileDuplicates`, rows of the same file).
 *
 * What the create form's answer reveals (issue 10: no existence oracle):
 * - only the brokerage's staff with customer access may ask (the back office, which sees every
 *   customer, and consultants); EMPLOYEE and PARTNER (no customer access) and external users (a
 *   sub-broker's accounts: the check serves the staff's create form, and they must learn nothing
 *   about customers outside their sub-broker) get 403;
 * - matches the user may see are listed with why they matched;
 * - of matches the user may not see, a consultant learns only `hidden: true` — "a possible
 *   duplicate exists, ask the back office" — never how many, their ids or names, so one match and
 *   five answer the same.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import { ID_SCHEMA } from '../../src/schema/limits.ts';
import { scopeExpression } from '../access/scope.ts';
import { visibilityModeOf } from '../access/visibility.ts';
import type { DB, Tables } from '../db/index.ts';
import { forbidden } from '../http/errors.ts';
import { scopeFor } from './access.ts';
import { dateText } from './rules.ts';

export interface DuplicateQuery {
  first_name?: string;
  last_name?: string;
  date_of_birth?: string;
  email?: string;
  phone_number?: string;
  organization?: string;
  /** The customer being edited (not its own duplicate). */
  exclude_id?: number;
}

export type DuplicateReason = 'name_and_birth_date' | 'email' | 'phone' | 'organization';

/** The reasons in the order they are reported. */
const REASONS: DuplicateReason[] = ['name_and_birth_date', 'email', 'phone', 'organization'];

/** A visible match: some of its fields, and why it matched. */
export interface Duplicate {
  id: number;
  is_company: boolean | null;
  organization: string | null;
  first_name: string | null;
  last_name: string | null;
  date_of_birth: string | null;
  email: string | null;
  phone_number: string | null;
  zip: string | null;
  city: string | null;
  assigned_to: number | null;
  created_at: Date;
  reasons: DuplicateReason[];
}

export interface DuplicateAnswer {
  data: Duplicate[];
  /** A possible duplicate exists that the user may not see (ask the back office); no count. */
  hidden: boolean;
}

/** Digits of a phone number as compared: '+41 79 123 45 67' and '079 123 45 67' are the same. */
export function phoneDigits(phone: string): string {
  return phone.replace(/[^0-9+]/g, '').replace(/^(\+|00)41/, '0');
}

/** The same normalisation as phoneDigits, in SQL (the expression of customers_phone_digits_idx). */
const PHONE_SQL = sql<string>`regexp_replace(regexp_replace(phone_number, '[^0-9+]', '', 'g'), '^(\\+|00)41', '0')`;

export const duplicateQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    first_name: { type: 'string', maxLength: 100 },
    last_name: { type: 'string', maxLength: 100 },
    date_of_birth: { type: 'string', format: 'date' },
    email: { type: 'string', maxLength: 254 },
    phone_number: { type: 'string', maxLength: 30 },
    organization: { type: 'string', maxLength: 200 },
    exclude_id: ID_SCHEMA,
  },
} as const;

/** What a customer is compared by, per reason (a record, a query or an import row's body). */
export interface DuplicateKeys {
  name_and_birth_date?: { first: string; last: string; birth: string };
  email?: string;
  phone?: string;
  organization?: string;
}

const lowerText = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value.trim().toLowerCase() : undefined;

/** The comparison keys of a customer (wire names); a reason without all its values has none. */
export function duplicateKeys(values: {
  first_name?: unknown;
  last_name?: unknown;
  date_of_birth?: unknown;
  email?: unknown;
  phone_number?: unknown;
  organization?: unknown;
}): DuplicateKeys {
  const keys: DuplicateKeys = {};
  const first = lowerText(values.first_name);
  const last = lowerText(values.last_name);
  const birth = dateText(values.date_of_birth);
  if (first && last && birth) keys.name_and_birth_date = { first, last, birth };
  const email = lowerText(values.email);
  if (email) keys.email = email;
  const phone = typeof values.phone_number === 'string' ? phoneDigits(values.phone_number) : '';
  // Too few digits to say anything (an extension, a typo): no match by phone.
  if (phone.replace(/\D/g, '').length >= 6) keys.phone = phone;
  const organization = lowerText(values.organization);
  if (organization) keys.organization = organization;
  return keys;
}

/** Why two customers look like the same one (empty: they do not). */
export function reasonsBetween(a: DuplicateKeys, b: DuplicateKeys): DuplicateReason[] {
  return REASONS.filter((reason) => {
    if (reason === 'name_and_birth_date') {
      const [x, y] = [a.name_and_birth_date, b.name_and_birth_date];
      return Boolean(x && y && x.first === y.first && x.last === y.last && x.birth === y.birth);
    }
    const [x, y] = [a[reason], b[reason]];
    return x !== undefined && x === y;
  });
}

/** One key per reason, as text (to find equal keys with a map). */
function keyTexts(keys: DuplicateKeys): Array<[DuplicateReason, string]> {
  const out: Array<[DuplicateReason, string]> = [];
  for (const reason of REASONS) {
    const key = keys[reason];
    if (key === undefined) continue;
    out.push([
      reason,
      typeof key === 'string' ? key : `${key.first}\u0000${key.last}\u0000${key.birth}`,
    ]);
  }
  return out;
}

type CustomerBuilder = ExpressionBuilder<Tables, 'customers'>;

/**
 * Customers sharing any key with any of the given key sets — one condition for a whole batch,
 * each part on the expression of its index (customers_*_idx in migration 0010).
 */
function sharingAnyKey(eb: CustomerBuilder, sets: DuplicateKeys[]): Expression<SqlBool> {
  const unique = <T>(values: Array<T | undefined>) => [
    ...new Set(values.filter((value): value is T => value !== undefined)),
  ];
  const emails = unique(sets.map((keys) => keys.email));
  const phones = unique(sets.map((keys) => keys.phone));
  const organizations = unique(sets.map((keys) => keys.organization));
  const people = [
    ...new Map(
      sets
        .map((keys) => keys.name_and_birth_date)
        .filter((person) => person !== undefined)
        .map((person) => [`${person.last}\u0000${person.first}\u0000${person.birth}`, person]),
    ).values(),
  ];
  const parts: Array<Expression<SqlBool>> = [];
  if (people.length > 0) {
    parts.push(
      sql<SqlBool>`(lower(last_name), lower(first_name), date_of_birth) in (${sql.join(
        people.map((person) => sql`(${person.last}, ${person.first}, ${person.birth}::date)`),
      )})`,
    );
  }
  if (emails.length > 0) parts.push(eb(eb.fn('lower', ['email']), 'in', emails));
  if (phones.length > 0) parts.push(eb(PHONE_SQL, 'in', phones));
  if (organizations.length > 0)
    parts.push(eb(eb.fn('lower', ['organization']), 'in', organizations));
  return parts.length > 0 ? eb.or(parts) : sql<SqlBool>`false`;
}

const MATCH_COLUMNS = [
  'id',
  'is_company',
  'organization',
  'first_name',
  'last_name',
  'date_of_birth',
  'email',
  'phone_number',
  'zip',
  'city',
  'assigned_to',
  'created_at',
] as const;

type MatchRow = Omit<Duplicate, 'reasons'>;

/** Existing customers sharing a key with any of `sets`, in id order (one query). */
async function candidatesOf(
  db: DB,
  sets: DuplicateKeys[],
  where: (eb: CustomerBuilder) => Expression<SqlBool>,
  limit?: number,
): Promise<MatchRow[]> {
  const rows = await db
    .selectFrom('customers')
    .select([...MATCH_COLUMNS])
    .where((eb) => sharingAnyKey(eb, sets))
    .where(where)
    .orderBy('id')
    .$if(limit !== undefined, (qb) => qb.limit(limit ?? 0))
    .execute();
  return rows.map((row) => ({
    ...row,
    id: Number(row.id),
    date_of_birth: dateText(row.date_of_birth) ?? null,
  }));
}

/** Matches of one key set among candidates, each with its reasons. */
function matchesOf(keys: DuplicateKeys, candidates: MatchRow[]): Duplicate[] {
  const out: Duplicate[] = [];
  for (const candidate of candidates) {
    const reasons = reasonsBetween(keys, duplicateKeys(candidate));
    if (reasons.length > 0) out.push({ ...candidate, reasons });
  }
  return out;
}

export async function findDuplicates(
  app: FastifyInstance,
  request: FastifyRequest,
  query: DuplicateQuery,
): Promise<DuplicateAnswer> {
  const principal = request.principal;
  const mode = visibilityModeOf(principal);
  if (mode !== 'all' && mode !== 'owner') {
    throw forbidden('duplicatesCheckForbidden');
  }
  const keys = duplicateKeys(query);
  if (keyTexts(keys).length === 0) return { data: [], hidden: false };

  const scope = scopeExpression(scopeFor(app, 'customers', principal));
  const notExcluded = (eb: CustomerBuilder) =>
    query.exclude_id === undefined ? sql<SqlBool>`true` : eb('id', '<>', query.exclude_id);
  const rows = await candidatesOf(app.db, [keys], (eb) => eb.and([notExcluded(eb), scope]), 50);

  // Only a consultant (own customers) can miss a match; it is told no more than that one exists.
  let hidden = false;
  if (mode === 'owner') {
    const invisible = await app.db
      .selectFrom('customers')
      .select('id')
      .where((eb) => sharingAnyKey(eb, [keys]))
      .where(notExcluded)
      .where(sql<boolean>`not coalesce(${scope}, false)`)
      .limit(1)
      .executeTakeFirst();
    hidden = invisible !== undefined;
  }
  return { data: matchesOf(keys, rows), hidden };
}

/** At most this many existing customers are reported per row of an import. */
const MATCHES_PER_ROW = 10;

/**
 * Existing customers each of a batch of rows looks like (the import's check), with the same rule
 * and reasons as the create form: one query for the whole batch, matched to rows in memory.
 */
export async function findExistingDuplicates(
  db: DB,
  sets: DuplicateKeys[],
  scope: Expression<SqlBool>,
): Promise<Duplicate[][]> {
  if (sets.every((keys) => keyTexts(keys).length === 0)) return sets.map(() => []);
  const candidates = await candidatesOf(db, sets, () => scope);
  return sets.map((keys) => matchesOf(keys, candidates).slice(0, MATCHES_PER_ROW));
}

/** An earlier row of the same file that a row looks like. */
export interface FileDuplicate {
  /** Index of the earlier row in the list given. */
  index: number;
  reasons: DuplicateReason[];
}

/**
 * Rows of one file that look like an earlier row of it (two rows for the same person): for each
 * row, the first earlier row sharing each key, with every reason the two share.
 */
export function fileDuplicates(sets: DuplicateKeys[]): FileDuplicate[][] {
  const firstWith = new Map<string, number>();
  return sets.map((keys, index) => {
    const earlier = new Set<number>();
    for (const [reason, text] of keyTexts(keys)) {
      const id = `${reason}\u0000${text}`;
      const first = firstWith.get(id);
      if (first === undefined) firstWith.set(id, index);
      else earlier.add(first);
    }
    return [...earlier]
      .sort((a, b) => a - b)
      .map((other) => ({ index: other, reasons: reasonsBetween(keys, sets[other]) }));
  });
}
