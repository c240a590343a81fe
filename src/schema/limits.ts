/**
 * Bounds shared by the schemas, the API and the browser: the column types' ranges, the shape of
 * an id and the years a date may have. Every integer the API accepts (body, query or path) is
 * bounded by them.
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

/**
 * An integer as query or path text: plain decimal digits with an optional minus, no leading zero,
 * no `+`, spaces, exponent, `0x`/`0o`/`0b` prefix or fraction (what `Number()` would also read).
 */
export const INTEGER_TEXT = /^(0|-?[1-9][0-9]*)$/;
/** A number as query text: an integer as above, optionally with decimals (no exponent, no NaN). */
export const NUMBER_TEXT = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/;

/**
 * Years a date or date-time may have: PostgreSQL refuses year 0 (`0000-01-01`) and ISO 8601 text
 * has four digits, so 0001–9999 is what every client, the database and the browser agree on.
 */
export const YEAR_MIN = 1;
export const YEAR_MAX = 9999;

/** True when an ISO date or date-time text starts with a year in YEAR_MIN..YEAR_MAX. */
export function hasStorableYear(text: string): boolean {
  const match = /^(\d{4})-/.exec(text);
  if (!match) return false;
  const year = Number(match[1]);
  return year >= YEAR_MIN && year <= YEAR_MAX;
}
