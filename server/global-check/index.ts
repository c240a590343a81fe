/**
 * The Global check (pension gap; issue 19, docs/ARCHITECTURE.md "Global check"). Checks are schema
 * CRUD (schemas/global-checks.schema.json; visible exactly when their customer is) with hooks:
 * - validate (create and update, the merged record): the rules across fields of ./check.ts —
 *   gap years only with the missing-years flag and then required, an income above 0 unless not
 *   employed, the employment date not before the 15th birthday nor in the future, children born
 *   at least 12 years after the customer, no birth date in the future — 422 naming the field;
 * - prepare: checkDate is the Swiss today; ownCover from the customer's active contracts (none for
 *   calculationType legal) and results from src/schema/pension/gap.ts computeGlobalCheck with the
 *   figures of that year, as of that day. Both read-only on the wire.
 * Routes:
 *   GET  /api/customers/{id}/global-check-defaults  → {data: prefill} (a create body)
 *   POST /api/global-checks/preview                 → {data: {results, own_cover}}, nothing saved
 *   GET  /api/global-checks/{id}/report.pdf?language
 *   POST /api/global-checks/{id}/report {language?} → {data: document} (201)
 *   POST /api/global-checks/{id}/follow-up {scenario, kind, due_date?} → {data, resource} (201)
 * Everything on a customer or check the user sees (404 otherwise). Erasing a customer deletes
 * their checks; the export carries them (declareCustomerRows).
 */
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { camelToSnake, snakeToCamel, toSnakeDeep } from '../../src/schema/case.ts';
import { leadSourceVisible } from '../../src/schema/leads.ts';
import { SCENARIOS, type ScenarioKind } from '../../src/schema/pension/gap.ts';
import { referenceAge, ageOn } from '../../src/schema/pension/rules.ts';
import { swissToday } from '../../src/schema/swiss-time.ts';
import { writeTransaction } from '../audit/context.ts';
import type { SessionUser } from '../auth/sessions.ts';
import type { ResourceHooks, WriteContext } from '../crud/hooks.ts';
import { modelOf, recordAnswer, requireVisible } from '../customers/access.ts';
import { LANGUAGES, type Language } from '../customers/labels.ts';
import { declareCustomerRows } from '../customers/personal-data.ts';
import { dateText, merged } from '../customers/rules.ts';
import type { DB } from '../db/index.ts';
import type { ResourceRow } from '../db/resource.ts';
import { ApiError, assertNoErrors, issue } from '../http/errors.ts';
import { type IdParams, idParams } from '../http/params.ts';
import { inputSchema, responseSchema } from '../http/validation.ts';
import { releaseLabel } from '../i18n/source.ts';
import { viewerOf, viewerRow } from '../leads/hooks.ts';
import { SEARCH_DOCUMENT_COLUMN } from '../db/search-sql.ts';
import { swissNumber } from '../pdf/text.ts';
import { getStorage, newKey } from '../storage/index.ts';
import { checkErrors, type OwnCoverLine, ownCoverOf, resultsOf } from './check.ts';
import { globalCheckPdf } from './pdf.ts';

const RESOURCE = 'global-checks';
/** Scenario names a follow-up accepts: the engine's (diseaseDeath) and the wire keys' (disease_death). */
const SCENARIO_NAMES = [...new Set([...SCENARIOS, ...SCENARIOS.map(camelToSnake)])];
/** A reminder made from a gap is due in a week unless a day is given. */
export const FOLLOW_UP_DAYS = 7;

const json = (value: unknown): unknown => (typeof value === 'string' ? JSON.parse(value) : value);

/** Own cover and results of a check (wire row), as of `asOf`. */
async function computed(db: DB, record: ResourceRow, asOf: string) {
  const ownCover = await ownCoverOf(db, record, asOf);
  return { ownCover, results: toSnakeDeep(resultsOf(record, ownCover, asOf)) };
}

export const globalCheckHooks: ResourceHooks = {
  validate(body: ResourceRow, context: WriteContext) {
    const errors = checkErrors(merged(context.existing, body), swissToday());
    return Object.keys(errors).length > 0 ? errors : undefined;
  },
  async prepare(values: ResourceRow, context: WriteContext) {
    const today = swissToday();
    const record = merged(context.existing, values);
    const { ownCover, results } = await computed(context.db, record, today);
    return {
      ...values,
      check_date: today,
      own_cover: JSON.stringify(ownCover),
      results: JSON.stringify(results),
    };
  },
};

