/** The Markdown report of `npm run bench` (bench/results/api-*.md). */
import type { LeadCase, LeadsResult } from './leads.ts';
import type { CaseResult, EngineResult } from './run.ts';

export interface Report {
  startedAt: string;
  minutes: number;
  label?: string;
  git: { commit: string; dirty: boolean };
  rows: number;
  /** Generated contracts per customer (0: none). */
  contractsPerCustomer: number;
  /** Generated appointments (0: none; absent in reports before issue 15). */
  appointments?: number;
  /** `--only leads`: the lead board's cases alone (no customer book). */
  only?: string;
  /** Leads on the board (issue 16; absent in reports before it). */
  leads?: number;
  boardRounds?: number;
  dropRounds?: number;
  dropClients?: number;
  dropsPerClient?: number;
  connections: number;
  acceptEncoding: string;
  duration: number;
  sortRounds: number;
  machine: {
    cores: number;
    memoryGb: number;
    node: string;
    uptimeBefore: string;
    uptimeAfter: string;
  };
  engines: EngineResult[];
}

const ms = (value: number | undefined) =>
  value === undefined || Number.isNaN(value)
    ? '–'
    : value < 10
      ? value.toFixed(1)
      : value.toFixed(0);
const rate = (value: number | undefined) =>
  value === undefined ? '–' : value < 10 ? value.toFixed(1) : value.toFixed(0);
const HEADER =
  '| case | req/s | p50 ms | p95 ms | p99 ms | errors + non-2xx | CPU ms/request (app + db) | total (meta) | answers | flags |';
const RULE = '|---|---|---|---|---|---|---|---|---|---|';
const NAMES = { pglite: 'PGlite', postgres: 'PostgreSQL' };

function total(kase: CaseResult): string {
  const meta = kase.meta ?? {};
  const value = meta.total;
  const extra = Object.entries(meta)
    .filter(
      ([key]) =>
        !['current_page', 'per_page', 'total', 'last_page'].includes(key) &&
        !key.startsWith('has_'),
    )
    .map(([key, item]) => `${key} ${JSON.stringify(item)}`);
  return [value === undefined ? '–' : String(value), ...extra].join(', ');
}

function row(label: string, kase: CaseResult): string {
  const problems = (kase.non2xx ?? 0) + (kase.errors ?? 0) + (kase.timeouts ?? 0);
  const flagged = kase.flags.length > 0 ? `⚠ ${kase.flags.join('; ')}` : '';
  const cpu = [kase.appCpuMsPerRequest, kase.dbCpuMsPerRequest]
    .filter((value) => value !== undefined)
    .map(ms)
    .join(' + ');
  return `| ${label} | ${rate(kase.reqPerSec)} | ${ms(kase.p50)} | ${ms(kase.p95)} | ${ms(kase.p99)} | ${problems} | ${cpu || '–'} | ${total(kase)} | ${kase.samples ?? 0} | ${flagged} |`;
}

const NOT_MET = '**not met**';

function leadRow(kase: LeadCase): string {
  const cpu = [kase.appCpuMsPerRequest, kase.dbCpuMsPerRequest]
    .filter((value) => value !== undefined)
    .map(ms)
    .join(' + ');
  const columns = kase.columns
    ?.map(
      (column) =>
        `${column.status} ${column.total} (${column.rows} cards, ${(column.bytes / 1024).toFixed(1)} KB)`,
    )
    .join('; ');
  const notes = [
    kase.slowestColumn
      ? `slowest column request p50 ${ms(kase.slowestColumn.p50)} / p95 ${ms(kase.slowestColumn.p95)} ms`
      : '',
    kase.clients > 1
      ? `under load (the target is one user's drop): ${rate(kase.reqPerSec)} drops/s`
      : '',
    columns ? `columns: ${columns}` : '',
    kase.flags.length ? `⚠ ${kase.flags.join('; ')}` : '',
  ]
    .filter(Boolean)
    .join('; ');
  return `| ${kase.name} | ${kase.user} | ${kase.rounds} | ${ms(kase.p50)} | **${ms(kase.p95)}** | ${ms(kase.max)} | ${kase.non200} | ≤ ${kase.targetMs} ms | ${kase.met ? 'met' : NOT_MET} | ${cpu || '–'} | ${notes} |`;
}

