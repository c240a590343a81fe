/**
 * The lead board's benchmark (issue 16: "a board with 2,000 leads renders its first screen in
 * ≤ 500 ms and a drop round-trips in ≤ 100 ms at p95"), for `npm run bench` (./run.ts) and the
 * browser measurement (./board-web.ts).
 *
 * Data (`loadLeads`, before the app starts): the demo's leads (about 360) topped up with generated
 * ones to `total` on the board — deterministic, split over the columns like the demo (28 % New
 * Leads, 18 % Not Reached, 20 % To Do, 34 % Done; new ones at most a month old), over the lead
 * sources round the list, assigned like the demo (New mostly unassigned; the call centre or a
 * consultant where the source's visibleRoles let that role see it), one in ten linked to a
 * customer, call attempts by column, close reasons in Done. Each column's generated cards sit
 * below its demo cards, newest first, their positions from one `generateNKeysBetween` per column.
 * Inserted 250 rows a statement (with the history trigger, as the app writes).
 *
 * Cases (`runLeadCases`, against the running app, every answer read to its end):
 * - **board first screen**: the four column requests the board sends in parallel
 *   (src/custom/leads/LeadBoard.tsx through the data provider: page 1, BOARD_PAGE_SIZE cards,
 *   `sort=position&order=asc`, the column's `status`, `_prefetch` of the cards' references),
 *   `rounds` times one after the other after a warm-up; the wall time until all four answered.
 *   As admin and as the call centre (who sees the unassigned leads and its own).
 * - **drop**: POST /api/leads/{id}/move, one after the other — a random card to one of the other
 *   columns, right below a random card of that column (one in ten: on top), with the version the
 *   board holds; Done with a close reason (the board asks for it first). The board is kept in
 *   memory from the server's answers, so no anchor is ever stale: a 409 is a finding. Afterwards
 *   the columns are read again and must be in the order the benchmark expects.
 * - **drop, N clients**: N clients dropping at once (never the same card, nor a card another
 *   client's drop is anchored to); then every card must be in exactly one column, positions
 *   unique, counts adding up.
 */
import { generateNKeysBetween } from 'fractional-indexing';
import type { Insertable } from 'kysely';
import type { Database } from '../../server/db/index.ts';
import {
  ascii,
  FIRST,
  LAST,
  MAIL_DOMAINS,
  PLACES,
  type Region,
  STREETS,
  storedPhone,
} from '../../server/demo/customers.ts';
import { random } from '../../server/demo/random.ts';
import {
  BOARD_PAGE_SIZE,
  LEAD_STATUSES,
  type LeadCloseStatus,
  type LeadStatus,
} from '../../src/schema/leads.ts';
import type { LeadsTable } from '../../src/types/database.ts';
import { type Latencies, latencies } from './load.ts';

/** The figures the issue sets (ms, at p95). */
export const BOARD_TARGETS = { firstScreenMs: 500, dropMs: 100 } as const;

/** The references a card names, prefetched with each page (LeadBoard.tsx `PREFETCH`). */
const PREFETCH = ['assigned_to', 'customer_id'];

/**
 * A column's page as the board asks it (src/dataProvider `listQuery`: pagination, sort, filters,
 * then `_prefetch`; no filter set in the filter bar).
 */
export function columnPath(status: LeadStatus, page = 1, perPage = BOARD_PAGE_SIZE): string {
  const query = new URLSearchParams();
  query.set('page', String(page));
  query.set('per_page', String(perPage));
  query.set('sort', 'position');
  query.set('order', 'asc');
  query.append('status', status);
  for (const field of PREFETCH) query.append('_prefetch', field);
  return `/api/leads?${query.toString()}`;
}

// ---- Data

export interface BoardLoad {
  /** Leads on the board (demo + generated). */
  total: number;
  demo: number;
  generated: number;
  perColumn: Record<LeadStatus, number>;
  sources: number;
  seconds: number;
}

type LeadValues = Insertable<LeadsTable>;

const CLOSE_REASONS: LeadCloseStatus[] = [
  'resolved',
  'never_reached',
  'not_interested',
  'invalid',
  'not_interested',
  'never_reached',
];

