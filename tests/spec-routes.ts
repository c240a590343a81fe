/** The routes of SPEC §2, as written there (a `?tab=` query dropped), shared by unit and e2e tests. */
// SPEC §2, copied as written (customers/{id}?tab={tab} is customers/{id} with a query).
const ADMIN_TEXT = `dashboard, notifications, appointments, contracts, contracts/{id}, contracts/{id}/edit,
broker-contracts, non-closures, non-closures/{id}, non-closures/{id}/edit, tasks, settings,
translation-keys, offers, my-commissions, companies, companies/new, companies/{id}/edit, lead-sources,
lead-sources/new, lead-sources/{id}/edit, sub-brokers, sub-brokers/new, sub-brokers/{id}/edit,
external-users, external-users/new, external-users/{id}/edit, gs-users, users/new, users/{id}/edit,
users/{id}, customers, customers/new, customers/{id}/edit, customers/{id}?tab={tab}, reminders,
reminders/new, reminders/{id}/edit, reminders/{id}, leads, leaderboard, commissions, commission-rules,
commission-rules/new, commission-rules/{id}/edit, assigned-single-payments, payouts`;
const CONSULTANT_TEXT = `dashboard, settings, offers, my-commissions, customers, customers/new,
customers/{id}/edit, customers/{id}?tab={tab}, appointments, contracts, contracts/{id},
broker-contracts, non-closures, non-closures/{id}, reminders, reminders/new, reminders/{id}/edit,
reminders/{id}, leads, leaderboard`;
export const SPEC_PUBLIC = [
  'login',
  'forgot-password',
  'change-password',
  'register',
  '404',
  'app-elements-guide',
  'financescout24/{clientID}',
  'financescout24/{clientID}/{draftID}',
  'attach-signatures/{id}',
];

const parse = (list: string): string[] =>
  list
    .split(',')
    .map((path) => path.trim().replace(/\?.*$/, ''))
    .filter(Boolean);

export const SPEC_ADMIN = parse(ADMIN_TEXT);
export const SPEC_CONSULTANT = parse(CONSULTANT_TEXT);
