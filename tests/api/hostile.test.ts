/**
 * Hostile input on every operation the API publishes (issue 10): NUL bytes, huge, negative,
 * fractional and NaN-ish numbers, bad dates, unicode oddities, long texts, wrong types, unknown
 * fields, bad query strings and bad tokens, as the admin, a consultant and anonymously; then loose
 * spellings of real ids on every `{id}` route. Each answer must be no 5xx, a 400/422 must name a
 * field, a loose id must not reach the record, a rejected write must change no row (the rules are
 * in hostile/runner.ts). FUZZ_N cases per operation (default 10), seed FUZZ_SEED; a larger run:
 * `npm run fuzz -- --n 10000`.
 */
import { PDFDocument } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp, temporaryStorage } from './harness.ts';
import { multipart } from './multipart.ts';
import {
  casesOf,
  describeMutation,
  type HostileCase,
  looseIdCases,
  type Mutation,
  type PrincipalName,
  sweepCasesOf,
} from './hostile/cases.ts';
import type { Operation } from './hostile/openapi.ts';
import { seededRandom } from './hostile/random.ts';
import {
  ensureTarget,
  fingerprint,
  formatViolation,
  type Outcome,
  prepareContext,
  runCase,
  targetOf,
} from './hostile/runner.ts';
import { type HostileClass, looseIds } from './hostile/values.ts';

const PER_OPERATION = Number(process.env.FUZZ_N ?? 10);
const SEED = Number(process.env.FUZZ_SEED ?? 20_260_511);

// Uploads of the run land in a folder of their own.
temporaryStorage('hostile');
const t = await createTestApp();
const context = await prepareContext(t, SEED).catch(async (error: unknown) => {
  await t.close();
  throw error;
});
const random = seededRandom(SEED);

afterAll(async () => {
  await t.close();
});

function expectClean(outcomes: Outcome[]): void {
  const bad = outcomes.filter((outcome) => outcome.violations.length > 0);
  const shown = bad.slice(0, 12).map(formatViolation);
  if (bad.length > shown.length) shown.push(`… and ${bad.length - shown.length} more`);
  expect(shown, `seed ${SEED}: ${bad.length} of ${outcomes.length} answers broke a rule`).toEqual(
    [],
  );
}

/**
 * Operations whose `{id}` must name a record of a particular kind, not the run's generic target of
 * the resource: a signature request is made only for a signable document with a PDF pdf-lib reads
 * (server/signatures/) — on the generic document (no file) every case would stop at that check
 * and the body's values would never be tried. Answers the id to use; the generic target is put
 * back after the operation's cases.
 */
const SPECIAL_TARGETS: Record<string, { resource: string; make: () => Promise<number> }> = {
  'POST /api/documents/{id}/signature-requests': {
    resource: 'documents',
    make: async () => {
      const pdf = await PDFDocument.create();
      pdf.addPage([595.28, 841.89]);
      const form = multipart([
        ['document_type', 'mandate'],
        {
          name: 'file',
          filename: 'mandate.pdf',
          contentType: 'application/pdf',
          content: Buffer.from(await pdf.save()),
        },
      ]);
      const response = await context.asAdmin({
        method: 'POST',
        url: `/api/customers/${context.targets.get('customers')}/documents`,
        payload: form.payload,
        headers: form.headers,
      });
      if (response.statusCode !== 201)
        throw new Error(`upload a mandate: ${response.statusCode} ${response.body}`);
      return Number((response.json() as { data: { id: number } }).data.id);
    },
  },
};

/** Runs `fn` with the operation's special target in place (when it has one). */
async function withSpecialTarget(op: Operation, fn: () => Promise<void>): Promise<void> {
  const special = SPECIAL_TARGETS[op.key];
  if (!special) return fn();
  const generic = context.targets.get(special.resource);
  context.targets.set(special.resource, await special.make());
  // The new record changed the tables: the next write's fingerprint is taken anew.
  context.known = undefined;
  try {
    await fn();
  } finally {
    if (generic === undefined) context.targets.delete(special.resource);
    else context.targets.set(special.resource, generic);
  }
}

async function run(cases: Parameters<typeof runCase>[1][]): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (const c of cases) outcomes.push(await runCase(context, c));
  return outcomes;
}

/** One explicit case (the requests the issue reports). */
function probe(
  key: string,
  cls: HostileClass,
  mutation: Mutation,
  principal: PrincipalName = 'admin',
): HostileCase {
  const op = context.operations.find((candidate) => candidate.key === key);
  if (!op) throw new Error(`no operation ${key}`);
  return { op, cls, slot: describeMutation(mutation), mutation, principal, index: 20_000 };
}
const body = (field: string, value: unknown): Mutation => ({
  kind: 'body',
  path: [field],
  value,
});

