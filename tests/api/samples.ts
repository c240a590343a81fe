/**
 * Valid sample records built from a resource model, so the generic API tests cover every schema
 * without code per resource. Bodies use the wire keys (snake_case). A schema feature this file
 * cannot honour (an unknown format, a pattern none of the candidates matches) throws with a message
 * saying what to add here, instead of sending something invalid.
 */
import { randomBytes } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { camelToSnake, snakeToCamel } from '../../src/schema/case.ts';
import type { FieldModel, JsonSchema, ResourceModel } from '../../src/schema/model.ts';
import type { ReferenceFilter } from '../../src/schema/vocabulary.ts';
import { ROLES } from '../../src/schema/permissions.ts';

export type Row = Record<string, unknown>;
export type Send = (options: InjectOptions) => Promise<LightMyRequestResponse>;
/**
 * Answers the id of an existing record of a resource (for x-reference fields), one matching the
 * field's `x-reference-filter` when it has one.
 */
export type ReferenceResolver = ((
  resource: string,
  filter?: ReferenceFilter,
) => Promise<number>) & {
  /** Reads a record (admin's view), when the resolver can: rules across records use it. */
  read?: (resource: string, id: number) => Promise<Row | undefined>;
};

export interface SampleOptions {
  /** 0 for a create, 1, 2, … for later versions: enum values, booleans and numbers differ. */
  variant?: number;
  /** Put into every text so that x-unique fields stay unique; random by default. */
  suffix?: string;
  reference: ReferenceResolver;
}

export const randomSuffix = (): string => randomBytes(5).toString('hex');

/** Fields a client writes (not id, created_at, updated_at). */
export const writableFields = (model: ResourceModel): FieldModel[] =>
  model.fields.filter((field) => !field.readOnly);

const typeOf = (schema: JsonSchema): string | undefined =>
  typeof schema.type === 'string' ? schema.type : undefined;

/**
 * Every resource named by an x-reference anywhere in the schema tree, with the first
 * `x-reference-filter` on a reference to it (the sample's one id of it must satisfy it).
 */
function referencesIn(
  schema: JsonSchema,
  out = new Map<string, ReferenceFilter | undefined>(),
): Map<string, ReferenceFilter | undefined> {
  const reference = schema['x-reference'];
  if (reference) out.set(reference, out.get(reference) ?? schema['x-reference-filter']);
  // A read-only reference is never sent (appointments.feedbackId): no record of it is needed.
  for (const child of Object.values(schema.properties ?? {}))
    if (!child.readOnly) referencesIn(child, out);
  if (schema.items) referencesIn(schema.items, out);
  return out;
}

interface Context {
  variant: number;
  suffix: string;
  ids: Map<string, number>;
}

const fits = (schema: JsonSchema, text: string): boolean =>
  (schema.minLength === undefined || [...text].length >= schema.minLength) &&
  (schema.maxLength === undefined || [...text].length <= schema.maxLength) &&
  (schema.pattern === undefined || new RegExp(schema.pattern, 'u').test(text));

function formatted(schema: JsonSchema, label: string, context: Context): string | undefined {
  const { variant, suffix } = context;
  const local = `${label.replace(/[^a-z0-9]/gi, '').toLowerCase()}.${suffix}.v${variant}`;
  switch (schema.format) {
    case undefined:
      return undefined;
    case 'email':
      return `${local}@example.ch`;
    case 'email-list':
      return `${local}@example.ch, copy.${local}@example.org`;
    case 'uri':
      return `https://example.ch/${label}/${suffix}/${variant}`;
    case 'date':
      return `2024-0${1 + (variant % 9)}-15`;
    case 'date-time':
      return `2024-05-${10 + (variant % 18)}T08:30:00.000Z`;
    case 'time':
      // ajv-formats' time needs a zone; a PostgreSQL `time` column keeps only the clock time.
      return `08:${10 + (variant % 50)}:00Z`;
    case 'phone':
      // Already E.164, as the server stores every number (src/schema/phone.ts): echoed unchanged.
      return `+4179${1234500 + (variant % 100)}`;
    default:
      throw new Error(`samples.ts: no sample for format "${schema.format}" (${label}); add one`);
  }
}

