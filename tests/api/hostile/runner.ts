/**
 * Sends hostile cases to a test app and judges the answers:
 *   (a) never a 5xx;
 *   (b) a 400/422 answer has `errors` naming at least one field or parameter of the operation
 *       (its key, dotted for nested fields); other 4xx answers carry a `message`;
 *   (c) a loose spelling of a real id (`%201`, `0x10`, `1e3`) never reaches the record: 400 or 404;
 *   (d) a rejected write changes no row: a fingerprint of every table but the logs is taken before
 *       and after — per table, a count of the rows inserted, deleted or changed (row triggers the
 *       run installs; an update that leaves a row as it was does not count). Hashing every row of
 *       every table instead cost about 4 minutes of the suite on PGlite.
 * Targets of `{id}` are fresh records made for the run, so hostile writes never touch the demo
 * accounts the run signs in with.
 */
import { createHash } from 'node:crypto';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import type { ResourceModel } from '../../../src/schema/model.ts';
import { ADMIN, CONSULTANT, type TestApp } from '../harness.ts';
import { multipart } from '../multipart.ts';
import {
  apiReferences,
  createSample,
  randomSuffix,
  type ReferenceResolver,
  type Row,
  sampleBody,
  UNKNOWN_ID,
  createdByClients,
} from '../samples.ts';
import { describeMutation, type HostileCase, knownNames, type PrincipalName } from './cases.ts';
import {
  fillPath,
  type OpenApiDocument,
  type Operation,
  operationsOf,
  PDF_BYTES,
  PNG_BYTES,
} from './openapi.ts';
import { hashText } from './random.ts';
import { toJson, typeOf } from './values.ts';

export type Rule = 'no-5xx' | 'names-field' | 'loose-id' | 'unchanged';

export interface Outcome {
  case: HostileCase;
  method: string;
  url: string;
  status: number;
  body: string;
  violations: Array<{ rule: Rule; detail: string }>;
}

export interface HostileContext {
  t: TestApp;
  operations: Operation[];
  models: ResourceModel[];
  /** Ids of the records the run may change, by resource (and `outbox`, `translation-keys`). */
  targets: Map<string, number>;
  /** The target records as GET answered them (bases of complete PUTs). */
  records: Map<string, Row>;
  /** A second customer, the duplicate of merges. */
  duplicateId: number;
  translationKey: string;
  reference: ReferenceResolver;
  tokens: Map<PrincipalName, string>;
  /** Tables the fingerprint covers. */
  tables: string[];
  seed: number;
  /** Makes a new target record of a resource (when a case deleted the last one). */
  makeTarget(model: ResourceModel, suffix: string): Promise<void>;
  asAdmin: Send;
  /**
   * The fingerprint after the last rejected write, while no request may have changed a row since
   * (requests run one at a time): the next write needs no "before" of its own.
   */
  known?: Map<string, string>;
}

const EMAILS: Record<Exclude<PrincipalName, 'anonymous'>, string> = {
  admin: ADMIN,
  consultant: CONSULTANT,
};

/** Tables written by any request, rejected or not (logs and sessions): not fingerprinted. */
const LOG_TABLES = new Set(['sessions', 'login_attempts', 'audit_log', 'app_secrets']);

type Send = (options: InjectOptions) => Promise<LightMyRequestResponse>;

