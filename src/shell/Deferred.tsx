/**
 * Rendering in the background. A screen that mounts because data arrived (react-query's answers
 * render synchronously) was built in one long task: the browser could not paint or answer input
 * until the whole tree was done. `Deferred` first renders its cheap `fallback`, then its children
 * in a background render (React's `useDeferredValue` with an initial value, a transition), which
 * React splits into short slices and drops and restarts when something more urgent comes.
 */
import { type ReactNode, useDeferredValue } from 'react';

export function Deferred({
  children,
  fallback = null,
}: {
  children: ReactNode;
  fallback?: ReactNode;
}) {
  const ready = useDeferredValue(true, false);
  return ready ? children : fallback;
}
