/**
 * Turns resource models into a table model and the table model's changes into migration SQL.
 * Additive only: new tables, new columns, new indexes, changed defaults. A removed column or table
 * is reported in a comment and kept; a changed column type needs a hand-written migration. An
 * index whose definition changed is dropped and built again (it holds no data of its own).
 * Every resource table has a `version` (1 on insert) that a trigger raises on every update, and an
 * audit trigger writing each inserted, updated or deleted row's changed columns to `audit_log`.
 */
import { type FieldModel, type ResourceModel, VERSION_FIELD } from '../../src/schema/model.ts';
import { PHONE_FORMAT } from '../../src/schema/phone.ts';
import { SEARCH_DOCUMENT_COLUMN, searchDocumentSql } from './search-sql.ts';
import { LABEL_COLLATION, rowLabelSql } from './label-sql.ts';

export interface ColumnModel {
  type: string;
  notNull: boolean;
  default?: string;
  references?: string;
  primaryKey?: boolean;
  /** A stored generated column: its expression (derived data, never written). */
  generated?: string;
}

/**
 * What a table's audit trigger records beside the changes: the column naming the record, the
 * parent record its history also belongs to (the first required reference, e.g. a document's
 * customer), and the columns whose values are never written to the log.
 */
export interface AuditModel {
  key: string;
  parent?: { table: string; column: string };
  redacted: string[];
  /** `false`: inserts are not logged (`x-resource.auditInserts`); absent: every write is. */
  inserts?: false;
}

export interface TableModel {
  columns: Record<string, ColumnModel>;
  indexes: Record<string, string>;
  audit?: AuditModel;
}

export interface Snapshot {
  tables: Record<string, TableModel>;
}

/** Identifiers are always quoted: schema fields such as `group` are SQL keywords. */
export const q = (identifier: string): string => `"${identifier.replace(/"/g, '""')}"`;

const quoteLiteral = (value: string): string => `'${value.replace(/'/g, "''")}'`;

function columnType(field: FieldModel): string {
  switch (field.kind) {
    case 'string':
    case 'enum':
      return 'text';
    case 'integer':
    case 'reference':
      return 'integer';
    case 'number':
      return 'double precision';
    case 'boolean':
      return 'boolean';
    case 'date':
      return 'date';
    case 'datetime':
      return 'timestamptz';
    case 'time':
      return 'time';
    default:
      return 'jsonb';
  }
}

function columnDefault(field: FieldModel, type: string): string | undefined {
  if (field.name === 'createdAt' || field.name === 'updatedAt') return 'now()';
  const value = field.schema.default;
  if (value === undefined) return undefined;
  if (type === 'jsonb') return `${quoteLiteral(JSON.stringify(value))}::jsonb`;
  if (typeof value === 'string') return quoteLiteral(value);
  return String(value);
}

/** The version column of every resource table (src/schema/model.ts VERSION_FIELD). */
const VERSION_COLUMN: ColumnModel = { type: 'integer', notNull: true, default: '1' };

/**
 * The function behind every version trigger. Created (or replaced) by each migration that adds a
 * trigger, so a generated migration stands on its own. A trigger rather than application code:
 * every write counts, whichever route or hand-written SQL makes it, and a client-sent value can
 * never set it.
 */
export const VERSION_FUNCTION_SQL = `create or replace function gscrm_next_version() returns trigger language plpgsql as $$
begin
  new.${q(VERSION_FIELD)} := old.${q(VERSION_FIELD)} + 1;
  return new;
end
$$`;

/** The trigger that raises a table's version on every update. */
export const versionTriggerSql = (table: string): string =>
  `create trigger ${q(`${table}_${VERSION_FIELD}`)} before update on ${q(table)} for each row execute function gscrm_next_version()`;

/**
 * The function behind every audit trigger (arguments: key column, parent table, parent column,
 * redacted columns comma-separated). One row per changed record in the writing transaction; the
 * user, address, user agent and request id come from `audit_log`'s column defaults, which read the
 * transaction's `gscrm.*` settings (server/audit/context.ts). An update that changes nothing but
 * the timestamps writes nothing.
 */