describe('the requests issue 10 reports', () => {
  const probes = [
    probe('POST /api/auth/login', 'nul', body('email', 'a\u0000@x.ch'), 'anonymous'),
    probe('POST /api/account/forgot-password', 'nul', body('email', 'a\u0000@x.ch'), 'anonymous'),
    probe('POST /api/account/register', 'nul', body('first_name', 'a\u0000b'), 'anonymous'),
    probe('GET /api/customers', 'nul', { kind: 'query', text: 'search=a%00b', names: ['search'] }),
    probe('GET /api/customers', 'huge-number', {
      kind: 'query',
      text: 'assigned_to=2147483648',
      names: ['assigned_to'],
    }),
    probe('PATCH /api/sub-products/{id}', 'huge-number', body('product_id', 3_000_000_000)),
    probe('PATCH /api/customers/{id}', 'nul', body('notes', 'a\u0000b')),
    probe('PATCH /api/users/{id}', 'bad-date', body('date_of_birth', '0000-01-01')),
    probe('GET /api/notifications', 'bad-date', {
      kind: 'query',
      text: 'read_at_gte=0000-01-01T00%3A00%3A00Z',
      names: ['read_at_gte'],
    }),
    probe('PATCH /api/sub-broker-rules/{id}', 'bad-date', body('date_from', '0000-01-01')),
  ];
  for (const c of probes) {
    it(`${c.op.key} ${describeMutation(c.mutation)} (${c.principal})`, async () => {
      await ensureTarget(context, c.op);
      expectClean(await run([c]));
    });
  }
});

describe('hostile input on every operation', () => {
  it('covers every operation of the OpenAPI document, generic and hand-written', () => {
    const keys = context.operations.map((op) => op.key);
    for (const key of [
      'POST /api/auth/login',
      'POST /api/account/register',
      'POST /api/account/forgot-password',
      'PUT /api/localizations/translations/{id}',
      'POST /api/customers/{id}/documents',
      'POST /api/customers/import',
      'GET /api/customers/export',
      'POST /api/customers/{id}/merge',
      'GET /api/mail/outbox',
      ...context.models.flatMap((model) => [
        `GET /api/${model.name}`,
        `POST /api/${model.name}`,
        `PATCH /api/${model.name}/{id}`,
        `DELETE /api/${model.name}/{id}`,
      ]),
    ])
      expect(keys).toContain(key);
  });

  it('its fingerprint sees a row left changed, not one written as it was or rolled back', async () => {
    // Written here, not through a request: the next case takes its own "before".
    context.known = undefined;
    const db = context.t.database.db;
    const id = Number(context.targets.get('outbox'));
    // A mail of the outbox has no version and no trigger: written as it was, it stays as it was.
    const mail = () => db.updateTable('outbox').where('id', '=', id);
    const before = await fingerprint(context);
    await mail()
      .set((eb) => ({ subject: eb.ref('subject') }))
      .execute();
    await db
      .transaction()
      .execute(async (trx) => {
        await trx
          .updateTable('outbox')
          .where('id', '=', id)
          .set({ subject: 'rolled back' })
          .execute();
        throw new Error('roll back');
      })
      .catch(() => {});
    expect(await fingerprint(context)).toEqual(before);
    await mail()
      .set({ subject: `fingerprint probe ${SEED}` })
      .execute();
    const after = await fingerprint(context);
    expect([...after].filter(([table, changes]) => before.get(table) !== changes)).toEqual([
      ['outbox', String(Number(before.get('outbox') ?? 0) + 1)],
    ]);
  });

  for (const op of context.operations) {
    it(op.key, async () => {
      await ensureTarget(context, op);
      // A sample of every class, then every field once with a NUL, a huge number, a bad date.
      await withSpecialTarget(op, async () => {
        expectClean(await run([...casesOf(op, PER_OPERATION, random), ...sweepCasesOf(op)]));
      });
    });
  }
});

// After the hostile cases: a loose id that is (wrongly) taken as the real id changes the target.
describe('loose ids never reach a real record', () => {
  const order = ['GET', 'PUT', 'PATCH', 'POST', 'DELETE'];
  const withIds = context.operations
    .filter((op) => op.pathParams.length > 0 && targetOf(context, op) !== undefined)
    .sort((a, b) => order.indexOf(a.method) - order.indexOf(b.method));

  for (const op of withIds) {
    it(op.key, async () => {
      await ensureTarget(context, op);
      const id = targetOf(context, op) ?? 1;
      expectClean(await run(looseIdCases(op, id, looseIds(id))));
    });
  }
});
