/**
 * The background passes of issue 15 (run by the job queue: ./index.ts; callable directly by tests
 * and scripts). Each claims its rows and writes the notifications in ONE transaction — the claim
 * is an `update … set <…>_at = now() where id in (select … for update skip locked) returning`, so
 * two servers running a pass at once never take the same row, and a crash before the commit rolls
 * the claim back with the notifications (nothing is lost; it is taken again at the next pass).
 *
 * - runDuePass: open reminders whose due moment (due date + time, or 08:00, Swiss local time) has
 *   come and that have not notified yet → notification 'reminder-due' to their user.
 * - runFeedbackPass: planned appointments (status 1, 3) without feedback that ended more than a
 *   day ago → notification 'feedback-missing' to their consultant, once.
 * - runDeadlinePass: active closures whose end date (renewal) or next termination deadline
 *   (server/contracts/coverage-rules.ts: KVG 30 November, VVG 30 September, car 3 months before the
 *   end) falls within the lead time → one reminder per contract, category and deadline (the unique
 *   index reminders_contract_deadline_key and `on conflict do nothing`).
 */
import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';
import { sql } from 'kysely';
import {
  DEFAULT_DEADLINE_LEAD_DAYS,
  REMINDER_DEFAULT_TIME,
  SWISS_TIME_ZONE,
} from '../../src/schema/appointments.ts';
import { systemContext, writeTransaction } from '../audit/context.ts';
import { COVERAGE_COLUMNS, columnsOf, nextDeadline } from '../contracts/coverage-rules.ts';
import { swissToday } from '../contracts/coverage.ts';
import type { DB } from '../db/index.ts';
import { mailLanguage, type MailLanguage } from '../mail/templates.ts';
import { notifyUser } from '../notifications/notify.ts';

dayjs.extend(utc);
dayjs.extend(timezone);

/** Rows claimed per transaction (a pass runs transactions until nothing is left). */
export const PASS_BATCH = 200;

/** Hours after its end an appointment without feedback is reported. */
export const FEEDBACK_GRACE_HOURS = 24;

/** Longest lead time accepted (a year: every yearly deadline is within it). */
export const MAX_DEADLINE_LEAD_DAYS = 366;

/**
 * The lead time of the renewal and termination reminders in days: DEADLINE_REMINDER_DAYS, else
 * DEFAULT_DEADLINE_LEAD_DAYS. Anything but a whole number of 1–366 days stops the start (the plugin
 * reads it when it registers) instead of being silently replaced.
 */
export function deadlineLeadDays(value = process.env.DEADLINE_REMINDER_DAYS): number {
  if (value === undefined || value.trim() === '') return DEFAULT_DEADLINE_LEAD_DAYS;
  const days = Number(value);
  if (!Number.isInteger(days) || days < 1 || days > MAX_DEADLINE_LEAD_DAYS)
    throw new Error(
      `DEADLINE_REMINDER_DAYS must be a whole number of days from 1 to ${MAX_DEADLINE_LEAD_DAYS} (got ${value})`,
    );
  return days;
}

const swissDate = (value: string | Date): string =>
  typeof value === 'string'
    ? `${value.slice(8, 10)}.${value.slice(5, 7)}.${value.slice(0, 4)}`
    : dayjs(value).tz(SWISS_TIME_ZONE).format('DD.MM.YYYY');

const swissDateTime = (value: Date): string =>
  dayjs(value).tz(SWISS_TIME_ZONE).format('DD.MM.YYYY HH:mm');

/** A customer's name as lists show it: the organisation, else first and last name. */
const customerName = (row: {
  organization?: string | null;
  first_name?: string | null;
  last_name?: string | null;
}): string =>
  row.organization?.trim() ||
  [row.first_name, row.last_name].filter((part) => part && part.trim()).join(' ');

/**
 * Reminders due at `now` notify their user, once (notified_at). Answers how many were claimed.
 * The due moment is the due date at its time (none: 08:00) in Swiss local time.
 */
