/**
 * Where a schema resource's views live in each area: the spec-style paths of the resources the spec
 * names, and generic paths for every other schema resource. Pure data and functions (no React, no
 * icons, no pages) so every screen can ask for a path; only the shell imports the route table
 * (src/routes.tsx), which builds its routes and menus from the declarations here.
 */
import type { Permission } from '../schema/permissions.ts';

export type Area = 'admin' | 'consultant';
export const AREAS: Area[] = ['admin', 'consultant'];

export type ViewKind = 'list' | 'show' | 'edit' | 'create';
export const VIEW_KINDS: ViewKind[] = ['list', 'create', 'edit', 'show'];

/** How a resource appears in the areas. */
export interface ResourcePaths {
  areas: Area[];
  /** Path of the list (default: the resource name; users are listed at `gs-users`). */
  listPath?: string;
  /** The views it has (default all four; the spec gives some resources no show page). */
  kinds?: ViewKind[];
  /** Needed to open its views (besides the area); the server enforces its own rules anyway. */
  permission?: Permission;
}

const BOTH: Area[] = ['admin', 'consultant'];
const ADMIN: Area[] = ['admin'];
const NO_SHOW: ViewKind[] = ['list', 'create', 'edit'];

/**
 * The schema resources the spec (SPEC §2) gives paths. Each must also be placed in the route table
 * (`...crud('<resource>', menu)` in src/routes.tsx), which adds its menu entry.
 */
export const RESOURCE_PATHS = {
  customers: { areas: BOTH },
  reminders: { areas: BOTH },
  // The spec names only the list (calendar or list); create, show and edit are ours, in both areas.
  appointments: { areas: BOTH },
  // The board or list (by the leadsView preference) at `leads`; create, show and edit are ours.
  leads: { areas: BOTH },
  // The spec names only the list; create, show and edit are ours, in both areas (issue 18).
  offers: { areas: BOTH },
  // Lists and show pages in both areas; edit and create are admin pages of the route table
  // (closures and non-closures apart, see contractRoute).
  contracts: { areas: BOTH, kinds: ['list', 'show'] },
  'commission-rules': { areas: ADMIN, kinds: NO_SHOW, permission: 'manage-commission-rules' },
  // Manual ledger lines (bonus, advance, correction; issue 17): list, new, edit.
  'assigned-single-payments': { areas: ADMIN, kinds: NO_SHOW, permission: 'manage-commissions' },
  // Payouts (issue 17): the list (spec) and a payout's page with its lines (ours); made by running
  // a month or from the list, never by a form.
  payouts: { areas: ADMIN, kinds: ['list', 'show'], permission: 'manage-commissions' },
  companies: { areas: ADMIN, kinds: NO_SHOW },
  'lead-sources': { areas: ADMIN, kinds: NO_SHOW },
  // Not in the spec: the back office's list of people not to contact (issue 16).
  'blacklist-entries': { areas: ADMIN, kinds: NO_SHOW },
  products: { areas: ADMIN },
  'sub-products': { areas: ADMIN },
  'sub-product-variants': { areas: ADMIN },
  users: { areas: ADMIN, listPath: 'gs-users', permission: 'manage-users' },
  'sub-brokers': { areas: ADMIN, kinds: NO_SHOW },
  'external-users': { areas: ADMIN, kinds: NO_SHOW, permission: 'manage-users' },
} satisfies Record<string, ResourcePaths>;

export type DeclaredResource = keyof typeof RESOURCE_PATHS;

/** A schema resource the spec does not name: its four views in the admin area, under its name. */
export const GENERIC_PATHS: ResourcePaths = { areas: ADMIN };

export const isDeclared = (resource: string): resource is DeclaredResource =>
  Object.hasOwn(RESOURCE_PATHS, resource);

export const pathsOf = (resource: string): ResourcePaths =>
  isDeclared(resource) ? RESOURCE_PATHS[resource] : GENERIC_PATHS;

/** The spec-style path of each view the resource has: `<r>`, `<r>/new`, `<r>/{id}/edit`, `<r>/{id}`. */
export function viewPaths(resource: string): Partial<Record<ViewKind, string>> {
  const paths = pathsOf(resource);
  const all: Record<ViewKind, string> = {
    list: paths.listPath ?? resource,
    create: `${resource}/new`,
    edit: `${resource}/{id}/edit`,
    show: `${resource}/{id}`,
  };
  const kinds = paths.kinds ?? VIEW_KINDS;
  return Object.fromEntries(kinds.map((kind) => [kind, all[kind]]));
}

/**
 * Where a resource's view lives inside an area, relative to the area (`companies/5/edit`), or
 * undefined when the area has no such view.
 */
export function resourceRoute(
  area: Area,
  resource: string,
  view: ViewKind,
  id?: string | number,
): string | undefined {
  if (!pathsOf(resource).areas.includes(area)) return undefined;
  return viewPaths(resource)[view]?.replace('{id}', String(id ?? ''));
}

/** The same as an absolute path (`/admin/companies/5/edit`), or undefined. */
export function resourceHref(
  area: Area,
  resource: string,
  view: ViewKind,
  id?: string | number,
): string | undefined {
  const path = resourceRoute(area, resource, view, id);
  return path === undefined ? undefined : `/${area}/${path}`;
}

/** Router path of a spec path: `{id}` → `:id`. */
export const routerPath = (specPath: string): string => specPath.replace(/\{([a-zA-Z]+)\}/g, ':$1');

/** A contract's type (schemas/contracts.schema.json `contractType`). */
export type ContractType = 'closure' | 'non-closure';

/**
 * Where a contract's view lives in an area (SPEC §2): closures (broker contracts too) under
 * `contracts`, non-closures under `non-closures`; edit and create in the admin area only (creating
 * is no spec route: `contracts/new`, `non-closures/new`, with `?customerId=` to prefill). Undefined
 * when the area has no such view.
 */
export function contractRoute(
  area: Area,
  contractType: ContractType,
  view: ViewKind,
  id?: string | number,
): string | undefined {
  const base = contractType === 'non-closure' ? 'non-closures' : 'contracts';
  if (view === 'list') return base;
  if (view === 'show') return `${base}/${id ?? ''}`;
  if (area !== 'admin') return undefined;
  return view === 'create' ? `${base}/new` : `${base}/${id ?? ''}/edit`;
}

/** The same as an absolute path (`/admin/non-closures/5`), or undefined. */
export function contractHref(
  area: Area,
  contractType: ContractType,
  view: ViewKind,
  id?: string | number,
): string | undefined {
  const path = contractRoute(area, contractType, view, id);
  return path === undefined ? undefined : `/${area}/${path}`;
}
