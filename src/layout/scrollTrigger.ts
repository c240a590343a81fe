/**
 * Whether the app bar is slid away: scrolled down past HIDE_AFTER, until the user scrolls up
 * (MUI's useScrollTrigger with its defaults, as react-admin's app bar and sidebar use it). One
 * scroll listener for both. Unlike useScrollTrigger it does not read the scroll position when it
 * mounts: that read made the browser lay out the whole new page inside the frame's commit (a long
 * task of its own), and a page just opened is at its top.
 */
import { useSyncExternalStore } from 'react';

/** Scrolled down past this (px), the app bar slides away. */
export const HIDE_AFTER = 100;

let hidden = false;
let previous: number | undefined;
const listeners = new Set<() => void>();

function onScroll() {
  const current = window.scrollY;
  const next = !(previous !== undefined && current < previous) && current > HIDE_AFTER;
  previous = current;
  if (next === hidden) return;
  hidden = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  if (listeners.size === 0) window.addEventListener('scroll', onScroll, { passive: true });
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size > 0) return;
    window.removeEventListener('scroll', onScroll);
    hidden = false;
    previous = undefined;
  };
}

export function useAppBarHidden(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => hidden,
    () => false,
  );
}
