/**
 * Who sees which records, generically, from three schema markers (docs/ARCHITECTURE.md §5):
 *
 *   "x-owner": true       the property holds the owning user (customers.assignedTo)
 *   "x-owner-via": true   the reference whose record decides (household-members.customerId):
 *                         visible exactly when the referenced record is (recursively)
 *   "x-sub-broker": true  the reference to sub-brokers whose external users see the record
 *                         (customers.subBrokerId)
 *
 * A model with none of them is not customer data (reference data, users, …): the markers do not
 * restrict it (its x-permissions and its own hooks still do). For a model with markers:
 *
 *   mode         who                                           sees
 *   all          ADMIN, BACKOFFICE, BACKOFFICE-CALLCENTER      everything
 *   owner        CONSULTANT                                    owner = self, or via a visible record
 *   sub-broker   external users (sub-broker accounts)          sub-broker = own, owner = self, or via
 *   none         EMPLOYEE, PARTNER (no route set)              nothing
 *
 * The branches of a record are alternatives (OR): a record a consultant owns is theirs even if it
 * also hangs off another record. A record outside the scope is never listed, and reading, changing
 * or deleting it answers 404 — the same as an id that does not exist.
 *
 * Writes (enforceOwnership): a consultant's new records are owned by the consultant, an external
 * user's belong to its sub-broker (forced, whatever was sent); neither can hand a record over to
 * someone else, nor set the other ownership marker (a consultant no sub-broker, an external user
 * no consultant: 422 naming it); and every reference to customer data must point at a record the
 * writer can see (else 422 "refers to unknown …", the answer for an id that does not exist).
 */
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { FieldModel, ResourceModel } from '../../src/schema/model.ts';
import type { Principal } from '../auth/permissions.ts';
import { routeSetOf } from '../auth/permissions.ts';
import type { DB } from '../db/index.ts';
import { type ResourceRow, resourceDb } from '../db/resource.ts';
import type { HookContext, ScopeCondition, WriteContext } from '../crud/hooks.ts';
import {
  ApiError,
  assertNoErrors,
  type ErrorIssue,
  type FieldErrors,
  issue,
} from '../http/errors.ts';

export type VisibilityMode = 'all' | 'owner' | 'sub-broker' | 'none';

export function visibilityModeOf(principal: Principal | undefined): VisibilityMode {
  if (!principal) return 'none';
  if (principal.subBrokerId) return 'sub-broker';
  const routeSet = routeSetOf(principal.role);
  if (routeSet === 'admin') return 'all';
  if (routeSet === 'consultant') return 'owner';
  return 'none';
}

export interface Markers {
  owner?: FieldModel;
  subBroker?: FieldModel;
  via: FieldModel[];
}

const scalar = (field: FieldModel) => field.kind === 'reference' || field.kind === 'integer';

export function markersOf(model: ResourceModel): Markers {
  const markers: Markers = { via: [] };
  for (const field of model.fields) {
    if (field.schema['x-owner'] && scalar(field)) markers.owner = field;
    if (field.schema['x-sub-broker'] && scalar(field)) markers.subBroker = field;
    if (field.schema['x-owner-via'] && field.kind === 'reference' && field.reference)
      markers.via.push(field);
  }
  return markers;
}

export const hasMarkers = (markers: Markers): boolean =>
  Boolean(markers.owner || markers.subBroker || markers.via.length > 0);

/** Deeper chains than this are refused (fail closed); real ones are 1–3 long. */
const MAX_DEPTH = 6;
const FALSE = sql<SqlBool>`false`;

const anyOf = (branches: RawBuilder<SqlBool>[]): RawBuilder<SqlBool> =>
  branches.length === 1 ? branches[0] : sql<SqlBool>`(${sql.join(branches, sql` or `)})`;

/**
 * The visibility of `model`'s records as SQL, or undefined when the principal sees them all.
 * `alias` qualifies the columns (the subqueries of x-owner-via; at the top the table's own name).
 *
 * An x-owner-via branch is a correlated `exists (select 1 from <target> vN where vN.id = <column>
 * and <target's condition>)`, not `<column> in (select id from <target> where …)`: beside the
 * record's own branches (`consultant_id = me or …`) PostgreSQL cannot turn either into a join, and
 * the `in` form is always a hashed subplan, which reads every record of the target the principal
 * sees before the first row is tested (a consultant's 40,000 customers: 12–14 ms, for a single
 * record read by id as much as for a list). The `exists` form lets the planner choose per query:
 * probing the target by its primary key for each row tested (few rows: one record, a page), or the
 * same hashed subplan (many rows). Alone (no other branch) both are the same semi-join.
 */
