/**
 * The filter bar's values shared by the board and the list, where the store keeps them and the
 * list filter the API gets. Kept apart from ./model.ts (which needs the schemas): the shell reads
 * them at start-up to ask for the board's columns early (./boardQuery.ts).
 */
import type { LeadCloseStatus, LeadStatus } from '../../schema/leads.ts';
import type { Area } from '../../shell/paths.ts';

/** Where the filters are kept in react-admin's store, per area (while the app is open and after). */
export const filtersStoreKey = (area: Area): string => `leads.filters.${area}`;

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