export const AUDIT_FUNCTION_SQL = `create or replace function gscrm_audit_row() returns trigger language plpgsql as $$
declare
  old_row jsonb := case when tg_op in ('UPDATE', 'DELETE') then to_jsonb(old) end;
  new_row jsonb := case when tg_op in ('INSERT', 'UPDATE') then to_jsonb(new) end;
  row_data jsonb := coalesce(new_row, old_row);
  redacted text[] := string_to_array(coalesce(tg_argv[3], ''), ',');
  action text := case tg_op when 'INSERT' then 'create' when 'UPDATE' then 'update' else 'delete' end;
  changes jsonb := '{}'::jsonb;
  field text;
  before_value jsonb;
  after_value jsonb;
begin
  for field in select jsonb_object_keys(row_data) loop
    continue when field in ('created_at', 'updated_at', '${VERSION_FIELD}', '${SEARCH_DOCUMENT_COLUMN}');
    before_value := old_row -> field;
    after_value := new_row -> field;
    continue when tg_op = 'UPDATE' and before_value is not distinct from after_value;
    continue when tg_op = 'INSERT' and after_value = 'null'::jsonb;
    continue when tg_op = 'DELETE' and before_value = 'null'::jsonb;
    if field = any(redacted) then
      if before_value is not null and before_value <> 'null'::jsonb then before_value := '"[redacted]"'::jsonb; end if;
      if after_value is not null and after_value <> 'null'::jsonb then after_value := '"[redacted]"'::jsonb; end if;
    end if;
    changes := changes || jsonb_build_object(field, jsonb_build_object('old', before_value, 'new', after_value));
  end loop;
  if tg_op = 'UPDATE' and changes = '{}'::jsonb then
    return null;
  end if;
  insert into audit_log (event, action, resource, record_id, parent_resource, parent_id, changes)
  values ('record.' || action, action, tg_table_name, row_data ->> tg_argv[0], nullif(tg_argv[1], ''),
    case when coalesce(tg_argv[2], '') <> '' then row_data ->> tg_argv[2] end, changes);
  return null;
end
$$`;

/** The trigger that writes a table's changes to the audit log. */
export const auditTriggerSql = (table: string, audit: AuditModel): string =>
  `create trigger ${q(`${table}_audit`)} after ${audit.inserts === false ? '' : 'insert or '}update or delete on ${q(table)} for each row execute function gscrm_audit_row(${[
    audit.key,
    audit.parent?.table ?? '',
    audit.parent?.column ?? '',
    audit.redacted.join(','),
  ]
    .map(quoteLiteral)
    .join(', ')})`;

/** Columns never logged: password widgets, and anything named like a password, token or secret. */
const isSecret = (field: FieldModel): boolean =>
  field.schema['x-widget'] === 'password' || /password|token|secret/i.test(field.column);