function sampleString(schema: JsonSchema, label: string, context: Context): string {
  const { variant, suffix } = context;
  if (schema.enum) return pick(schema.enum, variant, label) as string;
  const special = formatted(schema, label, context);
  if (special !== undefined) {
    if (!fits(schema, special)) {
      throw new Error(
        `samples.ts: the ${schema.format} sample for ${label} breaks its length or pattern`,
      );
    }
    return special;
  }
  const slug = label.replace(/[^a-z0-9]+/gi, '_').toLowerCase();
  const candidates = [
    `Sample ${label} ${suffix} v${variant}`,
    `sample_${slug}_${suffix}_v${variant}`,
    `${suffix}${variant}`,
    `S${suffix.toUpperCase()}V${variant}`,
    `+41 44 123 45 ${10 + (variant % 90)}`,
    `${Number.parseInt(suffix.slice(0, 8), 16)}${variant}`,
    `SAMPLE${variant}`,
    `/sample/${suffix}/v${variant}`,
    // A Swiss postcode (four digits).
    String(1000 + (variant % 9000)),
    // A month (YYYY-MM), e.g. a commission period.
    `20${String(20 + (variant % 70)).padStart(2, '0')}-${String(1 + (variant % 12)).padStart(2, '0')}`,
  ];
  const max = schema.maxLength ?? Number.POSITIVE_INFINITY;
  const min = schema.minLength ?? 0;
  for (const candidate of candidates) {
    // Keep the end (suffix and variant) when cutting to maxLength; pad to minLength.
    let text = [...candidate].length > max ? [...candidate].slice(-max).join('') : candidate;
    if (text.length < min) text = text.padEnd(min, 'x');
    if (fits(schema, text)) return text;
  }
  throw new Error(`samples.ts: no candidate matches ${label} (pattern ${schema.pattern}); add one`);
}

function pick(values: unknown[], variant: number, label: string): unknown {
  const choices = values.filter((value) => value !== null);
  if (choices.length === 0) throw new Error(`samples.ts: ${label} has an empty enum`);
  return choices[variant % choices.length];
}

function sampleInteger(schema: JsonSchema, label: string, context: Context): number {
  const id = schema['x-reference'] ? context.ids.get(schema['x-reference']) : undefined;
  if (id !== undefined) return id;
  // Codes (appointments.status): one of them.
  if (schema.enum) return pick(schema.enum, context.variant, label) as number;
  const min = schema.minimum ?? 0;
  const max = schema.maximum ?? min + 100_000;
  const span = max - min + 1;
  const unique = schema['x-unique'] ? Number.parseInt(context.suffix.slice(0, 6), 16) : 0;
  const value = min + ((unique + 7 * (context.variant + 1)) % span);
  if (!Number.isSafeInteger(value))
    throw new Error(`samples.ts: cannot pick an integer for ${label}`);
  return value;
}

function sampleArray(schema: JsonSchema, label: string, context: Context): unknown[] {
  const items = schema.items ?? {};
  const max = schema.maxItems ?? 3;
  const min = schema.minItems ?? 0;
  const wanted = Math.max(min, Math.min(max, schema.uniqueItems && items.enum ? 2 : 1));
  if (schema['x-reference']) {
    const id = context.ids.get(schema['x-reference']);
    if (id === undefined)
      throw new Error(`samples.ts: no ${schema['x-reference']} id for ${label}`);
    if (wanted > 1) throw new Error(`samples.ts: ${label} needs ${wanted} distinct references`);
    return [id];
  }
  const out: unknown[] = [];
  for (let index = 0; out.length < wanted && index < wanted + 20; index++) {
    const value = sampleValue(items, `${label}.${index}`, {
      ...context,
      variant: context.variant + index,
    });
    if (!schema.uniqueItems || !out.some((item) => isDeepStrictEqual(item, value))) out.push(value);
  }
  if (out.length < wanted)
    throw new Error(`samples.ts: cannot build ${wanted} distinct items for ${label}`);
  return out;
}

