/**
 * The one way the server sends mail (docs/ARCHITECTURE.md §5 Mail). Every mail is first written to
 * the `outbox` table, in the transaction of the change that causes it (a rolled-back change sends
 * nothing):
 * - without SMTP (demo mode, tests, or no SMTP_* configured) the mail stays there as 'stored', and
 *   admins read it in the app (GET /api/mail/outbox, manage-users) — so the whole reset flow can be
 *   followed end to end;
 * - with SMTP configured (SMTP_URL, or SMTP_HOST [SMTP_PORT, SMTP_USER, SMTP_PASSWORD,
 *   SMTP_SECURE]; sender MAIL_FROM) the row is written 'pending' and a `mail.deliver` job is
 *   enqueued in the same transaction (server/jobs/). The job claims the row ('sending'), sends it
 *   with nodemailer and marks it 'sent' (the body is then dropped, so no reset link stays
 *   readable); when SMTP fails the job is retried with backoff (MAX_ATTEMPTS in all) and the row
 *   ends 'failed' with the error — never silently dropped. The job runs once across app servers.
 *   MAIL_TRANSPORT=outbox keeps mails in the outbox even with SMTP set.
 * Without a job queue (a Mailer built alone, as in tests) `deliver()` is a delivery pass over the
 * pending rows, claimed with `skip locked`.
 */
import { sql } from 'kysely';
import type { DB, Row } from '../db/index.ts';
import type { JobPolicy, JobQueue } from '../jobs/queue.ts';
import { type MailKind, renderMail } from './templates.ts';

export interface OutgoingMail {
  kind: MailKind;
  to: string;
  subject: string;
  body: string;
  userId?: number | null;
  /** The customer the mail is about: erasing the customer deletes it (personal-data.ts). */
  customerId?: number | null;
}

/** Sends one mail; throws when it could not be handed over. */
export interface MailTransport {
  send(mail: { from: string; to: string; subject: string; text: string }): Promise<void>;
}

export const MAX_ATTEMPTS = 5;

/** Retries of `mail.deliver`: 30 s, 1 min, 2 min, 4 min after the failed attempts. */
export const DELIVERY_POLICY: JobPolicy = {
  retryLimit: MAX_ATTEMPTS - 1,
  retryDelay: 30,
  retryBackoff: true,
  expireInSeconds: 5 * 60,
};

