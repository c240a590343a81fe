/**
 * Before/after table of two `npm run bench` results:
 *   npx tsx scripts/bench/compare.ts bench/results/api-…-before.json bench/results/api-…-after.json
 * Per engine and case: req/s, p95 and CPU per request (app + database) of both runs.
 */
import fs from 'node:fs';
import type { Report } from './report.ts';
import type { CaseResult, EngineResult } from './run.ts';

const [beforeFile, afterFile] = process.argv.slice(2);
if (!beforeFile || !afterFile) throw new Error('usage: compare.ts <before.json> <after.json>');
const read = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8')) as Report;
const before = read(beforeFile);
const after = read(afterFile);

const num = (value: number | undefined) =>
  value === undefined || Number.isNaN(value)
    ? '–'
    : value < 10
      ? value.toFixed(1)
      : value.toFixed(0);
const cpu = (kase: CaseResult | undefined) =>
  kase && kase.appCpuMsPerRequest !== undefined
    ? num(kase.appCpuMsPerRequest + (kase.dbCpuMsPerRequest ?? 0))
    : '–';
const flag = (kase: CaseResult | undefined) => (kase?.flags.length ? ' ⚠' : '');

function cases(engine: EngineResult | undefined): Map<string, CaseResult> {
  const map = new Map<string, CaseResult>();
  if (!engine) return map;
  for (const kase of engine.cases) map.set(kase.name, kase);
  if (engine.anySort) map.set('any sort (worst p95)', engine.anySort);
  if (engine.healthDuringSearch)
    map.set('health check during a search', {
      ...engine.healthDuringSearch,
      name: 'health',
      path: '/api/health',
      user: '',
      flags: engine.healthDuringSearch.failures ? ['failures'] : [],
      reqPerSec: undefined,
    });
  return map;
}

const lines = [
  `Before: ${beforeFile} (commit ${before.git.commit}, \`${before.machine.uptimeBefore}\`)`,
  `After: ${afterFile} (commit ${after.git.commit}, \`${after.machine.uptimeBefore}\`)`,
  '',
];
for (const name of ['pglite', 'postgres'] as const) {
  const b = before.engines.find((engine) => engine.engine === name);
  const a = after.engines.find((engine) => engine.engine === name);
  if (!b && !a) continue;
  lines.push(
    `### ${name === 'pglite' ? 'PGlite' : 'PostgreSQL'} (${(a ?? b)?.generation.rows.toLocaleString('en')} customers)`,
    '',
    '| case | req/s before → after | p95 ms before → after | CPU ms/request before → after |',
    '|---|---|---|---|',
  );
  const bc = cases(b);
  const ac = cases(a);
  for (const key of new Set([...bc.keys(), ...ac.keys()])) {
    const x = bc.get(key);
    const y = ac.get(key);
    lines.push(
      `| ${key} | ${num(x?.reqPerSec)} → ${num(y?.reqPerSec)} | ${num(x?.p95)}${flag(x)} → ${num(y?.p95)}${flag(y)} | ${cpu(x)} → ${cpu(y)} |`,
    );
  }
  const memory = (engine: EngineResult | undefined) =>
    engine ? `${engine.memory.rssMb.toFixed(0)} MB` : '–';
  lines.push(
    `| server RSS after the run | | ${memory(b)} → ${memory(a)} | |`,
    `| app healthy after start | | ${b ? (b.startMs / 1000).toFixed(1) : '–'} s → ${a ? (a.startMs / 1000).toFixed(1) : '–'} s | |`,
    '',
  );
  for (const [label, engine] of [
    ['before', b],
    ['after', a],
  ] as const) {
    if (!engine?.raw?.length) continue;
    const page = engine.cases[0];
    lines.push(
      `Raw baseline ${label}: ` +
        engine.raw
          .map(
            (raw) =>
              `${raw.name} ${num(raw.result.reqPerSec)} req/s (app ÷ raw ${((raw.name.startsWith('search') ? engine.cases[1] : page).reqPerSec! / raw.result.reqPerSec).toFixed(2)})`,
          )
          .join('; '),
      '',
    );
  }
}
console.log(lines.join('\n'));