/** A valid value for one (inlined) schema node. */
export function sampleValue(schema: JsonSchema, label: string, context: Context): unknown {
  if (schema.const !== undefined) return schema.const;
  switch (typeOf(schema)) {
    case 'string':
      return sampleString(schema, label, context);
    case 'integer':
      return sampleInteger(schema, label, context);
    case 'number': {
      const min = schema.minimum ?? 0;
      const max = schema.maximum ?? min + 1000;
      return Math.min(max, min + 0.5 + context.variant);
    }
    case 'boolean': {
      // Variant 0 sends the opposite of the default, so the stored value proves it was written.
      const fallback = schema.default === true;
      return context.variant % 2 === 0 ? !fallback : fallback;
    }
    case 'array':
      return sampleArray(schema, label, context);
    case 'object':
      return Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([key, child]) => [
          key,
          sampleValue(child, `${label}.${key}`, context),
        ]),
      );
    default:
      throw new Error(`samples.ts: no sample for type ${JSON.stringify(schema.type)} (${label})`);
  }
}

/** Converts a nested object value to wire keys (snake_case), as the server expects. */
function wireValue(schema: JsonSchema, value: unknown): unknown {
  if (typeOf(schema) === 'object' && value && typeof value === 'object' && !Array.isArray(value)) {
    const properties = schema.properties ?? {};
    return Object.fromEntries(
      Object.entries(value as Row).map(([key, child]) => [
        camelToSnake(key),
        properties[key] ? wireValue(properties[key], child) : child,
      ]),
    );
  }
  if (typeOf(schema) === 'array' && Array.isArray(value) && schema.items) {
    const items = schema.items;
    return value.map((item) => wireValue(items, item));
  }
  return value;
}

/** A complete valid body (every writable field filled), wire keys. */
export async function sampleBody(model: ResourceModel, options: SampleOptions): Promise<Row> {
  const context: Context = {
    variant: options.variant ?? 0,
    suffix: options.suffix ?? randomSuffix(),
    ids: new Map(),
  };
  for (const [resource, filter] of referencesIn(model.schema)) {
    context.ids.set(resource, await options.reference(resource, filter));
  }
  const body: Row = {};
  for (const field of writableFields(model)) {
    body[field.column] = wireValue(field.schema, sampleValue(field.schema, field.name, context));
  }
  await RULES[model.name]?.(body, options.reference);
  return body;
}

/**
 * Rules across fields and records a schema cannot say, which a valid sample must still follow
 * (the server's hooks refuse the rest): resource → adjusts the body in place.
 */
const RULES: Record<string, (body: Row, reference: ReferenceResolver) => Promise<void>> = {
  appointments: appointmentRules,
  'blacklist-entries': blacklistRules,
  contracts: contractRules,
  leads: leadRules,
  'lead-sources': leadSourceRules,
  documents: documentRules,
  reminders: reminderRules,
  'commission-rules': commissionRuleRules,
  'assigned-single-payments': singlePaymentRules,
  offers: offerRules,
  'global-checks': globalCheckRules,
};

/**
 * Global checks (server/global-check/check.ts): no missing AHV years, an employee with an
 * income, employed after the 15th birthday and children born 12 years after the customer, no day
 * in the future, whichever variant a test sends.
 */
