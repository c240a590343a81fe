/**
 * The ledger's reading side and its manual writes (issue 17; see ./index.ts):
 * - who sees which lines: their own (user_id), everything with manage-commissions;
 * - the list's month range (period_from, period_until) and several statuses at once;
 * - GET /api/commission-lines/summary: count, total and sums by status and kind, with the list's
 *   filters (from the ledger's sums, ./sums.ts, unless a filter needs the lines);
 * - POST /api/commission-lines/{id}/reverse {reason}: a reversal by hand (manage-commissions);
 * - assigned single payments: each writes its ledger line; a change or a deletion reverses it
 *   (plus the new line), refused while the line is in a payout not yet paid.
 */
import type { FastifyInstance } from 'fastify';
import { type Expression, type SqlBool, sql } from 'kysely';
import { LINE_KINDS, LINE_STATUSES, toCentimes } from '../../src/schema/commissions.ts';
import type { SessionUser } from '../auth/sessions.ts';
import { writeTransaction } from '../audit/context.ts';
import type { HookContext, ResourceHooks, WriteContext } from '../crud/hooks.ts';
import type { DB } from '../db/index.ts';
import type { ResourceRow } from '../db/resource.ts';
import { idOf } from '../db/values.ts';
import {
  addError,
  ApiError,
  type FieldErrors,
  issue,
  notFound,
  validationError,
} from '../http/errors.ts';
import { merged } from '../customers/rules.ts';
import { openPeriod, reverseLine } from './engine.ts';
import { type SumRow, sumsByStatusAndKind, sumsCanAnswer } from './sums.ts';

export const MANAGE = 'manage-commissions';
const PERIOD = { type: 'string', pattern: '^[0-9]{4}-(0[1-9]|1[0-2])$', maxLength: 7 } as const;

const manages = (principal: Pick<SessionUser, 'permissions'> | undefined) =>
  !!principal && principal.permissions.includes(MANAGE);

/** A user's own lines (or payouts), unless the user manages commissions. */
export function ownUnlessManager(column: string) {
  return ({ principal }: HookContext) => {
    if (manages(principal)) return undefined;
    const me = principal?.id ?? 0;
    return () => sql<SqlBool>`${sql.ref(column)} = ${me}`;
  };
}

export const LINE_LIST_PARAMETERS = {
  period_from: PERIOD,
  period_until: PERIOD,
  statuses: {
    type: 'array',
    items: { type: 'string', enum: [...LINE_STATUSES] },
    maxItems: LINE_STATUSES.length,
  },
} as const;

function lineConditions(query: Record<string, unknown>): Expression<SqlBool>[] {
  const out: Expression<SqlBool>[] = [];
  if (typeof query.period_from === 'string')
    out.push(sql<SqlBool>`${sql.ref('commission_lines.period')} >= ${query.period_from}`);
  if (typeof query.period_until === 'string')
    out.push(sql<SqlBool>`${sql.ref('commission_lines.period')} <= ${query.period_until}`);
  if (Array.isArray(query.statuses) && query.statuses.length > 0)
    out.push(
      sql<SqlBool>`${sql.ref('commission_lines.status')} in (${sql.join(query.statuses as string[])})`,
    );
  return out;
}

export const commissionLineHooks: ResourceHooks = {
  scope: ownUnlessManager('commission_lines.user_id'),
  listParameters: LINE_LIST_PARAMETERS as never,
  listConditions: (query) => lineConditions(query).map((condition) => () => condition),
};

// ---- Assigned single payments

function singlePaymentErrors(record: ResourceRow): FieldErrors {
  const errors: FieldErrors = {};
  const amount = Number(record.amount);
  if (record.kind !== 'correction' && amount < 0)
    addError(errors, 'amount', issue('minimum', { limit: 0 }));
  if (amount === 0) addError(errors, 'amount', issue('notZero'));
  return errors;
}