const INSERT_BATCH = 250;

/** Lead sources for a database that has none (the demo has its own; the bench loads it). */
const FALLBACK_SOURCES = [
  ['Website', 'web'],
  ['Partner', 'partner'],
  ['Messe', 'event'],
  ['Empfehlung', 'internal'],
] as const;

/**
 * Tops the board up to `total` leads (none added when it holds that many already). Answers what
 * the board holds then.
 */
export async function loadLeads(
  database: Database,
  total: number,
  progress: (text: string) => void = () => {},
): Promise<BoardLoad> {
  const started = performance.now();
  const { db } = database;
  let sources = await db
    .selectFrom('lead_sources')
    .select(['id', 'visible_roles'])
    .orderBy('id')
    .execute();
  if (sources.length === 0) {
    progress('  no lead sources: creating four');
    await db
      .insertInto('lead_sources')
      .values(
        FALLBACK_SOURCES.map(([name, group]) => ({
          name_de: name,
          name_fr: name,
          name_it: name,
          name_en: name,
          group,
          visible_roles: JSON.stringify([]),
          email_to: JSON.stringify({ enabled: false }),
          feedback_to: JSON.stringify({ enabled: false }),
        })),
      )
      .execute();
    sources = await db
      .selectFrom('lead_sources')
      .select(['id', 'visible_roles'])
      .orderBy('id')
      .execute();
  }
  const users = await db.selectFrom('users').select(['id', 'email']).execute();
  const idOf = (email: string) => users.find((user) => user.email === email)?.id;
  const consultants = ['consultant@demo.gscrm.ch', 'consultant2@demo.gscrm.ch']
    .map(idOf)
    .filter((id): id is number => id !== undefined);
  const callCentre = idOf('callcenter@demo.gscrm.ch');
  const customers = await db
    .selectFrom('customers')
    .select(['id', 'first_name', 'last_name', 'organization', 'is_company', 'email'])
    .orderBy('id')
    .limit(500)
    .execute();
  const existing = await db
    .selectFrom('leads')
    .select([
      'status',
      (eb) => eb.fn.countAll<string>().as('count'),
      (eb) => eb.fn.max('position').as('last'),
    ])
    .groupBy('status')
    .execute();
  const demo = existing.reduce((sum, row) => sum + Number(row.count), 0);
  const generated = Math.max(0, total - demo);

  const rnd = random(20261200);
  const now = Date.now();
  const byColumn = Object.fromEntries(
    LEAD_STATUSES.map((status) => [status, []]),
  ) as unknown as Record<LeadStatus, LeadValues[]>;
  for (let n = 0; n < generated; n++) {
    const source = sources[n % sources.length];
    const roles = (source.visible_roles ?? []) as string[];
    const sees = (role: string) => roles.length === 0 || roles.includes(role);
    const region: Region = rnd.pick(['de', 'de', 'de', 'fr', 'fr', 'it'] as const);
    const roll = rnd.int(0, 99);
    const status: LeadStatus =
      roll < 28 ? 'new' : roll < 46 ? 'not reached' : roll < 66 ? 'to do' : 'closed';
    // New leads are recent; the others up to half a year old.
    const ageDays = status === 'new' ? rnd.int(0, 30) : rnd.int(1, 180);
    const created = now - ageDays * 86_400_000 - rnd.int(0, 600) * 60_000;
    let assigned: number | null = null;
    if (status !== 'new' || rnd.chance(0.2)) {
      const choice = rnd.int(0, 2);
      if (choice === 0 && callCentre && sees('BACKOFFICE-CALLCENTER')) assigned = callCentre;
      else if (choice > 0 && consultants.length > 0 && sees('CONSULTANT'))
        assigned = rnd.pick(consultants);
      else if (callCentre && sees('BACKOFFICE-CALLCENTER')) assigned = callCentre;
    }
    const customer = customers.length > 0 && rnd.chance(0.1) ? rnd.pick(customers) : undefined;
    const place = rnd.pick(PLACES[region]);
    const female = rnd.chance(0.5);
    const firstName = customer
      ? customer.first_name
      : rnd.pick(FIRST[region][female ? 'female' : 'male']);
    const lastName = customer ? customer.last_name : rnd.pick(LAST[region]);
    const closeStatus = status === 'closed' ? rnd.pick(CLOSE_REASONS) : null;
    const failed = status === 'new' ? 0 : status === 'not reached' ? rnd.int(1, 3) : rnd.int(0, 2);
    const attempts: Array<{
      at: string;
      outcome: 'not_reached' | 'voicemail' | 'reached';
      user_id?: number;
    }> = [];
    let at = created + rnd.int(2, 30) * 3_600_000;
    for (let attempt = 0; attempt < failed; attempt++) {
      attempts.push({
        at: new Date(Math.min(at, now)).toISOString(),
        outcome: rnd.pick(['not_reached', 'voicemail'] as const),
        ...(assigned ? { user_id: assigned } : {}),
      });
      at += rnd.int(20, 60) * 3_600_000;
    }
    if (status === 'to do' || (status === 'closed' && closeStatus !== 'never_reached'))
      attempts.push({
        at: new Date(Math.min(at, now)).toISOString(),
        outcome: 'reached',
        ...(assigned ? { user_id: assigned } : {}),
      });
    const last = attempts.at(-1);
    byColumn[status].push({
      created_at: new Date(created).toISOString(),
      updated_at: last?.at ?? new Date(created).toISOString(),
      customer_id: customer ? Number(customer.id) : null,
      is_company: customer ? customer.is_company === true : false,
      organization: customer ? customer.organization : null,
      first_name: firstName,
      last_name: lastName,
      email: customer
        ? customer.email
        : `${ascii(firstName ?? '')}.${ascii(lastName ?? '')}${n}@${rnd.pick(MAIL_DOMAINS)}`,
      phone_number: customer
        ? null
        : storedPhone(
            `07${rnd.pick([6, 7, 8, 9])} ${rnd.int(200, 999)} ${rnd.int(10, 99)} ${rnd.int(10, 99)}`,
          ),
      street: customer ? null : `${rnd.pick(STREETS[region])} ${rnd.int(1, 80)}`,
      zip: customer ? null : place.zip,
      city: customer ? null : place.city,
      language: region,
      lead_source: Number(source.id),
      assigned_to: assigned,
      status,
      close_status: closeStatus,
      attempt_count: attempts.length,
      last_attempt_at: last?.at ?? null,
      call_attempts: JSON.stringify(attempts),
      closed_at: status === 'closed' ? (last?.at ?? new Date(created).toISOString()) : null,
    });
  }
  // Below each column's cards, newest first.
  for (const status of LEAD_STATUSES) {
    const column = byColumn[status].sort((a, b) =>
      String(b.created_at).localeCompare(String(a.created_at)),
    );
    const after = existing.find((row) => row.status === status)?.last ?? null;
    const keys = generateNKeysBetween(after, null, column.length);
    column.forEach((lead, index) => {
      lead.position = keys[index];
    });
  }
  const rows = LEAD_STATUSES.flatMap((status) => byColumn[status]);
  for (let from = 0; from < rows.length; from += INSERT_BATCH)
    await db
      .insertInto('leads')
      .values(rows.slice(from, from + INSERT_BATCH))
      .execute();
  await database.exclusive((exec) => exec('vacuum analyze leads'));
  const counted = await db
    .selectFrom('leads')
    .select(['status', (eb) => eb.fn.countAll<string>().as('count')])
    .groupBy('status')
    .execute();
  const perColumn = Object.fromEntries(
    LEAD_STATUSES.map((status) => [
      status,
      Number(counted.find((row) => row.status === status)?.count ?? 0),
    ]),
  ) as Record<LeadStatus, number>;
  const load: BoardLoad = {
    total: Object.values(perColumn).reduce((sum, count) => sum + count, 0),
    demo,
    generated,
    perColumn,
    sources: sources.length,
    seconds: (performance.now() - started) / 1000,
  };
  progress(
    `  lead board: ${load.total} leads (${demo} demo + ${generated} generated; ${LEAD_STATUSES.map((status) => `${status} ${perColumn[status]}`).join(', ')}) over ${sources.length} sources in ${load.seconds.toFixed(1)} s`,
  );
  return load;
}

