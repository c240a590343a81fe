/**
 * The search document of a resource's rows: the folded text of every text field of
 * `x-resource.search` (phone fields aside), joined by a space —
 * `coalesce(gscrm_fold("first_name"), '') || ' ' || coalesce(gscrm_fold("last_name"), '') || …` —
 * kept by the database in a stored generated column, `search_document`, with a trigram index
 * (`<table>_search_idx`; both made by the migrations from the schemas, schema-sql.ts).
 *
 * The list search (server/crud/search.ts) looks for each word in this one column instead of in
 * each field. Folding costs: `gscrm_fold` of a name with an umlaut is a `translate` over some two
 * hundred letters, paid per row and per field at every search while the text was folded on the
 * fly — a broad search (`müller`, a quarter of the rows) spent most of its database time there.
 * Stored, the text is folded once per write; a word is two LIKE patterns on one column and one
 * index, not two on each of six (measured at 100,000 customers: page + capped count 2.3 ms instead
 * of 10.6 ms).
 *
 * The same rows match as field by field: the words of a search never hold white space
 * (src/schema/search.ts `searchWords`), so no pattern can match across the space between two
 * fields. Each field is folded on its own (gscrm_fold's fast path for ASCII text). The column is
 * derived data: the audit trail skips it, the personal-data export and pseudonymisation leave it
 * out, and no API answer carries it (answers are serialized from the schemas). Its values are
 * stored: a later change of `gscrm_fold` must make the columns again (drop and add them).
 */
import type { FieldModel, ResourceModel } from '../../src/schema/model.ts';
import { PHONE_FORMAT } from '../../src/schema/phone.ts';

/** The stored generated column holding the search document. */
export const SEARCH_DOCUMENT_COLUMN = 'search_document';

const quoteIdentifier = (identifier: string): string => `"${identifier.replace(/"/g, '""')}"`;

/** Whether a field of `x-resource.search` goes into the document (text; phone numbers apart). */
export const inSearchDocument = (field: FieldModel): boolean =>
  field.kind === 'string' && field.schema.format !== PHONE_FORMAT;

/** The text fields of `x-resource.search`, in the schema's order. */
export function searchTextFields(model: ResourceModel): FieldModel[] {
  return (model.resource.search ?? []).flatMap((name) => {
    const field = model.fields.find((candidate) => candidate.name === name);
    return field && inSearchDocument(field) ? [field] : [];
  });
}

/** The expression of `model`'s search document, or undefined when it searches no text field. */
export function searchDocumentSql(model: ResourceModel): string | undefined {
  const fields = searchTextFields(model);
  if (fields.length === 0) return undefined;
  return fields
    .map((field) => `coalesce(gscrm_fold(${quoteIdentifier(field.column)}), '')`)
    .join(` || ' ' || `);
}
