/**
 * References in lists and writes of the generic CRUD routes:
 * - the label of a record in SQL — the text that stands for it in the user's language, as the web
 *   app shows it (src/resources/labels.ts `representRecord`): its localized name, the first
 *   `representation` template whose fields are filled, or its `recordRepresentation` (translated
 *   when `x-translate`). Lists sort a reference column by it, and a list by its own records'
 *   label with `sort=_label` (what the pickers ask for);
 * - `x-reference-filter` on write: a reference may only name records matching the filter, the
 *   same conditions the picker sends to the referenced list.
 */
import { type RawBuilder, sql } from 'kysely';
import { type FieldModel, filterValues, type ResourceModel } from '../../src/schema/model.ts';
import type { DB } from '../db/index.ts';
import { LABEL_COLLATION, rowLabelSql } from '../db/label-sql.ts';
import { type ResourceRow, resourceDb } from '../db/resource.ts';
import { type FieldErrors, issue } from '../http/errors.ts';
import { filterExpressions, type ListQuery } from './list.ts';

/** The languages labels come in; anything else reads German (the app's default). */
const LABEL_LANGUAGES = ['de', 'en', 'fr', 'it'] as const;
export type LabelLanguage = (typeof LABEL_LANGUAGES)[number];

export const labelLanguage = (value: string | null | undefined): LabelLanguage =>
  LABEL_LANGUAGES.find((language) => language === value) ?? 'de';

