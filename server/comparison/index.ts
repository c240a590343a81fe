/**
 * The car-insurance comparison (FS24; issue 18, docs/ARCHITECTURE.md "Car-insurance comparison").
 *
 * The wizard's routes, for a staff session (a customer the user may see) or the customer's link
 * token (header `x-comparison-token`, bound to that customer, unexpired, not revoked); anything
 * else — no session and no token, a token of another customer, an expired or revoked one — is 404
 * with nothing revealed:
 *   GET   /api/fs24/{customerId}                       the page's context (prefill, drafts, config)
 *   POST  /api/fs24/{customerId}/drafts                a new draft with its first step
 *   GET   /api/fs24/{customerId}/drafts/{draftId}
 *   PATCH /api/fs24/{customerId}/drafts/{draftId}      save a step {version, step, complete, …}
 *   POST  /api/fs24/{customerId}/drafts/{draftId}/compare   ask the service (./adapter.ts)
 *   POST  /api/fs24/{customerId}/drafts/{draftId}/offers    chosen results → offers (staff only)
 * A step saved with `complete` (default) is checked (src/schema/comparison.ts `stepProblems`,
 * 422 naming the fields, nothing written); `complete: false` keeps what was typed without the
 * checks. Changing a compared draft drops its results (they priced other data).
 *
 * The links, for staff who see the customer:
 *   POST   /api/customers/{id}/comparison-links {days, language} → the token, once
 *   GET    /api/customers/{id}/comparison-links
 *   DELETE /api/comparison-links/{id}                  revokes it
 *
 * Drafts are also the generic resource `car-comparison-drafts` (list, read, delete).
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { camelPathToSnake, camelToSnake, toCamelDeep, toSnakeDeep } from '../../src/schema/case.ts';
import {
  CAR_PRODUCT_ID,
  COMPARISON_STEPS,
  type ComparisonDraftFields,
  type ComparisonResults,
  type ComparisonStep,
  draftSummary,
  LINK_DAYS,
  STEP_FIELDS,
  stepProblems,
} from '../../src/schema/comparison.ts';
import type { FieldErrors } from '../../src/schema/errors.ts';
import { swissToday } from '../../src/schema/swiss-time.ts';
import { readOfferCredentials } from '../account/secrets.ts';
import { writeTransaction } from '../audit/context.ts';
import { hashToken } from '../auth/sessions.ts';
import { lookupPostcode } from '../appointments/postcodes.ts';
import { modelOf, requireVisible, visibleRow } from '../customers/access.ts';
import { declareCustomerRows } from '../customers/personal-data.ts';
import {
  assertExpectedVersion,
  conflictSchema,
  etagOf,
  expectedVersion,
  VersionConflict,
} from '../crud/write.ts';
import type { DB } from '../db/index.ts';
import { type ResourceRow, resourceDb } from '../db/resource.ts';
import { SEARCH_DOCUMENT_COLUMN } from '../db/search-sql.ts';
import { addError, ApiError, assertNoErrors, issue, notFound } from '../http/errors.ts';
import { idParams } from '../http/params.ts';
import { inputSchema, responseSchema } from '../http/validation.ts';
import { releaseLabel } from '../i18n/source.ts';
import { swissNumber } from '../pdf/text.ts';
import { ComparisonError, type ComparisonConfig, fetchQuotes } from './adapter.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Where the comparison service is (./adapter.ts); `url` undefined: not configured. */
    comparison: ComparisonConfig;
  }
}

export const TOKEN_HEADER = 'x-comparison-token';
const LANGUAGES = ['de', 'fr', 'it', 'en'] as const;

interface Access {
  kind: 'staff' | 'link';
  /** The staff user, or the user who made the link (whose offer credentials compare). */
  userId: number | null;
  customer: ResourceRow;
  linkId?: number;
}

interface DraftParams {
  customerId: number;
  draftId: number;
}