// ---- Cases

export interface LeadCase extends Latencies {
  name: string;
  user: string;
  /** Measured rounds (first screens, drops). */
  rounds: number;
  /** Concurrent clients (drops under load), else 1. */
  clients: number;
  /** The issue's figure for this case (ms at p95). */
  targetMs: number;
  met: boolean;
  /** Answers by status (all of them, 200 too). */
  statuses: Record<string, number>;
  non200: number;
  /** Requests answered per second (the drops under load). */
  reqPerSec?: number;
  /** First screen: each column's total (meta), cards on its first page and bytes as received. */
  columns?: Array<{ status: LeadStatus; total: number; rows: number; bytes: number }>;
  /** First screen: the slowest of the four requests of a round (p50, p95). */
  slowestColumn?: { p50: number; p95: number };
  appCpuMsPerRequest?: number;
  dbCpuMsPerRequest?: number;
  flags: string[];
}

export interface LeadsResult {
  board: BoardLoad;
  cases: LeadCase[];
  /** The board read again after the drops: what was checked and what was wrong. */
  consistency: { checked: string[]; problems: string[] };
}

interface Card {
  id: number;
  version: number;
}

type Board = Record<LeadStatus, Card[]>;

export interface Runner {
  url: string;
  headers: (auth: string) => Record<string, string>;
  /** CPU of the app process so far (ms). */
  appCpu: () => number;
  /** CPU of the database's backends so far, by process id (ms; PostgreSQL on this machine). */
  dbCpu?: () => Map<number, number>;
  log: (text: string) => void;
}

