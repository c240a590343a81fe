/**
 * The household coverage view (issue 14): `GET /api/customers/:id/coverage` — the customer and its
 * household members against the product groups and products of ./coverage-rules.ts; each cell the
 * person's covering closures (active or applied for, not ended) with insurer, product, premium per
 * month, dates and the next termination deadline; the gaps of the rules; the household's monthly
 * total. One statement: the customer inside the user's scope (404 otherwise, like its own
 * `GET /api/customers/:id`), its members and its covering contracts as JSON arrays beside it.
 * Contracts are visible exactly when their customer is (x-owner-via), so the customer's scope is
 * the whole check.
 */
import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import { scopeExpression } from '../access/scope.ts';
import { scopeFor } from '../customers/access.ts';
import { type Language, LANGUAGES, languageOf, lookup } from '../customers/labels.ts';
import { notFound } from '../http/errors.ts';
import { type IdParams, idParams } from '../http/params.ts';
import { BROKER_MANDATE_PRODUCT_ID } from './catalogue.ts';
import {
  ageOn,
  columnsOf,
  COVERAGE_COLUMNS,
  COVERING_STATUSES,
  type CoveredPerson,
  coverageGaps,
  nextDeadline,
  OTHER_COLUMN,
} from './coverage-rules.ts';
import { swissToday } from '../../src/schema/swiss-time.ts';

dayjs.extend(utc);
dayjs.extend(timezone);

/** Today in Switzerland (YYYY-MM-DD): whether a contract has ended, ages and deadlines. */
export { swissToday };

const nullable = (type: string) => ({ type: [type, 'null'] });

const contractSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    product_id: { type: 'integer' },
    product: { type: 'string' },
    sub_product: nullable('string'),
    company_id: nullable('integer'),
    company: nullable('string'),
    contract_number: nullable('string'),
    status: nullable('string'),
    premium_month: { type: 'number' },
    start_date: nullable('string'),
    end_date: nullable('string'),
    termination_deadline: nullable('string'),
  },
};

const coverageSchema = {
  type: 'object',
  properties: {
    data: {
      type: 'object',
      properties: {
        customer_id: { type: 'integer' },
        today: { type: 'string' },
        is_company: { type: 'boolean' },
        broker_mandate: { type: 'boolean' },
        premium_month: { type: 'number' },
        columns: { type: 'array', items: { type: 'string' } },
        people: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              key: { type: 'string' },
              kind: { type: 'string', enum: ['customer', 'member'] },
              id: { type: 'integer' },
              name: { type: 'string' },
              relation: nullable('string'),
              date_of_birth: nullable('string'),
              age: nullable('integer'),
              in_household: { type: 'boolean' },
              premium_month: { type: 'number' },
              cells: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: {
                    column: { type: 'string' },
                    contracts: { type: 'array', items: contractSchema },
                  },
                },
              },
            },
          },
        },
        gaps: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              rule: { type: 'string' },
              column: { type: 'string' },
              person: { type: 'string' },
            },
          },
        },
      },
    },
  },
};

interface ContractRow {
  id: number;
  household_member_id: number | null;
  product_id: number;
  product_key: string;
  sub_product: string | null;
  company_id: number | null;
  company: string | null;
  contract_number: string | null;
  status: string | null;
  annual_premium: number | string | null;
  start_date: string | null;
  end_date: string | null;
}

export type CoverageContract = Omit<
  ContractRow,
  'household_member_id' | 'product_key' | 'annual_premium'
> & {
  product: string;
  premium_month: number;
  termination_deadline: string | null;
};

const cents = (chf: number | string | null | undefined) => Math.round(Number(chf ?? 0) * 100);

