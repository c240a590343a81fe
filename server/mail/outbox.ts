/**
 * What a reader of the outbox (GET /api/mail/outbox, manage-users) may see of a mail: never a
 * credential of an account that the reader could not already take over (issue 10).
 *
 * Decision:
 * - Links carrying a token (password reset, invitation: `…?token=…`) are replaced by
 *   `[link hidden]` in every outbox answer, for every reader. The link exists only in the mail
 *   delivered to its recipient. With SMTP configured this holds without exception.
 * - The one exception is outbox-only mode (demo, tests: nothing is delivered, so the outbox is the
 *   only way a demo user can reset a password): there the link is shown to a reader whose rights
 *   are strictly greater than the recipient's (server/account/rights.ts `hasFewerRights`: every
 *   right of the recipient held by the reader, and something more). Such a manager can already
 *   change, disable or re-invite that account, so the link gives them nothing new; a BACKOFFICE
 *   user given manage-users never sees an ADMIN's link, nor a peer's, nor their own. Each mail
 *   whose link was shown is written to the audit log (`outbox.link.shown`).
 * The stored row keeps the body as written (it is what SMTP delivers; a delivered mail's body is
 * dropped, server/mail/mailer.ts).
 */
import type { Selectable } from 'kysely';
import { hasFewerRights } from '../account/rights.ts';
import { audit } from '../auth/audit.ts';
import type { Principal } from '../auth/permissions.ts';
import type { DB, Tables } from '../db/index.ts';

export type OutboxRow = Selectable<Tables['outbox']>;

/** A URL whose query or fragment carries a token, as the mail templates write it. */
const TOKEN_LINK = /\b[a-z][a-z0-9+.-]*:\/\/[^\s<>"']*[?&#]token=[^\s<>"']*/gi;
/** Any remaining `token=<value>` (a link written without scheme, or in another shape). */
const TOKEN_PARAMETER = /([?&#]|\b)token=[^\s&#<>"']+/gi;

export const HIDDEN_LINK = '[link hidden]';

/** The text with every token link replaced by HIDDEN_LINK. */
export function redactLinks(text: string): string {
  return text.replace(TOKEN_LINK, HIDDEN_LINK).replace(TOKEN_PARAMETER, HIDDEN_LINK);
}

const hasTokenLink = (text: string | null): boolean => text !== null && redactLinks(text) !== text;

/** A mail as the outbox answers it, with `redacted` telling whether a link was hidden. */
export interface OutboxMail extends Omit<OutboxRow, 'id' | 'created_at' | 'sent_at'> {
  id: number;
  created_at: string;
  sent_at: string | null;
  redacted: boolean;
}

const isoOf = (value: string | Date): string => new Date(value).toISOString();

/**
 * The mails as `reader` may see them: token links hidden unless `mode` is 'outbox' and the
 * recipient has strictly fewer rights than the reader (then the showing is audited).
 */
export async function outboxAnswer(
  db: DB,
  reader: Principal,
  rows: OutboxRow[],
  mode: 'smtp' | 'outbox',
  ip: string,
): Promise<OutboxMail[]> {
  const recipients = new Set<number>();
  if (mode === 'outbox') {
    for (const row of rows)
      if (row.user_id !== null && hasTokenLink(row.body)) recipients.add(row.user_id);
  }
  const weaker = new Set<number>();
  if (recipients.size > 0) {
    const accounts = await db
      .selectFrom('users as u')
      .leftJoin('external_users as e', 'e.user_id', 'u.id')
      .select(['u.id', 'u.role', 'u.additional_permissions', 'e.sub_broker_id'])
      .where('u.id', 'in', [...recipients])
      .execute();
    for (const account of accounts) {
      const rights = {
        id: Number(account.id),
        role: account.role,
        additionalPermissions: account.additional_permissions,
        subBrokerId: account.sub_broker_id,
      };
      if (hasFewerRights(reader, rights)) weaker.add(Number(account.id));
    }
  }
  const shown: number[] = [];
  const answer = rows.map((row): OutboxMail => {
    const reveal = row.user_id !== null && weaker.has(row.user_id);
    const linked = hasTokenLink(row.body);
    if (reveal && linked) shown.push(Number(row.id));
    return {
      ...row,
      id: Number(row.id),
      created_at: isoOf(row.created_at),
      sent_at: row.sent_at ? isoOf(row.sent_at) : null,
      body: row.body === null || reveal ? row.body : redactLinks(row.body),
      subject: redactLinks(row.subject),
      error: row.error === null ? null : redactLinks(row.error),
      redacted: linked && !reveal,
    };
  });
  if (shown.length > 0) {
    await audit(db, 'outbox.link.shown', {
      userId: reader.id,
      ip,
      resource: 'outbox',
      details: { mails: shown },
    });
  }
  return answer;
}
