/**
 * What a new or reassigned lead sets off (issue 16), in the write's transaction so nothing is sent
 * for a change that does not commit:
 * - the source's `assignedNotify`: the assignee gets a notification (and the mail, when the user
 *   asked for notification mails: server/notifications/notify.ts);
 * - the source's "e-mail to" settings (enabled, email, bcc, subject): the lead goes by mail to that
 *   address (a copy to each bcc address) when it is created and when it is assigned to someone
 *   new, in the language of the user who made the change (German when none).
 */
import { enumKey } from '../../src/schema/labels.ts';
import { formatPhone } from '../../src/schema/phone.ts';
import type { DB } from '../db/index.ts';
import type { ResourceRow } from '../db/resource.ts';
import { releaseLabel } from '../i18n/source.ts';
import { sendMail } from '../mail/mailer.ts';
import { MAIL_LANGUAGES, type MailLanguage, renderMail } from '../mail/templates.ts';
import { notifyUser } from '../notifications/notify.ts';

interface EmailSettings {
  enabled?: boolean;
  email?: string;
  bcc?: string;
  subject?: string;
}

const text = (value: unknown): string =>
  value === null || value === undefined ? '' : String(value).trim();

/** "Muster AG" or "Anna Muster" (what the board's card shows). */
export function leadName(row: ResourceRow): string {
  const organization = text(row.organization);
  if (organization) return organization;
  const name = [text(row.first_name), text(row.last_name)].filter(Boolean).join(' ');
  return name || `#${String(row.id)}`;
}

const languageOf = (language: string | null | undefined): MailLanguage =>
  (MAIL_LANGUAGES as readonly string[]).includes(language ?? '')
    ? (language as MailLanguage)
    : 'de';

export async function afterLeadWrite(
  db: DB,
  row: ResourceRow,
  existing: ResourceRow | undefined,
  language?: string | null,
): Promise<void> {
  const created = existing === undefined;
  const assignee =
    row.assigned_to === null || row.assigned_to === undefined ? null : Number(row.assigned_to);
  const assigned = assignee !== null && (created || Number(existing.assigned_to) !== assignee);
  if (!created && !assigned) return;
  const source = await db
    .selectFrom('lead_sources')
    .select(['assigned_notify', 'email_to', 'name_de', 'name_en', 'name_fr', 'name_it'])
    .where('id', '=', Number(row.lead_source))
    .executeTakeFirst();
  if (!source) return;
  const sourceName = (lang: MailLanguage) =>
    text(
      { de: source.name_de, en: source.name_en, fr: source.name_fr, it: source.name_it }[lang],
    ) || text(source.name_de);
  if (assigned && source.assigned_notify) {
    const user = await db
      .selectFrom('users')
      .select('language')
      .where('id', '=', assignee)
      .executeTakeFirst();
    await notifyUser(db, {
      kind: 'lead-assigned',
      userId: assignee,
      values: { lead: leadName(row), source: sourceName(languageOf(user?.language)) },
      path: `leads/${String(row.id)}/show`,
    });
  }
  const settings = (source.email_to ?? {}) as EmailSettings;
  if (settings.enabled !== true || !settings.email) return;
  const lang = languageOf(language);
  let assigneeName = '';
  if (assignee !== null) {
    const user = await db
      .selectFrom('users')
      .select(['first_name', 'last_name'])
      .where('id', '=', assignee)
      .executeTakeFirst();
    assigneeName = [text(user?.first_name), text(user?.last_name)].filter(Boolean).join(' ');
  }
  const rendered = renderMail('lead-to-lead-source', lang, {
    lead: leadName(row),
    event: releaseLabel(`app.leads.mail.${created ? 'created' : 'assigned'}`, lang),
    source: sourceName(lang),
    email: text(row.email),
    phone: row.phone_number ? formatPhone(String(row.phone_number)) : '',
    address: [text(row.street), [text(row.zip), text(row.city)].filter(Boolean).join(' ')]
      .filter(Boolean)
      .join(', '),
    assignee: assigneeName,
    status: releaseLabel(enumKey('leadStatus', row.status), lang),
    notes: text(row.notes),
  });
  const subject = settings.subject?.trim() ? settings.subject.trim() : rendered.subject;
  const copies = (settings.bcc ?? '')
    .split(/[,;]/)
    .map((address) => address.trim())
    .filter((address) => address !== '' && address !== settings.email);
  for (const to of [settings.email, ...copies]) {
    await sendMail(db, { kind: 'lead-to-lead-source', to, subject, body: rendered.body });
  }
}