export function tableModel(model: ResourceModel): TableModel {
  const columns: Record<string, ColumnModel> = {};
  const indexes: Record<string, string> = {};
  const parent = model.fields.find(
    (field) => field.kind === 'reference' && field.required && field.reference,
  );
  const audit: AuditModel = {
    key: 'id',
    redacted: model.fields.filter(isSecret).map((field) => field.column),
  };
  if (parent?.reference) {
    audit.parent = { table: parent.reference.replace(/-/g, '_'), column: parent.column };
  }
  if (model.resource.auditInserts === false) audit.inserts = false;
  // The owner column (x-owner, server/access/visibility.ts) leads an index in the default order.
  const owner = model.fields.find(
    (field) => field.schema['x-owner'] && (field.kind === 'reference' || field.kind === 'integer'),
  );
  const defaultSort = model.fields.find(
    (field) => field.name === model.resource.defaultSort?.field,
  );
  const ownerSort =
    defaultSort && defaultSort !== owner && sortIndexed(defaultSort)
      ? defaultSort.column
      : undefined;
  // A record visible through its own columns or through a referenced one (x-owner or
  // x-sub-broker beside x-owner-via: a consultant's appointments, and those of their customers)
  // has its default order's index carry those columns: the capped count of such a list over a
  // range of that order (a calendar's week) reads the rows not the principal's own from the index
  // alone, to probe their referenced record (server/access/visibility.ts, visibleRecords).
  const scalarMarker = (field: FieldModel, marker: string) =>
    Boolean(field.schema[marker]) && (field.kind === 'reference' || field.kind === 'integer');
  const ownMarked = model.fields.filter(
    (field) => scalarMarker(field, 'x-owner') || scalarMarker(field, 'x-sub-broker'),
  );
  const viaMarked = model.fields.filter(
    (field) => field.schema['x-owner-via'] && field.kind === 'reference',
  );
  const visibilityColumns =
    ownMarked.length > 0 && viaMarked.length > 0
      ? [...ownMarked, ...viaMarked].map((field) => field.column)
      : [];
  for (const field of model.fields) {
    const type = columnType(field);
    if (field.name === 'id') {
      columns.id = { type: 'integer', notNull: true, primaryKey: true };
      continue;
    }
    const column: ColumnModel = {
      type,
      notNull: field.required || field.name === 'createdAt' || field.name === 'updatedAt',
    };
    const fallback = columnDefault(field, type);
    if (fallback !== undefined) column.default = fallback;
    if (field.kind === 'reference' && field.reference) {
      column.references = field.reference.replace(/-/g, '_');
    }
    columns[field.column] = column;
    // The version follows the timestamps, before the schema's own columns.
    if (field.name === 'updatedAt') columns[VERSION_FIELD] = { ...VERSION_COLUMN };
    const name = `${model.table}_${field.column}`;
    const index = (suffix: string, definition: string, unique = false) => {
      indexes[`${name}_${suffix}`] =
        `create ${unique ? 'unique ' : ''}index ${q(`${name}_${suffix}`)} on ${q(model.table)} ${definition}`;
    };
    // `if not exists`: a hand-written index of the same name and purpose may be there already
    // (e.g. customers_created_at_idx, migration 0010).
    const sortIndex = (suffix: string, columns: string[], include: string[] = []) => {
      indexes[`${name}_${suffix}`] =
        `create index if not exists ${q(`${name}_${suffix}`)} on ${q(model.table)} (${columns.map(q).join(', ')})${
          include.length > 0 ? ` include (${include.map(q).join(', ')})` : ''
        }`;
    };
    if (field.schema['x-unique']) {
      index('key', `(${q(field.column)})`, true);
    } else if (field.kind === 'references' || field.kind === 'enumArray') {
      if (field.filter) index('idx', `using gin (${q(field.column)})`);
    } else if (sortIndexed(field) || (field.kind === 'reference' && field.sortable)) {
      // A sortable reference: the rows of each referenced record in id order, as the list sorted
      // by the referenced label reads them (server/crud/reference-sort.ts).
      sortIndex('idx', [field.column, 'id'], field === defaultSort ? visibilityColumns : []);
    } else if (field.schema['x-index'] || field.kind === 'reference' || field.filter) {
      index('idx', `(${q(field.column)})`);
    }
    // The consultant's list (x-owner, server/access/visibility.ts): their records in the default
    // order, from the index alone.
    if (field === owner && ownerSort)
      sortIndex(`${ownerSort}_idx`, [field.column, ownerSort, 'id']);
  }
  for (const field of searchFields(model)) {
    // The search compares folded text (gscrm_fold, migrations 0014/0016), phone numbers as stored.
    const name = `${model.table}_${field.column}`;
    const [suffix, expression] =
      field.schema.format === PHONE_FORMAT
        ? ['trgm_idx', q(field.column)]
        : ['fold_trgm_idx', `gscrm_fold(${q(field.column)})`];
    indexes[`${name}_${suffix}`] =
      `create index if not exists ${q(`${name}_${suffix}`)} on ${q(model.table)} using gin (${expression} gin_trgm_ops)`;
  }
  // The folded text of the whole search, kept by the database (./search-sql.ts): what
  // `search=` looks in.
  const document = searchDocumentSql(model);
  if (document) {
    columns[SEARCH_DOCUMENT_COLUMN] = { type: 'text', notNull: false, generated: document };
    indexes[`${model.table}_search_idx`] =
      `create index if not exists ${q(`${model.table}_search_idx`)} on ${q(model.table)} using gin (${q(SEARCH_DOCUMENT_COLUMN)} gin_trgm_ops)`;
  }
  // The records' own label (`sort=_label`, and lists sorted by a reference to this resource).
  const label = rowLabelSql(model);
  if (label) indexes[`${model.table}_label_idx`] = labelIndexSql(model.table, label);
  return { columns, indexes, audit };
}

