/**
 * The route table: every admin and consultant route of the spec (SPEC §2), the areas it belongs to,
 * what it renders and its menu entry. Only the shell (src/App.tsx, src/shell/) imports it and builds
 * the routers and the menus from this one list; screens ask src/shell/paths.ts for paths. Later
 * features replace entries, never structure.
 *
 * How to register a screen:
 * - A schema resource needs no entry: its views open at `/admin/<resource>` (list, `new`, `{id}`,
 *   `{id}/edit`). For spec-style paths in an area, declare it in RESOURCE_PATHS
 *   (src/shell/paths.ts) and place `...crud('<resource>', menu)` below, which adds the menu item.
 *   While a resource has no schema yet, its entries show the "coming" placeholder.
 * - A hand-written page: set `page: lazyPage(() => import('./custom/<area>/<Page>.tsx'))` on its entry
 *   (replacing `coming`).
 * Paths are written as in the spec (`customers/{id}/edit`); `{id}` must be a positive integer (else
 * the 404 page shows). Query-driven tabs (`customers/{id}?tab=…`) are read by the page itself.
 */
import type { SvgIconComponent } from '@mui/icons-material';
import AssessmentIcon from '@mui/icons-material/Assessment';
import AssignmentIcon from '@mui/icons-material/Assignment';
import BlockIcon from '@mui/icons-material/Block';
import BusinessIcon from '@mui/icons-material/Business';
import CampaignIcon from '@mui/icons-material/Campaign';
import DashboardIcon from '@mui/icons-material/Dashboard';
import DescriptionIcon from '@mui/icons-material/Description';
import EmojiEventsIcon from '@mui/icons-material/EmojiEvents';
import EventIcon from '@mui/icons-material/Event';
import GroupIcon from '@mui/icons-material/Group';
import HandshakeIcon from '@mui/icons-material/Handshake';
import InventoryIcon from '@mui/icons-material/Inventory2';
import NotificationsIcon from '@mui/icons-material/Notifications';
import PaymentsIcon from '@mui/icons-material/Payments';
import PeopleIcon from '@mui/icons-material/People';
import PercentIcon from '@mui/icons-material/Percent';
import RequestQuoteIcon from '@mui/icons-material/RequestQuote';
import RuleIcon from '@mui/icons-material/Rule';
import SettingsIcon from '@mui/icons-material/Settings';
import SourceIcon from '@mui/icons-material/Source';
import TaskIcon from '@mui/icons-material/TaskAlt';
import TranslateIcon from '@mui/icons-material/Translate';
import ViewKanbanIcon from '@mui/icons-material/ViewKanban';
import AlarmIcon from '@mui/icons-material/Alarm';
import WorkIcon from '@mui/icons-material/Work';
import MailIcon from '@mui/icons-material/MailOutline';
import HistoryIcon from '@mui/icons-material/History';
import QueueIcon from '@mui/icons-material/PlaylistPlay';
import type { StoredUser } from './auth/session.ts';
import type { Permission } from './schema/permissions.ts';
import { lazyPage, type PreloadablePage } from './shell/lazyPage.ts';
import { type Area, type ViewKind, pathsOf, viewPaths } from './shell/paths.ts';

export type MenuGroup =
  'overview' | 'sales' | 'contracts' | 'commissions' | 'reference' | 'administration';
export const MENU_GROUPS: MenuGroup[] = [
  'overview',
  'sales',
  'contracts',
  'commissions',
  'reference',
  'administration',
];

export interface MenuEntry {
  group: MenuGroup;
  /** Translation key of the label. */
  label: string;
  icon: SvgIconComponent;
}

export interface RouteEntry {
  /** Path inside the area, in the spec's notation. */
  path: string;
  areas: Area[];
  /** A schema resource's view … */
  resource?: string;
  view?: ViewKind;
  /** … or a hand-written page … */
  page?: PreloadablePage;
  /** … or, until its feature lands, a placeholder naming the feature (app.coming.<feature>). */
  coming?: string;
  menu?: MenuEntry;
  /** Needed to open the route (besides the area); the server enforces its own rules anyway. */
  permission?: Permission;
  /** Besides the permission, a rule on the signed-in user (the reports: at least one report). */
  allowed?: (user: StoredUser | null) => boolean;
}