async function globalCheckRules(body: Row): Promise<void> {
  body.birth_date = '1980-05-01';
  body.employment_status = 'employed';
  body.employment_date = '2002-08-01';
  // Without missing years: clearing either field alone keeps the pair valid.
  body.has_pension_missing_years = false;
  body.gap_years = 0;
  if (typeof body.gross_income !== 'number' || body.gross_income <= 0) body.gross_income = 85000;
  if (body.partner && typeof body.partner === 'object')
    body.partner = { ...body.partner, birth_date: '1982-03-04', married_since: '2010-06-12' };
  if (Array.isArray(body.children))
    body.children = (body.children as Row[]).map((child) => ({
      ...child,
      birth_date: '2012-09-30',
    }));
}

/**
 * Offers (server/offers/hooks.ts): a draft (accepted and declined come from their actions; the
 * moves have their own tests: tests/api/offers.test.ts), of a product the company offers.
 */
async function offerRules(body: Row, reference: ReferenceResolver): Promise<void> {
  body.status = 'draft';
  await offeredProduct(body, reference);
}

/** The body's product becomes one its company offers, when the company can be read. */
async function offeredProduct(body: Row, reference: ReferenceResolver): Promise<void> {
  const company =
    reference.read && typeof body.company_id === 'number'
      ? await reference.read('companies', body.company_id)
      : undefined;
  const offered = Array.isArray(company?.products) ? (company.products as number[]) : [];
  if (offered.length > 0 && !offered.includes(body.product_id as number))
    body.product_id = offered[0];
}

/**
 * Commission rules (server/commissions/rules.ts): inactive (two active samples equally specific
 * for one case would clash, and an active one would pay other tests' closures), any product (the
 * catalogue checks have their own tests: tests/api/commissions.test.ts), dates and ages in order.
 */
async function commissionRuleRules(body: Row): Promise<void> {
  body.is_active = false;
  body.product_ids = [];
  body.sub_product_ids = [];
  body.sub_product_variant_ids = [];
  if (typeof body.available_from === 'string') body.available_till = '2099-12-31';
  // Ages that stay in order whichever sample a PATCH takes one of them from.
  if (body.client_age_from !== undefined) body.client_age_from = 0;
  if (body.client_age_to !== undefined) body.client_age_to = 130;
}

/** Single payments (server/commissions/lines.ts): a positive amount (only corrections go below 0). */
async function singlePaymentRules(body: Row): Promise<void> {
  const amount = Math.abs(Number(body.amount ?? 0));
  body.amount = amount > 0 ? amount : 12.5;
}

/** A phone number no other sample has (E.164, a Swiss mobile). */
const uniquePhone = () =>
  `+4179${String(randomBytes(3).readUIntBE(0, 3) % 10_000_000).padStart(7, '0')}`;

/**
 * Leads (server/leads/hooks.ts): closed with a reason (a close reason needs a closed lead), never
 * 'appointment set' (it comes from booking) nor 'blacklist' (it would put the sample's customer
 * on the blacklist and refuse every later sample), with a phone number of its own (samples of
 * one variant share theirs), no assignee whose role the source does not show its leads to.
 */
async function leadRules(body: Row, reference: ReferenceResolver): Promise<void> {
  // An assignee whose role the source's visibleRoles leave out is refused: none then.
  const source =
    reference.read && typeof body.lead_source === 'number'
      ? await reference.read('lead-sources', body.lead_source)
      : undefined;
  const assignee =
    reference.read && typeof body.assigned_to === 'number'
      ? await reference.read('users', body.assigned_to)
      : undefined;
  const roles = (source?.visible_roles ?? []) as string[];
  if (assignee && roles.length > 0 && !roles.includes(String(assignee.role)))
    body.assigned_to = null;
  body.status = 'closed';
  if (body.close_status === 'appointment_set' || body.close_status === 'blacklist')
    body.close_status = 'resolved';
  body.close_status ??= 'resolved';
  body.phone_number = uniquePhone();
}

/**
 * Lead sources: visible to every role (a lead sample's assignee must see its source; a source
 * hiding its leads from a role has its own tests: tests/api/leads.test.ts).
 */