/**
 * The index of a label in LABEL_COLLATION, then the id (the lists' order). Only where the
 * database has the collation (PostgreSQL built without ICU sorts labels by its default, which
 * this index would not serve).
 */
const labelIndexSql = (table: string, label: string): string =>
  `do $gscrm$ begin if exists (select 1 from pg_collation where collname = ${quoteLiteral(LABEL_COLLATION)}) then create index if not exists ${q(`${table}_label_idx`)} on ${q(table)} (((${label}) collate ${q(LABEL_COLLATION)}), "id"); end if; end $gscrm$`;

/**
 * Longer text is sortable but not indexed: a B-tree entry holds at most about 2.7 kB, and notes
 * or comments are not what lists are ordered by.
 */
const MAX_INDEXED_LENGTH = 255;

/**
 * Whether a field has a sort index `(column, id)`, shaped like the list's ORDER BY (which always
 * ends with the id; server/crud/index.ts): every sortable column, except the id (its primary key
 * serves), unique columns (their unique index serves), references (sorted by the referenced
 * record's label: their `(column, id)` index is made beside, see tableModel) and long text
 * (MAX_INDEXED_LENGTH). docs/ARCHITECTURE.md, "Lists at any size".
 */
export function sortIndexed(field: FieldModel): boolean {
  if (!field.sortable || field.name === 'id' || field.schema['x-unique']) return false;
  if (field.kind === 'reference') return false;
  if (field.kind === 'string') {
    const length = field.schema.maxLength;
    return (
      field.schema.enum !== undefined || (length !== undefined && length <= MAX_INDEXED_LENGTH)
    );
  }
  return true;
}

/** The text fields of `x-resource.search` (server/crud/search.ts), each with a trigram index. */
function searchFields(model: ResourceModel): FieldModel[] {
  return (model.resource.search ?? []).flatMap((name) => {
    const field = model.fields.find((candidate) => candidate.name === name);
    return field?.kind === 'string' ? [field] : [];
  });
}

export function snapshotOf(models: ResourceModel[]): Snapshot {
  const tables: Record<string, TableModel> = {};
  for (const model of [...models].sort((a, b) => a.table.localeCompare(b.table))) {
    tables[model.table] = tableModel(model);
  }
  return { tables };
}

function columnSql(name: string, column: ColumnModel): string {
  if (column.primaryKey) return `${q(name)} integer generated by default as identity primary key`;
  let sql = `${q(name)} ${column.type}`;
  if (column.generated !== undefined)
    return `${sql} generated always as (${column.generated}) stored`;
  if (column.notNull) sql += ' not null';
  if (column.default !== undefined) sql += ` default ${column.default}`;
  return sql;
}

const foreignKeySql = (table: string, name: string, column: ColumnModel): string =>
  `alter table ${q(table)} add constraint ${q(`${table}_${name}_fkey`)} foreign key (${q(name)}) references ${q(column.references ?? '')} (id) on delete restrict`;

export class UnsupportedChangeError extends Error {}