/** Whether the signed-in user may open the entry (and see its menu item). */
export const mayOpen = (entry: RouteEntry, user: StoredUser | null): boolean =>
  (!entry.permission || (user?.permissions ?? []).includes(entry.permission)) &&
  (!entry.allowed || entry.allowed(user));

const BOTH: Area[] = ['admin', 'consultant'];
const ADMIN: Area[] = ['admin'];

const Dashboard = lazyPage(() => import('./custom/Dashboard.tsx'));
const Notifications = lazyPage(() => import('./custom/NotificationsPage.tsx'));
const Tasks = lazyPage(() => import('./custom/tasks/TasksPage.tsx'));
const CustomerImport = lazyPage(() => import('./custom/customers/CustomerImport.tsx'));
const contractPage = (name: 'NonClosureList' | 'BrokerContractList') =>
  lazyPage(() =>
    import('./custom/contracts/ContractList.tsx').then((module) => ({ default: module[name] })),
  );
const NonClosureList = contractPage('NonClosureList');
const BrokerContractList = contractPage('BrokerContractList');
const ContractShowPage = lazyPage(() => import('./custom/contracts/ContractShow.tsx'));
const ContractEdit = lazyPage(() => import('./custom/contracts/ContractForm.tsx'));
const ContractCreate = lazyPage(() =>
  import('./custom/contracts/ContractForm.tsx').then((module) => ({
    default: module.ContractCreate,
  })),
);
const NonClosureCreate = lazyPage(() =>
  import('./custom/contracts/ContractForm.tsx').then((module) => ({
    default: module.NonClosureCreate,
  })),
);
const ContractExport = lazyPage(() => import('./custom/contracts/ContractExportPage.tsx'));

/**
 * The entries of a resource's views at the paths src/shell/paths.ts gives it (its declaration, or
 * the generic admin paths), the menu entry on its list.
 */
export function crud(resource: string, menu?: MenuEntry): RouteEntry[] {
  const { areas, permission } = pathsOf(resource);
  return Object.entries(viewPaths(resource)).map(([view, path]) => ({
    path,
    areas,
    resource,
    view: view as ViewKind,
    permission,
    menu: view === 'list' ? menu : undefined,
  }));
}

