/**
 * Hostile input on every operation the API publishes (issue 10): NUL bytes, huge, negative,
 * fractional and NaN-ish numbers, bad dates, unicode oddities, long texts, wrong types, unknown
 * fields, bad query strings and bad tokens, as the admin, a consultant and anonymously; then loose
 * spellings of real ids on every `{id}` route. Each answer must be no 5xx, a 400/422 must name a
 * field, a loose id must not reach the record, a rejected write must change no row (the rules are
 * in hostile/runner.ts). FUZZ_N cases per operation (default 12), seed FUZZ_SEED; a larger run:
 * `npm run fuzz -- --n 10000`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp } from './harness.ts';
import { casesOf, looseIdCases } from './hostile/cases.ts';
import { seededRandom } from './hostile/random.ts';
import {
  ensureTarget,
  formatViolation,
  type Outcome,
  prepareContext,
  runCase,
  targetOf,
} from './hostile/runner.ts';
import { looseIds } from './hostile/values.ts';

const PER_OPERATION = Number(process.env.FUZZ_N ?? 12);
const SEED = Number(process.env.FUZZ_SEED ?? 20_260_511);

// Uploads of the run land in a folder of their own (the storage reads DOCUMENTS_DIR lazily).
const documents = fs.mkdtempSync(path.join(os.tmpdir(), 'gscrm-hostile-'));
process.env.DOCUMENTS_DIR = documents;

const t = await createTestApp();
const context = await prepareContext(t, SEED);
const random = seededRandom(SEED);

afterAll(async () => {
  await t.close();
  fs.rmSync(documents, { recursive: true, force: true });
});

function expectClean(outcomes: Outcome[]): void {
  const bad = outcomes.filter((outcome) => outcome.violations.length > 0);
  const shown = bad.slice(0, 12).map(formatViolation);
  if (bad.length > shown.length) shown.push(`… and ${bad.length - shown.length} more`);
  expect(shown, `seed ${SEED}: ${bad.length} of ${outcomes.length} answers broke a rule`).toEqual(
    [],
  );
}

async function run(cases: Parameters<typeof runCase>[1][]): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (const c of cases) outcomes.push(await runCase(context, c));
  return outcomes;
}

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

  for (const op of context.operations) {
    it(op.key, async () => {
      await ensureTarget(context, op);
      expectClean(await run(casesOf(op, PER_OPERATION, random)));
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
