/**
 * User preferences (spec §3 User preferences): what the settings page edits and the listings use.
 * One definition for the browser and the server: the server validates PUT /api/account/settings
 * against `PREFERENCES_WIRE_SCHEMA` (snake_case, no unknown keys — so no role or permission can
 * ride along), stores it in user_preferences and answers it in /api/auth/me; the browser keeps it
 * with the stored user and reads page sizes through `pageSizeOf`.
 */
export const LISTINGS = ['clients', 'reminders', 'calendar', 'users', 'contracts'] as const;
export type Listing = (typeof LISTINGS)[number];

export const PAGE_SIZES = [10, 25, 50, 100] as const;
export const LEADS_VIEWS = ['kanban', 'list'] as const;
export const APPOINTMENTS_VIEWS = ['calendar', 'list'] as const;

export interface Preferences {
  pageSizes: Record<Listing, number>;
  /** Appointments: show only those in the user's regions (users.districtIds). */
  appointmentsFilterByRegion: boolean;
  leadsView: (typeof LEADS_VIEWS)[number];
  appointmentsView: (typeof APPOINTMENTS_VIEWS)[number];
  /** Contracts: show only those of the user's work location (users.workLocation). */
  contractsFilterByWorkLocation: boolean;
  /** Notifications also by e-mail (reminders due, appointments assigned, missing feedback). */
  notificationEmails: boolean;
}

export const DEFAULT_PREFERENCES: Preferences = {
  pageSizes: { clients: 25, reminders: 25, calendar: 25, users: 25, contracts: 25 },
  appointmentsFilterByRegion: false,
  leadsView: 'kanban',
  appointmentsView: 'calendar',
  contractsFilterByWorkLocation: false,
  notificationEmails: false,
};

/** Which listing's page size a resource list uses (resources not listed: the default 25). */
export const LISTING_OF_RESOURCE: Record<string, Listing> = {
  customers: 'clients',
  reminders: 'reminders',
  appointments: 'calendar',
  users: 'users',
  'external-users': 'users',
  contracts: 'contracts',
  'non-closures': 'contracts',
  'broker-contracts': 'contracts',
};

/** Stored (possibly older or partial) preferences completed with the defaults. */
export function withDefaults(stored: Partial<Preferences> | null | undefined): Preferences {
  const value = stored ?? {};
  const sizes = { ...DEFAULT_PREFERENCES.pageSizes };
  for (const listing of LISTINGS) {
    const size = value.pageSizes?.[listing];
    if (PAGE_SIZES.includes(size as (typeof PAGE_SIZES)[number])) sizes[listing] = size as number;
  }
  return {
    pageSizes: sizes,
    appointmentsFilterByRegion:
      value.appointmentsFilterByRegion ?? DEFAULT_PREFERENCES.appointmentsFilterByRegion,
    leadsView: LEADS_VIEWS.includes(value.leadsView as never)
      ? (value.leadsView as Preferences['leadsView'])
      : DEFAULT_PREFERENCES.leadsView,
    appointmentsView: APPOINTMENTS_VIEWS.includes(value.appointmentsView as never)
      ? (value.appointmentsView as Preferences['appointmentsView'])
      : DEFAULT_PREFERENCES.appointmentsView,
    contractsFilterByWorkLocation:
      value.contractsFilterByWorkLocation ?? DEFAULT_PREFERENCES.contractsFilterByWorkLocation,
    notificationEmails: value.notificationEmails ?? DEFAULT_PREFERENCES.notificationEmails,
  };
}

/** The page size of a resource's list for these preferences. */
export function pageSizeOf(resource: string, preferences: Preferences | null | undefined): number {
  const listing = LISTING_OF_RESOURCE[resource];
  const sizes = withDefaults(preferences).pageSizes;
  return listing ? sizes[listing] : 25;
}

const pageSize = { type: 'integer', enum: [...PAGE_SIZES] };

/** The settings on the wire (snake_case): what PUT /api/account/settings accepts and GET answers. */
export const PREFERENCES_WIRE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    language: { type: 'string', enum: ['de', 'en', 'fr', 'it'] },
    page_sizes: {
      type: 'object',
      additionalProperties: false,
      properties: Object.fromEntries(LISTINGS.map((listing) => [listing, pageSize])),
    },
    appointments_filter_by_region: { type: 'boolean' },
    leads_view: { type: 'string', enum: [...LEADS_VIEWS] },
    appointments_view: { type: 'string', enum: [...APPOINTMENTS_VIEWS] },
    contracts_filter_by_work_location: { type: 'boolean' },
    notification_emails: { type: 'boolean' },
  },
} as const;

export interface PreferencesWire {
  language?: string;
  page_sizes?: Partial<Record<Listing, number>>;
  appointments_filter_by_region?: boolean;
  leads_view?: string;
  appointments_view?: string;
  contracts_filter_by_work_location?: boolean;
  notification_emails?: boolean;
}

export function preferencesToWire(preferences: Preferences): PreferencesWire {
  return {
    page_sizes: { ...preferences.pageSizes },
    appointments_filter_by_region: preferences.appointmentsFilterByRegion,
    leads_view: preferences.leadsView,
    appointments_view: preferences.appointmentsView,
    contracts_filter_by_work_location: preferences.contractsFilterByWorkLocation,
    notification_emails: preferences.notificationEmails,
  };
}

export function preferencesFromWire(wire: PreferencesWire, base: Preferences): Preferences {
  return withDefaults({
    pageSizes: { ...base.pageSizes, ...(wire.page_sizes ?? {}) },
    appointmentsFilterByRegion:
      wire.appointments_filter_by_region ?? base.appointmentsFilterByRegion,
    leadsView: (wire.leads_view ?? base.leadsView) as Preferences['leadsView'],
    appointmentsView: (wire.appointments_view ??
      base.appointmentsView) as Preferences['appointmentsView'],
    contractsFilterByWorkLocation:
      wire.contracts_filter_by_work_location ?? base.contractsFilterByWorkLocation,
    notificationEmails: wire.notification_emails ?? base.notificationEmails,
  });
}