/** Signs the principals in, makes the target records, reads the published operations. */
export async function prepareContext(t: TestApp, seed: number): Promise<HostileContext> {
  await t.app.ready();
  const models = t.app.models;
  const document = t.app.swagger() as OpenApiDocument;
  const operations = operationsOf(
    document,
    models.map((model) => model.name),
  );
  const tokens = new Map<PrincipalName, string>();
  for (const [name, email] of Object.entries(EMAILS))
    tokens.set(name as PrincipalName, await t.login(email));
  const asAdmin: Send = async (options) => {
    const send = () =>
      t.app.inject({
        ...options,
        headers: { ...options.headers, authorization: `Bearer ${tokens.get('admin')}` },
      });
    const response = await send();
    if (response.statusCode !== 401) return response;
    // A hostile case signed the admin out (logout): sign in again.
    tokens.set('admin', await t.login(ADMIN));
    return send();
  };
  const users = await t.database.db.selectFrom('users').select(['id', 'email']).execute();
  const consultantId = Number(users.find((user) => user.email === CONSULTANT)?.id);

  const targets = new Map<string, number>();
  const fallback = apiReferences(asAdmin, models);
  // References to users name the consultant (active, and a principal the run never changes).
  const reference: ReferenceResolver = async (resource) =>
    resource === 'users' ? consultantId : (targets.get(resource) ?? fallback(resource));
  // Customers first: members and documents of the run hang off the run's customer.
  const ordered = [...models].sort(
    (a, b) => Number(b.name === 'customers') - Number(a.name === 'customers'),
  );
  /** Values that make a target visible to the consultant too. */
  const handOver: Record<string, Row> = {
    customers: { assigned_to: consultantId },
    notifications: { user_id: consultantId },
  };
  const records = new Map<string, Row>();
  const makeTarget = async (model: ResourceModel, suffix: string): Promise<void> => {
    // Records nobody creates through the CRUD routes (feedbacks: their own route) are targets
    // made in the database, on the run's other targets.
    if (!createdByClients(model)) {
      const id = await databaseTarget(t, model, targets);
      if (id !== undefined) {
        targets.set(model.name, id);
        const read = await asAdmin({ method: 'GET', url: `/api/${model.name}/${id}` });
        records.set(model.name, (read.json() as { data: Row }).data);
      }
      return;
    }
    const created = await createSample(asAdmin, model, { reference, suffix });
    let record = created;
    // Later targets refer to this one; their x-reference-filter may ask for active records.
    if (record.is_active === false) {
      const activated = await asAdmin({
        method: 'PATCH',
        url: `/api/${model.name}/${created.id}`,
        payload: { is_active: true },
      });
      if (activated.statusCode !== 200)
        throw new Error(`activate ${model.name}: ${activated.statusCode} ${activated.body}`);
      record = (activated.json() as { data: Row }).data;
    }
    if (handOver[model.name]) {
      const patched = await asAdmin({
        method: 'PATCH',
        url: `/api/${model.name}/${created.id}`,
        payload: handOver[model.name],
      });
      if (patched.statusCode !== 200)
        throw new Error(`hand over ${model.name}: ${patched.statusCode} ${patched.body}`);
      record = (patched.json() as { data: Row }).data;
    }
    targets.set(model.name, Number(created.id));
    records.set(model.name, record);
    if (model.name === 'customers') await withFiles(Number(created.id));
  };
  /** A customer target gets an avatar and a document with a file (download and avatar routes). */
  const withFiles = async (customerId: number): Promise<void> => {
    for (const [route, part] of [
      ['avatar', { filename: 'probe.png', contentType: 'image/png', content: PNG_BYTES }],
      ['documents', { filename: 'probe.pdf', contentType: 'application/pdf', content: PDF_BYTES }],
    ] as const) {
      const form = multipart([{ name: 'file', ...part }]);
      const response = await asAdmin({
        method: 'POST',
        url: `/api/customers/${customerId}/${route}`,
        payload: form.payload,
        headers: form.headers,
      });
      if (response.statusCode >= 300)
        throw new Error(`upload ${route}: ${response.statusCode} ${response.body}`);
      if (route === 'documents')
        targets.set('document-file', Number((response.json() as { data: Row }).data.id));
    }
  };
  for (const model of ordered) await makeTarget(model, `h${seed.toString(16)}${model.name.length}`);
  const customers = models.find((model) => model.name === 'customers');
  const duplicate = customers
    ? await createSample(asAdmin, customers, { reference, suffix: `d${seed.toString(16)}` })
    : undefined;
  const mail = await t.database.db
    .selectFrom('outbox')
    .select('id')
    .orderBy('id')
    .executeTakeFirst();
  if (mail) targets.set('outbox', Number(mail.id));
  // The harness does not load the release's texts: one key of the run's own, in four languages.
  const key = await t.database.db
    .insertInto('translation_keys')
    .values({ key: `hostile.probe.s${seed}` })
    .returning(['id', 'key'])
    .executeTakeFirstOrThrow();
  await t.database.db
    .insertInto('translations')
    .values(
      [1, 2, 3, 4].map((language) => ({
        translation_key_id: key.id,
        language_id: language,
        text: 'Probe',
      })),
    )
    .execute();
  targets.set('translation-keys', Number(key.id));
  const tables = (
    await sql<{ table_name: string }>`
      select table_name from information_schema.tables
      where table_schema = current_schema() and table_type = 'BASE TABLE'
      order by table_name`.execute(t.database.db)
  ).rows
    .map((row) => row.table_name)
    .filter((table) => !LOG_TABLES.has(table));
  await installChangeCounters(t, tables);
  return {
    t,
    operations,
    models,
    targets,
    records,
    duplicateId: Number(duplicate?.id ?? 1),
    translationKey: String(key.key),
    reference,
    tokens,
    tables,
    seed,
    makeTarget,
    asAdmin,
  };
}

