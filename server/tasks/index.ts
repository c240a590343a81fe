/**
 * The signed-in user's worklist (issue 15): `GET /api/tasks?limit=10` →
 * `{ data: { sections: [{ key, total, total_exact, items }] } }`, only the sections of the user's
 * role, each with its first `limit` items (records as `GET /api/<resource>/:id` answers them) and
 * its total (exact up to TASK_COUNT_CAP = 100, a worklist badge's "100+", else that cap with
 * total_exact false):
 *   reminders_due            everyone: own open reminders due today or before, oldest due first
 *   missing_feedbacks        consultants (their own), admins and back office (all): planned
 *                            appointments (1, 3) that ended without feedback, latest first
 *   unassigned_appointments  call centre, admins, back office: planned, no consultant, not ended,
 *                            soonest first
 *   to_rebook                call centre, admins, back office: cancelled (5, 6) with cancel
 *                            status to_rebook, latest first
 *   leads_to_call            consultants: their open leads; call centre: open leads unassigned
 *                            or its own; admins, back office: open leads nobody works yet — of
 *                            sources the role may see, never a blacklisted person (issue 16);
 *                            not called yet first (newest first), then the longest unreached
 * Each section is one statement (page and capped count together) on the indexes of migrations
 * 0024/0025: reminders (user_id, due_date, id); appointments_feedback_missing_idx (date_end) for
 * feedback not given; (consultant_id, date_start, id) for the unassigned; (date_start, id) for
 * the cancellations. Measured at 200,000 appointments: docs/ARCHITECTURE.md, bench/README.md.
 */
import type { FastifyInstance } from 'fastify';
import { type RawBuilder, sql } from 'kysely';
import type { Role } from '../../src/schema/permissions.ts';
import type { SessionUser } from '../auth/sessions.ts';
import { swissToday } from '../contracts/coverage.ts';
import type { DB } from '../db/index.ts';
import { dataSchema } from '../http/lists.ts';
import { visibleSourceCondition } from '../leads/hooks.ts';
import { responseSchema } from '../http/validation.ts';

export const TASK_SECTIONS = [
  'reminders_due',
  'missing_feedbacks',
  'unassigned_appointments',
  'to_rebook',
  'leads_to_call',
] as const;
export type TaskSection = (typeof TASK_SECTIONS)[number];

/** Totals beyond this are answered as the cap (total_exact false). */
export const TASK_COUNT_CAP = 100;

const BACK_OFFICE: readonly string[] = ['ADMIN', 'BACKOFFICE'] satisfies Role[];
const CALL_CENTRE: readonly string[] = [
  'ADMIN',
  'BACKOFFICE',
  'BACKOFFICE-CALLCENTER',
] satisfies Role[];

/** The sections a user gets, in the order shown. */
export function sectionsOf(principal: Pick<SessionUser, 'role' | 'subBrokerId'>): TaskSection[] {
  const out: TaskSection[] = ['reminders_due'];
  if (principal.subBrokerId) return out;
  if (principal.role === 'CONSULTANT' || BACK_OFFICE.includes(principal.role))
    out.push('missing_feedbacks');
  if (CALL_CENTRE.includes(principal.role)) out.push('unassigned_appointments', 'to_rebook');
  if (principal.role === 'CONSULTANT' || CALL_CENTRE.includes(principal.role))
    out.push('leads_to_call');
  return out;
}

interface TasksQuery {
  limit: number;
}

const sectionSchema = {
  type: 'object',
  properties: {
    key: { type: 'string', enum: [...TASK_SECTIONS] },
    total: { type: 'integer' },
    total_exact: { type: 'boolean' },
    items: {
      type: 'array',
      description:
        'reminders_due: reminder records; leads_to_call: lead records; the other sections: appointment records (as GET /api/<resource>/:id answers them).',
      items: { type: 'object', additionalProperties: true },
    },
  },
} as const;

/** A database row as the API answers the record: the schema's fields only, times as ISO text. */
function wireRecord(columns: string[], row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const column of columns) {
    const value = row[column];
    out[column] = value instanceof Date ? value.toISOString() : (value ?? null);
  }
  return out;
}

/** The open leads a user should call (see the head of this file), as a condition on `t`. */
function leadsToCall(
  principal: Pick<SessionUser, 'id' | 'role' | 'permissions'>,
): RawBuilder<unknown> {
  const me = principal.id;
  const whose =
    principal.role === 'CONSULTANT'
      ? sql`t.assigned_to = ${me}`
      : principal.role === 'BACKOFFICE-CALLCENTER'
        ? sql`(t.assigned_to is null or t.assigned_to = ${me})`
        : sql`t.assigned_to is null`;
  const visible = visibleSourceCondition(principal, 't.lead_source');
  const sources = visible ? sql` and ${visible}` : sql``;
  return sql`t.status in ('new', 'not reached', 'to do') and ${whose}${sources}
    and not exists (select 1 from blacklist_entries b where b.customer_id = t.customer_id
      or lower(b.email) = lower(t.email) or b.phone_number = t.phone_number)`;
}

