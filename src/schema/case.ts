/**
 * camelCase (browser) <-> snake_case (wire, database) for keys. Pure functions without
 * dependencies: shared by the data provider, the server and the schema model.
 *
 * The two conversions are inverse of each other for ordinary identifiers:
 * - `snakeToCamel` turns `_x` (x a lower-case ASCII letter, the underscore not leading nor
 *   doubled) into `X`; anything else is kept: `name_de` -> `nameDe`, `address_2` -> `address_2`,
 *   `_id` -> `_id`.
 * - `camelToSnake` turns an upper-case ASCII letter (not leading, not after an underscore) into
 *   `_x`: `nameDe` -> `name_de`, `address2Line` -> `address2_line`, `userID` -> `user_i_d`.
 * So `camelToSnake(snakeToCamel(k)) === k` for every lower-case snake key, and
 * `snakeToCamel(camelToSnake(k)) === k` for every camelCase key without underscores.
 *
 * The deep helpers convert keys of plain objects, recursively through plain objects and arrays.
 * Values are never changed: strings, numbers, dates, files and other class instances are kept
 * as they are (and not entered).
 */

export const camelToSnake = (key: string): string =>
  key.replace(/(?<=[^_])[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

export const snakeToCamel = (key: string): string =>
  key.replace(/(?<=[^_])_([a-z])/g, (_match, letter: string) => letter.toUpperCase());

/** Converts each segment of a dotted path: `email_to.0.email` -> `emailTo.0.email`. */
export const snakePathToCamel = (path: string): string =>
  path.split('.').map(snakeToCamel).join('.');

/** Converts each segment of a dotted path: `emailTo.email` -> `email_to.email`. */
export const camelPathToSnake = (path: string): string =>
  path.split('.').map(camelToSnake).join('.');

/** True for `{}` literals, `Object.create(null)` and parsed JSON objects; false for instances. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function convertKeysDeep(value: unknown, convert: (key: string) => string): unknown {
  if (Array.isArray(value)) return value.map((item) => convertKeysDeep(item, convert));
  if (!isPlainObject(value)) return value;
  // Object.fromEntries defines own properties, so a `__proto__` key stays a plain key.
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [convert(key), convertKeysDeep(item, convert)]),
  );
}

/** Deep copy with every object key in camelCase (for answers of the API). */
export const toCamelDeep = (value: unknown): unknown => convertKeysDeep(value, snakeToCamel);

/** Deep copy with every object key in snake_case (for bodies sent to the API). */
export const toSnakeDeep = (value: unknown): unknown => convertKeysDeep(value, camelToSnake);
