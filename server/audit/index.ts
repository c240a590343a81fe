/**
 * The audit feature: the history of every change (rows written by the audit trigger of each
 * table, server/migrations/0013_record_history.sql, plus the explicit events of server/auth/audit.ts).
 *   GET /api/audit?resource=&record_id=&user_id=&action=&from=&until=&page=&per_page=
 * With resource and record_id: that record's history and its children's (a customer's documents
 * and household members), for anyone who may read the record (404 otherwise, as for the record).
 * Without: the whole log, filtered, for holders of manage-users (the /admin/audit-log screen).
 */
import type { FastifyInstance } from 'fastify';
import { type ExpressionBuilder, sql } from 'kysely';
import type { ResourceModel } from '../../src/schema/model.ts';
import { visibleRow } from '../customers/access.ts';
import type { Tables } from '../db/index.ts';
import { purgeAudit } from './retention.ts';
import { ApiError, forbidden, issue, notFound } from '../http/errors.ts';
import { countAtMost, listSchema, pageAnswer, pageSchema, perPageSchema } from '../http/lists.ts';

/** The permission that opens the whole log (docs/ARCHITECTURE.md, "History of every change"). */
export const AUDIT_LOG_PERMISSION = 'manage-users';

export interface AuditQuery {
  resource?: string;
  record_id?: number;
  user_id?: number;
  action?: 'create' | 'update' | 'delete';
  event?: string;
  from?: string;
  until?: string;
  page: number;
  per_page: number;
}

const querySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    resource: { type: 'string', maxLength: 100 },
    record_id: { type: 'integer', minimum: 1, maximum: 2_147_483_647 },
    user_id: { type: 'integer', minimum: 1, maximum: 2_147_483_647 },
    action: { type: 'string', enum: ['create', 'update', 'delete'] },
    event: { type: 'string', maxLength: 100 },
    from: { type: 'string', format: 'date' },
    until: { type: 'string', format: 'date' },
    page: pageSchema(100_000),
    per_page: perPageSchema(200, 50),
  },
} as const;

const nullableText = { type: ['string', 'null'] } as const;
const entrySchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    at: { type: 'string', format: 'date-time' },
    event: { type: 'string' },
    action: nullableText,
    resource: nullableText,
    record_id: nullableText,
    parent_resource: nullableText,
    parent_id: nullableText,
    user_id: { type: ['integer', 'null'] },
    user_name: nullableText,
    actor: nullableText,
    ip: nullableText,
    user_agent: nullableText,
    request_id: nullableText,
    changes: {
      type: ['object', 'null'],
      additionalProperties: { type: 'object', properties: { old: {}, new: {} } },
    },
    details: {},
  },
} as const;

declare module '../jobs/queue.ts' {
  interface JobPayloads {
    /** Delete audit rows older than the retention (AUDIT_RETENTION_DAYS), daily. */
    'audit.purge': Record<string, never>;
  }
}

/** When the retention purge runs (every night, 03:30 UTC; once across all servers). */
export const AUDIT_PURGE_CRON = '30 3 * * *';

export default async function auditFeature(app: FastifyInstance): Promise<void> {
  app.jobs.define('audit.purge', { retryLimit: 3 }, async () => {
    await purgeAudit(app.db);
  });
  app.jobs.schedule('audit.purge', AUDIT_PURGE_CRON, {});

  /** Resource name (API, UI) of a table, and back. */
  const byName = (name: string): ResourceModel | undefined =>
    app.models.find((model) => model.name === name);
  const nameOfTable = (table: string | null): string | null =>
    table === null ? null : (app.models.find((model) => model.table === table)?.name ?? table);

  app.get<{ Querystring: AuditQuery }>(
    '/api/audit',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['audit'],
        summary:
          "History of changes: one record's (resource and record_id; 404 when you may not read it) or, with manage-users, the whole log filtered by resource, user, action, event and dates.",
        querystring: querySchema,
        response: { 200: listSchema(entrySchema) },
      },
    },
    async (request) => {
      const query = request.query;
      const principal = request.principal!;
      const mayReadLog = principal.permissions.includes(AUDIT_LOG_PERMISSION);
      let table: string | undefined;
      if (query.resource !== undefined) {
        table = byName(query.resource)?.table;
        // Unknown resources have no history to show; hand-written tables by their own name.
        if (!table && mayReadLog && /^[a-z_]+$/.test(query.resource)) table = query.resource;
        if (!table) throw notFound('History');
      }
      if (query.record_id !== undefined) {
        if (query.resource === undefined) {
          throw new ApiError(400, 'auditNeedsResource', {
            record_id: [issue('needsResource')],
          });
        }
        const model = byName(query.resource);
        const visible = model
          ? await visibleRow(app, request, model.name, query.record_id)
          : undefined;
        // A deleted record's history stays readable for those who may read the whole log.
        if (!visible && !mayReadLog) throw notFound('History');
      } else if (!mayReadLog) {
        throw forbidden('auditLogForbidden');
      }

      const where = (eb: ExpressionBuilder<Tables & { a: Tables['audit_log'] }, 'a'>) => {
        const conditions = [];
        if (table !== undefined && query.record_id !== undefined) {
          const id = String(query.record_id);
          conditions.push(
            eb.or([
              eb.and([eb('a.resource', '=', table), eb('a.record_id', '=', id)]),
              eb.and([eb('a.parent_resource', '=', table), eb('a.parent_id', '=', id)]),
            ]),
          );
        } else if (table !== undefined) {
          conditions.push(eb('a.resource', '=', table));
        }
        if (query.user_id !== undefined) conditions.push(eb('a.user_id', '=', query.user_id));
        if (query.action !== undefined) conditions.push(eb('a.action', '=', query.action));
        if (query.event !== undefined) conditions.push(eb('a.event', '=', query.event));
        if (query.from !== undefined)
          conditions.push(eb('a.at', '>=', sql<Date>`${query.from}::date`));
        if (query.until !== undefined) {
          conditions.push(eb('a.at', '<', sql<Date>`${query.until}::date + 1`));
        }
        return eb.and(conditions);
      };

      const rows = (limit: number, offset: number) =>
        app.db
          .selectFrom('audit_log as a')
          .leftJoin('users as u', 'u.id', 'a.user_id')
          .select([
            'a.id',
            'a.at',
            'a.event',
            'a.action',
            'a.resource',
            'a.record_id',
            'a.parent_resource',
            'a.parent_id',
            'a.user_id',
            'a.actor',
            'a.ip',
            'a.user_agent',
            'a.request_id',
            'a.changes',
            'a.details',
            sql<string | null>`nullif(trim(concat(u.first_name, ' ', u.last_name)), '')`.as(
              'user_name',
            ),
          ])
          .where(where)
          .orderBy('a.at', 'desc')
          .orderBy('a.id', 'desc')
          .limit(limit)
          .offset(offset)
          .execute()
          .then((found) =>
            found.map((row) => ({
              ...row,
              resource: nameOfTable(row.resource),
              parent_resource: nameOfTable(row.parent_resource),
              // Where a change came from is for those who read the whole log.
              ip: mayReadLog ? row.ip : null,
              user_agent: mayReadLog ? row.user_agent : null,
            })),
          );
      const count = countAtMost(app.db, app.db.selectFrom('audit_log as a').where(where));
      return pageAnswer(query, { rows, count });
    },
  );
}
