/**
 * The server's errors for a form that is not a react-admin form (a drawer, the settings' sections,
 * anything that calls the API client itself), handled like ./FormErrorSummary.tsx handles them in
 * react-admin's: each field's message beside it, in the user's language (`errorOf(path)`), and one
 * notification after the failed save — listing the errors of fields the form does not show, else
 * the record-level message, else "the form is not valid"; a failure without field errors notifies
 * its message.
 *
 *   const errors = useServerErrors({ shown: (path) => /^translations\.\d+\.text$/.test(path) });
 *   try { … } catch (error) { errors.report(error); }
 *   <TextField error={Boolean(errors.errorOf(path))} helperText={errors.errorOf(path)} />
 */
import { useCallback, useMemo, useState } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import {
  type FieldErrors,
  fieldErrorsOf,
  messageOf,
  ROOT_ERROR_SOURCE,
} from '../../dataProvider/httpClient.ts';
import { errorLines, humanizePath, translateErrorMessage } from './errorMessages.ts';

export interface ServerErrorsOptions {
  /** Whether the form shows the field of a path (its error then appears beside it). */
  shown: (path: string) => boolean;
  /** A field's label as a translation key, for the notification (default: the path made readable). */
  labelKey?: (path: string) => string | undefined;
}

export interface ServerErrors {
  /** The translated message of a field, or undefined. */
  errorOf: (path: string) => string | undefined;
  /** Takes a failed call's errors and notifies what the form does not show. */
  report: (error: unknown) => void;
  clear: () => void;
}

export function useServerErrors({ shown, labelKey }: ServerErrorsOptions): ServerErrors {
  const translate = useTranslate();
  const notify = useNotify();
  const [errors, setErrors] = useState<FieldErrors>({});

  const report = useCallback(
    (error: unknown) => {
      const fieldErrors = fieldErrorsOf(error);
      setErrors(fieldErrors);
      const entries = Object.entries(fieldErrors).map(([path, message]) => ({
        path,
        type: 'server',
        message,
      }));
      const hidden = entries.filter(({ path }) => path !== ROOT_ERROR_SOURCE && !shown(path));
      if (hidden.length > 0) {
        const label = (path: string) => {
          const key = labelKey?.(path);
          return key ? translate(key, { _: humanizePath(path) }) : humanizePath(path);
        };
        notify('app.forms.hiddenErrors', {
          type: 'error',
          messageArgs: { errors: errorLines(hidden, translate, label).join('; ') },
        });
        return;
      }
      const root = fieldErrors[ROOT_ERROR_SOURCE];
      if (entries.length > 0 && root === undefined) {
        notify('ra.message.invalid_form', { type: 'error' });
        return;
      }
      const text = translateErrorMessage(translate, root ?? messageOf(error));
      notify(text, { type: 'error', messageArgs: { _: text } });
    },
    [shown, labelKey, translate, notify],
  );

  const clear = useCallback(() => setErrors({}), []);

  return useMemo(
    () => ({
      errorOf: (path: string) =>
        errors[path] === undefined ? undefined : translateErrorMessage(translate, errors[path]),
      report,
      clear,
    }),
    [errors, report, clear, translate],
  );
}