export async function runDuePass(db: DB, now: Date = new Date()): Promise<number> {
  const today = swissToday(now);
  let total = 0;
  for (;;) {
    const claimed = await writeTransaction(db, systemContext('reminders-due'), async (trx) => {
      const rows = await sql<{
        id: number;
        subject: string;
        due_date: string;
        time: string | null;
        user_id: number | null;
        client_id: number | null;
        organization: string | null;
        first_name: string | null;
        last_name: string | null;
      }>`
        with claimed as (
          update reminders set notified_at = now()
          where id in (
            select id from reminders
            where status = 'open' and notified_at is null and due_date <= ${today}::date
              and ((due_date + coalesce(time, ${REMINDER_DEFAULT_TIME}::time))
                at time zone ${SWISS_TIME_ZONE}) <= ${now}::timestamptz
            order by due_date, id
            limit ${PASS_BATCH}
            for update skip locked)
          returning id, subject, due_date, time, user_id, client_id)
        select claimed.id, claimed.subject, claimed.due_date::text as due_date,
          claimed.time::text as time, claimed.user_id, claimed.client_id,
          c.organization, c.first_name, c.last_name
        from claimed left join customers c on c.id = claimed.client_id
        order by claimed.id`.execute(trx);
      for (const row of rows.rows) {
        if (row.user_id === null) continue;
        const name = customerName(row);
        const due = `${swissDate(row.due_date)}${row.time ? ` ${row.time.slice(0, 5)}` : ''}`;
        await notifyUser(trx, {
          kind: 'reminder-due',
          userId: Number(row.user_id),
          values: { subject: row.subject, due, customer: name ? ` (${name})` : '' },
          path: `reminders/${row.id}/show`,
          level: 'warning',
          customerId: row.client_id,
        });
      }
      return rows.rows.length;
    });
    total += claimed;
    if (claimed < PASS_BATCH) return total;
  }
}

/**
 * Planned appointments (status 1, 3) without feedback whose end is more than a day before `now`
 * notify their consultant, once (feedback_notified_at). Answers how many were claimed.
 */
export async function runFeedbackPass(db: DB, now: Date = new Date()): Promise<number> {
  const before = new Date(now.getTime() - FEEDBACK_GRACE_HOURS * 3600_000);
  let total = 0;
  for (;;) {
    const claimed = await writeTransaction(db, systemContext('feedback-missing'), async (trx) => {
      // feedback_id is null and status in (1, 3): the predicate of the partial index
      // appointments_feedback_missing_idx (migration 0025), scanned by date_end.
      const rows = await sql<{
        id: number;
        consultant_id: number;
        date_start: Date;
        client_name: string | null;
        client_id: number;
      }>`
          update appointments set feedback_notified_at = now()
          where id in (
            select id from appointments
            where feedback_id is null and status in (1, 3) and date_end < ${before}::timestamptz
              and feedback_notified_at is null and consultant_id is not null
            order by date_end, id
            limit ${PASS_BATCH}
            for update skip locked)
          returning id, consultant_id, date_start, client_name, client_id`.execute(trx);
      for (const row of rows.rows) {
        await notifyUser(trx, {
          kind: 'feedback-missing',
          userId: Number(row.consultant_id),
          values: {
            when: swissDateTime(new Date(row.date_start)),
            customer: row.client_name ?? '',
          },
          path: `appointments/${row.id}/show`,
          level: 'warning',
          customerId: Number(row.client_id),
        });
      }
      return rows.rows.length;
    });
    total += claimed;
    if (claimed < PASS_BATCH) return total;
  }
}

/** The subject of a renewal or termination reminder, in the user's language. */
const DEADLINE_SUBJECTS: Record<'renewal' | 'termination', Record<MailLanguage, string>> = {
  renewal: {
    de: 'Vertrag läuft am {{date}} ab: {{contract}}',
    en: 'Contract ends on {{date}}: {{contract}}',
    fr: 'Le contrat prend fin le {{date}} : {{contract}}',
    it: 'Il contratto scade il {{date}}: {{contract}}',
  },
  termination: {
    de: 'Kündigungsfrist am {{date}}: {{contract}}',
    en: 'Termination deadline on {{date}}: {{contract}}',
    fr: 'Délai de résiliation le {{date}} : {{contract}}',
    it: 'Termine di disdetta il {{date}}: {{contract}}',
  },
};

export function deadlineSubject(
  category: 'renewal' | 'termination',
  language: unknown,
  date: string,
  contract: string,
): string {
  return DEADLINE_SUBJECTS[category][mailLanguage(language)]
    .replace('{{date}}', swissDate(date))
    .replace('{{contract}}', contract)
    .slice(0, 200);
}

const addDays = (day: string, days: number): string =>
  dayjs.utc(day).add(days, 'day').format('YYYY-MM-DD');
const addMonths = (day: string, months: number): string =>
  dayjs.utc(day).add(months, 'month').format('YYYY-MM-DD');

export interface DeadlinePassOptions {
  /** Today (YYYY-MM-DD, Swiss); default the real one. */
  today?: string;
  /** Days ahead a deadline is reminded of; default deadlineLeadDays(). */
  leadDays?: number;
}

