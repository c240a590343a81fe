/**
 * Reading loose column values — what a request body, a merged record or a stored row holds — the
 * same way in every hook.
 */

/** No value: undefined, null or the empty string (a cleared form field). */
export const isBlank = (value: unknown): boolean =>
  value === undefined || value === null || value === '';

/** A reference column's id (a number, or its text from the wire), or null when blank. */
export const idOf = (value: unknown): number | null => (isBlank(value) ? null : Number(value));
