/**
 * The back office's reports (issue 16; spec §3 "report filters"), shared by the browser and the
 * server: the kinds, who may run which, the date bases and the figures each report counts. The
 * server computes them (server/reports/), the page shows them (src/custom/reports/).
 */

/** The reports, as `users.reports` names them. */
export const REPORT_KINDS = ['clients', 'contracts', 'appointments', 'leads'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

export const isReportKind = (value: unknown): value is ReportKind =>
  (REPORT_KINDS as readonly unknown[]).includes(value);

/** The admin-area roles that run the reports their account lists (ADMIN runs them all). */
const LISTED_REPORT_ROLES: readonly string[] = ['BACKOFFICE', 'BACKOFFICE-CALLCENTER'];

/**
 * The reports an account may run: ADMIN all of them; BACKOFFICE and BACKOFFICE-CALLCENTER those
 * its `reports` lists; everyone else (consultants, employees, partners, external users) none.
 */
export function reportsOf(role: string, listed: unknown, external: boolean): ReportKind[] {
  if (external) return [];
  if (role === 'ADMIN') return [...REPORT_KINDS];
  if (!LISTED_REPORT_ROLES.includes(role) || !Array.isArray(listed)) return [];
  return REPORT_KINDS.filter((kind) => listed.includes(kind));
}

/**
 * Which date `from`/`until` and the months refer to: the record's creation (every report); for
 * appointments the appointment's own start; for contracts the signing date (the day the contract
 * was entered when it has none).
 */
export const DATE_BASES = ['created', 'appointment', 'signing'] as const;
export type DateBasis = (typeof DATE_BASES)[number];

/** The date bases a report offers (the first is its default). */
export const REPORT_DATE_BASES: Record<ReportKind, readonly DateBasis[]> = {
  clients: ['created'],
  contracts: ['signing', 'created'],
  appointments: ['created', 'appointment'],
  leads: ['created'],
};

/**
 * The figures of each report, in column order (camelCase; snake_case on the wire):
 * - clients: customers created, of which companies;
 * - contracts: contracts, closures, non-closures, the closures' annual premium (CHF);
 * - appointments: appointments, booked from a lead, took place (status 2 or 10), cancelled
 *   (status 5 or 6);
 * - leads: leads created, of which got an appointment, of which led to a closure (the conversion).
 */
export const REPORT_MEASURES = {
  clients: ['count', 'companies'],
  contracts: ['count', 'closures', 'nonClosures', 'closurePremium'],
  appointments: ['count', 'fromLeads', 'tookPlace', 'cancelled'],
  leads: ['count', 'withAppointment', 'withClosure'],
} as const satisfies Record<ReportKind, readonly string[]>;
export type ReportMeasure = (typeof REPORT_MEASURES)[ReportKind][number];

/** Measures that are CHF amounts (two decimals); the others are counts. */
export const CHF_MEASURES: readonly ReportMeasure[] = ['closurePremium'];

/** Appointment statuses that count as "took place" and "cancelled" (enums.appointmentStatus). */
export const TOOK_PLACE_STATUSES = [2, 10] as const;
export const CANCELLED_STATUSES = [5, 6] as const;

/** At most this many lead sources in one filter. */
export const MAX_REPORT_LEAD_SOURCES = 200;

/** The share `part / whole` (0 when there is no whole). */
export const rate = (part: number, whole: number): number => (whole > 0 ? part / whole : 0);
