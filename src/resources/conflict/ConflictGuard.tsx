/**
 * Put around the form of every edit view (inside <Edit> or <EditBase>, mutationMode
 * "pessimistic"): the form saves through the conflict-aware save (./useConflictAwareSave.ts), and
 * a version conflict opens the Reload / Overwrite question (./ConflictDialog.tsx) instead of an
 * error notification. One place, so the generic edit and every hand-written one behave the same.
 *
 *   <Edit mutationMode="pessimistic">
 *     <ConflictGuard>
 *       <SimpleForm>…</SimpleForm>
 *     </ConflictGuard>
 *   </Edit>
 *
 * A failure that is not a conflict is notified the way react-admin's edit does by default (an
 * edit's own `mutationOptions.onError` is not called: pass handlers to the save button instead).
 */
import { Fragment, type ReactNode } from 'react';
import { SaveContextProvider } from 'react-admin';
import { ConflictDialog } from './ConflictDialog.tsx';
import { useConflictAwareSave } from './useConflictAwareSave.ts';

export function ConflictGuard({ children }: { children: ReactNode }) {
  const { saveContext, conflict, open, generation, reload, overwrite, dismiss } =
    useConflictAwareSave();
  return (
    <SaveContextProvider value={saveContext}>
      <Fragment key={generation}>{children}</Fragment>
      <ConflictDialog
        open={open}
        conflict={conflict}
        onReload={reload}
        onOverwrite={overwrite}
        onClose={dismiss}
      />
    </SaveContextProvider>
  );
}
