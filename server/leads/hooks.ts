/**
 * CRUD hooks of leads and blacklist entries (issue 16; registered by ./index.ts).
 *
 * Who sees which leads (scope, on top of the generic x-owner rule that limits a consultant to the
 * leads assigned to them): only leads of the sources the user sees (src/schema/leads.ts
 * leadSourceVisible: all for those who manage lead sources, else the sources whose visibleRoles
 * include the role); the call centre the unassigned leads and its own.
 * A source's hideContact blanks the contact fields for roles outside the office (present; a
 * consultant sees them once an appointment was booked from the lead), and a write keeps the
 * stored ones (prepare).
 *
 * Rules (validate): a person (customer, last name or company name); a source the role may see;
 * an assignee whose role may see it; a close reason exactly when closed ('appointment set' only by
 * booking the appointment); nobody on the blacklist. The server sets the board position (top of
 * the column on create and on a change of column), closedAt, and clears the close reason of a
 * reopened lead. After the write: the lead source's mails and the assignee's notification
 * (./notify.ts), and a lead closed as 'blacklist' puts its person on the blacklist.
 */
import { type Expression, type SqlBool, sql } from 'kysely';
import {
  APPOINTMENT_SET,
  LEAD_CONTACT_FIELDS,
  LEAD_SOURCE_MANAGER,
  LEAD_STATUSES,
  type LeadStatus,
  leadSourceVisible,
  type SourceViewer,
  seesLeadContact,
} from '../../src/schema/leads.ts';
import { camelToSnake } from '../../src/schema/case.ts';
import { principalRights, type SessionUser } from '../auth/sessions.ts';
import type { HookContext, ResourceHooks, WriteContext } from '../crud/hooks.ts';
import type { DB } from '../db/index.ts';
import type { ResourceRow } from '../db/resource.ts';
import { type FieldErrors, addError, issue } from '../http/errors.ts';
import { merged } from '../customers/rules.ts';
import { blacklistMatch } from './blacklist.ts';
import { blacklistPerson } from './close.ts';
import { afterLeadWrite } from './notify.ts';
import { lockColumn, topPosition } from './positions.ts';
import { idOf, isBlank } from '../db/values.ts';

/** A stored user as a lead source viewer (its rights as when it signs in). */
export const viewerOf = (user: {
  role: string;
  additional_permissions: unknown;
  sub_broker_id: number | null;
}): SourceViewer => ({
  role: user.role,
  permissions: principalRights(user.role, user.additional_permissions, user.sub_broker_id)
    .permissions,
});

/** A user's row for viewerOf. */
export function viewerRow(db: DB, userId: number) {
  return db
    .selectFrom('users as u')
    .leftJoin('external_users as e', 'e.user_id', 'u.id')
    .select(['u.role', 'u.additional_permissions', 'e.sub_broker_id'])
    .where('u.id', '=', userId)
    .executeTakeFirst();
}

export const CONTACT_COLUMNS = LEAD_CONTACT_FIELDS.map((field) => camelToSnake(field));
export const ASSIGNMENTS = ['all', 'me', 'unassigned'] as const;
const CALL_CENTRE = 'BACKOFFICE-CALLCENTER';

/**
 * The lead sources a user sees, as a where-condition on a lead source column (default the
 * leads'); none when the user sees every source. The SQL form of src/schema/leads.ts
 * leadSourceVisible.
 */
export function visibleSourceCondition(
  viewer: SourceViewer,
  column = 'leads.lead_source',
): Expression<SqlBool> | undefined {
  if (viewer.permissions.includes(LEAD_SOURCE_MANAGER)) return undefined;
  return sql<SqlBool>`${sql.ref(column)} in (select ls.id from lead_sources ls where ls.visible_roles @> ${JSON.stringify([viewer.role])}::jsonb)`;
}