/**
 * The database's CPU since `before` (a reading of `Runner.dbCpu`), counted per backend: one that
 * ended meanwhile is left out rather than subtracted, one that started counts from zero.
 */
function dbCpuSince(runner: Runner, before: Map<number, number> | undefined): number | undefined {
  if (!runner.dbCpu || !before) return undefined;
  let spent = 0;
  for (const [pid, ms] of runner.dbCpu()) spent += ms - (before.get(pid) ?? 0);
  return spent;
}

const OPEN_REASONS: LeadCloseStatus[] = ['resolved', 'not_interested', 'never_reached', 'invalid'];

async function getJson(
  runner: Runner,
  auth: string,
  pathname: string,
): Promise<{ status: number; body: unknown; bytes: number }> {
  const response = await fetch(`${runner.url}${pathname}`, { headers: runner.headers(auth) });
  const text = await response.text();
  return {
    status: response.status,
    body: response.status === 200 ? JSON.parse(text) : text,
    bytes: Number(response.headers.get('content-length') ?? text.length),
  };
}

/** One first screen: the four columns at once; the wall time, each request's and each answer. */
async function firstScreen(runner: Runner, auth: string) {
  const started = performance.now();
  const answers = await Promise.all(
    LEAD_STATUSES.map(async (column) => {
      const begin = performance.now();
      const answer = await getJson(runner, auth, columnPath(column));
      return { column, ...answer, ms: performance.now() - begin };
    }),
  );
  return { wall: performance.now() - started, answers };
}

function caseOf(
  name: string,
  user: string,
  times: number[],
  statuses: Record<string, number>,
  targetMs: number,
  clients = 1,
): LeadCase {
  const stats = latencies(times);
  const non200 = Object.entries(statuses)
    .filter(([status]) => status !== '200')
    .reduce((sum, [, count]) => sum + count, 0);
  const kase: LeadCase = {
    name,
    user,
    ...stats,
    rounds: times.length,
    clients,
    targetMs,
    met: non200 === 0 && stats.p95 <= targetMs,
    statuses,
    non200,
    flags: [],
  };
  if (non200 > 0)
    kase.flags.push(
      `${non200} answers other than 200 (${Object.entries(statuses)
        .filter(([status]) => status !== '200')
        .map(([status, count]) => `${count}× ${status}`)
        .join(', ')})`,
    );
  return kase;
}