/**
 * A target of a resource nobody creates through the CRUD routes, written in the database: a
 * feedback on the run's appointment. Others: none (their operations get no target).
 */
async function databaseTarget(
  t: TestApp,
  model: ResourceModel,
  targets: Map<string, number>,
): Promise<number | undefined> {
  if (model.name === 'payouts') {
    // A payout is made from ready ledger lines; an empty one of a month long past serves here.
    const user = await t.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'consultant@demo.gscrm.ch')
      .executeTakeFirstOrThrow();
    const row = await t.database.db
      .insertInto('payouts')
      .values({ user_id: user.id, period: '1999-01', status: 'new', total: 0, line_count: 0 })
      .onConflict((conflict) => conflict.columns(['user_id', 'period']).doUpdateSet({ note: null }))
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }
  const appointment = targets.get('appointments');
  if (model.name !== 'feedbacks' || appointment === undefined) return undefined;
  const row = await t.database.db
    .insertInto('feedbacks')
    .values({ appointment_id: appointment, has_taken_place: true, status: 2, note: 'Probe' })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** Makes sure the target of an operation's `{id}` still exists (a loose DELETE may have taken it). */
export async function ensureTarget(context: HostileContext, op: Operation): Promise<void> {
  const model = context.models.find((candidate) => candidate.name === op.resource);
  const id = context.targets.get(op.resource ?? '');
  if (!model || id === undefined) return;
  // The customer first: documents and members hang off it (and a new one brings new files).
  for (const name of ['customers', model.name]) {
    const dependency = context.models.find((candidate) => candidate.name === name);
    const current = context.targets.get(name);
    if (!dependency || current === undefined) continue;
    const found = await context.asAdmin({ method: 'GET', url: `/api/${name}/${current}` });
    if (found.statusCode === 404) {
      context.known = undefined;
      // Forget the gone record first: the new one's references (a customer recommended by a
      // customer) must not name it.
      context.targets.delete(name);
      await context.makeTarget(dependency, `r${context.seed.toString(16)}${randomSuffix()}`);
    }
  }
  const file = context.targets.get('document-file');
  if (op.path === '/api/documents/{id}/download' && file !== undefined) {
    const found = await context.asAdmin({ method: 'GET', url: `/api/documents/${file}` });
    const customers = context.models.find((candidate) => candidate.name === 'customers');
    if (found.statusCode === 404 && customers) {
      context.known = undefined;
      await context.makeTarget(customers, `f${context.seed.toString(16)}${randomSuffix()}`);
    }
  }
}

/** The record id an operation's `{id}` names in this run. */
export function targetOf(context: HostileContext, op: Operation): number | undefined {
  if (op.path.startsWith('/api/mail/outbox/')) return context.targets.get('outbox');
  if (op.path === '/api/documents/{id}/download') return context.targets.get('document-file');
  if (op.path.startsWith('/api/localizations/translations/'))
    return context.targets.get('translation-keys');
  return op.resource ? context.targets.get(op.resource) : undefined;
}

/** Where the row triggers count the changes of each table (the run's own, not fingerprinted). */
const COUNTERS = 'hostile_row_changes';

/**
 * Row triggers on `tables` that count, per table, the rows inserted, deleted or updated to other
 * values (compared as text: json columns have no equality). A rolled-back write's counts roll back
 * with it, so only what a request left behind is counted.
 */
