/**
 * The generic list search (`search=`, the fields of the schema's `x-resource.search`), for every
 * resource. Each word must be found in one of the fields (words AND, fields OR), compared the way
 * people type rather than the way values are stored:
 * - text is folded on both sides (src/schema/search.ts; `gscrm_fold` in SQL, migration 0014):
 *   `muller` finds `Müller`, `zurich` finds `Zürich`, `mueller` finds `Müller` too;
 * - phone fields (`format: phone`, stored in E.164, src/schema/phone.ts) are matched on the
 *   canonical number: `0793225035`, `+41793225035`, `079 322 50 35` and `0041 79 322 50 35` all
 *   find `+41793225035`; a partial local number (`079 322`) matches its beginning;
 * - digits match anywhere in text fields, so `8050` finds the customers with zip 8050.
 * The text fields are searched in one stored, folded document (server/db/search-sql.ts) with its
 * own trigram index (`<table>_search_idx`); a text filter on one field uses that field's index.
 */
import { type Expression, type SqlBool, sql } from 'kysely';
import { getCountryCallingCode } from 'libphonenumber-js';
import type { FieldModel, ResourceModel } from '../../src/schema/model.ts';
import { DEFAULT_PHONE_REGION, PHONE_FORMAT, toE164 } from '../../src/schema/phone.ts';
import { searchVariants, searchWords } from '../../src/schema/search.ts';
import type { ResourceExpressionBuilder } from '../db/resource.ts';
import { inSearchDocument, SEARCH_DOCUMENT_COLUMN } from '../db/search-sql.ts';
import { escapeLike } from '../http/lists.ts';

/** Separators people put in phone numbers; a query of only these and digits may be a number. */
const PHONE_QUERY = /^\+?[0-9][0-9\s()./-]*$/;
const SEPARATORS = /[\s()./-]/g;
/** Fewer digits than this, anywhere in a number, would match nearly every number. */
const MIN_PHONE_DIGITS = 3;
const LOCAL_PREFIX = `+${getCountryCallingCode(DEFAULT_PHONE_REGION)}`;

const isPhoneField = (field: FieldModel) => field.schema.format === PHONE_FORMAT;

/**
 * More places a word may be found in (a resource hook's searchAlso, ./hooks.ts): conditions on the
 * word's `like` pattern (folded, escaped, `%word%`).
 */
export type SearchAlso = (eb: ResourceExpressionBuilder, pattern: string) => Expression<SqlBool>[];

/** The search as one where-condition, or undefined when there is nothing to search. */
export function searchCondition(
  eb: ResourceExpressionBuilder,
  model: ResourceModel,
  query: string | undefined,
  also?: SearchAlso,
): Expression<SqlBool> | undefined {
  const words = searchWords(query);
  const fields = (model.resource.search ?? []).flatMap((name) => {
    const field = model.fields.find((candidate) => candidate.name === name);
    return field ? [field] : [];
  });
  if (words.length === 0 || fields.length === 0) return undefined;
  const phoneColumns = fields.filter(isPhoneField).map((field) => field.column);
  // Every text field at once: the stored, folded search document (server/db/search-sql.ts).
  const document = fields.some(inSearchDocument)
    ? sql.ref<string>(SEARCH_DOCUMENT_COLUMN)
    : undefined;

  const wordCondition = (word: string) =>
    eb.or([
      ...(document
        ? searchVariants(word).map((variant) => foldedContains(eb, document, variant))
        : []),
      ...phoneColumns.flatMap((column) => phoneConditions(eb, column, word)),
      ...(also
        ? searchVariants(word).flatMap((variant) => also(eb, `%${escapeLike(variant)}%`))
        : []),
    ]);
  const all = eb.and(words.map(wordCondition));
  // A number typed with spaces (`079 322 50 35`) is one phone word, not four words.
  const whole = (query ?? '').trim();
  if (words.length > 1 && phoneColumns.length > 0 && PHONE_QUERY.test(whole)) {
    return eb.or([all, ...phoneColumns.flatMap((column) => phoneConditions(eb, column, whole))]);
  }
  return all;
}

/**
 * The folded text of `column` contains `folded` (already folded: src/schema/search.ts). `like`, not
 * `ilike`: both sides are lower case, and `ilike` lowered every row's text again (≈30 % of a
 * search's time). The pattern is folded once more by the same SQL function, so a letter JavaScript
 * lowers differently from PostgreSQL still matches; on a constant the planner folds it before it
 * chooses the trigram index.
 */
export function foldedContains(
  eb: ResourceExpressionBuilder,
  column: string | Expression<string>,
  folded: string,
): Expression<SqlBool> {
  // A field is folded here; the search document is stored folded.
  return eb(
    typeof column === 'string' ? sql`gscrm_fold(${sql.ref(column)})` : column,
    'like',
    sql`gscrm_fold(${`%${escapeLike(folded)}%`}::text)`,
  );
}

/** How one word (or a whole query) that may be a phone number matches a phone column. */
function phoneConditions(
  eb: ResourceExpressionBuilder,
  column: string,
  text: string,
): Expression<SqlBool>[] {
  const e164 = toE164(text);
  if (e164) return [eb(column, '=', e164)];
  if (!PHONE_QUERY.test(text)) return [];
  const digits = text.replace(SEPARATORS, '');
  // The beginning of a number: international (`+4179`, `004179`) or local (`079`, a Swiss one).
  let prefix: string | undefined;
  if (digits.startsWith('+')) prefix = digits;
  else if (digits.startsWith('00')) prefix = `+${digits.slice(2)}`;
  else if (digits.startsWith('0')) prefix = `${LOCAL_PREFIX}${digits.slice(1)}`;
  if (prefix) return [eb(column, 'like', `${escapeLike(prefix)}%`)];
  return digits.length >= MIN_PHONE_DIGITS ? [eb(column, 'like', `%${escapeLike(digits)}%`)] : [];
}