function condition(
  model: ResourceModel,
  models: ResourceModel[],
  principal: Principal | undefined,
  alias: string | undefined,
  path: string[],
): RawBuilder<SqlBool> | undefined {
  const mode = visibilityModeOf(principal);
  const markers = markersOf(model);
  if (mode === 'all' || !hasMarkers(markers)) return undefined;
  if (mode === 'none' || !principal || path.length > MAX_DEPTH) return FALSE;
  const column = (field: FieldModel) => sql.ref(alias ? `${alias}.${field.column}` : field.column);
  const branches: RawBuilder<SqlBool>[] = [];
  if (markers.owner) branches.push(sql<SqlBool>`${column(markers.owner)} = ${principal.id}`);
  if (mode === 'sub-broker' && markers.subBroker) {
    branches.push(sql<SqlBool>`${column(markers.subBroker)} = ${principal.subBrokerId}`);
  }
  for (const field of markers.via) {
    const target = models.find((candidate) => candidate.name === field.reference);
    // A cycle of x-owner-via (a → b → a) grants nothing through the repeated step.
    if (!target || path.includes(target.name)) continue;
    const inner = `v${path.length + 1}`;
    const targetCondition = condition(target, models, principal, inner, [...path, target.name]);
    if (targetCondition === undefined) {
      // The referenced records are all visible: so is every record that refers to one.
      branches.push(sql<SqlBool>`${column(field)} is not null`);
      continue;
    }
    // Qualified even at the top: unqualified, a column of the target with the same name would
    // be taken instead.
    const outer = sql.ref(`${alias ?? model.table}.${field.column}`);
    branches.push(
      sql<SqlBool>`exists (select 1 from ${sql.table(target.table)} as ${sql.id(inner)} where ${sql.ref(
        `${inner}.id`,
      )} = ${outer} and ${targetCondition})`,
    );
  }
  if (branches.length === 0) return FALSE;
  return anyOf(branches);
}

/**
 * The visibility of a model's records as joins, for lists (`visibleRecords`): branches on the
 * record's own columns (`own`: x-owner, x-sub-broker, a via reference to records all visible) and
 * branches through referenced records (`via`), each of those a left join of the referenced record
 * on its primary key (at most one row, so no row is repeated) and a condition on its columns.
 * 'all': no restriction; 'none': nothing visible.
 */
interface JoinedScope {
  /** `left join <table> as vN on vN.id = <alias>.<column> [and <its own branches>]`, in order. */
  joins: RawBuilder<unknown>[];
  own: RawBuilder<SqlBool>[];
  via: RawBuilder<SqlBool>[];
}

function joinedScope(
  model: ResourceModel,
  models: ResourceModel[],
  principal: Principal | undefined,
  alias: string,
  path: string[],
  aliases: { count: number },
): JoinedScope | 'all' | 'none' {
  const mode = visibilityModeOf(principal);
  const markers = markersOf(model);
  if (mode === 'all' || !hasMarkers(markers)) return 'all';
  if (mode === 'none' || !principal || path.length > MAX_DEPTH) return 'none';
  const column = (field: FieldModel) => sql.ref(`${alias}.${field.column}`);
  const scope: JoinedScope = { joins: [], own: [], via: [] };
  if (markers.owner) scope.own.push(sql<SqlBool>`${column(markers.owner)} = ${principal.id}`);
  if (mode === 'sub-broker' && markers.subBroker) {
    scope.own.push(sql<SqlBool>`${column(markers.subBroker)} = ${principal.subBrokerId}`);
  }
  for (const field of markers.via) {
    const target = models.find((candidate) => candidate.name === field.reference);
    if (!target || path.includes(target.name)) continue;
    aliases.count += 1;
    const inner = `gscrm_v${aliases.count}`;
    const joined = joinedScope(target, models, principal, inner, [...path, target.name], aliases);
    if (joined === 'none') continue;
    if (joined === 'all') {
      scope.own.push(sql<SqlBool>`${column(field)} is not null`);
      continue;
    }
    const on = sql<SqlBool>`${sql.ref(`${inner}.id`)} = ${column(field)}`;
    const joinedTable = sql`${sql.table(target.table)} as ${sql.id(inner)}`;
    const visible = anyOf([...joined.own, ...joined.via]);
    if (joined.via.length === 0) {
      // The target's own columns decide: joined only when visible, so a hash join of them reads
      // only those (a consultant's customers, not all of them).
      scope.joins.push(sql`left join ${joinedTable} on ${on} and ${visible}`);
    } else {
      scope.joins.push(sql`left join ${joinedTable} on ${on}`, ...joined.joins);
    }
    // The condition itself (not `vN.id is not null`): the planner estimates its selectivity from
    // the target's statistics (a consultant's share of the customers), not as "always".
    scope.via.push(visible);
  }
  if (scope.own.length + scope.via.length === 0) return 'none';
  return scope;
}