/** The lead board's cases of one engine (issue 16). */
function leadLines(report: Report, leads: LeadsResult): string[] {
  const board = leads.board;
  const columns = Object.entries(board.perColumn)
    .map(([status, count]) => `${status} ${count}`)
    .join(', ');
  return [
    `Lead board (issue 16): ${board.total.toLocaleString('en')} leads (${board.demo} demo + ${board.generated} generated in ${board.seconds.toFixed(1)} s; ${columns}; ${board.sources} lead sources). ` +
      `First screen = the board's four column requests at once (page 1, 30 cards, \`sort=position\`, \`_prefetch\` of assignee and customer), wall time until all four answered, ${report.boardRounds ?? '?'} rounds one after the other after 10 warm-ups. ` +
      `Drop = POST /api/leads/{id}/move of a random card to another column below a random card (one in ten on top), ${report.dropRounds ?? '?'} one after the other after 20 warm-ups; then ${report.dropClients ?? '?'} clients × ${report.dropsPerClient ?? '?'} drops at once. Targets at p95.`,
    '',
    '| case | user | rounds | p50 ms | p95 ms | max ms | not 200 | target (p95) | target met | CPU ms/request (app + db) | notes |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...leads.cases.map(leadRow),
    '',
    `Board after the drops: ${leads.consistency.checked.join('; ')}${leads.consistency.problems.length ? `. ⚠ ${leads.consistency.problems.join('; ')}` : ': no problem found'}.`,
    '',
  ];
}

/** Commissions (issue 17): the batch recompute, then the screens' requests. */
function commissionLines(engine: EngineResult): string[] {
  const done = engine.recompute!;
  const lines = [
    `Commissions (issue 17): the demo's rules settled ${done.closures.toLocaleString('en')} closures in ${done.seconds.toFixed(1)} s ` +
      `(${done.contractsPerSecond.toFixed(0)} contracts/s; POST /api/commissions/recompute's batch, in this process before the app started), ` +
      `${done.written.toLocaleString('en')} lines written, ${done.lines.toLocaleString('en')} in the ledger; ` +
      `the benchmark's RSS ${done.rssBeforeMb.toFixed(0)} → peak ${done.rssPeakMb.toFixed(0)} MB${engine.engine === 'pglite' ? ' (the database included)' : ' (the engine only; the database is PostgreSQL)'}. ` +
      `Again with nothing changed: ${done.again.closures.toLocaleString('en')} closures in ${done.again.seconds.toFixed(1)} s (${done.again.contractsPerSecond.toFixed(0)}/s), ` +
      `${done.again.written} lines written${done.again.written ? ' ⚠ (expected none)' : ''}.`,
    '',
  ];
  if (engine.commissions?.length)
    lines.push(HEADER, RULE, ...engine.commissions.map((kase) => row(kase.name, kase)), '');
  return lines;
}