/** A customer's marital status as the check's civil status (separated: still married). */
const CIVIL: Record<string, string> = {
  single: 'single',
  married: 'married',
  separated: 'married',
  registered_partnership: 'registered_partnership',
  divorced: 'divorced',
  dissolved_partnership: 'divorced',
  widowed: 'widowed',
};
const sexOf = (gender: unknown) => (gender === 'male' || gender === 'female' ? gender : undefined);

/** The form's prefill for a new check of the customer (a create body, wire keys). */
export async function defaultsOf(db: DB, customer: ResourceRow): Promise<ResourceRow> {
  const customerId = Number(customer.id);
  const today = swissToday();
  const last = await db
    .selectFrom('global_checks')
    .selectAll()
    .where('customer_id', '=', customerId)
    .orderBy('check_date', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
  const members = await db
    .selectFrom('household_members')
    .select(['relation', 'first_name', 'gender', 'date_of_birth', 'partnership_date'])
    .where('customer_id', '=', customerId)
    .orderBy('id')
    .execute();
  const birth = dateText(customer.date_of_birth);
  const sex = sexOf(customer.gender);
  const civil = CIVIL[String(customer.marital_status ?? '')];
  const lastPartner = (json(last?.partner) as Record<string, unknown> | null) ?? {};
  const spouse = members.find(
    (member) => member.relation === 'spouse' || member.relation === 'partner',
  );
  const partner: ResourceRow = {};
  if (spouse) {
    const spouseBirth = dateText(spouse.date_of_birth);
    const spouseSex = sexOf(spouse.gender);
    if (spouseBirth) partner.birth_date = spouseBirth;
    if (spouseSex) partner.sex = spouseSex;
    const since = dateText(customer.partnership_date) ?? dateText(spouse.partnership_date);
    if (since) partner.married_since = since;
  }
  if (lastPartner.gross_income !== undefined && lastPartner.gross_income !== null)
    partner.gross_income = lastPartner.gross_income;
  const children = members
    .filter((member) => member.relation === 'child' || member.relation === 'stepchild')
    .flatMap((member) => {
      const born = dateText(member.date_of_birth);
      if (!born || born > today) return [];
      const age = ageOn(born, today);
      return [
        {
          ...(member.first_name ? { first_name: member.first_name } : {}),
          birth_date: born,
          // A guess the user confirms: 18 to 24 is usually still in education.
          in_education: age >= 18 && age < 25,
        },
      ];
    })
    .slice(0, 10);
  // Employment: the last check's, else employed before the reference age, not employed after.
  let employment = last?.employment_status as string | undefined;
  if (!employment && birth && sex) {
    const reference = referenceAge(birth, sex);
    employment = ageOn(birth, today) >= reference.years ? 'not_employed' : 'employed';
  }
  const out: ResourceRow = {
    customer_id: customerId,
    topics: (json(last?.topics) as string[] | null) ?? ['retirement', 'disability', 'death'],
    ...(birth ? { birth_date: birth } : {}),
    ...(sex ? { sex } : {}),
    ...(civil ? { civil_status: civil } : {}),
    employment_status: employment ?? 'employed',
    calculation_type: last?.calculation_type ?? 'with_contracts',
    need_share: last?.need_share ?? 80,
    disability_degree: last?.disability_degree ?? 100,
    has_pension_missing_years: last?.has_pension_missing_years ?? false,
    partner,
    children,
  };
  if (last) {
    for (const column of ['gross_income', 'employment_date', 'gap_years', 'bvg_savings'] as const) {
      const value = column === 'employment_date' ? dateText(last[column]) : last[column];
      if (value !== null && value !== undefined) out[column] = value;
    }
  }
  return out;
}

/** The lead source a gap's lead gets: one the writer and the assignee see (see the docs). */
async function leadSourceFor(
  db: DB,
  principal: SessionUser,
  customer: ResourceRow,
): Promise<number | undefined> {
  const sources = await db
    .selectFrom('lead_sources')
    .select(['id', 'group', 'visible_roles'])
    .orderBy('id')
    .execute();
  const assigneeId = customer.assigned_to ? Number(customer.assigned_to) : null;
  const assignee = assigneeId !== null ? await viewerRow(db, assigneeId) : undefined;
  const roles = (value: unknown) => (json(value) as string[] | null) ?? [];
  const usable = sources.filter(
    (source) =>
      leadSourceVisible(principal, roles(source.visible_roles)) &&
      (!assignee || leadSourceVisible(viewerOf(assignee), roles(source.visible_roles))),
  );
  const own = usable.find((source) => Number(source.id) === Number(customer.lead_source));
  return Number((own ?? usable.find((s) => s.group === 'internal') ?? usable[0])?.id) || undefined;
}

interface FollowUpBody {
  scenario: string;
  kind: 'reminder' | 'lead';
  due_date?: string;
}

export default async function globalCheck(app: FastifyInstance): Promise<void> {
  app.resourceHooks.add(RESOURCE, globalCheckHooks);
  declareCustomerRows({ name: RESOURCE, table: 'global_checks', column: 'customer_id' });
  const model = modelOf(app, RESOURCE);
  const tags = ['global check'];
  const body = inputSchema(model.schema);
  const responseRecord = responseSchema(model.schema) as {
    properties: Record<string, object>;
  };
  const languageQuery = {
    type: 'object',
    additionalProperties: false,
    properties: { language: { type: 'string', enum: [...LANGUAGES] } },
  } as const;

  const checkOf = (request: FastifyRequest<{ Params: IdParams }>) =>
    requireVisible(app, request, RESOURCE, request.params.id);

  app.get<{ Params: IdParams }>(
    '/api/customers/:id/global-check-defaults',
    {
      config: { access: 'authenticated' },
      schema: {
        tags,
        summary:
          "A new Global check's prefill for the customer (a create body): birth date, sex, civil status, partner and children from the household, an employment guess, the last check's income, need and settings.",
        params: idParams,
        response: {
          200: {
            type: 'object',
            properties: { data: { type: 'object', additionalProperties: true } },
          },
        },
      },
    },
    async (request) => {
      const customer = await requireVisible(app, request, 'customers', request.params.id);
      return { data: await defaultsOf(app.db, customer) };
    },
  );

  app.post<{ Body: ResourceRow }>(
    '/api/global-checks/preview',
    {
      config: { access: 'authenticated' },
      schema: {
        tags,
        summary:
          'The results and own cover of a Global check as of today, without saving it (the live screen). The body is a create body.',
        body,
        response: {
          200: {
            type: 'object',
            properties: {
              data: {
                type: 'object',
                properties: {
                  results: responseRecord.properties.results,
                  own_cover: responseRecord.properties.own_cover,
                },
              },
            },
          },
        },
      },
    },
    async (request) => {
      const record: ResourceRow = { ...request.body };
      for (const field of model.fields) if (field.readOnly) delete record[field.column];
      await requireVisible(app, request, 'customers', Number(record.customer_id));
      const today = swissToday();
      assertNoErrors(checkErrors(record, today));
      const { ownCover, results } = await computed(app.db, record, today);
      return { data: { results, own_cover: ownCover } };
    },
  );

  app.get<{ Params: IdParams; Querystring: { language?: Language } }>(
    '/api/global-checks/:id/report.pdf',
    {
      config: { access: 'authenticated' },
      schema: {
        tags,
        summary:
          "The check as PDF report, in the language asked for or the customer's correspondence language.",
        params: idParams,
        querystring: languageQuery,
      },
    },
    async (request, reply) => {
      const check = await checkOf(request);
      const pdf = await globalCheckPdf(app.db, check, request.query.language);
      reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="${pdf.fileName}"`)
        .header('cache-control', 'private, no-store');
      return reply.send(pdf.pdf);
    },
  );

  app.post<{ Params: IdParams; Body: { language?: Language } | null }>(
    '/api/global-checks/:id/report',
    {
      config: { access: 'authenticated' },
      schema: {
        tags,
        summary: "Store the check's PDF report as a document of the customer.",
        params: idParams,
        body: {
          type: ['object', 'null'],
          additionalProperties: false,
          properties: { language: { type: 'string', enum: [...LANGUAGES] } },
        },
        response: { 201: recordAnswer(app, 'documents') },
      },
    },
    async (request, reply) => {
      const check = await checkOf(request);
      const pdf = await globalCheckPdf(app.db, check, request.body?.language);
      const key = newKey('documents', 'pdf');
      await getStorage().put(key, Readable.from([pdf.pdf]));
      try {
        const document = await writeTransaction(app.db, request, (trx) =>
          trx
            .insertInto('documents')
            .values({
              customer_id: Number(check.customer_id),
              document_name: pdf.title.slice(0, 200),
              document_type: 'other',
              document_related_to: 'customer',
              document_file: key,
              original_name: pdf.fileName,
              mime_type: 'application/pdf',
              size_bytes: pdf.pdf.length,
              uploaded_by: request.principal?.id ?? null,
            })
            .returningAll()
            .executeTakeFirstOrThrow(),
        );
        return reply.status(201).send({ data: document });
      } catch (error) {
        await getStorage().remove(key);
        throw error;
      }
    },
  );

  app.post<{ Params: IdParams; Body: FollowUpBody }>(
    '/api/global-checks/:id/follow-up',
    {
      config: { access: 'authenticated' },
      schema: {
        tags,
        summary:
          "A scenario's gap becomes a reminder for the customer's consultant (due in 7 days unless given) or a lead of the customer; 409 when the scenario has no gap.",
        params: idParams,
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['scenario', 'kind'],
          properties: {
            scenario: { type: 'string', enum: SCENARIO_NAMES },
            kind: { type: 'string', enum: ['reminder', 'lead'] },
            due_date: { type: 'string', format: 'date' },
          },
        },
        response: {
          201: {
            type: 'object',
            properties: {
              data: { type: 'object', additionalProperties: true },
              resource: { type: 'string', enum: ['reminders', 'leads'] },
            },
          },
        },
      },
    },
    async (request, reply) => {
      const check = await checkOf(request);
      const principal = request.principal as SessionUser;
      const scenario = snakeToCamel(request.body.scenario) as ScenarioKind;
      const results = (json(check.results) as Record<string, unknown> | null) ?? {};
      const scenarios = (results.scenarios as Record<string, { gap?: number }> | undefined) ?? {};
      const gap = Number(scenarios[camelToSnake(scenario)]?.gap ?? 0);
      if (!(gap > 0)) throw new ApiError(409, issue('globalCheckNoGap'));
      const customer = await requireVisible(app, request, 'customers', Number(check.customer_id));
      const consultantId = customer.assigned_to ? Number(customer.assigned_to) : null;
      const consultant = consultantId
        ? await app.db
            .selectFrom('users')
            .select(['languages'])
            .where('id', '=', consultantId)
            .executeTakeFirst()
        : undefined;
      const spoken = ((json(consultant?.languages) as string[] | null) ?? []).find((language) =>
        (LANGUAGES as readonly string[]).includes(language),
      );
      const language = spoken ?? principal.language ?? 'de';
      const fill = (key: string) =>
        releaseLabel(`app.globalCheck.followUp.${key}`, language)
          .replaceAll(
            '{{scenario}}',
            releaseLabel(`enums.globalCheckScenario.${scenario}`, language),
          )
          .replaceAll('{{gap}}', `CHF ${swissNumber(gap)}`)
          .replaceAll('{{date}}', String(dateText(check.check_date) ?? ''))
          .replaceAll('{{id}}', String(check.id));
      const subject = fill('subject').slice(0, 200);
      const description = fill('description');
      const made = await writeTransaction(app.db, request, async (trx) => {
        if (request.body.kind === 'reminder') {
          const due = request.body.due_date ?? addDays(swissToday(), FOLLOW_UP_DAYS);
          return app.records.of('reminders').create(trx, request, {
            subject,
            description,
            due_date: due,
            category: 'follow_up',
            client_id: Number(check.customer_id),
            ...(consultantId ? { user_id: consultantId } : {}),
          });
        }
        const source = await leadSourceFor(trx, principal, customer);
        if (!source) throw new ApiError(409, issue('globalCheckNoLeadSource'));
        return app.records.of('leads').create(trx, request, {
          customer_id: Number(check.customer_id),
          lead_source: source,
          status: 'new',
          notes: `${subject}\n${description}`.slice(0, 5000),
          ...(consultantId ? { assigned_to: consultantId } : {}),
        });
      });
      const { [SEARCH_DOCUMENT_COLUMN]: _derived, ...data } = made;
      return reply.status(201).send({
        data,
        resource: request.body.kind === 'reminder' ? 'reminders' : 'leads',
      });
    },
  );
}
Object.defineProperty(globalCheck, Symbol.for('skip-override'), { value: true });

/** A day plus `days` (YYYY-MM-DD). */
function addDays(day: string, days: number): string {
  const date = new Date(`${day}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

export type { OwnCoverLine };
