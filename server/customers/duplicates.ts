/**
 * Possible duplicates of a customer being entered (the create form asks before saving): the same
 * name and date of birth, the same email (case-insensitive), the same phone number (compared by
 * its digits, +41/0041 read as 0), or for companies the same organization name.
 *
 * What the answer reveals (issue 10: no existence oracle):
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
import type { Tables } from '../db/index.ts';
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

/** A visible match: some of its fields, and why it matched. */
export interface Duplicate {
  id: number;
  is_company: boolean | null;
  organization: string | null;
  first_name: string;
  last_name: string;
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

type CustomerBuilder = ExpressionBuilder<Tables, 'customers'>;
type Condition = (eb: CustomerBuilder) => Expression<SqlBool>;

/** The match conditions the query asks for, by reason. */
function matchConditions(query: DuplicateQuery): Array<[DuplicateReason, Condition]> {
  const text = (value: string | undefined) => value?.trim() || undefined;
  const first = text(query.first_name)?.toLowerCase();
  const last = text(query.last_name)?.toLowerCase();
  const birth = query.date_of_birth;
  const email = text(query.email)?.toLowerCase();
  const phone = text(query.phone_number) ? phoneDigits(query.phone_number ?? '') : undefined;
  const organization = text(query.organization)?.toLowerCase();
  const conditions: Array<[DuplicateReason, Condition]> = [];
  if (first && last && birth) {
    conditions.push([
      'name_and_birth_date',
      (eb) =>
        eb.and([
          eb(eb.fn('lower', ['last_name']), '=', last),
          eb(eb.fn('lower', ['first_name']), '=', first),
          eb('date_of_birth', '=', birth),
        ]),
    ]);
  }
  if (email) conditions.push(['email', (eb) => eb(eb.fn('lower', ['email']), '=', email)]);
  if (phone && phone.replace(/\D/g, '').length >= 6)
    conditions.push(['phone', (eb) => eb(PHONE_SQL, '=', phone)]);
  if (organization)
    conditions.push([
      'organization',
      (eb) => eb(eb.fn('lower', ['organization']), '=', organization),
    ]);
  return conditions;
}

export async function findDuplicates(
  app: FastifyInstance,
  request: FastifyRequest,
  query: DuplicateQuery,
): Promise<DuplicateAnswer> {
  const principal = request.principal;
  const mode = visibilityModeOf(principal);
  if (mode !== 'all' && mode !== 'owner') {
    throw forbidden('Only the back office and consultants check for duplicate customers.');
  }
  const conditions = matchConditions(query);
  if (conditions.length === 0) return { data: [], hidden: false };

  const scope = scopeExpression(scopeFor(app, 'customers', principal));
  const matching = (eb: CustomerBuilder) => eb.or(conditions.map(([, condition]) => condition(eb)));
  const candidates = app.db
    .selectFrom('customers')
    .where(matching)
    .$if(query.exclude_id !== undefined, (qb) => qb.where('id', '<>', query.exclude_id ?? 0));

  const rows = await candidates
    .select((eb) => [
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
      sql<DuplicateReason[]>`array_remove(array[${sql.join(
        conditions.map(([reason, condition]) => sql`case when ${condition(eb)} then ${reason} end`),
      )}]::text[], null)`.as('reasons'),
    ])
    .where(scope)
    .orderBy('id')
    .limit(50)
    .execute();

  // Only a consultant (own customers) can miss a match; it is told no more than that one exists.
  let hidden = false;
  if (mode === 'owner') {
    const invisible = await candidates
      .select('id')
      .where(sql<boolean>`not coalesce(${scope}, false)`)
      .limit(1)
      .executeTakeFirst();
    hidden = invisible !== undefined;
  }
  return {
    data: rows.map((row) => ({
      ...row,
      id: Number(row.id),
      date_of_birth: dateText(row.date_of_birth) ?? null,
    })),
    hidden,
  };
}