/** The SQL that brings a database at `from` to `to`; empty when nothing changed. */
export function diffSql(from: Snapshot, to: Snapshot): string[] {
  const statements: string[] = [];
  const foreignKeys: string[] = [];
  const indexes: string[] = [];
  // Tables whose version column is new: created with it, or given it now.
  const versioned: string[] = [];
  for (const [table, target] of Object.entries(to.tables)) {
    const current = from.tables[table];
    if (target.columns[VERSION_FIELD] && !current?.columns[VERSION_FIELD]) versioned.push(table);
    if (!current) {
      const columns = Object.entries(target.columns).map(
        ([name, column]) => `  ${columnSql(name, column)}`,
      );
      statements.push(`create table ${q(table)} (\n${columns.join(',\n')}\n)`);
      for (const [name, column] of Object.entries(target.columns)) {
        if (column.references) foreignKeys.push(foreignKeySql(table, name, column));
      }
      indexes.push(...Object.values(target.indexes));
      continue;
    }
    // Indexes on a generated column made again (dropped with it).
    const regenerated: string[] = [];
    for (const [name, column] of Object.entries(target.columns)) {
      const before = current.columns[name];
      if (!before) {
        const addable = { ...column, notNull: column.notNull && column.default !== undefined };
        statements.push(`alter table ${q(table)} add column ${columnSql(name, addable)}`);
        if (column.notNull && !addable.notNull) {
          statements.push(
            `-- ${table}.${name} is required by the schema; existing rows may be empty, so the column stays nullable`,
          );
        }
        if (column.references) foreignKeys.push(foreignKeySql(table, name, column));
        continue;
      }
      if (before.generated !== column.generated) {
        // Derived data: the column is made again with its new expression, and its indexes with it.
        statements.push(
          `alter table ${q(table)} drop column if exists ${q(name)}`,
          `alter table ${q(table)} add column ${columnSql(name, column)}`,
        );
        const naming = new RegExp(`\\(${q(name)}[ ,)]`);
        regenerated.push(...Object.values(target.indexes).filter((sql) => naming.test(sql)));
        continue;
      }
      if (before.type !== column.type) {
        throw new UnsupportedChangeError(
          `${table}.${name} changes type from ${before.type} to ${column.type}: write a migration by hand (convert the data), then run gen:migration again to record the snapshot with --accept`,
        );
      }
      if (before.default !== column.default) {
        statements.push(
          column.default === undefined
            ? `alter table ${q(table)} alter column ${q(name)} drop default`
            : `alter table ${q(table)} alter column ${q(name)} set default ${column.default}`,
        );
      }
      if (before.notNull !== column.notNull) {
        statements.push(
          `-- ${table}.${name}: required changed to ${column.notNull}; not-null constraint left as it was (change it by hand after checking the data)`,
        );
      }
      if (before.references !== column.references && column.references) {
        foreignKeys.push(foreignKeySql(table, name, column));
      }
    }
    for (const name of Object.keys(current.columns)) {
      if (!target.columns[name]) {
        statements.push(
          `-- ${table}.${name} is no longer in the schemas; the column and its data are kept`,
        );
      }
    }
    for (const [name, sql] of Object.entries(target.indexes)) {
      if (current.indexes[name] === sql && !regenerated.includes(sql)) continue;
      // An index whose shape changed is built again (an index holds no data of its own).
      if (current.indexes[name] && current.indexes[name] !== sql)
        statements.push(`drop index if exists ${q(name)}`);
      indexes.push(sql);
    }
  }
  for (const table of Object.keys(from.tables)) {
    if (!to.tables[table])
      statements.push(`-- table ${table} is no longer in the schemas; it and its data are kept`);
  }
  const triggers =
    versioned.length > 0 ? [VERSION_FUNCTION_SQL, ...versioned.map(versionTriggerSql)] : [];
  return [...statements, ...foreignKeys, ...indexes, ...triggers];
}

/**
 * The audit triggers a migration from `from` to `to` needs: one per table whose audit is new or
 * changed (its old trigger dropped first), after the function. Kept apart from diffSql so a
 * table's columns exist before its trigger names them; the generator appends it.
 */
export function auditSql(from: Snapshot, to: Snapshot): string[] {
  const triggers: string[] = [];
  for (const [table, target] of Object.entries(to.tables)) {
    if (!target.audit) continue;
    const current = from.tables[table]?.audit;
    if (current && JSON.stringify(current) === JSON.stringify(target.audit)) continue;
    if (current) triggers.push(`drop trigger if exists ${q(`${table}_audit`)} on ${q(table)}`);
    triggers.push(auditTriggerSql(table, target.audit));
  }
  return triggers.length > 0 ? [AUDIT_FUNCTION_SQL, ...triggers] : [];
}