const customerParams = {
  type: 'object',
  additionalProperties: false,
  required: ['customerId'],
  properties: { customerId: idParams.properties.id },
} as const;
const draftParams = {
  type: 'object',
  additionalProperties: false,
  required: ['customerId', 'draftId'],
  properties: { customerId: idParams.properties.id, draftId: idParams.properties.id },
} as const;
const tokenHeaders = {
  type: 'object',
  properties: {
    [TOKEN_HEADER]: {
      type: 'string',
      maxLength: 200,
      description: "The customer's link token (instead of a staff session).",
    },
  },
} as const;

/** The draft's fields as the rules read them (camelCase), from a stored row. */
const fieldsOf = (row: ResourceRow): ComparisonDraftFields =>
  toCamelDeep({
    car: row.car ?? {},
    canton: row.canton ?? undefined,
    yearly_km: row.yearly_km ?? undefined,
    usage: row.usage ?? undefined,
    garage_type: row.garage_type ?? undefined,
    driver: row.driver ?? {},
    other_users: row.other_users ?? [],
    under25_usage: row.under25_usage ?? undefined,
    coverage: row.coverage ?? {},
    history: row.history ?? {},
  }) as ComparisonDraftFields;

/** Drops nulls (a cleared input) from nested objects, so "blank" is one thing for the rules. */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, inner]) => inner !== null)
        .map(([key, inner]) => [key, withoutNulls(inner)]),
    );
  return value;
}

const clean = (row: ResourceRow): ResourceRow => {
  const { [SEARCH_DOCUMENT_COLUMN]: _derived, ...rest } = row;
  return rest;
};

