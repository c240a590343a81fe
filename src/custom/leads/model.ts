/**
 * What the lead screens share besides the board's state (./board.ts): the schema's fields, the
 * filters both views use and how they travel (./filters.ts), the lead sources a role may see, and
 * where booking an appointment from a lead goes.
 */
import type { ApiRecord } from '../../resources/records.ts';
import { getModel } from '../../resources/registry.ts';
import type { FieldModel } from '../../schema/model.ts';
import { getStoredUser } from '../../auth/session.ts';
import { leadSourceVisible, type SourceViewer } from '../../schema/leads.ts';
import { type Area, resourceHref } from '../../shell/paths.ts';
import type { Lead } from './board.ts';

export type { Lead } from './board.ts';
export { type AssigneeFilter, activeFilterCount, apiFilter, type LeadFilters } from './filters.ts';
export type LeadSource = ApiRecord<'lead-sources'>;

export const leadModel = () => getModel('leads');

export const fieldOf = (name: string): FieldModel => {
  const field = leadModel().fields.find((candidate) => candidate.name === name);
  if (!field) throw new Error(`leads has no field ${name}`);
  return field;
};

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
