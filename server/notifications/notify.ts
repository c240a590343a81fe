/**
 * Notifications that arrive (issue 15): one call writes the in-app notification and, when the
 * user asked for it (preference `notificationEmails`), the same text as a mail to the outbox —
 * both in the caller's transaction, so a notification exists only if the change that causes it
 * commits, and a mail is delivered by the job queue (server/mail/mailer.ts) exactly once.
 * Texts are the mail templates (server/mail/templates.ts) in the recipient's language; the link
 * is a path of the recipient's area (`/admin/…` or `/consultant/…`).
 */
import { routeSetOf } from '../auth/permissions.ts';
import { loadPreferences } from '../account/preferences.ts';
import { publicUrl } from '../account/tokens.ts';
import type { DB } from '../db/index.ts';
import { sendMail } from '../mail/mailer.ts';
import { type MailKind, renderMail } from '../mail/templates.ts';

export type NotificationKind = Extract<
  MailKind,
  | 'reminder-due'
  | 'appointment-assigned'
  | 'feedback-missing'
  | 'lead-assigned'
  | 'signature-signed'
>;

export interface Notice {
  kind: NotificationKind;
  userId: number;
  /** Placeholder values of the template. */
  values: Record<string, string | number>;
  /** Path inside the recipient's area, without it: `appointments/12/show`. */
  path?: string;
  level?: 'info' | 'success' | 'warning' | 'error';
  /** The customer it is about: erasing the customer deletes it and its mail (personal-data.ts). */
  customerId?: number | null;
}

/** The recipient's area prefix (`/admin` or `/consultant`); none for users without one. */
export function areaOf(role: string): string | undefined {
  const routeSet = routeSetOf(role as never);
  return routeSet ? `/${routeSet}` : undefined;
}

/**
 * Writes the notification (and the mail, when wanted) for one user, in `db` (pass the
 * transaction). A disabled or unknown user gets nothing. Answers the notification's id.
 */
export async function notifyUser(db: DB, notice: Notice): Promise<number | undefined> {
  const user = await db
    .selectFrom('users')
    .select(['id', 'email', 'language', 'role', 'is_active'])
    .where('id', '=', notice.userId)
    .executeTakeFirst();
  if (!user || user.is_active === false) return undefined;
  const { subject, body } = renderMail(notice.kind, user.language, notice.values);
  const area = areaOf(user.role);
  const link = area && notice.path ? `${area}/${notice.path}` : null;
  const row = await db
    .insertInto('notifications')
    .values({
      user_id: user.id,
      level: notice.level ?? 'info',
      title: subject.slice(0, 200),
      body: body.slice(0, 2000),
      link,
      customer_id: notice.customerId ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const preferences = await loadPreferences(db, user.id);
  if (preferences.notificationEmails && user.email) {
    const linkLine = link ? `\n\n${publicUrl(link)}` : '';
    await sendMail(db, {
      kind: notice.kind,
      to: user.email,
      subject,
      body: `${body}${linkLine}`,
      userId: user.id,
      customerId: notice.customerId ?? null,
    });
  }
  return Number(row.id);
}