async function measureFirstScreen(
  runner: Runner,
  name: string,
  user: string,
  auth: string,
  rounds: number,
  warmUps: number,
): Promise<LeadCase> {
  const statuses: Record<string, number> = {};
  const walls: number[] = [];
  const slowest: number[] = [];
  let last: Awaited<ReturnType<typeof firstScreen>> | undefined;
  for (let round = 0; round < warmUps + rounds; round++) {
    const screen = await firstScreen(runner, auth);
    if (round < warmUps) {
      const refused = screen.answers.find((answer) => answer.status !== 200);
      if (refused)
        throw new Error(
          `${name}: ${columnPath(refused.column)} answered ${refused.status}: ${String(refused.body).slice(0, 200)}`,
        );
      continue;
    }
    for (const answer of screen.answers)
      statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
    walls.push(screen.wall);
    slowest.push(Math.max(...screen.answers.map((answer) => answer.ms)));
    last = screen;
  }
  const kase = caseOf(name, user, walls, statuses, BOARD_TARGETS.firstScreenMs);
  const slow = latencies(slowest);
  kase.slowestColumn = { p50: slow.p50, p95: slow.p95 };
  kase.columns = (last?.answers ?? []).map((answer) => {
    const body = answer.body as { data?: unknown[]; meta?: { total?: number } };
    return {
      status: answer.column,
      total: Number(body.meta?.total ?? NaN),
      rows: body.data?.length ?? 0,
      bytes: answer.bytes,
    };
  });
  return kase;
}

/** Every card of every column in board order, as the server has it (admin sees all). */
async function readBoard(
  runner: Runner,
  auth: string,
): Promise<{ board: Board; positions: Record<LeadStatus, string[]> }> {
  const board = {} as Board;
  const positions = {} as Record<LeadStatus, string[]>;
  for (const status of LEAD_STATUSES) {
    board[status] = [];
    positions[status] = [];
    for (let page = 1; ; page++) {
      const answer = await getJson(runner, auth, columnPath(status, page, 500));
      if (answer.status !== 200) throw new Error(`reading ${status}: ${answer.status}`);
      const body = answer.body as {
        data: Array<{ id: number; version: number; position: string | null }>;
        meta: { total: number };
      };
      for (const row of body.data) {
        board[status].push({ id: row.id, version: row.version });
        positions[status].push(row.position ?? '');
      }
      if (body.data.length < 500 || board[status].length >= body.meta.total) break;
    }
  }
  return { board, positions };
}

/** Deterministic choices for the drops (the demo's mulberry32; the same for every engine). */
const DROP_SEED = 16_2026;
let dropRandom = random(DROP_SEED);

interface Drop {
  card: Card;
  from: LeadStatus;
  to: LeadStatus;
  afterId: number | null;
}

/** A random card (not `busy`) to another column, below a random card there (not `busy`) or on top. */
function chooseDrop(board: Board, busy: Set<number>): Drop | undefined {
  for (let attempt = 0; attempt < 50; attempt++) {
    const from = dropRandom.pick(LEAD_STATUSES);
    const candidates = board[from].filter((card) => !busy.has(card.id));
    if (candidates.length === 0) continue;
    const card = dropRandom.pick(candidates);
    const to = dropRandom.pick(LEAD_STATUSES.filter((status) => status !== from));
    const anchors = board[to].filter((other) => !busy.has(other.id));
    const afterId =
      anchors.length === 0 || dropRandom.chance(0.1) ? null : dropRandom.pick(anchors).id;
    return { card, from, to, afterId };
  }
  return undefined;
}

function applyDrop(board: Board, drop: Drop, version: number): void {
  board[drop.from] = board[drop.from].filter((card) => card.id !== drop.card.id);
  const target = board[drop.to];
  const at = drop.afterId === null ? 0 : target.findIndex((card) => card.id === drop.afterId) + 1;
  target.splice(at, 0, { id: drop.card.id, version });
}

