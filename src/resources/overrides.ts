/**
 * Per-resource replacements of generic views, by resource name. A replacement is a hand-written
 * component (in src/custom/) that may reuse fieldFor/inputFor rather than repeating the schema's
 * field list. Example:
 *   contracts: {
    list: lazyPage(() => import('../custom/contracts/ContractList.tsx')),
    show: lazyPage(() => import('../custom/contracts/ContractShow.tsx')),
  },
  customers: { show: lazyPage(() => import('../custom/customers/CustomerShow.tsx')) },
 */
import { lazyPage, type PreloadablePage } from '../shell/lazyPage.ts';
import type { ViewKind } from '../shell/paths.ts';

export const OVERRIDES: Record<string, Partial<Record<ViewKind, PreloadablePage>>> = {
  users: {
    list: lazyPage(() => import('../custom/account/users/UserList.tsx')),
    edit: lazyPage(() => import('../custom/account/users/UserForm.tsx')),
    create: lazyPage(() => import('../custom/account/users/UserCreate.tsx')),
  },
  'sub-brokers': {
    edit: lazyPage(() => import('../custom/account/sub-brokers/SubBrokerEdit.tsx')),
  },
  'external-users': {
    edit: lazyPage(() => import('../custom/account/external-users/ExternalUserEdit.tsx')),
  },
  contracts: {
    list: lazyPage(() => import('../custom/contracts/ContractList.tsx')),
    show: lazyPage(() => import('../custom/contracts/ContractShow.tsx')),
  },
  appointments: {
    list: lazyPage(() => import('../custom/appointments/AppointmentList.tsx')),
    show: lazyPage(() => import('../custom/appointments/AppointmentShow.tsx')),
    edit: lazyPage(() => import('../custom/appointments/AppointmentForm.tsx')),
    create: lazyPage(() =>
      import('../custom/appointments/AppointmentForm.tsx').then((module) => ({
        default: module.AppointmentCreate,
      })),
    ),
  },
  leads: {
    list: lazyPage(() => import('../custom/leads/LeadsPage.tsx')),
    show: lazyPage(() => import('../custom/leads/LeadShow.tsx')),
    edit: lazyPage(() => import('../custom/leads/LeadForm.tsx')),
    create: lazyPage(() =>
      import('../custom/leads/LeadForm.tsx').then((module) => ({ default: module.LeadCreate })),
    ),
  },
  reminders: {
    list: lazyPage(() => import('../custom/reminders/ReminderList.tsx')),
    show: lazyPage(() => import('../custom/reminders/ReminderShow.tsx')),
    edit: lazyPage(() => import('../custom/reminders/ReminderForm.tsx')),
    create: lazyPage(() =>
      import('../custom/reminders/ReminderForm.tsx').then((module) => ({
        default: module.ReminderCreate,
      })),
    ),
  },
  customers: {
    list: lazyPage(() => import('../custom/customers/CustomerList.tsx')),
    show: lazyPage(() => import('../custom/customers/CustomerShow.tsx')),
    edit: lazyPage(() => import('../custom/customers/CustomerForm.tsx')),
    create: lazyPage(() =>
      import('../custom/customers/CustomerForm.tsx').then((module) => ({
        default: module.CustomerCreate,
      })),
    ),
  },
  'commission-rules': {
    list: lazyPage(() => import('../custom/commissions/RuleList.tsx')),
    edit: lazyPage(() => import('../custom/commissions/RuleForm.tsx')),
    create: lazyPage(() =>
      import('../custom/commissions/RuleForm.tsx').then((module) => ({
        default: module.RuleCreate,
      })),
    ),
  },
  offers: { show: lazyPage(() => import('../custom/offers/OfferShow.tsx')) },
  payouts: {
    list: lazyPage(() => import('../custom/payouts/PayoutList.tsx')),
    show: lazyPage(() => import('../custom/payouts/PayoutShow.tsx')),
  },
  'commission-lines': {
    list: lazyPage(() => import('../custom/commissions/CommissionsPage.tsx')),
    show: lazyPage(() => import('../custom/commissions/LineShow.tsx')),
  },
  'assigned-single-payments': {
    list: lazyPage(() => import('../custom/commissions/SinglePayments.tsx')),
    edit: lazyPage(() =>
      import('../custom/commissions/SinglePayments.tsx').then((module) => ({
        default: module.SinglePaymentEdit,
      })),
    ),
    create: lazyPage(() =>
      import('../custom/commissions/SinglePayments.tsx').then((module) => ({
        default: module.SinglePaymentCreate,
      })),
    ),
  },
};