async function installChangeCounters(t: TestApp, tables: string[]): Promise<void> {
  const statements = [
    `create table ${COUNTERS} (table_name text primary key, changes bigint not null)`,
    `create function ${COUNTERS}_count() returns trigger language plpgsql as $$
     begin
       insert into ${COUNTERS} values (tg_table_name, 1)
         on conflict (table_name) do update set changes = ${COUNTERS}.changes + 1;
       return null;
     end $$`,
    ...tables.flatMap((table) => [
      `create trigger ${COUNTERS}_rows after insert or delete on ${table}
       for each row execute function ${COUNTERS}_count()`,
      `create trigger ${COUNTERS}_changed after update on ${table}
       for each row when (old::text is distinct from new::text) execute function ${COUNTERS}_count()`,
    ]),
  ];
  await t.database.exclusive(async (run) => {
    await run(statements.join(';\n'));
  });
}

/** Per table but the logs, how many rows were inserted, deleted or changed so far. */
export async function fingerprint(context: HostileContext): Promise<Map<string, string>> {
  const { rows } = await sql<{ table_name: string; changes: string }>`
    select table_name, changes::text as changes from ${sql.table(COUNTERS)}`.execute(
    context.t.database.db,
  );
  return new Map(rows.map((row) => [row.table_name, row.changes]));
}

const PASSWORD = 'Hostile-Passw0rd!x';

/** Valid bodies of the hand-written JSON routes, which the hostile values then spoil. */
const HANDWRITTEN: Record<string, (context: HostileContext, unique: string) => Row> = {
  'POST /api/auth/login': () => ({ email: 'hostile.nobody@example.ch', password: PASSWORD }),
  'POST /api/account/register': (_context, unique) => ({
    first_name: 'Hostile',
    last_name: 'Probe',
    email: `hostile.${unique}@example.ch`,
    phone: '+41 44 123 45 67',
    language: 'de',
    password: PASSWORD,
    confirm_password: PASSWORD,
  }),
  'POST /api/account/forgot-password': () => ({ email: 'hostile.nobody@example.ch' }),
  'POST /api/account/reset-password': () => ({
    token: 'not-a-token',
    new_password: PASSWORD,
    confirm_password: PASSWORD,
  }),
  'PUT /api/account/settings': () => ({ language: 'de', page_sizes: { clients: 25 } }),
  // A wrong current password: no hostile case may change a principal's password.
  'POST /api/account/password': () => ({
    old_password: 'Not-The-Passw0rd!',
    new_password: PASSWORD,
    confirm_password: PASSWORD,
  }),
  'PUT /api/account/offer-credentials': () => ({ offer_username: 'probe', offer_password: 'x' }),
  'POST /api/users/{id}/approve': () => ({ role: 'EMPLOYEE' }),
  'PUT /api/localizations/translations/{id}': (context) => ({
    translation_key: context.translationKey,
    translations: [{ language_id: 1, text: 'Probe' }],
  }),
  'POST /api/localizations/missing': () => ({
    entries: [{ translation_key: 'hostile.probe', language_id: 1 }],
  }),
  'POST /api/customers/{id}/merge': (context) => ({
    duplicate_id: context.duplicateId,
    fill_empty: true,
  }),
};

/** A minimal valid value of a schema (required properties only), for routes without a table entry. */
function minimalValue(schema: JsonSchemaLike): unknown {
  if (schema.enum) return schema.enum.find((value) => value !== null);
  switch (typeOf(schema)) {
    case 'string':
      if (schema.format === 'email') return 'probe@example.ch';
      if (schema.format === 'date') return '2024-05-01';
      if (schema.format === 'date-time') return '2024-05-01T08:00:00.000Z';
      return 'probe'.padEnd(schema.minLength ?? 0, 'x');
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return false;
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => minimalValue(schema.items ?? {}));
    case 'object':
      return Object.fromEntries(
        (schema.required ?? []).map((name) => [
          name,
          minimalValue(schema.properties?.[name] ?? {}),
        ]),
      );
    default:
      return null;
  }
}
type JsonSchemaLike = Parameters<typeof typeOf>[0];

