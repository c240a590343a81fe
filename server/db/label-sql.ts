/**
 * The label of a resource's records as SQL text, for the resources whose label is made of the
 * row's own text columns only — no language, no translation (customers: `{organization}`, else
 * `{firstName} {lastName}`, else the last name). Such a label is an immutable expression: the
 * migrations index it (`<table>_label_idx`, schema-sql.ts) and the lists sort by the very same
 * expression (server/crud/references.ts), so `sort=_label` — what every picker asks for — and a
 * sort by a reference to such a resource read an index instead of labelling and sorting every row.
 *
 * It matches what the browser shows (src/resources/labels.ts `representRecord`): the first
 * `representation` template whose fields are all filled, else the `recordRepresentation` field.
 */
import type { FieldModel, ResourceModel } from '../../src/schema/model.ts';

/**
 * The collation labels sort with: ICU's root collation orders letters with accents beside their
 * base letter ("Österreich" after "Ostafrika", not after "Z") and ignores case first, as people of
 * all four languages expect. PGlite and PostgreSQL built with ICU have it; without it (a server
 * built without ICU) labels sort by the database's default.
 */
export const LABEL_COLLATION = 'und-x-icu';

const quoteIdentifier = (identifier: string): string => `"${identifier.replace(/"/g, '""')}"`;
const quoteLiteral = (value: string): string => `'${value.replace(/'/g, "''")}'`;

/** Text columns: their value is text without a cast (a cast from a date is not immutable). */
const isText = (field: FieldModel | undefined): field is FieldModel =>
  field !== undefined && (field.kind === 'string' || field.kind === 'enum');

/**
 * The label expression of `model`'s rows (columns qualified by `alias` when given), or undefined
 * when the label depends on more than the row's text columns (a localized name, a translated
 * value, a template naming a number or a date) or the model has no representation.
 */
export function rowLabelSql(model: ResourceModel, alias?: string): string | undefined {
  const { localizedName, representation = [], recordRepresentation } = model.resource;
  if (localizedName) return undefined;
  const field = (name: string) => model.fields.find((candidate) => candidate.name === name);
  const column = (found: FieldModel) =>
    alias
      ? `${quoteIdentifier(alias)}.${quoteIdentifier(found.column)}`
      : quoteIdentifier(found.column);
  const plain = recordRepresentation ? field(recordRepresentation) : undefined;
  if (recordRepresentation && (!isText(plain) || plain.schema['x-translate'])) return undefined;
  const whens: string[] = [];
  for (const template of representation) {
    const parts: string[] = [];
    const filled: string[] = [];
    let rest = template;
    for (const match of template.matchAll(/\{(\w+)\}/g)) {
      const found = field(match[1]);
      if (!isText(found)) return undefined;
      const [before] = rest.split(match[0], 1);
      rest = rest.slice(before.length + match[0].length);
      if (before) parts.push(quoteLiteral(before));
      const value = `coalesce(${column(found)}, '')`;
      parts.push(value);
      filled.push(`trim(${value}) <> ''`);
    }
    if (rest) parts.push(quoteLiteral(rest));
    if (filled.length === 0) continue;
    whens.push(`when ${filled.join(' and ')} then ${parts.join(' || ')}`);
  }
  const fallback = plain ? column(plain) : 'null';
  if (whens.length === 0) return plain ? fallback : undefined;
  return `case ${whens.join(' ')} else ${fallback} end`;
}