export async function coverageRoutes(app: FastifyInstance): Promise<void> {
  app.get<{ Params: IdParams; Querystring: { language?: Language } }>(
    '/api/customers/:id/coverage',
    {
      config: { access: 'authenticated', external: true },
      schema: {
        tags: ['contracts'],
        summary:
          "The household coverage view: the customer and its household members against the product groups, each cell the person's active closures (insurer, product, CHF a month, dates, next termination deadline), the gaps and the household's monthly total. 404 for a customer the user does not see.",
        params: idParams,
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            language: {
              type: 'string',
              enum: [...LANGUAGES],
              description:
                "Names of products, sub-products and insurers in this language (default: the user's).",
            },
          },
        },
        response: { 200: coverageSchema },
      },
    },
    async (request) => {
      const language: Language = request.query.language ?? languageOf(request.principal?.language);
      const today = swissToday();
      const name = (table: 'companies' | 'sub_products') =>
        sql<string>`coalesce(nullif(${sql.ref(`${table}.name_${language}`)}, ''), ${sql.ref(`${table}.name_de`)})`;
      const row = await app.db
        .selectFrom('customers')
        .select((eb) => [
          'customers.id',
          'customers.first_name',
          'customers.last_name',
          'customers.organization',
          'customers.is_company',
          'customers.date_of_birth',
          jsonArrayFrom(
            eb
              .selectFrom('household_members')
              .select([
                'id',
                'first_name',
                'last_name',
                'relation',
                'date_of_birth',
                'same_household',
              ])
              .whereRef('household_members.customer_id', '=', 'customers.id')
              .orderBy('household_members.id'),
          ).as('members'),
          jsonArrayFrom(
            eb
              .selectFrom('contracts')
              .innerJoin('products', 'products.id', 'contracts.product_id')
              .leftJoin('companies', 'companies.id', 'contracts.company_id')
              .leftJoin('sub_products', (join) =>
                join.on(
                  sql<number>`(contracts.insurance->>'sub_product_id')::integer`,
                  '=',
                  sql.ref('sub_products.id'),
                ),
              )
              .select([
                'contracts.id',
                'contracts.household_member_id',
                'contracts.product_id',
                'products.key as product_key',
                name('sub_products').as('sub_product'),
                'contracts.company_id',
                name('companies').as('company'),
                'contracts.contract_number',
                'contracts.status',
                'contracts.annual_premium',
                'contracts.start_date',
                'contracts.end_date',
              ])
              .whereRef('contracts.customer_id', '=', 'customers.id')
              .where('contracts.contract_type', '=', 'closure')
              .where('contracts.status', 'in', [...COVERING_STATUSES])
              .where((w) =>
                w.or([w('contracts.end_date', 'is', null), w('contracts.end_date', '>=', today)]),
              )
              .orderBy('contracts.start_date')
              .orderBy('contracts.id'),
          ).as('contracts'),
        ])
        .where('customers.id', '=', request.params.id)
        .where(scopeExpression(scopeFor(app, 'customers', request.principal)))
        .executeTakeFirst();
      if (!row) throw notFound('Customer');

      const members = row.members as Array<{
        id: number;
        first_name: string;
        last_name: string;
        relation: string | null;
        date_of_birth: string | null;
        same_household: boolean | null;
      }>;
      const contracts = row.contracts as unknown as ContractRow[];
      const isCompany = Boolean(row.is_company);
      const customerName = isCompany
        ? (row.organization ?? `${row.first_name} ${row.last_name}`)
        : `${row.first_name} ${row.last_name}`;
      const birth = (value: unknown) =>
        value === null || value === undefined
          ? null
          : value instanceof Date
            ? dayjs(value).format('YYYY-MM-DD')
            : String(value).slice(0, 10);
      const people = [
        {
          key: `customer-${row.id}`,
          kind: 'customer' as const,
          id: Number(row.id),
          name: customerName,
          relation: null,
          date_of_birth: birth(row.date_of_birth),
          in_household: true,
        },
        ...members.map((member) => ({
          key: `member-${member.id}`,
          kind: 'member' as const,
          id: Number(member.id),
          name: `${member.first_name} ${member.last_name}`,
          relation: member.relation,
          date_of_birth: birth(member.date_of_birth),
          // Family living elsewhere (grown-up children, parents) is shown but not checked for gaps.
          in_household: member.same_household !== false,
        })),
      ];
      const personOf = (contract: ContractRow) =>
        contract.household_member_id === null
          ? people[0].key
          : `member-${contract.household_member_id}`;

      const cells = new Map<string, Map<string, CoverageContract[]>>();
      const used = new Set<string>();
      let brokerMandate = false;
      for (const contract of contracts) {
        if (contract.product_id === BROKER_MANDATE_PRODUCT_ID) {
          brokerMandate = true;
          continue;
        }
        const person = personOf(contract);
        const byColumn = cells.get(person) ?? new Map<string, CoverageContract[]>();
        cells.set(person, byColumn);
        for (const column of columnsOf(contract.product_id)) {
          used.add(column.key);
          const list = byColumn.get(column.key) ?? [];
          list.push({
            id: contract.id,
            product_id: contract.product_id,
            product: lookup(language, `products.${contract.product_key}`) ?? contract.product_key,
            sub_product: contract.sub_product,
            company_id: contract.company_id,
            company: contract.company,
            contract_number: contract.contract_number,
            status: contract.status,
            premium_month: Math.round(cents(contract.annual_premium) / 12) / 100,
            start_date: contract.start_date,
            end_date: contract.end_date,
            termination_deadline: nextDeadline(column.deadline, today, contract.end_date),
          });
          byColumn.set(column.key, list);
        }
      }
      const columns = [...COVERAGE_COLUMNS, OTHER_COLUMN]
        .filter((column) => !column.optional || used.has(column.key))
        .map((column) => column.key);

      // Money in centimes: each contract's monthly premium once per person (a combined product sits
      // in two columns but is paid once).
      const monthlyOf = (person: string) =>
        contracts
          .filter(
            (contract) =>
              contract.product_id !== BROKER_MANDATE_PRODUCT_ID && personOf(contract) === person,
          )
          .reduce((sum, contract) => sum + Math.round(cents(contract.annual_premium) / 12), 0);
      const answered = people.map((person) => ({
        ...person,
        age: ageOn(person.date_of_birth, today),
        premium_month: monthlyOf(person.key) / 100,
        cells: columns.map((column) => ({
          column,
          contracts: cells.get(person.key)?.get(column) ?? [],
        })),
      }));
      const covered: CoveredPerson[] = answered
        .filter((person) => person.in_household)
        .map((person) => ({
          key: person.key,
          age: person.age,
          columns: new Set(
            person.cells.filter((cell) => cell.contracts.length).map((c) => c.column),
          ),
        }));
      return {
        data: {
          customer_id: Number(row.id),
          today,
          is_company: isCompany,
          broker_mandate: brokerMandate,
          premium_month:
            answered.reduce((sum, person) => sum + Math.round(person.premium_month * 100), 0) / 100,
          columns,
          people: answered,
          // A company's cover is business cover: the private household's rules do not apply.
          gaps: isCompany ? [] : coverageGaps(covered),
        },
      };
    },
  );
}
