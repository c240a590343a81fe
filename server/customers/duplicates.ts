/**
 * Possible duplicates of a customer being entered (the create form asks before saving): the same
 * name and date of birth, the same email (case-insensitive), the same phone number (compared by
 * its digits, +41/0041 read as 0), or for companies the same organization name. Matches the user
 * may not see are counted but not shown, so no one learns another consultant's customers.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Expression, type SqlBool, sql } from 'kysely';
import { ID_SCHEMA } from '../../src/schema/limits.ts';
import type { Row } from '../db/index.ts';
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

export async function findDuplicates(
  app: FastifyInstance,
  request: FastifyRequest,
  query: DuplicateQuery,
): Promise<{ data: Row[]; hidden: number }> {
  const text = (value: string | undefined) => value?.trim() || undefined;
  const first = text(query.first_name)?.toLowerCase();
  const last = text(query.last_name)?.toLowerCase();
  const email = text(query.email)?.toLowerCase();
  const phone = text(query.phone_number) ? phoneDigits(query.phone_number ?? '') : undefined;
  const organization = text(query.organization)?.toLowerCase();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- dynamic tables are untyped in Kysely.
  const reasons: Array<[DuplicateReason, (eb: any) => Expression<SqlBool>]> = [];
  if (first && last && query.date_of_birth) {
    reasons.push([
      'name_and_birth_date',
      (eb) =>
        eb.and([
          eb(eb.fn('lower', ['last_name']), '=', last),
          eb(eb.fn('lower', ['first_name']), '=', first),
          eb('date_of_birth', '=', query.date_of_birth),
        ]),
    ]);
  }
  if (email) reasons.push(['email', (eb) => eb(eb.fn('lower', ['email']), '=', email)]);
  if (phone && phone.replace(/\D/g, '').length >= 6)
    reasons.push(['phone', (eb) => eb(PHONE_SQL, '=', phone)]);
  if (organization)
    reasons.push(['organization', (eb) => eb(eb.fn('lower', ['organization']), '=', organization)]);
  if (reasons.length === 0) return { data: [], hidden: 0 };

  const scope = scopeFor(app, 'customers', request.principal);
  const rows = await app.db
    .selectFrom('customers')
    .select([
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
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- dynamic tables are untyped in Kysely.
      (eb: any) => eb.case().when(scope(eb)).then(true).else(false).end().as('visible'),
      ...reasons.map(
        ([name, condition]) =>
          // eslint-disable-next-line @typescript-eslint/no-explicit-any -- dynamic tables are untyped in Kysely.
          (eb: any) =>
            eb.case().when(condition(eb)).then(true).else(false).end().as(`match_${name}`),
      ),
    ])
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- dynamic tables are untyped in Kysely.
    .where((eb: any) => eb.or(reasons.map(([, condition]) => condition(eb))))
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- dynamic tables are untyped in Kysely.
    .$if(query.exclude_id !== undefined, (qb: any) => qb.where('id', '<>', query.exclude_id))
    .orderBy('id')
    .limit(50)
    .execute();
  const data: Row[] = [];
  let hidden = 0;
  for (const row of rows) {
    if (!row.visible) {
      hidden++;
      continue;
    }
    const matched = reasons.map(([name]) => name).filter((name) => row[`match_${name}`]);
    const { visible: _visible, ...rest } = row;
    for (const name of reasons.map(([reason]) => reason)) delete rest[`match_${name}`];
    data.push({ ...rest, date_of_birth: dateText(rest.date_of_birth) ?? null, reasons: matched });
  }
  return { data, hidden };
}
