/**
 * Bounds shared by the schemas, the API and the browser: the column types' ranges and the shape of
 * an id. Every integer the API accepts (body, query or path) is bounded by them.
 */

/** Largest value of a PostgreSQL `integer` column (ids, references, counts). */
export const INT_MAX = 2_147_483_647;
/** Smallest value of a PostgreSQL `integer` column. */
export const INT_MIN = -2_147_483_648;

/** An id as it appears in a path or query: decimal digits, no sign, no leading zero, no spaces. */
export const ID_PATTERN = '^[1-9][0-9]{0,9}$';

/** JSON schema of an id (a positive `integer` column value). */
export const ID_SCHEMA = { type: 'integer', minimum: 1, maximum: INT_MAX } as const;

/** True when the text is an id within the bound (`"1"`, not `" 1"`, `"0x10"`, `"1e3"`, `"01"`). */
export function isIdText(text: string): boolean {
  return new RegExp(ID_PATTERN).test(text) && Number(text) <= INT_MAX;
}