export function renderMarkdown(report: Report): string {
  const lines: string[] = [];
  const onlyLeads = report.only === 'leads';
  lines.push(
    `# API benchmark ${report.startedAt}${report.label ? ` (${report.label})` : ''}`,
    '',
    onlyLeads
      ? `Commit ${report.git.commit}${report.git.dirty ? ' with uncommitted changes in server/src/schemas' : ''}; lead board only (\`--only leads\`: the demo without the customer book); ${(report.leads ?? 0).toLocaleString('en')} leads; Accept-Encoding: ${report.acceptEncoding || 'none'}; whole run ${report.minutes.toFixed(1)} min.`
      : `Commit ${report.git.commit}${report.git.dirty ? ' with uncommitted changes in server/src/schemas' : ''}; ` +
          `${report.rows.toLocaleString('en')} customers; ${report.connections} concurrent connections ` +
          `(Accept-Encoding: ${report.acceptEncoding || 'none'}); ` +
          `${report.duration} s per case (longer when one request is slow: about two requests per connection, ≤ 30 s), ` +
          `${report.sortRounds * report.connections} requests per extra sort column (all answers counted); whole run ${report.minutes.toFixed(1)} min.`,
    '',
    `Machine: ${report.machine.cores} cores, ${report.machine.memoryGb.toFixed(1)} GB, Node ${report.machine.node}, shared.`,
    `Load before: \`${report.machine.uptimeBefore}\``,
    `Load after: \`${report.machine.uptimeAfter}\``,
    '',
  );
  for (const engine of report.engines) {
    lines.push(
      `## ${NAMES[engine.engine]}`,
      '',
      (onlyLeads
        ? 'Data: the demo, '
        : `Data: ${engine.generation.rows.toLocaleString('en')} customers loaded in ${engine.generation.seconds.toFixed(1)} s; `) +
        `app healthy ${(engine.startMs / 1000).toFixed(1)} s after its start; server RSS after the run ` +
        `${engine.memory.rssMb.toFixed(0)} MB (peak ${engine.memory.peakMb.toFixed(0)} MB); ` +
        `load average ${engine.loadAverage.before.map((v) => v.toFixed(2)).join(' ')} → ${engine.loadAverage.after.map((v) => v.toFixed(2)).join(' ')}.`,
      '',
    );
    if (engine.cases.length > 0) lines.push(HEADER, RULE);
    for (const kase of engine.cases) lines.push(row(kase.name, kase));
    if (engine.anySort)
      lines.push(
        row(
          `any sort (worst p95 of ${engine.sorts.length + 1}: ${engine.anySort.name})`,
          engine.anySort,
        ),
      );
    const health = engine.healthDuringSearch;
    if (health) {
      lines.push(row('search beside the health probe', health.search));
      lines.push(
        `| **health check during a search** (1 probe every 100 ms) | – | ${ms(health.p50)} | ${ms(health.p95)} | ${ms(health.p99)} | ${health.failures} | – | max ${ms(health.max)} ms | ${health.samples} | ${health.failures ? '⚠ failed probes' : ''} |`,
      );
    }
    if (engine.cases.length > 0) lines.push('');
    if (engine.sorts.length > 0) {
      lines.push(
        '<details><summary>Every sort column</summary>',
        '',
        HEADER,
        RULE,
        ...[engine.cases[2], ...engine.sorts].map((kase) => row(kase.name, kase)),
        '',
        '</details>',
        '',
      );
    }
    if (engine.contracts?.length) {
      lines.push(
        `Contracts: ${(engine.generation.rows * report.contractsPerCustomer).toLocaleString('en')} generated (${report.contractsPerCustomer} per customer).`,
        '',
        HEADER,
        RULE,
        ...engine.contracts.map((kase) => row(kase.name, kase)),
        '',
      );
    }
    if (engine.appointments?.length) {
      lines.push(
        `Appointments: ${(report.appointments ?? 0).toLocaleString('en')} generated over two years around the run, with a reminder for every tenth with a consultant.`,
        '',
        HEADER,
        RULE,
        ...engine.appointments.map((kase) => row(kase.name, kase)),
        '',
      );
    }
    if (engine.raw?.length) {
      const app = engine.cases[0];
      const appSearch = engine.cases[1];
      lines.push(
        `Raw baseline: the statements the app sent (captured on the wire), straight through \`pg\` by ${report.connections} clients, ${report.duration} s each.`,
        '',
        '| raw SQL | statements | req/s | p50 ms | p95 ms | p99 ms | errors | db CPU ms/request | app ÷ raw throughput |',
        '|---|---|---|---|---|---|---|---|---|',
      );
      for (const raw of engine.raw) {
        const against = raw.name.startsWith('search') ? appSearch : app;
        const ratio =
          against.reqPerSec !== undefined
            ? (against.reqPerSec / raw.result.reqPerSec).toFixed(2)
            : '–';
        lines.push(
          `| ${raw.name} | ${raw.statements.length} | ${rate(raw.result.reqPerSec)} | ${ms(raw.result.p50)} | ${ms(raw.result.p95)} | ${ms(raw.result.p99)} | ${raw.result.errors} | ${ms(raw.result.dbCpuMsPerRequest)} | ${ratio} |`,
        );
      }
      if (engine.floor) {
        const floor = engine.floor.result;
        const ratio =
          app.reqPerSec !== undefined ? (app.reqPerSec / floor.reqPerSec).toFixed(2) : '–';
        lines.push(
          `| HTTP floor: page + count answered by a bare Fastify + \`pg\` server with the app's compression (scripts/bench/floor-server.ts), ${report.connections} connections | ${engine.floor.statements.length} | ${rate(floor.reqPerSec)} | ${ms(floor.p50)} | ${ms(floor.p95)} | ${ms(floor.p99)} | ${floor.errors + floor.non2xx} | – | ${ratio} |`,
        );
      }
      lines.push('');
    }
    if (engine.leads) lines.push(...leadLines(report, engine.leads));
    if (engine.recompute) lines.push(...commissionLines(engine));
  }
  return `${lines.join('\n')}\n`;
}