async function sendDrop(
  runner: Runner,
  auth: string,
  drop: Drop,
): Promise<{ status: number; ms: number; version?: number; body: string }> {
  const body: Record<string, unknown> = {
    status: drop.to,
    after_id: drop.afterId,
    version: drop.card.version,
  };
  if (drop.to === 'closed') body.close_status = dropRandom.pick(OPEN_REASONS);
  const started = performance.now();
  const response = await fetch(`${runner.url}/api/leads/${drop.card.id}/move`, {
    method: 'POST',
    headers: { ...runner.headers(auth), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  const ms = performance.now() - started;
  if (response.status !== 200) return { status: response.status, ms, body: text };
  const answer = JSON.parse(text) as { data: { version: number; status: string } };
  return { status: 200, ms, version: answer.data.version, body: '' };
}

/** `rounds` drops one after the other (after `warmUps`), the board kept from the answers. */
async function measureDrops(
  runner: Runner,
  auth: string,
  board: Board,
  rounds: number,
  warmUps: number,
): Promise<LeadCase> {
  const statuses: Record<string, number> = {};
  const times: number[] = [];
  const examples: string[] = [];
  let app = 0;
  let db: Map<number, number> | undefined;
  for (let round = 0; round < warmUps + rounds; round++) {
    const drop = chooseDrop(board, new Set());
    if (!drop) throw new Error('no card to drop');
    const measured = round >= warmUps;
    if (round === warmUps) {
      app = runner.appCpu();
      db = runner.dbCpu?.();
    }
    const answer = await sendDrop(runner, auth, drop);
    if (measured) {
      statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
      if (answer.status === 200) times.push(answer.ms);
    }
    if (answer.status === 200) applyDrop(board, drop, answer.version ?? drop.card.version + 1);
    else {
      if (examples.length < 3) examples.push(`${answer.status}: ${answer.body.slice(0, 160)}`);
      // Refused: the board as the server has it, as LeadBoard reloads its columns.
      Object.assign(board, (await readBoard(runner, auth)).board);
    }
  }
  const kase = caseOf('drop (one at a time)', 'admin', times, statuses, BOARD_TARGETS.dropMs);
  kase.appCpuMsPerRequest = (runner.appCpu() - app) / rounds;
  const dbSpent = dbCpuSince(runner, db);
  if (dbSpent !== undefined) kase.dbCpuMsPerRequest = dbSpent / rounds;
  if (examples.length) kase.flags.push(`refusals: ${examples.join(' | ')}`);
  return kase;
}

/** `clients` clients, each dropping `perClient` cards; no two drops in flight touch one card. */
async function measureConcurrentDrops(
  runner: Runner,
  auth: string,
  board: Board,
  clients: number,
  perClient: number,
): Promise<LeadCase> {
  const statuses: Record<string, number> = {};
  const times: number[] = [];
  const examples: string[] = [];
  const busy = new Set<number>();
  const app = runner.appCpu();
  const db = runner.dbCpu?.();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      for (let round = 0; round < perClient; round++) {
        const drop = chooseDrop(board, busy);
        if (!drop) throw new Error('no card to drop');
        const held = [drop.card.id, ...(drop.afterId === null ? [] : [drop.afterId])];
        for (const id of held) busy.add(id);
        try {
          const answer = await sendDrop(runner, auth, drop);
          statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
          if (answer.status === 200) {
            times.push(answer.ms);
            applyDrop(board, drop, answer.version ?? drop.card.version + 1);
          } else if (examples.length < 3) {
            examples.push(`${answer.status}: ${answer.body.slice(0, 160)}`);
          }
        } finally {
          for (const id of held) busy.delete(id);
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const kase = caseOf(
    `drop, ${clients} clients at once`,
    'admin',
    times,
    statuses,
    BOARD_TARGETS.dropMs,
    clients,
  );
  kase.reqPerSec = (clients * perClient) / seconds;
  kase.appCpuMsPerRequest = (runner.appCpu() - app) / (clients * perClient);
  const dbSpent = dbCpuSince(runner, db);
  if (dbSpent !== undefined) kase.dbCpuMsPerRequest = dbSpent / (clients * perClient);
  if (examples.length) kase.flags.push(`refusals: ${examples.join(' | ')}`);
  return kase;
}

/**
 * The board as the server has it against what the benchmark expects: the same cards in each
 * column (in the same order when `order`), positions strictly increasing, none lost or doubled.
 */
async function checkBoard(
  runner: Runner,
  auth: string,
  expected: Board,
  order: boolean,
  what: string,
  result: LeadsResult['consistency'],
  total: number,
): Promise<Board> {
  const { board, positions } = await readBoard(runner, auth);
  const seen = new Set<number>();
  let count = 0;
  for (const status of LEAD_STATUSES) {
    const ids = board[status].map((card) => card.id);
    const wanted = expected[status].map((card) => card.id);
    count += ids.length;
    for (const id of ids) {
      if (seen.has(id)) result.problems.push(`${what}: lead ${id} in two columns`);
      seen.add(id);
    }
    for (let index = 1; index < positions[status].length; index++)
      if (!(positions[status][index - 1] < positions[status][index]))
        result.problems.push(`${what}: ${status} positions not increasing at ${index}`);
    const same = order
      ? ids.join(',') === wanted.join(',')
      : [...ids].sort((a, b) => a - b).join(',') === [...wanted].sort((a, b) => a - b).join(',');
    if (!same)
      result.problems.push(
        `${what}: ${status} holds ${ids.length} cards, expected ${wanted.length}${order ? ' in this order' : ''}`,
      );
  }
  if (count !== total) result.problems.push(`${what}: ${count} cards on the board, not ${total}`);
  result.checked.push(
    `${what}: ${count} cards, ${order ? 'every column in the expected order' : 'every card in its expected column'}, positions strictly increasing`,
  );
  return board;
}

export interface LeadCaseOptions {
  /** Authorization headers of the users (admin; the call centre when there is one). */
  admin: string;
  callCentre?: string;
  board: BoardLoad;
  rounds: number;
  drops: number;
  dropClients: number;
  /** Drops per client under load. */
  dropsPerClient: number;
}

export async function runLeadCases(runner: Runner, options: LeadCaseOptions): Promise<LeadsResult> {
  dropRandom = random(DROP_SEED);
  const result: LeadsResult = {
    board: options.board,
    cases: [],
    consistency: { checked: [], problems: [] },
  };
  const report = (kase: LeadCase) => {
    runner.log(
      `  ${kase.name.padEnd(34)} ${kase.user.padEnd(11)} p50 ${kase.p50.toFixed(1).padStart(6)}  p95 ${kase.p95.toFixed(1).padStart(6)}  max ${kase.max.toFixed(1).padStart(6)} ms  (${kase.rounds} rounds; target ≤ ${kase.targetMs} ms: ${kase.met ? 'met' : 'NOT met'}${kase.flags.length ? `; ${kase.flags.join('; ')}` : ''})`,
    );
    result.cases.push(kase);
  };
  report(
    await measureFirstScreen(
      runner,
      'board first screen (4 columns)',
      'admin',
      options.admin,
      options.rounds,
      10,
    ),
  );
  if (options.callCentre)
    report(
      await measureFirstScreen(
        runner,
        'board first screen (4 columns)',
        'call centre',
        options.callCentre,
        options.rounds,
        10,
      ),
    );
  const { board } = await readBoard(runner, options.admin);
  report(await measureDrops(runner, options.admin, board, options.drops, 20));
  await checkBoard(
    runner,
    options.admin,
    board,
    true,
    'after the drops one at a time',
    result.consistency,
    options.board.total,
  );
  if (options.dropClients > 1 && options.dropsPerClient > 0) {
    const kase = await measureConcurrentDrops(
      runner,
      options.admin,
      board,
      options.dropClients,
      options.dropsPerClient,
    );
    report(kase);
    runner.log(`    (${kase.reqPerSec?.toFixed(0)} drops/s)`);
    await checkBoard(
      runner,
      options.admin,
      board,
      false,
      `after ${options.dropClients} clients' drops`,
      result.consistency,
      options.board.total,
    );
  }
  runner.log(
    `  board consistency: ${result.consistency.problems.length === 0 ? 'as expected' : result.consistency.problems.join('; ')}`,
  );
  return result;
}
