/**
 * The question before a changed form is left (react-admin's `useWarnWhenUnsavedChanges`, given to
 * its <Form> as `WarnWhenUnsavedChangesComponent`), with one difference: a navigation while the
 * form is being submitted is not questioned. A save that succeeds redirects from inside the
 * submit, before react-hook-form reports the submit successful; react-admin's hook asks in that
 * moment whenever the two land in different renders, so users were asked after saving (seen with
 * the customer form). A save in flight is not an unsaved change: it is being saved.
 */
import { useEffect, useRef, useState } from 'react';
import { useBlocker, useTranslate } from 'react-admin';
import { type Control, type FieldValues, useFormState } from 'react-hook-form';

export function WarnWhenUnsavedChanges({
  enable = true,
  formRootPathName,
  formControl,
}: {
  enable?: boolean;
  formRootPathName?: string;
  formControl?: Control<FieldValues>;
}) {
  const translate = useTranslate();
  const { isSubmitSuccessful, isSubmitting, dirtyFields } = useFormState(
    formControl ? { control: formControl } : undefined,
  );
  const isDirty = Object.keys(dirtyFields).length > 0;
  const safe = !enable || !isDirty || isSubmitSuccessful || isSubmitting;

  const blocker = useBlocker(({ currentLocation, nextLocation }) => {
    if (safe) return false;
    // Moving inside the form (its tabs) is no leaving; its show view is.
    const root = formRootPathName || currentLocation.pathname;
    const inside =
      nextLocation.pathname.startsWith(root) && !nextLocation.pathname.startsWith(`${root}/show`);
    return !inside;
  });

  // As react-admin does: proceed at once when safe, else ask after a render (proceeding from the
  // render that blocked did not let the navigation go on). Keyed by the blocked navigation itself
  // (the router makes a new blocker object for each), not by its state: a reset and the next
  // blocked click can land in one render, and the state alone ("blocked" again) would not change,
  // leaving the navigation blocked with nobody asked — seen under load in CI.
  const [pending, setPending] = useState<typeof blocker | undefined>(undefined);
  // Once the user chose to leave, the form may still show until the next page is ready: a reload
  // in that moment must not ask again.
  const leaving = useRef(false);
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    if (safe) blocker.proceed?.();
    // eslint-disable-next-line react-hooks/set-state-in-effect
    else setPending(blocker);
  }, [blocker, safe]);

  useEffect(() => {
    if (!pending) return;
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setPending(undefined);
    if (window.confirm(translate('ra.message.unsaved_changes'))) {
      leaving.current = true;
      pending.proceed?.();
    } else pending.reset?.();
  }, [pending, translate]);

  // Closing the tab or reloading: the browser's own question.
  useEffect(() => {
    if (safe) return;
    const beforeUnload = (event: BeforeUnloadEvent) => {
      if (!leaving.current) event.preventDefault();
    };
    window.addEventListener('beforeunload', beforeUnload);
    return () => window.removeEventListener('beforeunload', beforeUnload);
  }, [safe]);

  return null;
}
