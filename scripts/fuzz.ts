/**
 * The large run of the hostile-input suite (tests/api/hostile.test.ts runs a small one in
 * `npm test`): N hostile requests spread over every operation of the OpenAPI document, then loose
 * spellings of real ids on every `{id}` route, against a fresh demo database; prints the answers
 * by class per route and per payload class, and the broken rules. Exits 1 when a rule broke.
 *   npm run fuzz -- --n 10000 [--postgres postgres://postgres@127.0.0.1:5432/test] [--seed 42]
 *                   [--violations 40] [--json out.json]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: {
    n: { type: 'string', default: '2000' },
    postgres: { type: 'string' },
    seed: { type: 'string', default: '20260511' },
    violations: { type: 'string', default: '40' },
    json: { type: 'string' },
  },
});
const TOTAL = Number(args.n);
const SEED = Number(args.seed);
if (!Number.isInteger(TOTAL) || TOTAL < 1 || !Number.isInteger(SEED))
  throw new Error('--n and --seed take whole numbers');
// The harness reads the engine when it is loaded: choose it first.
if (args.postgres) {
  process.env.TEST_ENGINE = 'postgres';
  process.env.TEST_DATABASE_URL = args.postgres;
} else process.env.TEST_ENGINE = 'pglite';
const documents = fs.mkdtempSync(path.join(os.tmpdir(), 'gscrm-fuzz-'));
process.env.DOCUMENTS_DIR = documents;

const { createTestApp } = await import('../tests/api/harness.ts');
const { casesOf, looseIdCases } = await import('../tests/api/hostile/cases.ts');
const { seededRandom } = await import('../tests/api/hostile/random.ts');
const { ensureTarget, formatViolation, prepareContext, runCase, targetOf } =
  await import('../tests/api/hostile/runner.ts');
const { looseIds } = await import('../tests/api/hostile/values.ts');
type Outcome = Awaited<ReturnType<typeof runCase>>;

const started = Date.now();
const t = await createTestApp();
const outcomes: Outcome[] = [];
try {
  const context = await prepareContext(t, SEED);
  const random = seededRandom(SEED);
  const operations = context.operations;
  const perOperation = Math.floor(TOTAL / operations.length);
  const extra = TOTAL % operations.length;
  const progress = () => {
    if (outcomes.length % 500 === 0)
      process.stderr.write(
        `  ${outcomes.length} requests, ${Math.round((Date.now() - started) / 1000)} s\n`,
      );
  };
  process.stderr.write(
    `fuzz: ${TOTAL} hostile requests over ${operations.length} operations (${ENGINE()}), seed ${SEED}\n`,
  );
  for (const [index, op] of operations.entries()) {
    await ensureTarget(context, op);
    for (const c of casesOf(op, perOperation + (index < extra ? 1 : 0), random)) {
      outcomes.push(await runCase(context, c));
      progress();
    }
  }
  // Loose ids last, DELETEs at the very end: a loose id taken as the real one removes the target.
  const order = ['GET', 'PUT', 'PATCH', 'POST', 'DELETE'];
  for (const op of [...operations].sort(
    (a, b) => order.indexOf(a.method) - order.indexOf(b.method),
  )) {
    if (op.pathParams.length === 0) continue;
    await ensureTarget(context, op);
    const id = targetOf(context, op);
    if (id === undefined) continue;
    for (const c of looseIdCases(op, id, looseIds(id))) {
      outcomes.push(await runCase(context, c));
      progress();
    }
  }
} finally {
  await t.close();
  fs.rmSync(documents, { recursive: true, force: true });
}

function ENGINE(): string {
  return process.env.TEST_ENGINE === 'postgres' ? 'PostgreSQL' : 'PGlite';
}

// ---- report ----------------------------------------------------------------------------------
const COLUMNS = [
  '2xx',
  '400',
  '401',
  '403',
  '404',
  '409',
  '413',
  '415',
  '422',
  '429',
  '4xx',
  '5xx',
];
const columnOf = (status: number): string => {
  // 0: the server broke the answer off (counted with the server errors).
  if (status === 0 || status >= 500) return '5xx';
  if (status < 300) return '2xx';
  return COLUMNS.includes(String(status)) ? String(status) : '4xx';
};
const RULES = ['no-5xx', 'names-field', 'loose-id', 'unchanged'] as const;

interface Tally {
  n: number;
  by: Record<string, number>;
  broken: Record<string, number>;
}
const tally = (): Tally => ({ n: 0, by: {}, broken: {} });
function add(into: Tally, outcome: Outcome): void {
  into.n++;
  const column = columnOf(outcome.status);
  into.by[column] = (into.by[column] ?? 0) + 1;
  for (const violation of outcome.violations)
    into.broken[violation.rule] = (into.broken[violation.rule] ?? 0) + 1;
}

const byRoute = new Map<string, Tally>();
const byClass = new Map<string, Tally>();
const total = tally();
for (const outcome of outcomes) {
  const route = outcome.case.op.key;
  if (!byRoute.has(route)) byRoute.set(route, tally());
  if (!byClass.has(outcome.case.cls)) byClass.set(outcome.case.cls, tally());
  add(byRoute.get(route)!, outcome);
  add(byClass.get(outcome.case.cls)!, outcome);
  add(total, outcome);
}

function table(title: string, rows: Map<string, Tally>): string {
  const head = [title, 'n', ...COLUMNS, ...RULES.map((rule) => `!${rule}`)];
  const lines = [...rows.entries(), ['TOTAL', total] as const].map(([name, row]) => [
    name,
    String(row.n),
    ...COLUMNS.map((column) => String(row.by[column] ?? '')),
    ...RULES.map((rule) => String(row.broken[rule] ?? '')),
  ]);
  const widths = head.map((cell, index) =>
    Math.max(cell.length, ...lines.map((line) => line[index].length)),
  );
  const format = (cells: string[]) =>
    cells
      .map((cell, index) =>
        index === 0 ? cell.padEnd(widths[index]) : cell.padStart(widths[index]),
      )
      .join('  ');
  return [
    format(head),
    format(widths.map((width) => '-'.repeat(width))),
    ...lines.map(format),
  ].join('\n');
}

const seconds = Math.round((Date.now() - started) / 1000);
console.log(
  `\nHostile requests on ${ENGINE()}: ${total.n} (${TOTAL} generated + loose ids), seed ${SEED}, ${seconds} s\n`,
);
console.log(table('route', byRoute));
console.log('');
console.log(table('payload class', byClass));
const broken = outcomes.filter((outcome) => outcome.violations.length > 0);
console.log(
  `\n${broken.length} answers broke a rule (${RULES.map((rule) => `${rule}: ${total.broken[rule] ?? 0}`).join(', ')}).`,
);
for (const outcome of broken.slice(0, Number(args.violations)))
  console.log(`  ${formatViolation(outcome)}`);
if (args.json) {
  fs.writeFileSync(
    args.json,
    JSON.stringify(
      {
        engine: ENGINE(),
        seed: SEED,
        total: total.n,
        byRoute: Object.fromEntries(byRoute),
        byClass: Object.fromEntries(byClass),
        violations: broken.map(formatViolation),
      },
      null,
      2,
    ),
  );
}
process.exitCode = broken.length > 0 ? 1 : 0;