/**
 * The records of a model the principal sees, as derived tables for a list's FROM (aliased as the
 * model's table, so the list's conditions, sort and paging apply unchanged), when the
 * visibility has x-owner-via branches; undefined otherwise (no restriction, or only the record's
 * own columns: the where-condition of visibilityScope is as good).
 *
 * `all`: `(select t.* from t left join <target> vN on … where <own> or <via>)`. Unlike the
 * `exists` of the condition, the planner costs the join with the list's LIMIT: a page walks the
 * sort index and probes the few targets it needs, or hashes the target's visible records when
 * they are few (docs/ARCHITECTURE.md, Lists at any size).
 *
 * `parts`, when there are both kinds of branches: the same records as two disjoint sets, for a
 * capped count (`union all … limit cap`): first those of the record's own columns (`t where <own>`,
 * read from their indexes — a consultant's appointments from `(consultant_id, …)`), then the others
 * (`<own> is not true and <via>`), counted only when the first set does not reach the cap.
 */
export interface VisibleRecords {
  all: RawBuilder<unknown>;
  parts?: [RawBuilder<unknown>, RawBuilder<unknown>];
}

export function visibleRecords(
  model: ResourceModel,
  models: ResourceModel[],
  principal: Principal | undefined,
): VisibleRecords | undefined {
  const joined = joinedScope(model, models, principal, model.table, [model.name], { count: 0 });
  if (joined === 'all' || joined === 'none' || joined.via.length === 0) return undefined;
  const table = sql.table(model.table);
  const columns = sql`${table}.*`;
  const joins = sql.join(joined.joins, sql` `);
  const select = (where: RawBuilder<SqlBool>, join = true) =>
    join
      ? sql`(select ${columns} from ${table} ${joins} where ${where})`
      : sql`(select ${columns} from ${table} where ${where})`;
  const via = anyOf(joined.via);
  if (joined.own.length === 0) return { all: select(via) };
  const own = anyOf(joined.own);
  return {
    all: select(anyOf([...joined.own, ...joined.via])),
    parts: [select(own, false), select(sql<SqlBool>`(${own}) is not true and ${via}`)],
  };
}

/** The principal's visibility of a model's records, as a scope condition (undefined: all). */
export function visibilityScope(
  model: ResourceModel,
  models: ResourceModel[],
  principal: Principal | undefined,
): ScopeCondition | undefined {
  const where = condition(model, models, principal, undefined, [model.name]);
  return where === undefined ? undefined : () => where;
}

/** Both conditions (an undefined one does not restrict). */
export function combineScopes(
  first: ScopeCondition | undefined,
  second: ScopeCondition | undefined,
): ScopeCondition {
  if (first && second) return (eb) => eb.and([first(eb), second(eb)]);
  return first ?? second ?? ((eb) => eb.val(true));
}

/** Is the record `id` of `model` visible to the principal (markers only)? */
export async function isVisible(
  db: DB,
  model: ResourceModel,
  models: ResourceModel[],
  principal: Principal | undefined,
  id: number,
): Promise<boolean> {
  const where = condition(model, models, principal, undefined, [model.name]);
  const row = await resourceDb(db)
    .selectFrom(model.table)
    .select('id')
    .where('id', '=', id)
    .where(() => where ?? sql<SqlBool>`true`)
    .executeTakeFirst();
  return Boolean(row);
}

const sameValue = (a: unknown, b: unknown) =>
  JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** A column value as written (jsonb lists arrive as JSON text from toColumns). */
const valueOf = (value: unknown): unknown => {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
};

/**
 * Who may set or change the ownership fields of a record (docs/ARCHITECTURE.md, Identity and
 * access). `own` is the marker the principal's mode keeps to itself: forced on create, never
 * changed after. Every other ownership marker is the back office's: refused when set.
 *
 *   mode (role)                       x-owner (assignedTo)        x-sub-broker (subBrokerId)
 *   all (ADMIN, BACKOFFICE, CALLCENTER) sets and changes            sets and changes
 *   owner (CONSULTANT)                 itself on create; no change  may not set or change
 *   sub-broker (external users)        may not set or change        its own on create; no change
 *   none (EMPLOYEE, PARTNER)           no write at all (403)        no write at all (403)
 */
interface OwnershipRule {
  /** The principal's own marker and the value it is held to. */
  own?: { field: FieldModel; value: unknown; message: ErrorIssue };
  /** Markers the principal may not set. */
  refused: FieldModel[];
}