async function leadSourceRules(body: Row): Promise<void> {
  body.visible_roles = [...ROLES];
}

/**
 * Blacklist entries (server/leads/blacklist.ts) refuse every later lead of the person: a sample
 * names only its own e-mail address, never a customer or the phone number other samples share.
 */
async function blacklistRules(body: Row): Promise<void> {
  body.customer_id = null;
  body.phone_number = null;
}

/**
 * Reminders (server/reminders/hooks.ts): the status stays open (a variant's resolved → cancelled
 * is a move the rules forbid; the transitions have their own tests), a time without a zone (a
 * `time` column), and the contract one of the customer's (the customer becomes the contract's;
 * no contract when the resolver cannot read).
 */
async function reminderRules(body: Row, reference: ReferenceResolver): Promise<void> {
  body.status = 'open';
  if (typeof body.time === 'string') body.time = body.time.replace(/Z$/, '');
  const contract =
    reference.read && typeof body.contract_id === 'number'
      ? await reference.read('contracts', body.contract_id)
      : undefined;
  if (contract) body.client_id = contract.customer_id;
  else body.contract_id = null;
}

/**
 * Appointments (server/appointments/): the end after the start on the same Swiss day, both time
 * pairs saying the same, whichever variant a test sends — every variant on 15 May 2024 (summer
 * time, UTC+2) from 08:<10+variant> to 16:<10+variant>, so a PATCH of one time field of another
 * variant still ends after it starts; a zip the postcode table knows (the canton filter needs a
 * value); no status only the feedback sets (2, 7, 10 → 3, allowed from 1 and 3). Feedbacks are
 * made by their own route only (create: nobody): see createdByClients.
 */
async function appointmentRules(body: Row): Promise<void> {
  // The sample date-time of variant v is on 2024-05-<10 + v>.
  const variant = Math.max(0, Number(String(body.date_start).slice(8, 10)) - 10);
  const minute = String(10 + (variant % 40)).padStart(2, '0');
  body.date_start = `2024-05-15T06:${minute}:00.000Z`;
  body.date_end = `2024-05-15T14:${minute}:00.000Z`;
  body.date = '2024-05-15';
  body.start_time = `08:${minute}:00`;
  body.end_time = `16:${minute}:00`;
  body.zip = ['8001', '3011', '1003'][variant % 3];
  if ([2, 7, 10].includes(body.status as number)) body.status = 3;
}

/**
 * Resources whose records clients create through the generic POST: not those whose create
 * permission is `nobody` (feedbacks: made by POST /api/appointments/:id/feedback), which the
 * generic tests of creating, updating whole samples and deleting leave to their feature's tests
 * (tests/api/feedback.test.ts).
 */
export const createdByClients = (model: ResourceModel): boolean =>
  model.permissions.create !== 'nobody' && !MADE_FROM_OTHERS.has(model.name);

/**
 * Resources a client creates, but only from other records, with their CRUD tested on their own:
 * a payout gathers a user's ready ledger lines (tests/api/payouts.test.ts); generic tests that
 * need one insert it.
 */
const MADE_FROM_OTHERS = new Set(['payouts']);

/**
 * `body[column]` names a record whose `owner` column must equal `body.customer_id`: another one of
 * the customer's, else the body moves to the record's customer. Without a resolver that reads, the
 * link is left out.
 */
async function ownedByCustomer(
  body: Row,
  reference: ReferenceResolver,
  column: string,
  resource: string,
): Promise<void> {
  const id = body[column];
  const row =
    reference.read && typeof id === 'number' ? await reference.read(resource, id) : undefined;
  if (!row) {
    body[column] = null;
    return;
  }
  if (row.customer_id === body.customer_id) return;
  const customerId = body.customer_id;
  const other = await confirmed(
    reference,
    resource,
    { customerId: customerId as number },
    (candidate) => candidate.customer_id === customerId,
  );
  if (other !== undefined) body[column] = other;
  else body.customer_id = row.customer_id;
}