async function baseBody(context: HostileContext, c: HostileCase, unique: string): Promise<Row> {
  const op = c.op;
  const handWritten = HANDWRITTEN[op.key];
  if (handWritten) return handWritten(context, unique);
  const model = context.models.find((candidate) => candidate.name === op.resource);
  if (model && op.method === 'POST' && op.path === `/api/${model.name}`)
    return sampleBody(model, { reference: context.reference, suffix: unique });
  if (model && op.method === 'PUT') {
    const record = context.records.get(model.name) ?? {};
    const allowed = new Set(Object.keys(op.body?.properties ?? {}));
    // No version: the snapshot is old, and a stale version would stop the case at the conflict
    // check (409) before the hostile value reaches the database.
    allowed.delete('version');
    return structuredClone(
      Object.fromEntries(Object.entries(record).filter(([key]) => allowed.has(key))),
    );
  }
  if (op.method === 'PATCH') return {};
  return (op.body ? minimalValue(op.body) : {}) as Row;
}

function setPath(target: Row, path: Array<string | number>, value: unknown): void {
  let node: Record<string | number, unknown> = target;
  path.forEach((key, index) => {
    if (index === path.length - 1) {
      node[key] = value;
      return;
    }
    const next = node[key];
    if (!next || typeof next !== 'object')
      node[key] = typeof path[index + 1] === 'number' ? [] : {};
    node = node[key] as Record<string | number, unknown>;
  });
}

/** The client address of a case: its own, so per-address throttles of one case stay apart. */
function addressOf(c: HostileCase, seed: number): string {
  const hash = hashText(`${seed}:${c.op.key}:${c.index}:${c.slot}`);
  return `10.${(hash >>> 16) & 0xff}.${(hash >>> 8) & 0xff}.${(hash & 0xfe) + 1}`;
}

const textOf = (value: unknown): string => (typeof value === 'string' ? value : toJson(value));