/** The principal's leads beyond the generic owner rule (see the head of this file). */
function leadScope(context: HookContext) {
  const principal = context.principal;
  if (!principal) return undefined;
  const sources = visibleSourceCondition(principal);
  const callCentre = principal.role === CALL_CENTRE;
  if (!sources && !callCentre) return undefined;
  return () => {
    const conditions: Expression<SqlBool>[] = sources ? [sources] : [];
    if (callCentre)
      conditions.push(
        sql<SqlBool>`(${sql.ref('leads.assigned_to')} is null or ${sql.ref('leads.assigned_to')} = ${principal.id})`,
      );
    return conditions.length === 1
      ? (conditions[0] as Expression<SqlBool>)
      : sql<SqlBool>`(${sql.join(conditions, sql` and `)})`;
  };
}

interface SourceFlags {
  hide_contact: boolean | null;
  visible_roles: unknown;
}

async function sourcesOf(db: DB, ids: number[]): Promise<Map<number, SourceFlags>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await db
    .selectFrom('lead_sources')
    .select(['id', 'hide_contact', 'visible_roles'])
    .where('id', 'in', unique)
    .execute();
  return new Map(rows.map((row) => [row.id, row]));
}

const rolesOf = (value: unknown): string[] =>
  Array.isArray(value)
    ? (value as string[])
    : typeof value === 'string'
      ? (JSON.parse(value) as string[])
      : [];

/** Whether the principal sees the contact fields of a stored lead. */
async function contactVisible(db: DB, principal: SessionUser | undefined, lead: ResourceRow) {
  if (!principal) return true;
  const source = (await sourcesOf(db, [Number(lead.lead_source)])).get(Number(lead.lead_source));
  return seesLeadContact(principal.role, source?.hide_contact, {
    closeStatus: lead.close_status as string | null,
  });
}

async function presentLeads(rows: ResourceRow[], { db, principal }: HookContext) {
  if (!principal) return rows;
  const sources = await sourcesOf(
    db,
    rows.map((row) => Number(row.lead_source)),
  );
  return rows.map((row) => {
    const source = sources.get(Number(row.lead_source));
    if (
      seesLeadContact(principal.role, source?.hide_contact, {
        closeStatus: row.close_status as string | null,
      })
    )
      return row;
    const out = { ...row };
    for (const column of CONTACT_COLUMNS) out[column] = null;
    return out;
  });
}

/** The rules of a lead (merged with the stored one), as field errors. */
export async function leadErrors(
  db: DB,
  principal: SessionUser | undefined,
  record: ResourceRow,
  existing: ResourceRow | undefined,
): Promise<FieldErrors> {
  const errors: FieldErrors = {};
  if (isBlank(record.customer_id) && isBlank(record.last_name) && isBlank(record.organization))
    addError(errors, 'last_name', issue('leadNoPerson'));
  const status = record.status as LeadStatus;
  if (!LEAD_STATUSES.includes(status)) addError(errors, 'status', issue('invalid'));
  const closing = status === 'closed';
  const reason = record.close_status;
  if (closing && isBlank(reason))
    addError(errors, 'close_status', issue('leadCloseStatusRequired'));
  if (
    closing &&
    reason === APPOINTMENT_SET &&
    existing?.close_status !== APPOINTMENT_SET &&
    isBlank(record.appointment_id)
  )
    addError(errors, 'close_status', issue('leadAppointmentNeeded'));
  const sourceId = idOf(record.lead_source);
  const changed = (column: string) => !existing || record[column] !== existing[column];
  if (sourceId !== null) {
    const source = (await sourcesOf(db, [sourceId])).get(sourceId);
    if (source && principal && changed('lead_source')) {
      if (!leadSourceVisible(principal, rolesOf(source.visible_roles)))
        addError(errors, 'lead_source', issue('leadSourceHidden'));
    }
    const assignee = idOf(record.assigned_to);
    if (source && assignee !== null && (changed('assigned_to') || changed('lead_source'))) {
      const user = await viewerRow(db, assignee);
      if (user && !leadSourceVisible(viewerOf(user), rolesOf(source.visible_roles)))
        addError(errors, 'assigned_to', issue('assigneeCannotSeeSource', { role: user.role }));
    }
  }
  // Nobody on the blacklist gets a new lead, nor one changed to point at them.
  if (changed('customer_id') || changed('email') || changed('phone_number')) {
    const match = await blacklistMatch(db, {
      customerId: changed('customer_id') ? idOf(record.customer_id) : null,
      email: changed('email') ? (record.email as string | null) : null,
      phoneNumber: changed('phone_number') ? (record.phone_number as string | null) : null,
    });
    if (match)
      addError(errors, camelToSnake(match.field), issue('blacklisted', { value: match.value }));
  }
  return errors;
}