export default async function tasks(app: FastifyInstance): Promise<void> {
  const columnsOf = (resource: string): string[] => {
    const model = app.models.find((candidate) => candidate.name === resource);
    if (!model) throw new Error(`tasks: no model ${resource}`);
    return Object.keys(responseSchema(model.schema).properties ?? {});
  };
  const reminderColumns = columnsOf('reminders');
  const appointmentColumns = columnsOf('appointments');
  const leadColumns = columnsOf('leads');

  /** The page and its capped count in one statement. */
  const section = async (
    db: DB,
    key: TaskSection,
    table: 'reminders' | 'appointments' | 'leads',
    where: RawBuilder<unknown>,
    order: RawBuilder<unknown>,
    limit: number,
  ) => {
    const columns = {
      reminders: reminderColumns,
      appointments: appointmentColumns,
      leads: leadColumns,
    }[table];
    const select = sql.join(columns.map((column) => sql.ref(`t.${column}`)));
    const rows = await sql<Record<string, unknown> & { gscrm_total: number }>`
      select ${select}, (select count(*)::int from (select 1 from ${sql.table(table)} t
          where ${where} limit ${TASK_COUNT_CAP + 1}) capped) as gscrm_total
      from ${sql.table(table)} t where ${where} order by ${order} limit ${limit}`.execute(db);
    let total = rows.rows[0]?.gscrm_total ?? 0;
    if (rows.rows.length === 0) total = 0;
    return {
      key,
      total: Math.min(total, TASK_COUNT_CAP),
      total_exact: total <= TASK_COUNT_CAP,
      items: rows.rows.map((row) => wireRecord(columns, row)),
    };
  };

  app.get<{ Querystring: TasksQuery }>(
    '/api/tasks',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['tasks'],
        summary:
          "The signed-in user's worklist: reminders due, appointments missing feedback, unassigned appointments, cancellations to rebook — the sections of the user's role.",
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: { limit: { type: 'integer', minimum: 1, maximum: 50, default: 10 } },
        },
        response: {
          200: dataSchema({
            type: 'object',
            properties: { sections: { type: 'array', items: sectionSchema } },
          }),
        },
      },
    },
    async (request) => {
      const principal = request.principal!;
      const { limit } = request.query;
      const db = app.db;
      const today = swissToday();
      const me = principal.id;
      const out = [];
      for (const key of sectionsOf(principal)) {
        if (key === 'reminders_due') {
          out.push(
            await section(
              db,
              key,
              'reminders',
              sql`t.user_id = ${me} and t.status = 'open' and t.due_date <= ${today}::date`,
              sql`t.due_date asc, t.id asc`,
              limit,
            ),
          );
        } else if (key === 'missing_feedbacks') {
          const own = principal.role === 'CONSULTANT' ? sql` and t.consultant_id = ${me}` : sql``;
          out.push(
            await section(
              db,
              key,
              'appointments',
              sql`t.feedback_id is null and t.status in (1, 3) and t.date_end < now()${own}`,
              sql`t.date_end desc, t.id desc`,
              limit,
            ),
          );
        } else if (key === 'unassigned_appointments') {
          out.push(
            await section(
              db,
              key,
              'appointments',
              // Not ended: an appointment ends on its start's day (server/appointments/), so
              // it began less than a day ago — a range on (consultant_id, date_start, id) instead
              // of reading the unassigned past (1.5 s at 200,000 appointments through the
              // date_start index). Ordered by that index's columns (consultant_id is null here).
              sql`t.consultant_id is null and t.date_start >= now() - interval '1 day' and t.status in (1, 3) and t.date_end >= now()`,
              sql`t.consultant_id, t.date_start asc, t.id asc`,
              limit,
            ),
          );
        } else if (key === 'leads_to_call') {
          const found = await section(
            db,
            key,
            'leads',
            leadsToCall(principal),
            sql`t.last_attempt_at asc nulls first, t.created_at desc, t.id desc`,
            limit,
          );
          // As the leads' routes answer them: contact details a source hides, blanked.
          const present = app.resourceHooks.of('leads').present;
          if (present && found.items.length > 0) {
            const model = app.models.find((candidate) => candidate.name === 'leads')!;
            found.items = await present(found.items, {
              db,
              model,
              models: app.models,
              principal: request.principal,
            });
          }
          out.push(found);
        } else {
          out.push(
            await section(
              db,
              key,
              'appointments',
              sql`t.cancel_status = 'to_rebook' and t.status in (5, 6)`,
              sql`t.date_start desc, t.id desc`,
              limit,
            ),
          );
        }
      }
      return { data: { sections: out } };
    },
  );
}
