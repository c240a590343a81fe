/**
 * The lead board's vocabulary and rules, shared by the browser and the server (issue 16; spec §4,
 * DOMAIN.md §3). The wire values are the spec's: statuses 'new', 'not reached', 'to do', 'closed'.
 */
import type { Permission, Role } from './permissions.ts';

/** The board's columns, left to right (spec §4: New Leads, Not Reached, To Do, Done). */
export const LEAD_STATUSES = ['new', 'not reached', 'to do', 'closed'] as const;
export type LeadStatus = (typeof LEAD_STATUSES)[number];

/** Why a closed lead was closed (spec §4). */
export const LEAD_CLOSE_STATUSES = [
  'appointment_set',
  'resolved',
  'blacklist',
  'never_reached',
  'not_interested',
  'invalid',
] as const;
export type LeadCloseStatus = (typeof LEAD_CLOSE_STATUSES)[number];

/** A close reason set by booking the appointment (appointments.leadId), never by a move. */
export const APPOINTMENT_SET: LeadCloseStatus = 'appointment_set';

/** What a call attempt came to. */
export const LEAD_CALL_OUTCOMES = [
  'reached',
  'not_reached',
  'voicemail',
  'busy',
  'wrong_number',
  'call_back',
] as const;
export type LeadCallOutcome = (typeof LEAD_CALL_OUTCOMES)[number];

/** Cards a column loads at a time (the board pages each column; more load on scrolling). */
export const BOARD_PAGE_SIZE = 30;

/**
 * The column a call attempt moves a lead to (none: it stays): a lead not reached leaves "new" for
 * "not reached"; a lead reached goes to "to do" (an appointment or an answer is owed). Closed
 * leads stay where they are.
 */
export function columnAfterCall(
  status: LeadStatus,
  outcome: LeadCallOutcome,
): LeadStatus | undefined {
  if (status === 'closed') return undefined;
  if (outcome === 'reached' || outcome === 'call_back')
    return status === 'to do' ? undefined : 'to do';
  if (outcome === 'wrong_number') return undefined;
  return status === 'new' ? 'not reached' : undefined;
}

/** The roles that always see a lead's contact details, whatever its source says. */
export const CONTACT_ROLES: readonly Role[] = ['ADMIN', 'BACKOFFICE', 'BACKOFFICE-CALLCENTER'];

/** The fields `hideContact` hides. */
export const LEAD_CONTACT_FIELDS = ['email', 'phoneNumber', 'street', 'zip', 'city'] as const;

/**
 * Whether a user of `role` sees the contact details of a lead from a source with `hideContact`:
 * the office (admin, back office, call centre) always; anyone else (a consultant) only once an
 * appointment was booked from the lead — the appointment carries the address, and the customer
 * record is theirs from then on.
 */
export function seesLeadContact(
  role: string,
  hideContact: boolean | null | undefined,
  lead: { closeStatus?: string | null },
): boolean {
  if (!hideContact || CONTACT_ROLES.includes(role as Role)) return true;
  return lead.closeStatus === APPOINTMENT_SET;
}

/**
 * Who manages lead sources (the lead-sources schema's x-permissions.update; tests/unit checks the
 * two agree): they see and choose every source, as on the lead sources screen.
 */
export const LEAD_SOURCE_MANAGER: Permission = 'manage-companies';

/** A user as far as lead source visibility goes: the role and the permissions held. */
export interface SourceViewer {
  role: string;
  permissions: readonly string[];
}

/**
 * Whether a user may see (and choose) a lead source — one rule for the lead sources screen, the
 * leads, the worklist, imports and reports: those who manage lead sources see all of them
 * (ADMIN by default); everyone else the sources whose visibleRoles include their role. A source
 * that names no role is seen by its managers only. The SQL form is server/leads/hooks.ts
 * visibleSourceCondition.
 */
export function leadSourceVisible(
  viewer: SourceViewer,
  visibleRoles: readonly string[] | null | undefined,
): boolean {
  if (viewer.permissions.includes(LEAD_SOURCE_MANAGER)) return true;
  return !!visibleRoles && visibleRoles.includes(viewer.role);
}