async function prepareLead(values: ResourceRow, context: WriteContext): Promise<ResourceRow> {
  const { db, existing, principal } = context;
  const out: ResourceRow = { ...values };
  // Contact fields the principal was not shown stay as stored: the blanks a form sends back keep
  // them; a value sent is not the principal's to write (refused as notYours: server/access).
  if (existing && !(await contactVisible(db, principal, existing))) {
    for (const column of CONTACT_COLUMNS) {
      if (out[column] === null || out[column] === undefined) out[column] = existing[column];
      else delete out[column];
    }
  }
  const record = { ...(existing ?? {}), ...out };
  const status = (record.status ?? 'new') as LeadStatus;
  out.status = status;
  if (status !== 'closed') {
    out.close_status = null;
    out.closed_at = null;
  } else if (!existing || existing.status !== 'closed') {
    out.closed_at = new Date().toISOString();
  }
  if (!existing || existing.status !== status || isBlank(existing.position)) {
    await lockColumn(db, status);
    out.position = await topPosition(db, status);
  }
  return out;
}

export const leadHooks: ResourceHooks = {
  scope: leadScope,
  async validate(body, { db, existing, principal }) {
    const errors = await leadErrors(db, principal, merged(existing, body), existing);
    return Object.keys(errors).length > 0 ? errors : undefined;
  },
  prepare: prepareLead,
  present: presentLeads,
  listParameters: {
    assignment: {
      type: 'string',
      enum: [...ASSIGNMENTS],
      description: 'all; me: assigned to the principal; unassigned: nobody works it yet.',
    },
    created_from: {
      type: 'string',
      format: 'date',
      description: 'Leads created on this Swiss day or later.',
    },
    created_until: {
      type: 'string',
      format: 'date',
      description: 'Leads created on this Swiss day or earlier.',
    },
  },
  listConditions(query, { principal }) {
    const conditions: NonNullable<ReturnType<NonNullable<ResourceHooks['listConditions']>>> = [];
    if (query.assignment === 'me')
      conditions.push((eb) => eb('assigned_to', '=', principal?.id ?? 0));
    if (query.assignment === 'unassigned') conditions.push((eb) => eb('assigned_to', 'is', null));
    const zone = 'Europe/Zurich';
    if (typeof query.created_from === 'string') {
      const from = query.created_from;
      conditions.push(
        () =>
          sql<SqlBool>`${sql.ref('leads.created_at')} >= (${from}::date::timestamp at time zone ${zone})`,
      );
    }
    if (typeof query.created_until === 'string') {
      const until = query.created_until;
      conditions.push(
        () =>
          sql<SqlBool>`${sql.ref('leads.created_at')} < ((${until}::date + 1)::timestamp at time zone ${zone})`,
      );
    }
    return conditions;
  },
  async afterWrite(row, context) {
    if (context.mode === 'delete') return;
    const { db, existing, principal } = context;
    if (
      row.status === 'closed' &&
      row.close_status === 'blacklist' &&
      existing?.close_status !== 'blacklist'
    )
      await blacklistPerson(db, row, principal?.id ?? null);
    await afterLeadWrite(db, row, existing, principal?.language);
  },
};

export const blacklistHooks: ResourceHooks = {
  validate(body, { existing }) {
    const record = merged(existing, body);
    // Matched by customer, e-mail address or phone number: one of them is needed.
    if (isBlank(record.customer_id) && isBlank(record.email) && isBlank(record.phone_number))
      return { email: [issue('required')] };
    return undefined;
  },
  prepare(values, { mode, principal }) {
    if (mode === 'create') return { ...values, created_by: principal?.id ?? null };
    return values;
  },
};