export const ROUTES: RouteEntry[] = [
  // Overview
  {
    path: 'dashboard',
    areas: BOTH,
    page: Dashboard,
    menu: { group: 'overview', label: 'app.menu.dashboard', icon: DashboardIcon },
  },
  {
    path: 'notifications',
    areas: ADMIN,
    page: Notifications,
    menu: { group: 'overview', label: 'app.menu.notifications', icon: NotificationsIcon },
  },
  {
    path: 'tasks',
    areas: ADMIN,
    page: Tasks,
    menu: { group: 'overview', label: 'app.menu.tasks', icon: TaskIcon },
  },
  // The back office's reports (src/custom/reports/): for accounts that run at least one.
  {
    path: 'reports',
    areas: ADMIN,
    page: lazyPage(() => import('./custom/reports/ReportsPage.tsx')),
    menu: { group: 'overview', label: 'app.menu.reports', icon: AssessmentIcon },
    allowed: (user) => (user?.reports?.length ?? 0) > 0,
  },

  // Customers and sales
  ...crud('customers', { group: 'sales', label: 'app.menu.customers', icon: PeopleIcon }),
  // A customer's Global check (src/custom/globalCheck/; issue 19, not a spec route: the customer's
  // globalCheck tab links here).
  {
    path: 'customers/{id}/global-check',
    areas: BOTH,
    page: lazyPage(() => import('./custom/globalCheck/GlobalCheckPage.tsx')),
  },
  // CSV import of customers (back office; the spec shows no screen for it, the list links here).
  { path: 'customers/import', areas: ADMIN, page: CustomerImport },
  // CSV import of leads (back office and call centre; the leads page links here).
  {
    path: 'leads/import',
    areas: ADMIN,
    page: lazyPage(() => import('./custom/import/LeadImport.tsx')),
  },
  // Leads (src/custom/leads/): the board or the list by the leadsView preference.
  ...crud('leads', { group: 'sales', label: 'app.menu.leads', icon: ViewKanbanIcon }),
  // Appointments (src/custom/appointments/): calendar or list, booking, feedback.
  ...crud('appointments', { group: 'sales', label: 'app.menu.appointments', icon: EventIcon }),
  ...crud('reminders', { group: 'sales', label: 'app.menu.reminders', icon: AlarmIcon }),
  // Offers (src/custom/offers/): list, page with accept and decline, form.
  ...crud('offers', { group: 'sales', label: 'app.menu.offers', icon: RequestQuoteIcon }),

  // Contracts (src/custom/contracts/): closures at `contracts` (the resource's list and show),
  // non-closures and broker contracts as pages of their own; editing and creating in the admin
  // area only (SPEC §2; creating is no spec route: `contracts/new`, `non-closures/new`).
  ...crud('contracts', { group: 'contracts', label: 'app.menu.contracts', icon: DescriptionIcon }),
  { path: 'contracts/new', areas: ADMIN, page: ContractCreate },
  {
    path: 'contracts/export',
    areas: ADMIN,
    page: ContractExport,
    permission: 'contract-export-page',
  },
  { path: 'contracts/{id}/edit', areas: ADMIN, page: ContractEdit },
  {
    path: 'non-closures',
    areas: BOTH,
    page: NonClosureList,
    menu: { group: 'contracts', label: 'app.menu.nonClosures', icon: AssignmentIcon },
  },
  { path: 'non-closures/new', areas: ADMIN, page: NonClosureCreate },
  { path: 'non-closures/{id}', areas: BOTH, page: ContractShowPage },
  { path: 'non-closures/{id}/edit', areas: ADMIN, page: ContractEdit },
  {
    path: 'broker-contracts',
    areas: BOTH,
    page: BrokerContractList,
    menu: { group: 'contracts', label: 'app.menu.brokerContracts', icon: HandshakeIcon },
  },

  // Commissions
  // The signed-in user's ledger lines (src/custom/commissions/), ready ones first (SPEC §4).
  {
    path: 'my-commissions',
    areas: BOTH,
    page: lazyPage(() => import('./custom/commissions/MyCommissionsPage.tsx')),
    menu: { group: 'commissions', label: 'app.menu.myCommissions', icon: PaymentsIcon },
  },
  // The leaderboard (src/custom/leaderboard/): ranking and charts; MUI X Charts in its chunk only.
  {
    path: 'leaderboard',
    areas: BOTH,
    page: lazyPage(() => import('./custom/leaderboard/LeaderboardPage.tsx')),
    menu: { group: 'commissions', label: 'app.menu.leaderboard', icon: EmojiEventsIcon },
  },
  // Everyone's ledger lines with reversals by hand (src/custom/commissions/).
  {
    path: 'commissions',
    areas: ADMIN,
    page: lazyPage(() => import('./custom/commissions/CommissionsPage.tsx')),
    menu: { group: 'commissions', label: 'app.menu.commissions', icon: PercentIcon },
    permission: 'manage-commissions',
  },
  ...crud('commission-rules', {
    group: 'commissions',
    label: 'app.menu.commissionRules',
    icon: RuleIcon,
  }),
  // Manual ledger lines (bonus, advance, correction; src/custom/commissions/SinglePayments.tsx).
  ...crud('assigned-single-payments', {
    group: 'commissions',
    label: 'app.menu.assignedSinglePayments',
    icon: PaymentsIcon,
  }),
  // Payouts (src/custom/payouts/): the list (default status 'new') and a payout's page with its
  // lines (not a spec route: `payouts/{id}`).
  ...crud('payouts', { group: 'commissions', label: 'app.menu.payouts', icon: PaymentsIcon }),

  // Reference data
  ...crud('companies', { group: 'reference', label: 'app.menu.companies', icon: BusinessIcon }),
  ...crud('lead-sources', { group: 'reference', label: 'app.menu.leadSources', icon: SourceIcon }),
  ...crud('blacklist-entries', {
    group: 'reference',
    label: 'app.menu.blacklist',
    icon: BlockIcon,
  }),
  ...crud('products', {
    group: 'reference',
    label: 'app.menu.products',
    icon: InventoryIcon,
  }),
  ...crud('sub-products', {
    group: 'reference',
    label: 'app.menu.subProducts',
    icon: InventoryIcon,
  }),
  ...crud('sub-product-variants', {
    group: 'reference',
    label: 'app.menu.subProductVariants',
    icon: InventoryIcon,
  }),

  // Administration
  ...crud('users', { group: 'administration', label: 'app.menu.users', icon: GroupIcon }),
  ...crud('sub-brokers', { group: 'administration', label: 'app.menu.subBrokers', icon: WorkIcon }),
  ...crud('external-users', {
    group: 'administration',
    label: 'app.menu.externalUsers',
    icon: CampaignIcon,
  }),
  {
    path: 'translation-keys',
    areas: ADMIN,
    page: lazyPage(() => import('./custom/translation-keys/TranslationKeysPage.tsx')),
    menu: { group: 'administration', label: 'app.menu.translationKeys', icon: TranslateIcon },
    permission: 'manage-translation-keys',
  },
  {
    path: 'settings',
    areas: BOTH,
    page: lazyPage(() => import('./custom/account/SettingsPage.tsx')),
    menu: { group: 'administration', label: 'app.menu.settings', icon: SettingsIcon },
  },
  // Not a spec route: the mails the server wrote (demo mode keeps them here; issue 3).
  {
    path: 'outbox',
    areas: ADMIN,
    page: lazyPage(() => import('./custom/account/OutboxPage.tsx')),
    menu: { group: 'administration', label: 'app.menu.outbox', icon: MailIcon },
    permission: 'manage-users',
  },
  // Not a spec route: the background jobs, with their errors and a Retry action (issue 11).
  {
    path: 'jobs',
    areas: ADMIN,
    page: lazyPage(() => import('./custom/jobs/JobsPage.tsx')),
    menu: { group: 'administration', label: 'app.menu.jobs', icon: QueueIcon },
    permission: 'manage-users',
  },
  // The history of every change (issue 11): the whole audit log, filtered.
  {
    path: 'audit-log',
    areas: ADMIN,
    page: lazyPage(() => import('./custom/audit/AuditLogPage.tsx')),
    menu: { group: 'administration', label: 'app.menu.auditLog', icon: HistoryIcon },
    permission: 'manage-users',
  },
];