/** The request of a case. */
export async function requestOf(
  context: HostileContext,
  c: HostileCase,
): Promise<InjectOptions & { method: string; url: string }> {
  const op = c.op;
  const { mutation } = c;
  const unique = createHash('sha256')
    .update(`${context.seed}:${op.key}:${c.index}:${c.slot}:${c.principal}`)
    .digest('hex')
    .slice(0, 10);
  const params: Record<string, string> = {};
  // A DELETE whose hostile part is elsewhere (query, token) names no record: it must not delete
  // the target the other cases need.
  const id = op.method === 'DELETE' ? UNKNOWN_ID : (targetOf(context, op) ?? 1);
  for (const param of op.pathParams) params[param.name] = String(id);
  if (mutation.kind === 'path') params[mutation.name] = mutation.text;
  let url = fillPath(op.path, params);
  if (mutation.kind === 'query') url += `?${mutation.text}`;

  const headers: Record<string, string> = {};
  const token = c.principal === 'anonymous' ? undefined : context.tokens.get(c.principal);
  if (token) headers.authorization = `Bearer ${token}`;
  if (mutation.kind === 'header') headers[mutation.name] = mutation.value;

  let payload: InjectOptions['payload'];
  if (op.form) {
    const parts = op.form.map((part) => {
      let value: string | Buffer = part.value;
      if (part.json) {
        const json = structuredClone(part.json) as Row;
        if (mutation.kind === 'form' && mutation.part === part.name && mutation.key)
          setPath(json, mutation.key, mutation.value);
        value = toJson(json);
      } else if (mutation.kind === 'form' && mutation.part === part.name) {
        value = part.file
          ? String(part.value).replace('Hostile', textOf(mutation.value).replace(/[;\n"]/g, ' '))
          : textOf(mutation.value);
      }
      return part.file
        ? {
            name: part.name,
            filename: part.file.filename,
            contentType: part.file.contentType,
            content: value,
          }
        : ([part.name, String(value)] as [string, string]);
    });
    const form = multipart(parts);
    payload = form.payload;
    Object.assign(headers, form.headers);
  } else if (op.body) {
    const body = await baseBody(context, c, unique);
    if (mutation.kind === 'body') setPath(body, mutation.path, mutation.value);
    payload = toJson(body);
    headers['content-type'] = 'application/json';
  }
  return {
    method: op.method,
    url,
    headers,
    payload,
    remoteAddress: addressOf(c, context.seed),
  };
}

/** Runs one case and judges its answer. */
export async function runCase(context: HostileContext, c: HostileCase): Promise<Outcome> {
  const isWrite = c.op.method !== 'GET';
  for (let attempt = 0; ; attempt++) {
    const request = await requestOf(context, c);
    const before = isWrite ? (context.known ?? (await fingerprint(context))) : undefined;
    let response: LightMyRequestResponse;
    try {
      response = await context.t.app.inject(request);
    } catch (error) {
      // The server broke the answer off (a stream destroyed after the headers went out): what a
      // client sees as a reset connection, a server error all the same.
      context.known = undefined;
      return {
        case: c,
        method: request.method,
        url: request.url,
        status: 0,
        body: String(error),
        violations: [{ rule: 'no-5xx', detail: `the answer broke off: ${String(error)}` }],
      };
    }
    if (isWrite) context.known = undefined;
    // A session ended by an earlier case (logout, revoke): sign in again and repeat the case.
    if (
      response.statusCode === 401 &&
      attempt === 0 &&
      c.principal !== 'anonymous' &&
      c.mutation.kind !== 'header'
    ) {
      context.tokens.set(c.principal, await context.t.login(EMAILS[c.principal]));
      continue;
    }
    const outcome: Outcome = {
      case: c,
      method: request.method,
      url: request.url,
      status: response.statusCode,
      body: response.body,
      violations: [],
    };
    judge(c, response, outcome);
    if (before && response.statusCode >= 400) {
      const after = await fingerprint(context);
      context.known = after;
      const changed = [...after.keys()].filter((table) => after.get(table) !== before.get(table));
      if (changed.length > 0)
        outcome.violations.push({
          rule: 'unchanged',
          detail: `rejected with ${response.statusCode}, yet rows changed in ${changed.join(', ')}`,
        });
    }
    return outcome;
  }
}

function judge(c: HostileCase, response: LightMyRequestResponse, outcome: Outcome): void {
  const status = response.statusCode;
  const add = (rule: Rule, detail: string) => outcome.violations.push({ rule, detail });
  if (status >= 500) add('no-5xx', `answered ${status}`);
  if (c.mutation.kind === 'path' && c.mutation.loose) {
    if (![400, 401, 403, 404].includes(status))
      add('loose-id', `a loose spelling of a real id answered ${status} (400 or 404 expected)`);
  }
  if (status < 400 || status >= 500) return;
  let answer: { message?: unknown; errors?: unknown } | undefined;
  try {
    answer = response.json() as typeof answer;
  } catch {
    add('names-field', `answered ${status} without a JSON body`);
    return;
  }
  if (typeof answer?.message !== 'string' || answer.message === '')
    add('names-field', `answered ${status} without a message`);
  if (status !== 400 && status !== 422) return;
  // A URL that is not valid percent-encoding never reaches a route: no field to name.
  if (c.mutation.kind === 'path' && !decodable(c.mutation.text)) return;
  const errors = answer?.errors;
  const keys =
    errors && typeof errors === 'object' && !Array.isArray(errors) ? Object.keys(errors) : [];
  const names = knownNames(c.op);
  if (c.mutation.kind === 'body' && c.mutation.add) names.add(String(c.mutation.path[0]));
  if (c.mutation.kind === 'query') for (const name of c.mutation.names) names.add(name);
  if (c.mutation.kind === 'form' && c.mutation.key) names.add(c.mutation.key[0]);
  const named = keys.some((key) => names.has(key.split('.')[0]));
  if (!named)
    add(
      'names-field',
      keys.length === 0
        ? `answered ${status} without errors naming a field`
        : `answered ${status} with errors ${JSON.stringify(keys)}, none a field of the operation`,
    );
}

function decodable(text: string): boolean {
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}

/** One line per violation, enough to replay the case by hand. */
export function formatViolation(outcome: Outcome): string {
  const c = outcome.case;
  const rules = outcome.violations.map((v) => `[${v.rule}] ${v.detail}`).join('; ');
  const body = outcome.body.length > 160 ? `${outcome.body.slice(0, 160)}…` : outcome.body;
  return `${rules} — ${c.principal} ${c.cls} ${describeMutation(c.mutation)} → ${outcome.method} ${outcome.url.slice(0, 120)} → ${outcome.status} ${body}`;
}