export default async function comparison(app: FastifyInstance): Promise<void> {
  const model = modelOf(app, 'car-comparison-drafts');
  const record = responseSchema(model.schema);
  const answer = { type: 'object', properties: { data: record } } as const;
  const tags = ['car comparison'];
  declareCustomerRows({
    name: 'car-comparison-drafts',
    table: 'car_comparison_drafts',
    column: 'customer_id',
    async beforeDelete(trx, customerId) {
      await sql`delete from comparison_links where customer_id = ${customerId}`.execute(trx);
    },
  });

  // The body of a step's save: the draft's writable fields (each step sends its own).
  const writable = inputSchema(model.schema, { partial: true }) as {
    properties: Record<string, object>;
  };
  const stepFieldNames = new Set(
    COMPARISON_STEPS.flatMap((step) => STEP_FIELDS[step].map((field) => camelToSnake(field))),
  );
  const stepBody = (required: string[]) => ({
    type: 'object',
    additionalProperties: false,
    required,
    properties: {
      step: { type: 'string', enum: [...COMPARISON_STEPS] },
      complete: {
        type: 'boolean',
        default: true,
        description: 'Check the step and count it done (false: keep what was typed, unchecked).',
      },
      version: { type: 'integer', minimum: 1 },
      ...Object.fromEntries(
        Object.entries(writable.properties).filter(([name]) => stepFieldNames.has(name)),
      ),
    },
  });

  /** Who asks, for which customer; 404 for anyone else. */
  const accessOf = async (request: FastifyRequest, customerId: number): Promise<Access> => {
    if (request.principal) {
      const customer = await visibleRow(app, request, 'customers', customerId);
      if (customer) return { kind: 'staff', userId: request.principal.id, customer };
    }
    const token = request.headers[TOKEN_HEADER];
    if (typeof token === 'string' && token.length >= 20) {
      const link = await app.db
        .updateTable('comparison_links')
        .set({ last_used_at: sql`now()` })
        .where('token_hash', '=', hashToken(token))
        .where('customer_id', '=', customerId)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', sql<Date>`now()`)
        .returning(['id', 'created_by'])
        .executeTakeFirst();
      if (link) {
        const customer = await resourceDb(app.db)
          .selectFrom('customers')
          .selectAll()
          .where('id', '=', customerId)
          .executeTakeFirst();
        if (customer)
          return {
            kind: 'link',
            userId: link.created_by === null ? null : Number(link.created_by),
            customer,
            linkId: Number(link.id),
          };
      }
    }
    throw notFound();
  };

  const draftOf = async (db: DB, customerId: number, draftId: number, lock = false) => {
    const query = resourceDb(db)
      .selectFrom('car_comparison_drafts')
      .selectAll()
      .where('id', '=', draftId)
      .where('customer_id', '=', customerId);
    const row = await (lock ? query.forNoKeyUpdate() : query).executeTakeFirst();
    if (!row) throw notFound(model.title);
    return row;
  };

  /** The columns a step's save writes, after its checks (422 naming fields). */
  const stepColumns = (
    stored: ResourceRow | undefined,
    body: Record<string, unknown>,
    access: Access,
  ): ResourceRow => {
    const step = body.step as ComparisonStep;
    const complete = body.complete !== false;
    const allowed = new Set(STEP_FIELDS[step].map((field) => camelToSnake(field)));
    const errors: FieldErrors = {};
    for (const key of Object.keys(body))
      if (stepFieldNames.has(key) && !allowed.has(key))
        addError(errors, key, issue('notInStep', { step }));
    assertNoErrors(errors);
    const values: ResourceRow = {};
    for (const key of allowed) if (key in body) values[key] = withoutNulls(body[key]) ?? null;
    const fields = fieldsOf({ ...(stored ?? {}), ...values });
    const index = COMPARISON_STEPS.indexOf(step);
    let stepsDone = Number(stored?.steps_done ?? 0);
    if (complete) {
      for (const problem of stepProblems(step, fields, swissToday()))
        addError(errors, camelPathToSnake(problem.path), issue(problem.code, problem.args));
      assertNoErrors(errors);
      if (index <= stepsDone) stepsDone = Math.max(stepsDone, index + 1);
    } else {
      stepsDone = Math.min(stepsDone, index);
    }
    const changed =
      !stored ||
      Object.entries(values).some(
        ([key, value]) => JSON.stringify(value) !== JSON.stringify(stored[key] ?? null),
      );
    const columns: ResourceRow = {};
    for (const [key, value] of Object.entries(values))
      columns[key] = value !== null && typeof value === 'object' ? JSON.stringify(value) : value;
    Object.assign(columns, {
      steps_done: stepsDone,
      summary: draftSummary(fields) || null,
    });
    const offered = stored?.status === 'offered';
    if (changed && stored?.compared_at) {
      Object.assign(columns, { results: JSON.stringify({}), compared_at: null });
    }
    const compared = Boolean(stored?.compared_at) && !changed;
    columns.status =
      offered && !changed
        ? 'offered'
        : compared
          ? 'compared'
          : stepsDone === COMPARISON_STEPS.length
            ? 'complete'
            : 'open';
    if (!stored) {
      columns.started_via = access.kind;
      columns.created_by = access.userId;
    }
    return columns;
  };

  const sendDraft = (row: ResourceRow) => ({ data: clean(row) });

  app.get<{ Params: { customerId: number } }>(
    '/api/fs24/:customerId',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary:
          "The comparison page's context: the customer's prefill, household adults, drafts and whether the service is configured.",
        params: customerParams,
        headers: tokenHeaders,
      },
    },
    async (request) => {
      const access = await accessOf(request, request.params.customerId);
      const customer = access.customer;
      const drafts = await app.db
        .selectFrom('car_comparison_drafts')
        .select([
          'id',
          'summary',
          'status',
          'steps_done',
          'started_via',
          'updated_at',
          'compared_at',
        ])
        .where('customer_id', '=', Number(customer.id))
        .orderBy('updated_at', 'desc')
        .orderBy('id', 'desc')
        .limit(50)
        .execute();
      const household = await app.db
        .selectFrom('household_members')
        .select(['first_name', 'last_name', 'date_of_birth'])
        .where('customer_id', '=', Number(customer.id))
        .where('date_of_birth', 'is not', null)
        .orderBy('id')
        .execute();
      const today = swissToday();
      const adults = household
        .map((member) => ({
          first_name: member.first_name,
          last_name: member.last_name,
          birthdate: dateText(member.date_of_birth),
        }))
        .filter((member) => member.birthdate && member.birthdate <= adultBirthday(today));
      const language = languageOf(customer);
      const zip = typeof customer.zip === 'string' ? customer.zip : null;
      const canton = zip ? lookupPostcode(zip)?.canton : undefined;
      const isPerson = !customer.is_company;
      return {
        access: access.kind,
        customer: {
          id: Number(customer.id),
          first_name: customer.first_name ?? null,
          last_name: customer.last_name ?? null,
          organization: customer.organization ?? null,
          language,
        },
        prefill: {
          canton: canton ?? null,
          driver: isPerson
            ? withoutNulls({
                title:
                  customer.gender === 'male' ? 'mr' : customer.gender === 'female' ? 'ms' : null,
                first_name: customer.first_name,
                last_name: customer.last_name,
                birthdate: dateText(customer.date_of_birth),
                nationality: customer.nationality,
                permit: customer.permit_type,
                street:
                  [customer.street, customer.address_number].filter(Boolean).join(' ') || null,
                postcode: /^\d{4}$/.test(zip ?? '') ? zip : null,
                city: customer.city,
                is_main: true,
              })
            : {},
        },
        household: adults,
        drafts: drafts.map((draft) => ({
          ...draft,
          id: Number(draft.id),
          steps_done: Number(draft.steps_done ?? 0),
        })),
        comparison: { configured: Boolean(app.comparison.url) },
        can_make_offers: access.kind === 'staff',
      };
    },
  );

  app.post<{ Params: { customerId: number }; Body: Record<string, unknown> }>(
    '/api/fs24/:customerId/drafts',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Start a draft with its first step (checked unless complete is false).',
        params: customerParams,
        headers: tokenHeaders,
        body: stepBody(['step']),
        response: { 201: answer },
      },
    },
    async (request, reply) => {
      const access = await accessOf(request, request.params.customerId);
      const columns = stepColumns(undefined, request.body, access);
      const row = await writeTransaction(app.db, request, (trx) =>
        resourceDb(trx)
          .insertInto('car_comparison_drafts')
          .values({ ...columns, customer_id: request.params.customerId })
          .returningAll()
          .executeTakeFirstOrThrow(),
      );
      return reply.status(201).header('etag', etagOf(row)).send(sendDraft(row));
    },
  );

  app.get<{ Params: DraftParams }>(
    '/api/fs24/:customerId/drafts/:draftId',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'A draft of the customer.',
        params: draftParams,
        headers: tokenHeaders,
        response: { 200: answer },
      },
    },
    async (request, reply) => {
      await accessOf(request, request.params.customerId);
      const row = await draftOf(app.db, request.params.customerId, request.params.draftId);
      return reply.header('etag', etagOf(row)).send(sendDraft(row));
    },
  );

  app.patch<{ Params: DraftParams; Body: Record<string, unknown> }>(
    '/api/fs24/:customerId/drafts/:draftId',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary:
          'Save a step of a draft: its fields, checked (complete, default) or as typed (complete false); based on the version sent.',
        params: draftParams,
        headers: tokenHeaders,
        body: stepBody(['step']),
        response: { 200: answer, 409: conflictSchema(record) },
      },
    },
    async (request, reply) => {
      const access = await accessOf(request, request.params.customerId);
      const expected = expectedVersion(request.body as ResourceRow, request.headers['if-match']);
      try {
        const row = await writeTransaction(app.db, request, async (trx) => {
          const stored = await draftOf(
            trx,
            request.params.customerId,
            request.params.draftId,
            true,
          );
          assertExpectedVersion(model, stored, expected);
          const columns = stepColumns(stored, request.body, access);
          return resourceDb(trx)
            .updateTable('car_comparison_drafts')
            .set({ ...columns, version: sql`version + 1`, updated_at: sql`now()` })
            .where('id', '=', Number(stored.id))
            .returningAll()
            .executeTakeFirstOrThrow();
        });
        return reply.header('etag', etagOf(row)).send(sendDraft(row));
      } catch (error) {
        if (error instanceof VersionConflict) return reply.status(409).send(error.answer);
        throw error;
      }
    },
  );

  app.post<{ Params: DraftParams }>(
    '/api/fs24/:customerId/drafts/:draftId/compare',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary:
          'Ask the comparison service for quotes on a complete draft; the answer is kept on the draft. Without a service, or when it fails, the draft is unchanged.',
        params: draftParams,
        headers: tokenHeaders,
        response: { 200: answer },
      },
    },
    async (request, reply) => {
      const access = await accessOf(request, request.params.customerId);
      const stored = await draftOf(app.db, request.params.customerId, request.params.draftId);
      const fields = fieldsOf(stored);
      const done = Number(stored.steps_done ?? 0);
      if (done < COMPARISON_STEPS.length)
        throw new ApiError(
          409,
          issue('comparisonIncomplete', { done, steps: COMPARISON_STEPS.length }),
        );
      // Every step again: a start date may have passed since it was saved.
      const errors: FieldErrors = {};
      const today = swissToday();
      for (const step of COMPARISON_STEPS)
        for (const problem of stepProblems(step, fields, today))
          addError(errors, camelPathToSnake(problem.path), issue(problem.code, problem.args));
      assertNoErrors(errors);
      if (!app.comparison.url) throw new ApiError(503, 'comparisonNotConfigured');
      const credentials =
        access.userId === null ? null : await readOfferCredentials(app.db, access.userId);
      if (!credentials?.username || !credentials.password)
        throw new ApiError(409, 'comparisonNoCredentials');
      let results: ComparisonResults;
      try {
        results = await fetchQuotes(
          app.comparison,
          { username: credentials.username, password: credentials.password },
          fields,
        );
      } catch (error) {
        if (error instanceof ComparisonError) {
          request.log.warn({ code: error.message }, 'car comparison failed');
          throw new ApiError(error.statusCode, error.issue);
        }
        throw error;
      }
      const companies = await app.db
        .selectFrom('companies')
        .select(['id', 'name_de', 'name_fr', 'name_it', 'name_en'])
        .where(sql<boolean>`products @> ${JSON.stringify([CAR_PRODUCT_ID])}::jsonb`)
        .execute();
      const fold = (text: unknown) =>
        String(text ?? '')
          .trim()
          .toLocaleLowerCase('de-CH');
      for (const quote of results.quotes) {
        const company = companies.find((one) =>
          [one.name_de, one.name_fr, one.name_it, one.name_en].some(
            (name) => name && fold(name) === fold(quote.insurer),
          ),
        );
        quote.companyId = company ? Number(company.id) : null;
      }
      const row = await writeTransaction(app.db, request, (trx) =>
        resourceDb(trx)
          .updateTable('car_comparison_drafts')
          .set({
            results: JSON.stringify(toSnakeDeep(results)),
            compared_at: sql`now()`,
            status: stored.status === 'offered' ? 'offered' : 'compared',
            version: sql`version + 1`,
            updated_at: sql`now()`,
          })
          .where('id', '=', Number(stored.id))
          .returningAll()
          .executeTakeFirstOrThrow(),
      );
      return reply.header('etag', etagOf(row)).send(sendDraft(row));
    },
  );

  app.post<{ Params: DraftParams; Body: { quote_ids: string[]; valid_until?: string } }>(
    '/api/fs24/:customerId/drafts/:draftId/offers',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary:
          "Turn chosen results of a compared draft into offers on the customer (source comparison; staff only): the insurer's company, the car product, the annual premium.",
        params: draftParams,
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['quote_ids'],
          properties: {
            quote_ids: {
              type: 'array',
              minItems: 1,
              maxItems: 20,
              uniqueItems: true,
              items: { type: 'string', minLength: 1, maxLength: 100 },
            },
            valid_until: { type: 'string', format: 'date' },
          },
        },
      },
    },
    async (request, reply) => {
      const access = await accessOf(request, request.params.customerId);
      if (access.kind !== 'staff') throw new ApiError(403, 'comparisonStaffOnly');
      const made = await writeTransaction(app.db, request, async (trx) => {
        const stored = await draftOf(trx, request.params.customerId, request.params.draftId, true);
        const results = toCamelDeep(stored.results ?? {}) as Partial<ComparisonResults>;
        const quotes = results.quotes ?? [];
        if (!stored.compared_at || quotes.length === 0)
          throw new ApiError(409, 'comparisonNoResults');
        const chosen = request.body.quote_ids.map((id) => quotes.find((quote) => quote.id === id));
        const unknown = request.body.quote_ids.filter((_id, index) => !chosen[index]);
        if (unknown.length > 0)
          throw new ApiError(422, issue('invalidData', { fields: 'quote_ids' }), {
            quote_ids: [issue('comparisonQuoteUnknown', { ids: unknown.join(', ') })],
          });
        const orphans = chosen.filter((quote) => !quote!.companyId).map((quote) => quote!.insurer);
        if (orphans.length > 0)
          throw new ApiError(422, issue('invalidData', { fields: 'quote_ids' }), {
            quote_ids: [issue('comparisonNoCompany', { insurers: orphans.join(', ') })],
          });
        const coverage = toCamelDeep(stored.coverage ?? {}) as ComparisonDraftFields['coverage'];
        const language = languageOf(access.customer);
        const offers: ResourceRow[] = [];
        for (const quote of chosen) {
          const offer = await app.records.of('offers').create(trx, request, {
            customer_id: request.params.customerId,
            company_id: quote!.companyId,
            product_id: CAR_PRODUCT_ID,
            premium: quote!.annualPremium,
            payment_cycle: 'annual',
            cover_summary: coverSummary(quote!, stored, language),
            ...(coverage?.startDate && coverage.startDate >= swissToday()
              ? { start_date: coverage.startDate }
              : {}),
            ...(request.body.valid_until ? { valid_until: request.body.valid_until } : {}),
          });
          const marked = await resourceDb(trx)
            .updateTable('offers')
            .set({
              source: 'comparison',
              comparison_draft_id: Number(stored.id),
              comparison_quote: JSON.stringify(toSnakeDeep(quote)),
            })
            .where('id', '=', Number(offer.id))
            .returningAll()
            .executeTakeFirstOrThrow();
          offers.push(clean(marked));
        }
        const draft = await resourceDb(trx)
          .updateTable('car_comparison_drafts')
          .set({ status: 'offered', version: sql`version + 1`, updated_at: sql`now()` })
          .where('id', '=', Number(stored.id))
          .returningAll()
          .executeTakeFirstOrThrow();
        return { draft, offers };
      });
      return reply.status(201).send({ data: clean(made.draft), offers: made.offers });
    },
  );

  // The links a consultant sends.
  const linkColumns = [
    'id',
    'customer_id',
    'created_by',
    'created_at',
    'expires_at',
    'revoked_at',
    'last_used_at',
    'language',
  ] as const;

  app.post<{ Params: { id: number }; Body: { days?: number; language?: string } | null }>(
    '/api/customers/:id/comparison-links',
    {
      config: { access: 'authenticated' },
      schema: {
        tags,
        summary:
          'A link for the customer to fill in a car comparison: random, expiring (days, default 14, at most 60), revocable; the token is answered only here.',
        params: idParams,
        body: {
          type: ['object', 'null'],
          additionalProperties: false,
          properties: {
            days: {
              type: 'integer',
              minimum: 1,
              maximum: LINK_DAYS.max,
              default: LINK_DAYS.default,
            },
            language: { type: 'string', enum: [...LANGUAGES] },
          },
        },
      },
    },
    async (request, reply) => {
      await requireVisible(app, request, 'customers', request.params.id);
      const days = request.body?.days ?? LINK_DAYS.default;
      const token = randomBytes(32).toString('base64url');
      const row = await writeTransaction(app.db, request, (trx) =>
        trx
          .insertInto('comparison_links')
          .values({
            customer_id: request.params.id,
            token_hash: hashToken(token),
            created_by: request.principal!.id,
            expires_at: new Date(Date.now() + days * 86_400_000),
            language: request.body?.language ?? null,
          })
          .returning(['id', 'expires_at', 'language'])
          .executeTakeFirstOrThrow(),
      );
      const query = new URLSearchParams({ token });
      if (row.language) query.set('lang', String(row.language));
      return reply.status(201).send({
        id: Number(row.id),
        token,
        url: `/financescout24/${request.params.id}?${query.toString()}`,
        expires_at: row.expires_at,
      });
    },
  );

  app.get<{ Params: { id: number } }>(
    '/api/customers/:id/comparison-links',
    {
      config: { access: 'authenticated' },
      schema: {
        tags,
        summary: "The customer's comparison links (without their tokens).",
        params: idParams,
      },
    },
    async (request) => {
      await requireVisible(app, request, 'customers', request.params.id);
      const rows = await app.db
        .selectFrom('comparison_links')
        .select([
          ...linkColumns,
          sql<boolean>`revoked_at is null and expires_at > now()`.as('active'),
        ])
        .where('customer_id', '=', request.params.id)
        .orderBy('id', 'desc')
        .limit(100)
        .execute();
      return { data: rows.map((row) => ({ ...row, id: Number(row.id) })) };
    },
  );

  app.delete<{ Params: { id: number } }>(
    '/api/comparison-links/:id',
    {
      config: { access: 'authenticated' },
      schema: {
        tags,
        summary: 'Revoke a comparison link: it opens nothing from now on.',
        params: idParams,
      },
    },
    async (request, reply) => {
      const link = await app.db
        .selectFrom('comparison_links')
        .select(['id', 'customer_id'])
        .where('id', '=', request.params.id)
        .executeTakeFirst();
      if (!link) throw notFound();
      await requireVisible(app, request, 'customers', Number(link.customer_id));
      await writeTransaction(app.db, request, (trx) =>
        trx
          .updateTable('comparison_links')
          .set({ revoked_at: sql`coalesce(revoked_at, now())` })
          .where('id', '=', request.params.id)
          .execute(),
      );
      return reply.status(204).send();
    },
  );
}
Object.defineProperty(comparison, Symbol.for('skip-override'), { value: true });