export const routesOf = (area: Area): RouteEntry[] =>
  ROUTES.filter((entry) => entry.areas.includes(area));

export { lazyPage, type PreloadablePage };

const Comparison = lazyPage(() => import('./custom/comparison/ComparisonPage.tsx'));

/** Public routes (SPEC §2), outside the areas; same registration rule: `page` replaces `coming`. */
export interface PublicRoute {
  path: string;
  page?: PreloadablePage;
  coming?: string;
}

export const PUBLIC_ROUTES: PublicRoute[] = [
  { path: 'login', page: lazyPage(() => import('./custom/account/LoginPage.tsx')) },
  {
    path: 'forgot-password',
    page: lazyPage(() => import('./custom/account/ForgotPasswordPage.tsx')),
  },
  {
    path: 'change-password',
    page: lazyPage(() => import('./custom/account/ChangePasswordPage.tsx')),
  },
  { path: 'register', page: lazyPage(() => import('./custom/account/RegisterPage.tsx')) },
  { path: '404', page: lazyPage(() => import('./custom/NotFoundRoute.tsx')) },
  { path: 'no-access', page: lazyPage(() => import('./custom/NoAccessRoute.tsx')) },
  { path: 'app-elements-guide', page: lazyPage(() => import('./custom/AppElementsGuide.tsx')) },
  { path: 'financescout24/{clientID}', page: Comparison },
  { path: 'financescout24/{clientID}/{draftID}', page: Comparison },
  {
    path: 'attach-signatures/{id}',
    page: lazyPage(() => import('./custom/signatures/SigningPage.tsx')),
  },
];