interface Candidate {
  id: number;
  customer_id: number;
  product_id: number;
  end_date: string | null;
  contract_number: string | null;
  customer_name: string | null;
  user_id: number | null;
  language: string | null;
}

/** Contracts read per statement (keyset by id). */
const DEADLINE_BATCH = 1000;

/**
 * Renewal (the end date) and termination (the next deadline) reminders of active closures whose
 * date falls within the lead time: once per contract, category and deadline, for the contract's
 * consultant (else the customer's). Answers how many reminders were created.
 */
export async function runDeadlinePass(db: DB, options: DeadlinePassOptions = {}): Promise<number> {
  const today = options.today ?? swissToday();
  const lead = options.leadDays ?? deadlineLeadDays();
  const horizon = addDays(today, lead);
  // Which contracts may have a deadline in [today, horizon]: yearly deadlines are the same for
  // every contract of a product (and need an end on or after them); "months before the end" ones
  // need the end that many months after the window.
  const yearly: number[] = [];
  const beforeEnd: { products: number[]; from: string; to: string }[] = [];
  for (const column of COVERAGE_COLUMNS) {
    const rule = column.deadline;
    if (!rule) continue;
    if (rule.kind === 'yearly') {
      const deadline = nextDeadline(rule, today, null);
      if (deadline && deadline <= horizon) yearly.push(...column.products);
    } else {
      beforeEnd.push({
        products: column.products,
        from: addMonths(today, rule.months),
        to: addDays(addMonths(horizon, rule.months), 3),
      });
    }
  }
  let created = 0;
  let after = 0;
  for (;;) {
    const candidates = (
      await sql<Candidate>`
        select k.id, k.customer_id, k.product_id, k.end_date::text as end_date, k.contract_number,
          k.customer_name, u.id as user_id, u.language
        from contracts k
        join customers c on c.id = k.customer_id
        left join users u on u.id = coalesce(k.consultant_id, c.assigned_to)
        where k.id > ${after} and k.status = 'active'
          and k.contract_type is distinct from 'non-closure'
          and (k.end_date is null or k.end_date >= ${today}::date)
          and ((k.end_date between ${today}::date and ${horizon}::date)
            ${yearly.length > 0 ? sql`or k.product_id in (${sql.join([...new Set(yearly)])})` : sql``}
            ${sql.join(
              beforeEnd.map(
                (rule) =>
                  sql`or (k.product_id in (${sql.join(rule.products)}) and k.end_date between ${rule.from}::date and ${rule.to}::date)`,
              ),
              sql` `,
            )})
        order by k.id
        limit ${DEADLINE_BATCH}`.execute(db)
    ).rows;
    if (candidates.length === 0) return created;
    after = Number(candidates[candidates.length - 1].id);
    const rows = candidates.flatMap((contract) => remindersOf(contract, today, horizon, lead));
    if (rows.length > 0) {
      created += await writeTransaction(db, systemContext('deadline-reminders'), async (trx) => {
        const inserted = await trx
          .insertInto('reminders')
          .values(rows)
          .onConflict((conflict) =>
            conflict
              .columns(['contract_id', 'category', 'deadline'])
              .where('contract_id', 'is not', null)
              .where('deadline', 'is not', null)
              .doNothing(),
          )
          .returning('id')
          .execute();
        return inserted.length;
      });
    }
    if (candidates.length < DEADLINE_BATCH) return created;
  }
}

function remindersOf(contract: Candidate, today: string, horizon: string, lead: number) {
  const label = [contract.customer_name, contract.contract_number].filter(Boolean).join(', ');
  const deadlines = new Map<string, 'renewal' | 'termination'>();
  const found: { category: 'renewal' | 'termination'; deadline: string }[] = [];
  const inWindow = (day: string | null): day is string =>
    day !== null && day >= today && day <= horizon;
  if (inWindow(contract.end_date)) found.push({ category: 'renewal', deadline: contract.end_date });
  for (const column of columnsOf(Number(contract.product_id))) {
    const deadline = nextDeadline(column.deadline, today, contract.end_date);
    if (inWindow(deadline) && !deadlines.has(deadline)) {
      deadlines.set(deadline, 'termination');
      found.push({ category: 'termination', deadline });
    }
  }
  return found.map(({ category, deadline }) => {
    const due = addDays(deadline, -lead);
    return {
      subject: deadlineSubject(category, contract.language, deadline, label),
      status: 'open',
      category,
      deadline,
      due_date: due > today ? due : today,
      date: today,
      user_id: contract.user_id,
      client_id: contract.customer_id,
      contract_id: contract.id,
    };
  });
}