/** Whether the database knows LABEL_COLLATION (asked once at start). */
export async function hasLabelCollation(db: DB): Promise<boolean> {
  const { rows } = await sql<{ found: number }>`
    select 1 as found from pg_collation where collname = ${LABEL_COLLATION}`.execute(db);
  return rows.length > 0;
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** A field's value as text, or an empty text when it has none. */
const textOf = (alias: string, field: FieldModel) =>
  sql<string>`coalesce(${sql.ref(`${alias}.${field.column}`)}::text, '')`;

/** The label of a `representation` template (`{firstName} {lastName}`) and when it applies. */
function templateSql(model: ResourceModel, alias: string, template: string) {
  const parts: RawBuilder<string>[] = [];
  const filled: RawBuilder<boolean>[] = [];
  let rest = template;
  for (const match of template.matchAll(/\{(\w+)\}/g)) {
    const field = model.fields.find((candidate) => candidate.name === match[1]);
    if (!field) return undefined;
    const [before] = rest.split(match[0], 1);
    rest = rest.slice(before.length + match[0].length);
    if (before) parts.push(sql<string>`${before}::text`);
    parts.push(textOf(alias, field));
    filled.push(sql<boolean>`trim(${textOf(alias, field)}) <> ''`);
  }
  if (rest) parts.push(sql<string>`${rest}::text`);
  return { value: sql<string>`concat(${sql.join(parts)})`, filled: sql.join(filled, sql` and `) };
}

/** A translated value (`x-translate`): its text in the language, else German, else the value. */
function translatedSql(prefix: string, value: RawBuilder<string>, language: LabelLanguage) {
  return sql<string>`coalesce((
    select t.text from translation_keys k
      join translations t on t.translation_key_id = k.id
      join languages l on l.id = t.language_id
    where k.key = ${`${prefix}.`} || ${value} and t.text <> '' and l.abbreviation in (${language}, 'de')
    order by l.abbreviation = ${language} desc
    limit 1), ${value})`;
}

/**
 * The label of the rows of `model` (a table or alias `alias`) in SQL, as `representRecord` makes
 * it in the browser; undefined when the model has no representation (its records show as `#id`).
 */
export function labelSql(
  model: ResourceModel,
  alias: string,
  language: LabelLanguage,
): RawBuilder<string> | undefined {
  // Made of the row's own text: the expression the label index holds (server/db/label-sql.ts).
  const own = rowLabelSql(model, alias);
  if (own) return sql<string>`${sql.raw(own)}`;
  const { localizedName, representation = [], recordRepresentation } = model.resource;
  const field = (name: string) => model.fields.find((candidate) => candidate.name === name);
  if (localizedName) {
    const names = [capitalize(language), 'De', 'En'].map((suffix) => field(localizedName + suffix));
    const columns = names.filter((found): found is FieldModel => found !== undefined);
    if (columns.length > 0) {
      return sql<string>`coalesce(${sql.join(
        columns.map((column) => sql`nullif(${sql.ref(`${alias}.${column.column}`)}::text, '')`),
      )})`;
    }
  }
  const plain = recordRepresentation ? field(recordRepresentation) : undefined;
  const prefix = plain?.schema['x-translate'];
  const fallback = plain
    ? prefix
      ? translatedSql(prefix, sql<string>`${sql.ref(`${alias}.${plain.column}`)}::text`, language)
      : sql<string>`${sql.ref(`${alias}.${plain.column}`)}::text`
    : sql<string>`null`;
  const templates = representation
    .map((template) => templateSql(model, alias, template))
    .filter((found) => found !== undefined);
  if (templates.length === 0) return plain ? fallback : undefined;
  return sql<string>`case ${sql.join(
    templates.map(({ value, filled }) => sql`when ${filled} then ${value}`),
    sql` `,
  )} else ${fallback} end`;
}

/** A label as sort key, in LABEL_COLLATION when the database has it. */
export const sortKey = (label: RawBuilder<string>, collate: boolean): RawBuilder<string> =>
  collate ? sql<string>`${label} collate ${sql.id(LABEL_COLLATION)}` : label;

/** The label of the record a scalar reference column points to (a correlated subquery). */
export function referencedLabelSql(
  model: ResourceModel,
  field: FieldModel,
  target: ResourceModel,
  language: LabelLanguage,
): RawBuilder<string> | undefined {
  const alias = 'gscrm_referenced';
  const label = labelSql(target, alias, language);
  if (!label) return undefined;
  return sql<string>`(select ${label} from ${sql.table(target.table)} as ${sql.id(alias)}
    where ${sql.ref(`${alias}.id`)} = ${sql.ref(`${model.table}.${field.column}`)})`;
}

/** The list query that selects the records an `x-reference-filter` allows. */
function filterQuery(target: ResourceModel, filter: NonNullable<FieldModel['referenceFilter']>) {
  const query: ListQuery = { page: 1, per_page: 1 };
  for (const [name, value] of Object.entries(filter)) {
    const field = target.fields.find((candidate) => candidate.name === name);
    if (!field) continue;
    query[field.column] = field.kind === 'boolean' ? value : filterValues(value);
  }
  return query;
}

/** The ids a write sets on a reference field that the stored record does not have yet. */
function newIds(field: FieldModel, value: unknown, stored: unknown): number[] {
  const ids = (Array.isArray(value) ? value : [value]).filter(
    (id): id is number => typeof id === 'number',
  );
  const before = new Set(
    (Array.isArray(stored) ? stored : [stored]).map((id) => Number(id)).filter(Number.isFinite),
  );
  return ids.filter((id) => !before.has(id));
}

/**
 * Every `x-reference-filter` of the body: an id the write newly sets must name a record matching
 * the filter (`unsuitableReference`, naming the field). Ids the stored record already holds pass,
 * so a record whose consultant has since left (disabled, another role) can still be edited; the
 * rule applies when someone chooses. Unknown ids are checkReferences' concern.
 */
export async function referenceFilterErrors(
  db: DB,
  models: ResourceModel[],
  model: ResourceModel,
  body: ResourceRow,
  existing?: ResourceRow,
): Promise<FieldErrors> {
  const errors: FieldErrors = {};
  for (const field of model.fields) {
    const filter = field.referenceFilter;
    const target = models.find((candidate) => candidate.name === field.reference);
    const value = body[field.column];
    if (!filter || !target || value === undefined || value === null) continue;
    const ids = newIds(field, value, existing?.[field.column]);
    if (ids.length === 0) continue;
    const conditions = filterExpressions(target, filterQuery(target, filter));
    const suitable = await resourceDb(db)
      .selectFrom(target.table)
      .select('id')
      .where('id', 'in', ids)
      .where(conditions)
      .execute();
    const found = new Set(suitable.map((row) => Number(row.id)));
    const refused = ids.filter((id) => !found.has(id));
    if (refused.length > 0) {
      errors[field.column] = [issue('unsuitableReference', { ids: refused.join(', ') })];
    }
  }
  return errors;
}
