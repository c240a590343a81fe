/**
 * The save of an edit form that knows about version conflicts (DESIGN.md §7): when the server
 * answers 409 with the current record (someone else saved it since the form was loaded), the
 * conflict is kept for the dialog instead of an error notification, and the user chooses:
 * - reload: discard the form's values and load the record as it is now (the form resets to it);
 * - overwrite: send the same values again, based on the current version, so they win.
 * Used by <ConflictGuard> (./ConflictGuard.tsx), which every edit view puts around its form.
 */
import { useCallback, useMemo, useState } from 'react';
import {
  type OnError,
  type SaveContextValue,
  type SaveHandler,
  type SaveHandlerCallbacks,
  useEditContext,
  useNotify,
  useSaveContext,
} from 'react-admin';
import { conflictOf, type VersionedRecord } from '../../dataProvider/apiClient.ts';

type Values = Record<string, unknown>;

export interface Conflict {
  /** The record as it is now on the server. */
  current: VersionedRecord;
  /** The values the user tried to save. */
  mine: Values;
  /** The callbacks of that save (e.g. a dialog's own onSuccess), kept for the overwrite. */
  callbacks: SaveHandlerCallbacks;
}

export interface ConflictAwareSave {
  /** The edit's save context with the conflict-aware save, for the form inside. */
  saveContext: SaveContextValue;
  /** The last conflict (kept after the choice, so the closing dialog keeps its content). */
  conflict: Conflict | null;
  /** Whether the conflict awaits the user's choice. */
  open: boolean;
  /** Counts reloads: the form is mounted afresh under each, from the reloaded record. */
  generation: number;
  /** Discard the form's values; load the current record. */
  reload: () => void;
  /** Save the form's values again over the current version. */
  overwrite: () => void;
  /** Close the question and keep editing (the next save asks again). */
  dismiss: () => void;
}

/**
 * The callbacks a form passes to save. The form's submit passes its submit event in that place,
 * so only the known keys are taken.
 */
function callbacksOf(argument: unknown): SaveHandlerCallbacks {
  if (typeof argument !== 'object' || argument === null) return {};
  const { onSuccess, onError, transform, meta } = argument as SaveHandlerCallbacks;
  return { onSuccess, onError, transform, meta };
}

/** Whether the error carries field errors, which the form shows beside its inputs. */
function hasFieldErrors(error: unknown): boolean {
  const errors = (error as { body?: { errors?: unknown } } | null)?.body?.errors;
  return typeof errors === 'object' && errors !== null && Object.keys(errors).length > 0;
}

export function useConflictAwareSave(): ConflictAwareSave {
  const parent = useSaveContext();
  const { refetch } = useEditContext();
  const notify = useNotify();
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const [open, setOpen] = useState(false);
  const [generation, setGeneration] = useState(0);
  const { save: parentSave, mutationMode } = parent;

  /**
   * What react-admin's edit does with a failed save when nobody handles it: field errors go
   * beside the inputs (pessimistic), anything else is a notification. A call-time onError replaces
   * that default, so it is repeated here for every failure that is not a conflict.
   */
  const notifyFailure = useCallback(
    (error: unknown) => {
      if (hasFieldErrors(error) && mutationMode === 'pessimistic') return;
      const message =
        typeof error === 'string'
          ? error
          : error instanceof Error && error.message
            ? error.message
            : 'ra.notification.http_error';
      notify(message, { type: 'error', messageArgs: { _: message } });
    },
    [mutationMode, notify],
  );

  const save = useCallback(
    (values: Values, argument?: unknown) => {
      if (!parentSave) return Promise.resolve();
      const callbacks = callbacksOf(argument);
      const onError: OnError = (error, ...rest) => {
        const current = conflictOf(error);
        if (current) {
          setConflict({ current, mine: values, callbacks });
          setOpen(true);
          return;
        }
        if (callbacks.onError) return callbacks.onError(error, ...rest);
        notifyFailure(error);
      };
      return parentSave(values, { ...callbacks, onError });
    },
    [parentSave, notifyFailure],
  );

  const reload = useCallback(() => {
    setOpen(false);
    // The form resets when its record changes, but not when the reloaded record equals the one it
    // was loaded from; mounting it afresh discards the user's values in every case.
    void Promise.resolve(refetch()).then(() => {
      setGeneration((count) => count + 1);
      notify('app.conflict.reloaded', { type: 'info' });
    });
  }, [refetch, notify]);

  const overwrite = useCallback(() => {
    if (!conflict) return;
    setOpen(false);
    // Based on the current version: the server takes it unless yet another save came between.
    void save({ ...conflict.mine, version: conflict.current.version }, conflict.callbacks);
  }, [conflict, save]);

  const dismiss = useCallback(() => setOpen(false), []);

  const saveContext = useMemo(
    () => ({ ...parent, save: save as SaveHandler<Values> }),
    [parent, save],
  );

  return {
    saveContext,
    conflict,
    open,
    generation,
    reload,
    overwrite,
    dismiss,
  };
}
