/**
 * Customer record operations beyond the generic CRUD:
 *   GET  /api/customers/duplicates?first_name&last_name&date_of_birth&email&phone_number&organization&exclude_id
 *   POST /api/customers/:id/merge            { duplicate_id, fill_empty?, version?, duplicate_version? }
 *                                            back office
 *   POST /api/household-members/:id/convert  a customer of its own from a household member
 * A record the user may not see answers 404, as through `GET /api/<resource>/:id`. Both write on
 * locked rows; the versions they are based on (body or If-Match, for the record of the path) are
 * checked like the generic routes check them: 409 `{ message, current }` when one changed.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { sql } from 'kysely';
import { ID_SCHEMA } from '../../src/schema/limits.ts';
import { enforceOwnership } from '../access/visibility.ts';
import {
  assertExpectedVersion,
  conflictSchema,
  expectedVersion,
  VersionConflict,
} from '../crud/write.ts';
import { type ResourceRow, resourceDb } from '../db/resource.ts';
import { ApiError, issue } from '../http/errors.ts';
import { type IdParams, idParams } from '../http/params.ts';
import { responseSchema } from '../http/validation.ts';
import { MERGE_ROLES, modelOf, recordAnswer, requireRole, requireVisible } from './access.ts';
import { type DuplicateQuery, duplicateQuerySchema, findDuplicates } from './duplicates.ts';
import { mergeCustomers } from './merge.ts';
import { checkCustomer, hasErrors } from './rules.ts';
import { writeTransaction } from '../audit/context.ts';

/** Fields of a household member that a customer made from it takes over. */
const MEMBER_FIELDS = [
  'first_name',
  'last_name',
  'gender',
  'marital_status',
  'partnership_date',
  'date_of_birth',
  'nationality',
  'permit_type',
] as const;
/** Fields of the household's customer that the new customer shares. */
const HOUSEHOLD_FIELDS = [
  'street',
  'address_number',
  'zip',
  'city',
  'country',
  'correspondence_languages',
] as const;

interface MergeBody {
  duplicate_id: number;
  fill_empty?: boolean;
  version?: number;
  duplicate_version?: number;
}

/** A write based on an old version answers 409 with the record that changed. */
function answerConflict(reply: FastifyReply, error: unknown) {
  if (error instanceof VersionConflict) return reply.status(409).send(error.answer);
  throw error;
}

export async function recordRoutes(app: FastifyInstance): Promise<void> {
  app.get<{ Querystring: DuplicateQuery }>(
    '/api/customers/duplicates',
    {
      config: { access: 'authenticated', external: true },
      schema: {
        tags: ['customers'],
        summary:
          'Possible duplicates of a customer being entered (same name and birth date, email, phone or organization); for matches the user may not see, only `hidden: true` (ask the back office); 403 without customer access.',
        querystring: duplicateQuerySchema,
      },
    },
    async (request) => findDuplicates(app, request, request.query),
  );

  const customerRecord = responseSchema(modelOf(app, 'customers').schema);
  app.post<{ Params: IdParams; Body: MergeBody }>(
    '/api/customers/:id/merge',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['customers'],
        summary:
          'Merge the duplicate into this customer: everything hanging off the duplicate moves, empty fields are filled, the duplicate is deleted, an audit record is kept (ADMIN, BACKOFFICE).',
        params: idParams,
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['duplicate_id'],
          properties: {
            duplicate_id: ID_SCHEMA,
            fill_empty: { type: 'boolean' },
            version: { ...ID_SCHEMA, description: 'The version of this customer read.' },
            duplicate_version: { ...ID_SCHEMA, description: 'The version of the duplicate read.' },
          },
        },
        response: {
          200: {
            type: 'object',
            properties: {
              data: customerRecord,
              moved: { type: 'object', additionalProperties: { type: 'integer' } },
              filled: { type: 'array', items: { type: 'string' } },
            },
          },
          409: conflictSchema(customerRecord),
        },
      },
    },
    async (request, reply) => {
      requireRole(request, MERGE_ROLES, 'merge customers');
      const body = request.body;
      const keep = expectedVersion({ version: body.version }, request.headers['if-match']);
      const duplicate = expectedVersion({ version: body.duplicate_version }, undefined);
      try {
        return await mergeCustomers(
          app,
          request,
          request.params.id,
          body.duplicate_id,
          body.fill_empty ?? true,
          { keep, duplicate },
        );
      } catch (error) {
        return answerConflict(reply, error);
      }
    },
  );

  app.post<{ Params: IdParams }>(
    '/api/household-members/:id/convert',
    {
      config: { access: 'authenticated', external: true },
      schema: {
        tags: ['household-members'],
        summary:
          "Make a household member a customer of its own: names, birth and civil data from the member, address (same household) and languages from the household's customer, who is noted as recommender; the member is linked to the new customer.",
        params: idParams,
        response: {
          201: recordAnswer(app, 'customers'),
          409: conflictSchema(responseSchema(modelOf(app, 'household-members').schema)),
        },
      },
    },
    async (request, reply) => {
      const customers = modelOf(app, 'customers');
      const expected = expectedVersion(undefined, request.headers['if-match']);
      const convert = () =>
        writeTransaction(app.db, request, async (trx) => {
          // Locked first, so two conversions of one member cannot both pass the check below.
          await trx
            .selectFrom('household_members')
            .select('id')
            .where('id', '=', request.params.id)
            .forNoKeyUpdate()
            .execute();
          const member = await requireVisible(
            app,
            request,
            'household-members',
            request.params.id,
            trx,
          );
          assertExpectedVersion(modelOf(app, 'household-members'), member, expected);
          if (member.linked_customer_id) {
            throw new ApiError(
              409,
              issue('memberIsCustomer', { id: Number(member.linked_customer_id) }),
            );
          }
          const household = await trx
            .selectFrom('customers')
            .selectAll()
            .where('id', '=', Number(member.customer_id))
            .executeTakeFirstOrThrow();
          const values: ResourceRow = {
            is_company: false,
            lead_source: household.lead_source,
            recommended_by_customer_id: household.id,
            assigned_to: household.assigned_to,
            sub_broker_id: household.sub_broker_id,
          };
          for (const field of MEMBER_FIELDS) values[field] = member[field] ?? null;
          if (member.same_household !== false) {
            for (const field of HOUSEHOLD_FIELDS) values[field] = household[field] ?? null;
          }
          const errors = await checkCustomer(trx, values);
          if (hasErrors(errors)) {
            throw new ApiError(422, 'memberInvalid', errors);
          }
          if (Array.isArray(values.correspondence_languages))
            values.correspondence_languages = JSON.stringify(values.correspondence_languages);
          const owned = await enforceOwnership(values, {
            db: trx,
            model: customers,
            models: app.models,
            principal: request.principal,
            mode: 'create',
          });
          // The values passed the generic ownership rule: a resource row from here on.
          const customer = await resourceDb(trx)
            .insertInto('customers')
            .values(owned)
            .returningAll()
            .executeTakeFirstOrThrow();
          await trx
            .updateTable('household_members')
            .set({ linked_customer_id: Number(customer.id), updated_at: sql`now()` })
            .where('id', '=', Number(member.id))
            .execute();
          return customer;
        });
      try {
        return reply.status(201).send({ data: await convert() });
      } catch (error) {
        return answerConflict(reply, error);
      }
    },
  );
}
