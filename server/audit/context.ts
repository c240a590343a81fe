/**
 * The request context of every write: who, from where, which request. Each write transaction
 * starts with `set_config('gscrm.…', …, true)` (transaction-local, so a pooled connection never
 * carries it into another request); audit_log's column defaults read it, so the audit trigger of
 * every table and the explicit events record it without being told.
 */
import type { FastifyRequest } from 'fastify';
import { sql, type Transaction } from 'kysely';
import type { DB, Tables } from '../db/index.ts';

export interface AuditContext {
  userId: number | null;
  ip: string | null;
  userAgent: string | null;
  requestId: string | null;
  /** Who acted when no user did: a public page's token, or a system task ('system:demo-seed'). */
  actor: string | null;
}

/** User agents are free text a client chooses: kept, but never longer than this. */
const MAX_USER_AGENT = 512;

/** The context of a request: its signed-in user (if any), address, user agent and request id. */
export function auditContextOf(
  request: FastifyRequest,
  extra: Partial<AuditContext> = {},
): AuditContext {
  const agent = request.headers['user-agent'];
  return {
    userId: request.principal?.id ?? null,
    ip: request.ip || null,
    userAgent: typeof agent === 'string' ? agent.slice(0, MAX_USER_AGENT) : null,
    requestId: String(request.id),
    actor: null,
    ...extra,
  };
}

/** The context of work no request asked for (demo data, jobs, scripts). */
export const systemContext = (task: string): AuditContext => ({
  userId: null,
  ip: null,
  userAgent: null,
  requestId: null,
  actor: `system:${task}`,
});

/** Sets the context on an open transaction (its first statement, before any write). */
export async function setAuditContext(trx: Transaction<Tables>, context: AuditContext) {
  const text = (value: string | number | null) => (value === null ? '' : String(value));
  await sql`select set_config('gscrm.user_id', ${text(context.userId)}, true),
    set_config('gscrm.ip', ${text(context.ip)}, true),
    set_config('gscrm.user_agent', ${text(context.userAgent)}, true),
    set_config('gscrm.request_id', ${text(context.requestId)}, true),
    set_config('gscrm.actor', ${text(context.actor)}, true)`.execute(trx);
}

/**
 * The one way to write: a transaction whose first statement records who writes (from a request
 * or a context). Every route that changes data opens its transaction here, so its audit rows
 * carry the user and the request id; tests/api/audit.test.ts fails for a route that does not.
 */
export function writeTransaction<T>(
  db: DB,
  who: FastifyRequest | AuditContext,
  fn: (trx: Transaction<Tables>) => Promise<T>,
): Promise<T> {
  const context = 'requestId' in who ? who : auditContextOf(who);
  return db.transaction().execute(async (trx) => {
    await setAuditContext(trx, context);
    return fn(trx);
  });
}
