/**
 * The notification after a save that did not go through, for every react-admin form of the app
 * (rendered by ./forms.tsx inside each form). Errors beside a field are shown by the field itself
 * (react-admin puts the server's field errors on the inputs; `@@react-admin@@` messages are
 * translated there). What no input shows needs saying here, so after each submit with errors one
 * notification appears:
 * - errors of fields the form does not show (a hidden section, a field without an input, a server
 *   rule naming another field): "<label>: <message>" for each, in the user's language;
 * - else a server error of the record as a whole (`root.serverError`): its message;
 * - else react-admin's "the form is not valid".
 * It replaces react-admin's own notification (the forms set `disableInvalidFormNotification`),
 * which only says the form is invalid and would hide the listed errors. Other `root.*` errors are
 * a form's own markers and are not notified.
 */
import { useEffect, useRef } from 'react';
import { useNotify, useResourceContext, useTranslate } from 'react-admin';
import { type Control, type FieldValues, useFormContext, useFormState } from 'react-hook-form';
import {
  errorLines,
  flattenErrors,
  humanizePath,
  labelKeyOf,
  type PathError,
  translateErrorMessage,
} from './errorMessages.ts';

const SERVER_ERROR = 'root.serverError';

/**
 * Whether an input for `path` is on screen: react-hook-form keeps each registered input under its
 * path in `control._fields` and marks it `mount: false` when it unmounts (its value is kept). The
 * underscore field is part of react-hook-form's published `Control` type; no other API tells
 * whether an input is mounted.
 */
export function isFieldShown(control: Control<FieldValues>, path: string): boolean {
  let node: unknown = control._fields;
  for (const part of path.split('.')) {
    if (typeof node !== 'object' || node === null) return false;
    node = Reflect.get(node, part);
  }
  if (typeof node !== 'object' || node === null) return false;
  const field: unknown = Reflect.get(node, '_f');
  return typeof field === 'object' && field !== null && Reflect.get(field, 'mount') === true;
}

/** The errors no input shows: fields without a mounted input (root errors excepted). */
export function hiddenErrors(control: Control<FieldValues>, errors: PathError[]): PathError[] {
  return errors.filter(
    (error) =>
      error.path !== 'root' &&
      !error.path.startsWith('root.') &&
      !isFieldShown(control, error.path),
  );
}

export function FormErrorSummary() {
  const { control } = useFormContext();
  const { submitCount, errors } = useFormState({ control });
  const resource = useResourceContext();
  const translate = useTranslate();
  const notify = useNotify();
  const counted = useRef(submitCount);

  useEffect(() => {
    // Only after a submit, once per submit (the errors change while the user types).
    if (submitCount <= counted.current) return;
    counted.current = submitCount;
    const all = flattenErrors(errors);
    if (all.length === 0) return;
    const hidden = hiddenErrors(control, all);
    if (hidden.length > 0) {
      const label = (path: string) =>
        resource
          ? translate(labelKeyOf(resource, path), { _: humanizePath(path) })
          : humanizePath(path);
      notify('app.forms.hiddenErrors', {
        type: 'error',
        messageArgs: { errors: errorLines(hidden, translate, label).join('; ') },
      });
      return;
    }
    const serverError = all.find((error) => error.path === SERVER_ERROR);
    if (serverError) {
      const text = translateErrorMessage(translate, serverError.message);
      notify(text, { type: 'error', messageArgs: { _: text } });
      return;
    }
    if (all.some((error) => !error.path.startsWith('root.')))
      notify('ra.message.invalid_form', { type: 'error' });
  }, [submitCount, errors, control, resource, translate, notify]);

  return null;
}