/** Documents (server/contracts/documents.ts): the contract is one of the document's customer. */
async function documentRules(body: Row, reference: ReferenceResolver): Promise<void> {
  await ownedByCustomer(body, reference, 'contract_id', 'contracts');
}

/** A first id of `resource` matching `filter`, confirmed by reading it (undefined: none). */
async function confirmed(
  reference: ReferenceResolver,
  resource: string,
  filter: ReferenceFilter,
  check: (row: Row) => boolean,
): Promise<number | undefined> {
  if (!reference.read) return undefined;
  const id = await reference(resource, filter).catch(() => undefined);
  if (id === undefined) return undefined;
  const row = await reference.read(resource, id);
  return row && check(row) ? id : undefined;
}

/**
 * Contracts (server/contracts/rules.ts): the household member is one of the customer's, the
 * company offers the product, sub-products and variants belong to the product and sub-product,
 * previous companies exist (the commissions are the engine's, never sent), the interest rate only for
 * finance, and a non-closure has no status. What cannot be confirmed (a resolver that cannot read)
 * is left out.
 */
async function contractRules(body: Row, reference: ReferenceResolver): Promise<void> {
  await ownedByCustomer(body, reference, 'household_member_id', 'household-members');
  await offeredProduct(body, reference);
  const productId = body.product_id as number;
  const subProductId = await confirmed(
    reference,
    'sub-products',
    { productId },
    (row) => row.product_id === productId,
  );
  const variantId =
    subProductId === undefined
      ? undefined
      : await confirmed(
          reference,
          'sub-product-variants',
          { subProductId },
          (row) => row.sub_product_id === subProductId,
        );
  const insurance = { ...(body.insurance as Row) };
  delete insurance.sub_product_id;
  delete insurance.sub_product_variant_id;
  if (subProductId !== undefined) insurance.sub_product_id = subProductId;
  if (variantId !== undefined) insurance.sub_product_variant_id = variantId;
  body.insurance = insurance;
  body.supplementary_insurances =
    subProductId === undefined
      ? []
      : (body.supplementary_insurances as Row[]).map((line) => {
          const { sub_product_variant_id: _variant, ...rest } = line;
          return {
            ...rest,
            sub_product_id: subProductId,
            ...(variantId === undefined ? {} : { sub_product_variant_id: variantId }),
          };
        });
  body.previous_insurance = {
    ...(body.previous_insurance as Row),
    previous_companies: typeof body.company_id === 'number' ? [body.company_id] : [],
  };
  const coverage = { ...(body.coverage as Row) };
  delete coverage.interest_rate;
  body.coverage = coverage;
  if (body.contract_type === 'non-closure') body.status = null;
  // The end is never before the start, whichever variants a test combines (dates are of 2024).
  if (typeof body.end_date === 'string') body.end_date = body.end_date.replace(/^2024/, '2034');
}

/**
 * Resolves references through the API: the record with the lowest id (reference data or demo
 * data, which the tests do not delete), or a new sample record when the resource is empty.
 */
export function apiReferences(send: Send, models: ResourceModel[]): ReferenceResolver {
  const resolve = async (
    resource: string,
    depth: number,
    filter?: ReferenceFilter,
  ): Promise<number> => {
    const query = new URLSearchParams({ sort: 'id', order: 'asc', per_page: '1' });
    for (const [name, value] of Object.entries(filter ?? {}))
      for (const item of Array.isArray(value) ? value : [value])
        query.append(camelToSnake(name), String(item));
    const response = await send({ method: 'GET', url: `/api/${resource}?${query}` });
    if (response.statusCode !== 200)
      throw new Error(`list ${resource}: ${response.statusCode} ${response.body}`);
    const first = (response.json() as { data: Row[] }).data[0];
    if (first) return Number(first.id);
    if (filter)
      throw new Error(`samples.ts: no ${resource} matches ${JSON.stringify(filter)}; seed one`);
    const model = models.find((candidate) => candidate.name === resource);
    if (!model) throw new Error(`samples.ts: unknown resource ${resource}`);
    if (depth > models.length)
      throw new Error(`samples.ts: references of ${resource} form a required cycle`);
    const created = await createSample(send, model, {
      reference: (next, nextFilter) => resolve(next, depth + 1, nextFilter),
    });
    return Number(created.id);
  };
  const resolver: ReferenceResolver = (resource, filter) => resolve(resource, 0, filter);
  resolver.read = async (resource, id) => {
    const response = await send({ method: 'GET', url: `/api/${resource}/${id}` });
    return response.statusCode === 200 ? (response.json() as { data: Row }).data : undefined;
  };
  return resolver;
}

