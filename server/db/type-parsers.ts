/**
 * Type parsers shared by both engines (PostgreSQL through `pg`, PGlite in its worker thread): dates
 * stay 'YYYY-MM-DD' text, numerics and bigints become numbers.
 */
export const DATE_OID = 1082;
export const NUMERIC_OID = 1700;
export const INT8_OID = 20;

export const TYPE_PARSERS: Record<number, (value: string) => unknown> = {
  [DATE_OID]: (value) => value,
  [NUMERIC_OID]: (value) => Number.parseFloat(value),
  [INT8_OID]: (value) => Number.parseInt(value, 10),
};