/** Writes a mail to the outbox (pass the transaction of the change that causes it). */
export async function enqueueMail(db: DB, mail: OutgoingMail, deliver: boolean): Promise<number> {
  const row = await db
    .insertInto('outbox')
    .values({
      kind: mail.kind,
      to_address: mail.to,
      subject: mail.subject,
      body: mail.body,
      user_id: mail.userId ?? null,
      customer_id: mail.customerId ?? null,
      status: deliver ? 'pending' : 'stored',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** The mailer of the running app (set by ./index.ts); without one, mails stay in the outbox. */
let active: Mailer | undefined;

/** Makes `mailer` the one `sendMail` asks for delivery. */
export function activateMailer(mailer: Mailer): void {
  active = mailer;
}

/** Forgets `mailer` when it is still the active one (its app closed). */
export function deactivateMailer(mailer: Mailer): void {
  if (active === mailer) active = undefined;
}

/**
 * Sends a mail: writes it to the outbox with `db` (the caller's transaction) and, with SMTP
 * configured, asks for delivery soon after.
 */
export async function sendMail(db: DB, mail: OutgoingMail): Promise<number> {
  if (!active) return enqueueMail(db, mail, false);
  const id = await active.enqueue(db, mail);
  active.kick();
  return id;
}

/** A template mail to a user, in the user's language. */
export async function mailToUser(
  db: DB,
  kind: MailKind,
  user: { id?: number | null; email: string; language?: string | null },
  values: Record<string, string | number>,
): Promise<void> {
  const { subject, body } = renderMail(kind, user.language, values);
  await sendMail(db, { kind, to: user.email, subject, body, userId: user.id ?? null });
}

export interface MailerOptions {
  transport?: MailTransport;
  from?: string;
  /** Delivery pass interval while a transport is set and there is no job queue (ms). */
  intervalMs?: number;
  /** The app's job queue: each mail to deliver becomes a `mail.deliver` job. */
  jobs?: JobQueue;
}

export class Mailer {
  readonly transport?: MailTransport;
  readonly from: string;
  private readonly jobs?: JobQueue;
  private timer?: NodeJS.Timeout;
  private running?: Promise<number>;

  constructor(
    private readonly db: DB,
    options: MailerOptions = {},
  ) {
    this.transport = options.transport;
    this.from = options.from ?? 'GS CRM <no-reply@gscrm.ch>';
    this.jobs = options.jobs;
  }

  get mode(): 'smtp' | 'outbox' {
    return this.transport ? 'smtp' : 'outbox';
  }

  /**
   * Writes the mail to the outbox with `db` (the caller's transaction) and, with SMTP and a job
   * queue, enqueues its delivery in the same transaction.
   */
  async enqueue(db: DB, mail: OutgoingMail): Promise<number> {
    const id = await enqueueMail(db, mail, Boolean(this.transport));
    if (this.transport && this.jobs) await this.jobs.send('mail.deliver', { outboxId: id }, { db });
    return id;
  }

  /**
   * The `mail.deliver` job: sends one pending mail. Throws when SMTP fails, so the queue retries;
   * on the `lastAttempt` the row is marked 'failed' with the error.
   */
  async deliverOne(id: number, lastAttempt: boolean): Promise<void> {
    const transport = this.transport;
    if (!transport) return; // SMTP switched off since: the mail stays in the outbox.
    const row = await this.db
      .updateTable('outbox')
      .set({ status: 'sending', attempts: sql`attempts + 1` })
      .where('id', '=', id)
      .where('status', 'in', ['pending', 'sending'])
      .returning(['id', 'to_address', 'subject', 'body'])
      .executeTakeFirst();
    if (!row) return; // Already sent (a retried job) or stored.
    try {
      await transport.send({
        from: this.from,
        to: row.to_address,
        subject: row.subject,
        text: row.body ?? '',
      });
    } catch (error) {
      await this.db
        .updateTable('outbox')
        .set({
          status: lastAttempt ? 'failed' : 'pending',
          error: String((error as Error).message ?? error).slice(0, 1000),
        })
        .where('id', '=', id)
        .execute();
      throw error;
    }
    await this.db
      .updateTable('outbox')
      .set({ status: 'sent', sent_at: sql`now()`, body: null, error: null })
      .where('id', '=', id)
      .execute();
  }

  /** Starts periodic delivery (no-op without a transport, or with a job queue). */
  start(intervalMs = 15_000): void {
    if (!this.transport || this.jobs || this.timer) return;
    this.timer = setInterval(() => void this.deliver().catch(() => undefined), intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Soon after a request committed its mails. */
  kick(): void {
    if (!this.transport || this.jobs) return;
    setTimeout(() => void this.deliver().catch(() => undefined), 50).unref();
  }

  /** One delivery pass; answers how many mails were sent. Passes do not overlap. */
  deliver(): Promise<number> {
    this.running ??= this.deliverPass().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async deliverPass(): Promise<number> {
    const transport = this.transport;
    if (!transport) return 0;
    // Claim: pending rows, and rows left 'sending' by a server that stopped mid-way.
    const claimed = await sql<Row>`
      update outbox set status = 'sending', attempts = attempts + 1
      where id in (
        select id from outbox
        where status = 'pending'
           or (status = 'sending' and created_at < now() - interval '10 minutes')
        order by id limit 20
        for update skip locked)
      returning id, to_address, subject, body, attempts`
      .execute(this.db)
      .then((result) => result.rows);
    let sent = 0;
    for (const row of claimed) {
      try {
        await transport.send({
          from: this.from,
          to: String(row.to_address),
          subject: String(row.subject),
          text: String(row.body ?? ''),
        });
        await this.db
          .updateTable('outbox')
          .set({ status: 'sent', sent_at: sql`now()`, body: null, error: null })
          .where('id', '=', row.id as number)
          .execute();
        sent++;
      } catch (error) {
        const attempts = Number(row.attempts);
        await this.db
          .updateTable('outbox')
          .set({
            status: attempts >= MAX_ATTEMPTS ? 'failed' : 'pending',
            error: String((error as Error).message ?? error).slice(0, 1000),
          })
          .where('id', '=', row.id as number)
          .execute();
      }
    }
    return sent;
  }
}

/** The SMTP transport from the environment, or undefined (outbox only). */
export async function transportFromEnv(
  env: NodeJS.ProcessEnv = process.env,
): Promise<MailTransport | undefined> {
  if (env.MAIL_TRANSPORT === 'outbox') return undefined;
  if (!env.SMTP_URL && !env.SMTP_HOST) return undefined;
  // Loaded only when SMTP is configured.
  const { default: nodemailer } = await import('nodemailer');
  const options = env.SMTP_URL ?? {
    host: env.SMTP_HOST,
    port: Number(env.SMTP_PORT ?? 587),
    secure: env.SMTP_SECURE === '1' || env.SMTP_SECURE === 'true',
    auth: env.SMTP_USER ? { user: env.SMTP_USER, pass: env.SMTP_PASSWORD ?? '' } : undefined,
  };
  const transporter = nodemailer.createTransport(options);
  return {
    async send(mail) {
      await transporter.sendMail(mail);
    },
  };
}