/** POSTs a sample record and answers the stored record; throws unless the answer is 201. */
export async function createSample(
  send: Send,
  model: ResourceModel,
  options: SampleOptions,
): Promise<Row> {
  const body = await sampleBody(model, options);
  const response = await send({ method: 'POST', url: `/api/${model.name}`, payload: body });
  if (response.statusCode !== 201) {
    throw new Error(
      `create ${model.name}: ${response.statusCode} ${response.body}\nbody: ${JSON.stringify(body)}`,
    );
  }
  return (response.json() as { data: Row }).data;
}

function sameValue(
  schema: JsonSchema,
  sent: unknown,
  stored: unknown,
  path: string,
  out: string[],
): void {
  if (sent === null || sent === undefined) {
    if (stored !== null && stored !== undefined)
      out.push(`${path}: sent ${String(sent)}, stored ${JSON.stringify(stored)}`);
    return;
  }
  if (schema.format === 'date-time' && typeof sent === 'string') {
    if (typeof stored !== 'string' || new Date(stored).getTime() !== new Date(sent).getTime()) {
      out.push(`${path}: sent ${sent}, stored ${JSON.stringify(stored)}`);
    }
    return;
  }
  if (schema.format === 'time' && typeof sent === 'string') {
    if (typeof stored !== 'string' || stored.slice(0, 8) !== sent.slice(0, 8)) {
      out.push(`${path}: sent ${sent}, stored ${JSON.stringify(stored)}`);
    }
    return;
  }
  if (typeOf(schema) === 'object' && schema.properties && sent && typeof sent === 'object') {
    if (!stored || typeof stored !== 'object') {
      out.push(`${path}: sent an object, stored ${JSON.stringify(stored)}`);
      return;
    }
    const properties = schema.properties;
    for (const [key, child] of Object.entries(sent as Row)) {
      sameValue(
        properties[snakeToCamel(key)] ?? {},
        child,
        (stored as Row)[key],
        `${path}.${key}`,
        out,
      );
    }
    return;
  }
  if (!isDeepStrictEqual(sent, stored))
    out.push(`${path}: sent ${JSON.stringify(sent)}, stored ${JSON.stringify(stored)}`);
}

/** The fields of `sent` whose stored value differs (empty when the record echoes the body). */
export function echoMismatches(model: ResourceModel, sent: Row, stored: Row): string[] {
  const out: string[] = [];
  for (const field of model.fields) {
    if (field.readOnly || !(field.column in sent)) continue;
    sameValue(field.schema, sent[field.column], stored[field.column], field.column, out);
  }
  return out;
}

/** A value of the wrong JSON type for a field. */
export function wrongTypeValue(field: FieldModel): unknown {
  switch (typeOf(field.schema)) {
    case 'string':
      return 12345;
    case 'integer':
    case 'number':
      return 'not a number';
    case 'boolean':
      return 'yes';
    case 'array':
      return 'not a list';
    case 'object':
      return ['not', 'an', 'object'];
    default:
      return { unexpected: true };
  }
}

/** A value of the right type that no record has as id. */
export const UNKNOWN_ID = 2_000_000_000;