async function frozenLine(db: DB, lineId: number | null): Promise<void> {
  if (lineId === null) return;
  const line = await db
    .selectFrom('commission_lines')
    .select(['status'])
    .where('id', '=', lineId)
    .executeTakeFirst();
  if (line?.status === 'in_payout') throw new ApiError(409, 'commissionLineFrozen');
}

async function writePaymentLine(db: DB, row: ResourceRow, by: number | null): Promise<number> {
  const userId = Number(row.user_id);
  const period = await openPeriod(db, userId, String(row.period));
  const inserted = await db
    .insertInto('commission_lines')
    .values({
      kind: String(row.kind),
      user_id: userId,
      amount: toCentimes(Number(row.amount)),
      period,
      status: 'ready_present',
      reason: String(row.reason ?? ''),
      explain: JSON.stringify([
        {
          key: 'app.commissions.explain.singlePayment',
          params: { kind: String(row.kind), reason: String(row.reason ?? '') },
        },
        ...(period !== row.period
          ? [
              {
                key: 'app.commissions.explain.nextPeriod',
                params: { from: String(row.period), until: period },
              },
            ]
          : []),
      ]),
      created_by: by,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return inserted.id;
}

async function reverseById(db: DB, lineId: number, reason: string, by: number | null) {
  const line = await db
    .selectFrom('commission_lines')
    .selectAll()
    .where('id', '=', lineId)
    .executeTakeFirst();
  if (!line) return;
  const reversed = await db
    .selectFrom('commission_lines')
    .select('id')
    .where('reverses_id', '=', lineId)
    .executeTakeFirst();
  if (reversed) return;
  await reverseLine(db, line, { reason, by });
}

export const singlePaymentHooks: ResourceHooks = {
  async validate(body: ResourceRow, context: WriteContext) {
    const record = merged(context.existing, body);
    const errors = singlePaymentErrors(record);
    if (context.existing) await frozenLine(context.db, idOf(context.existing.line_id));
    return errors;
  },
  /** The ledger line first (create, or a change: the old one reversed), so the row names it. */
  async prepare(values: ResourceRow, context: WriteContext) {
    const { db, principal, existing } = context;
    const by = principal?.id ?? null;
    const record = merged(existing, values);
    if (existing) {
      const same =
        Number(existing.amount) === Number(record.amount) &&
        existing.user_id === record.user_id &&
        existing.kind === record.kind &&
        existing.period === record.period &&
        existing.reason === record.reason;
      if (same) return values;
      const old = idOf(existing.line_id);
      if (old !== null) await reverseById(db, old, String(record.reason ?? ''), by);
    }
    return { ...values, line_id: await writePaymentLine(db, record, by) };
  },
  async afterWrite(_row, context) {
    const { db, principal, mode, existing } = context;
    if (mode !== 'delete' || !existing) return;
    const old = idOf(existing.line_id);
    await frozenLine(db, old);
    if (old !== null)
      await reverseById(db, old, String(existing.reason ?? ''), principal?.id ?? null);
  },
};

// ---- Routes: summary and reversal by hand

const LINE_FILTER_COLUMNS = [
  'user_id',
  'kind',
  'status',
  'contract_id',
  'product_id',
  'company_id',
  'product_group',
  'payout_id',
  'period',
] as const;

/** The summary read from the lines themselves (a filter the sums do not know). */
async function linesByStatusAndKind(
  db: DB,
  query: Record<string, unknown>,
  own: number | undefined,
): Promise<SumRow[]> {
  let select = db.selectFrom('commission_lines');
  if (own !== undefined) select = select.where('user_id', '=', own);
  for (const column of LINE_FILTER_COLUMNS) {
    const value = query[column];
    if (value !== undefined) select = select.where(column, '=', value as never);
  }
  for (const condition of lineConditions(query)) select = select.where(() => condition);
  const rows = await select
    .select(['status', 'kind'])
    .select((eb) => [
      eb.fn.countAll<number>().as('count'),
      eb.fn.sum<number>('amount').as('total'),
      eb.fn.sum<number>('stars').as('stars'),
    ])
    .groupBy(['status', 'kind'])
    .execute();
  return rows.map((row) => ({
    status: row.status,
    kind: row.kind,
    count: Number(row.count),
    total: Number(row.total ?? 0),
    stars: Number(row.stars ?? 0),
  }));
}

export async function lineRoutes(app: FastifyInstance): Promise<void> {
  const filters = {
    user_id: { type: 'integer', minimum: 1 },
    kind: { type: 'string', enum: [...LINE_KINDS] },
    status: { type: 'string', enum: [...LINE_STATUSES] },
    statuses: LINE_LIST_PARAMETERS.statuses,
    contract_id: { type: 'integer', minimum: 1 },
    product_id: { type: 'integer', minimum: 1 },
    company_id: { type: 'integer', minimum: 1 },
    product_group: { type: 'string', maxLength: 40 },
    payout_id: { type: 'integer', minimum: 1 },
    period: PERIOD,
    period_from: PERIOD,
    period_until: PERIOD,
  } as const;

  app.get<{ Querystring: Record<string, unknown> }>(
    '/api/commission-lines/summary',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['commission-lines'],
        summary: 'Count, total and sums by status and kind of the lines the filters select',
        querystring: { type: 'object', additionalProperties: false, properties: filters },
      },
    },
    async (request) => {
      const query = request.query;
      const principal = request.principal!;
      const own = manages(principal) ? undefined : principal.id;
      const rows = sumsCanAnswer(query)
        ? await sumsByStatusAndKind(app.db, query, own)
        : await linesByStatusAndKind(app.db, query, own);
      const byStatus: Record<string, number> = {};
      const byKind: Record<string, number> = {};
      let count = 0;
      let total = 0;
      let stars = 0;
      for (const row of rows) {
        byStatus[row.status] = (byStatus[row.status] ?? 0) + row.total;
        byKind[row.kind] = (byKind[row.kind] ?? 0) + row.total;
        count += row.count;
        total += row.total;
        stars += row.stars;
      }
      return {
        data: {
          count,
          total,
          by_status: byStatus,
          by_kind: byKind,
          stars: Math.round(stars * 100) / 100,
        },
      };
    },
  );

  app.post<{ Params: { id: number }; Body: { reason: string } }>(
    '/api/commission-lines/:id/reverse',
    {
      config: { access: MANAGE },
      schema: {
        tags: ['commission-lines'],
        summary: 'Reverse a line by hand (a correction), with the reason',
        params: {
          type: 'object',
          properties: { id: { type: 'integer', minimum: 1 } },
          required: ['id'],
        },
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['reason'],
          properties: { reason: { type: 'string', maxLength: 1000 } },
        },
      },
    },
    async (request, reply) => {
      const reason = request.body.reason.trim();
      if (!reason) throw validationError({ reason: [issue('required')] });
      const id = await writeTransaction(app.db, request, async (trx) => {
        const line = await trx
          .selectFrom('commission_lines')
          .selectAll()
          .where('id', '=', request.params.id)
          .forUpdate()
          .executeTakeFirst();
        if (!line) throw notFound('Commission line');
        if (line.reverses_id !== null || line.status === 'reversed')
          throw new ApiError(409, 'commissionLineReversed');
        const already = await trx
          .selectFrom('commission_lines')
          .select('id')
          .where('reverses_id', '=', line.id)
          .executeTakeFirst();
        if (already) throw new ApiError(409, 'commissionLineReversed');
        if (line.status === 'in_payout') throw new ApiError(409, 'commissionLineFrozen');
        return reverseLine(trx, line, { reason, by: request.principal!.id });
      });
      const row = await app.db
        .selectFrom('commission_lines')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      return reply.code(201).send({ data: row });
    },
  );
}
