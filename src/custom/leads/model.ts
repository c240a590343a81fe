/**
 * What the lead screens share besides the board's state (./board.ts): the schema's fields, the
 * filters both views use and how they travel, the lead sources a role may see, and where booking
 * an appointment from a lead goes.
 */
import type { ApiRecord } from '../../resources/records.ts';
import { getModel } from '../../resources/registry.ts';
import type { FieldModel } from '../../schema/model.ts';
import { getStoredUser } from '../../auth/session.ts';
import {
  type LeadCloseStatus,
  leadSourceVisible,
  type LeadStatus,
  type SourceViewer,
} from '../../schema/leads.ts';
import { type Area, resourceHref } from '../../shell/paths.ts';
import type { Lead } from './board.ts';

export type { Lead } from './board.ts';
export type LeadSource = ApiRecord<'lead-sources'>;

export const leadModel = () => getModel('leads');

export const fieldOf = (name: string): FieldModel => {
  const field = leadModel().fields.find((candidate) => candidate.name === name);
  if (!field) throw new Error(`leads has no field ${name}`);
  return field;
};

/** The assignee filter: everyone, the signed-in user, nobody, or one user. */
export type AssigneeFilter = 'me' | 'none' | number;

/** The filter bar's values, shared by the board and the list (kept per area in the store). */
export interface LeadFilters {
  q?: string;
  leadSource?: number[];
  assignedTo?: AssigneeFilter;
  /** The list view only (the board's columns are the statuses). */
  status?: LeadStatus;
  closeStatus?: LeadCloseStatus;
  /** Created on or after / on or before these Swiss days (YYYY-MM-DD). */
  createdFrom?: string;
  createdUntil?: string;
}

const blank = (value: unknown) =>
  value === undefined ||
  value === null ||
  value === '' ||
  (Array.isArray(value) && value.length === 0);

/**
 * The list filter the API gets (the data provider snake-cases the keys: `lead_source`,
 * `assigned_to`, `created_from`, …; `q` is the search): the assignee "me" and "nobody" are the
 * server's `assignment=me|unassigned`, one user `assigned_to=<id>`; the board leaves the status
 * and the close reason to its columns.
 */
export function apiFilter(
  filters: LeadFilters,
  view: 'kanban' | 'list',
): Record<string, string | number | number[]> {
  const out: Record<string, string | number | number[]> = {};
  for (const [key, value] of Object.entries(filters) as [keyof LeadFilters, unknown][]) {
    if (blank(value)) continue;
    if (view === 'kanban' && (key === 'status' || key === 'closeStatus')) continue;
    if (key === 'assignedTo') {
      if (value === 'me') out.assignment = 'me';
      else if (value === 'none') out.assignment = 'unassigned';
      else if (typeof value === 'number') out.assignedTo = value;
      continue;
    }
    if (key === 'q') {
      const text = String(value).trim();
      if (text) out.q = text;
      continue;
    }
    out[key] = value as string | number | number[];
  }
  return out;
}

/** How many filters are set (for the "clear" button); the status only in the list. */
export const activeFilterCount = (filters: LeadFilters, view: 'kanban' | 'list'): number =>
  Object.keys(apiFilter(filters, view)).length;

/** The signed-in user as a lead source viewer: its role and permissions, as one key for memos. */
export function storedViewerKey(): string {
  const user = getStoredUser();
  return `${user?.role ?? ''}|${(user?.permissions ?? []).join(',')}`;
}

/** A viewer from storedViewerKey. */
export function viewerOfKey(key: string): SourceViewer {
  const [role = '', permissions = ''] = key.split('|');
  return { role, permissions: permissions ? permissions.split(',') : [] };
}

/** The sources a user may see (src/schema/leads.ts leadSourceVisible), by name in the language. */
export function visibleSources(
  sources: readonly LeadSource[],
  viewer: SourceViewer,
  nameOf: (source: LeadSource) => string,
  locale: string,
): LeadSource[] {
  const collator = new Intl.Collator(locale, { numeric: true });
  return sources
    .filter((source) => leadSourceVisible(viewer, source.visibleRoles))
    .sort((a, b) => collator.compare(nameOf(a), nameOf(b)));
}

/**
 * The appointment form prefilled from a lead (src/custom/appointments/AppointmentForm.tsx reads
 * the parameters): the customer, the lead (saving the appointment closes the lead as "appointment
 * set"), the lead's address where it has one (else the form takes the customer's), and the
 * assignee as the consultant when the assignee is one.
 */
export function appointmentHref(
  area: Area,
  lead: Pick<Lead, 'id' | 'street' | 'zip' | 'city'>,
  customerId: number,
  consultantId?: number | null,
): string | undefined {
  const base = resourceHref(area, 'appointments', 'create');
  if (!base) return undefined;
  const params = new URLSearchParams({ clientId: String(customerId), leadId: String(lead.id) });
  if (consultantId) params.set('consultantId', String(consultantId));
  for (const name of ['street', 'zip', 'city'] as const) {
    const value = lead[name]?.trim();
    if (value) params.set(name, value);
  }
  return `${base}?${params.toString()}`;
}
