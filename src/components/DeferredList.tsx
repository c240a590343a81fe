/**
 * A list's records rendered in the background. When a list's page arrives, react-query re-renders
 * synchronously, and 25 rows of fields, links and references took one long task in which the
 * browser could neither paint nor answer input. Here the list's content — the `component` of every
 * `<List>` (its card, src/theme.ts) — and its pager see the list's state through React's
 * `useDeferredValue`: the urgent render keeps what they showed (e.g. the loading rows), and the
 * new page renders in a background render that React splits into short slices and restarts when
 * something more urgent comes. Both defer the same value in the same render, so the table and its
 * pager change in one commit (no layout shift between them). The toolbar and the filters use the
 * list's state as it is (typing is never deferred).
 */
import { Card } from '@mui/material';
import { type ComponentProps, useDeferredValue } from 'react';
import { ListContextProvider, type ListControllerResult, useListContext } from 'react-admin';

/** `useListContext()`, deferred (see above). */
export function useDeferredListContext(): ListControllerResult {
  return useDeferredValue(useListContext() as ListControllerResult);
}

/** The card of a list (react-admin's default `component`) under the deferred list state. */
export function DeferredListCard(props: ComponentProps<typeof Card>) {
  return (
    <ListContextProvider value={useDeferredListContext()}>
      <Card {...props} />
    </ListContextProvider>
  );
}