/** The customer's first correspondence language, else German. */
function languageOf(customer: ResourceRow): (typeof LANGUAGES)[number] {
  const languages = (customer.correspondence_languages as string[] | null) ?? [];
  return LANGUAGES.find((one) => one === languages[0]) ?? 'de';
}

function dateText(value: unknown): string | null {
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  return typeof value === 'string' ? value.slice(0, 10) : null;
}

/** The latest birth date of someone 18 today. */
function adultBirthday(today: string): string {
  const [y, m, d] = today.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y - 18, m - 1, d)).toISOString().slice(0, 10);
}

/**
 * The offer's cover summary in the customer's language: the insurer, the covers with their
 * premiums and deductibles, the add-ons included or priced (the service's figures, CHF a year).
 */
function coverSummary(
  quote: ComparisonResults['quotes'][number],
  draft: ResourceRow,
  language: string,
): string {
  const t = (key: string) => releaseLabel(key, language);
  const chf = (value: number) => `CHF ${swissNumber(value)}`;
  const deductible = (value: number | null) =>
    value === null ? '' : ` (${t('app.fs24.deductible')} ${chf(value)})`;
  const lines = [
    `${quote.insurer}${quote.product ? ` – ${quote.product}` : ''}${draft.summary ? ` · ${String(draft.summary)}` : ''}`,
    `${t('app.fs24.results.liability')}: ${chf(quote.premiums.liability)}`,
  ];
  if (quote.premiums.partialCasco > 0)
    lines.push(
      `${t('app.fs24.results.partialCasco')}: ${chf(quote.premiums.partialCasco)}${deductible(quote.deductibles.partialCasco)}`,
    );
  if (quote.premiums.fullCasco > 0)
    lines.push(
      `${t('app.fs24.results.fullCasco')}: ${chf(quote.premiums.fullCasco)}${deductible(quote.deductibles.fullCasco)}`,
    );
  for (const addOn of quote.addOns)
    lines.push(
      `${t(`app.fs24.addOn.${addOn.code}`)}: ${addOn.included ? t('app.fs24.results.included') : chf(addOn.premium)}`,
    );
  if (quote.deductibles.youngDriver)
    lines.push(
      `${t('app.fs24.deductible')} ${t('app.fs24.results.youngDriver')}: ${chf(quote.deductibles.youngDriver)}`,
    );
  return lines.join('\n');
}
