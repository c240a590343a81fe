/** The audit log: auth events and other security-relevant changes, append-only. */
import type { DB } from '../db/index.ts';

export async function audit(
  db: DB,
  event: string,
  entry: {
    userId?: number | null;
    ip?: string;
    resource?: string;
    recordId?: string | number;
    details?: unknown;
  },
): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      event,
      user_id: entry.userId ?? null,
      ip: entry.ip ?? null,
      resource: entry.resource ?? null,
      record_id: entry.recordId === undefined ? null : String(entry.recordId),
      details: entry.details === undefined ? null : JSON.stringify(entry.details),
    })
    .execute();
}