function ownershipRule(
  markers: Markers,
  mode: VisibilityMode,
  principal: Principal,
): OwnershipRule {
  const all = [markers.owner, markers.subBroker].filter((field) => field !== undefined);
  if (mode === 'owner' && markers.owner) {
    const own = {
      field: markers.owner,
      value: principal.id,
      message: issue('otherOwner'),
    };
    return { own, refused: all.filter((field) => field !== own.field) };
  }
  if (mode === 'sub-broker' && markers.subBroker) {
    const own = {
      field: markers.subBroker,
      value: principal.subBrokerId,
      message: issue('otherSubBroker'),
    };
    return { own, refused: all.filter((field) => field !== own.field) };
  }
  return { refused: all };
}

/**
 * Fields the client sent that the resource's prepare hook took out (a field only some principals
 * may write, such as a notification's title for its recipient): refused, naming them, when the
 * value would change the record, instead of being silently dropped. A complete record sent back
 * unchanged (PUT) still passes.
 */
function droppedFieldErrors(
  sent: ResourceRow,
  values: ResourceRow,
  context: WriteContext,
): FieldErrors {
  const errors: FieldErrors = {};
  const existing = context.existing ?? {};
  for (const [column, value] of Object.entries(sent)) {
    if (column in values) continue;
    const unchanged =
      context.mode === 'create' ? value === null : sameValue(valueOf(value), existing[column]);
    if (!unchanged) errors[column] = [issue('notYours')];
  }
  return errors;
}

/**
 * Server-side write access of a write (column values, after the resource's own prepare hook;
 * `sent`: the values before it, as the client sent them):
 * - forces the owner / sub-broker of new records and refuses handing records over, and refuses
 *   ownership markers the principal may not set (the table above);
 * - refuses references to customer data the writer cannot see;
 * - refuses fields the prepare hook took out of what the client sent (see droppedFieldErrors).
 */
export async function enforceOwnership(
  values: ResourceRow,
  context: WriteContext,
  sent?: ResourceRow,
): Promise<ResourceRow> {
  const { model, models, principal } = context;
  const errors: FieldErrors = sent ? droppedFieldErrors(sent, values, context) : {};
  const mode = visibilityModeOf(principal);
  if (mode === 'all') {
    assertNoErrors(errors);
    return values;
  }
  const markers = markersOf(model);
  if (hasMarkers(markers) && (mode === 'none' || !principal)) {
    throw new ApiError(403, 'noCustomerAccess');
  }
  const out: ResourceRow = { ...values };
  if (!principal) {
    assertNoErrors(errors);
    return out;
  }
  const creating = context.mode === 'create';
  const existing = context.existing ?? {};
  const changes = (field: FieldModel) =>
    field.column in out && !sameValue(out[field.column], existing[field.column]);

  const rule = ownershipRule(markers, mode, principal);
  if (rule.own) {
    const { field, value, message } = rule.own;
    if (creating) out[field.column] = value;
    else if (changes(field)) errors[field.column] = [message];
  }
  for (const field of rule.refused) {
    const set = creating ? out[field.column] != null : changes(field);
    if (set) errors[field.column] ??= [issue('backOfficeOnly')];
  }

  // References to customer data: only to records the writer sees (changed values only, so a
  // record that still points at something that moved away can be saved unchanged).
  for (const field of model.fields) {
    if (!field.reference || !(field.column in out) || errors[field.column]) continue;
    if (field === markers.owner || field === markers.subBroker) continue;
    const target = models.find((candidate) => candidate.name === field.reference);
    if (!target || !hasMarkers(markersOf(target))) continue;
    const value = valueOf(out[field.column]);
    if (value === null || value === undefined) continue;
    const ids = field.kind === 'references' ? (value as number[]) : [value as number];
    const before = existing[field.column];
    const previous = new Set(
      field.kind === 'references' ? ((before as number[] | null) ?? []) : [before as number],
    );
    const missing: number[] = [];
    for (const id of ids) {
      if (!creating && previous.has(id)) continue;
      if (!(await isVisible(context.db, target, models, principal, Number(id)))) missing.push(id);
    }
    if (missing.length > 0)
      errors[field.column] = [
        issue('unknownReference', { resource: target.name, ids: missing.join(', ') }),
      ];
  }

  // A new record nobody but its author could ever see through a via reference must name one.
  if (creating && !markers.owner && !(mode === 'sub-broker' && markers.subBroker)) {
    const empty = markers.via.filter((field) => out[field.column] == null);
    if (markers.via.length > 0 && empty.length === markers.via.length) {
      errors[empty[0].column] ??= [issue('required')];
    }
  }
  assertNoErrors(errors);
  return out;
}

/** For hooks: the visibility scope of the context's model. */
export const scopeOfContext = (context: HookContext): ScopeCondition | undefined =>
  visibilityScope(context.model, context.models, context.principal);
