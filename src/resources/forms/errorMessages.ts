/**
 * Field error messages as forms hold them, made readable: a translation key, react-admin's
 * "@@react-admin@@{json}" form of a key with arguments (what the data provider makes of the server's
 * error keys, and what react-admin's own validators produce), a `{ message, args }` object (a
 * form-level `validate`), or a sentence. Also the flat list of a form's errors, each with its path.
 * Pure: no React, so the plain (non react-admin) forms and the tests use the same functions.
 */

/** The prefix react-admin's ValidationError recognises for a message with arguments. */
export const RA_MESSAGE_PREFIX = '@@react-admin@@';

export interface ErrorMessage {
  message: string;
  args?: Record<string, unknown>;
}

export type Translate = (key: string, options?: Record<string, unknown>) => string;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function fromObject(value: Record<string, unknown>): ErrorMessage | undefined {
  const { message, args } = value;
  if (typeof message === 'string') return isRecord(args) ? { message, args } : { message };
  // A form-level validate's `{ message: { message, args } }` (react-admin wraps it once more).
  return isRecord(message) ? fromObject(message) : undefined;
}

/** The key (or sentence) and arguments of an error message, whatever form it came in. */
export function parseErrorMessage(value: unknown): ErrorMessage | undefined {
  if (typeof value === 'string') {
    if (value === '') return undefined;
    if (!value.startsWith(RA_MESSAGE_PREFIX)) return { message: value };
    try {
      const parsed: unknown = JSON.parse(value.slice(RA_MESSAGE_PREFIX.length));
      return isRecord(parsed) ? fromObject(parsed) : undefined;
    } catch {
      return { message: value };
    }
  }
  return isRecord(value) ? fromObject(value) : undefined;
}

/** The message in the user's language, as react-admin's ValidationError shows it. */
export function translateErrorMessage(translate: Translate, value: unknown): string {
  const parsed = parseErrorMessage(value);
  if (!parsed) return '';
  return translate(parsed.message, { _: parsed.message, ...parsed.args });
}

/** One error of a form: its field path (`email`, `emails.0.address`, `root.serverError`). */
export interface PathError {
  path: string;
  type: string;
  message: unknown;
}

/**
 * The errors of react-hook-form's nested error object as a flat list. A leaf is an object with a
 * string `type` (react-hook-form's FieldError); its `ref` is skipped.
 */
export function flattenErrors(errors: unknown, prefix = ''): PathError[] {
  if (!isRecord(errors) && !Array.isArray(errors)) return [];
  const out: PathError[] = [];
  for (const [key, node] of Object.entries(errors)) {
    if (key === 'ref' || node === undefined || node === null) continue;
    const path = prefix ? `${prefix}.${key}` : key;
    if (isRecord(node) && typeof node.type === 'string') {
      out.push({ path, type: node.type, message: node.message });
      // A field array's error may carry its items' errors beside its own.
      for (const [child, value] of Object.entries(node)) {
        if (!['type', 'message', 'ref', 'types'].includes(child))
          out.push(...flattenErrors({ [child]: value }, path));
      }
    } else {
      out.push(...flattenErrors(node, path));
    }
  }
  return out;
}

/** A path's last word made readable when it has no label (`translations.0.text` → "text"). */
export const humanizePath = (path: string): string => {
  const last =
    path
      .split('.')
      .filter((part) => !/^\d+$/.test(part))
      .pop() ?? path;
  return last.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_-]/g, ' ');
};

/** The translation key of a field's label (`emails.0.address` → `…fields.emails.address`). */
export function labelKeyOf(resource: string, path: string): string {
  const parts = path.split('.').filter((part) => !/^\d+$/.test(part));
  return `resources.${resource}.fields.${parts.join('.')}`;
}

/**
 * "<label>: <message>" lines for a notification listing errors of fields the form does not show.
 * `label` gives a field's label in the user's language.
 */
export function errorLines(
  errors: PathError[],
  translate: Translate,
  label: (path: string) => string,
): string[] {
  return errors.map(({ path, message }) => {
    const text = translateErrorMessage(translate, message);
    return `${label(path)}: ${text}`;
  });
}
