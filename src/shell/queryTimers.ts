/**
 * Fewer timers for react-query (TanStack Query, under react-admin). Loading a list page set about
 * 1,350 browser timers: one `setTimeout(0)` for every notification batch (react-query's default
 * scheduler), and a garbage-collection and a staleness timer for every cached query (react-admin
 * caches each record of a list page as its own `getOne` query). Each costs little in a plain browser
 * but is recorded, with its script's stack, by a performance trace (Lighthouse's), where they made
 * most of the main thread's long tasks.
 *
 * - Notifications: every callback scheduled before the next macrotask runs in one timer's task, in
 *   the order scheduled (react-query's `notifyManager.setScheduler`); React renders the state
 *   changes they make together.
 * - Timers of a second or more (garbage collection after 5 minutes, staleness): grouped by the
 *   second they are due in, one browser timer per second that has any (react-query's
 *   `timeoutManager.setTimeoutProvider`); they fire up to a second late, which nothing of them
 *   minds. Shorter ones (retries, polling) stay browser timers.
 */
import {
  notifyManager,
  type TimeoutCallback,
  type TimeoutProvider,
  timeoutManager,
} from '@tanstack/react-query';

/** Timers at least this long are grouped, by the time they are due in, rounded up to this. */
export const TIMER_GRAIN_MS = 1000;

/** An error of a callback, reported as an uncaught one would be (the console, window.onerror). */
function report(error: unknown): void {
  if (typeof globalThis.reportError === 'function') globalThis.reportError(error);
  else
    setTimeout(() => {
      throw error;
    }, 0);
}

/** Runs each callback; one that throws is reported without stopping the others. */
function runAll(callbacks: Iterable<() => void>): void {
  for (const callback of callbacks) {
    try {
      callback();
    } catch (error) {
      report(error);
    }
  }
}

/** A scheduler that runs everything scheduled until its timer fires in that one timer's task. */
export function coalescingScheduler(
  schedule: (run: () => void) => void = (run) => setTimeout(run, 0),
): (callback: () => void) => void {
  let queue: (() => void)[] = [];
  return (callback) => {
    queue.push(callback);
    if (queue.length > 1) return;
    schedule(() => {
      const callbacks = queue;
      queue = [];
      runAll(callbacks);
    });
  };
}

/**
 * A timeout provider that groups long timers by the `grain` they are due in: their ids are
 * negative (the browser's are positive), so either kind can be cleared.
 */
export function coalescingTimeoutProvider(
  grain = TIMER_GRAIN_MS,
  now: () => number = Date.now,
): TimeoutProvider<number> & { pending(): number } {
  let lastId = 0;
  /** Due time → the timer of that group and its callbacks by id. */
  const groups = new Map<number, { timer: number; callbacks: Map<number, TimeoutCallback> }>();
  const dueOf = new Map<number, number>();
  return {
    setTimeout(callback, delay) {
      if (!(delay >= grain)) return Number(setTimeout(callback, delay));
      const id = (lastId -= 1);
      const due = Math.ceil((now() + delay) / grain) * grain;
      let group = groups.get(due);
      if (!group) {
        const callbacks = new Map<number, TimeoutCallback>();
        const timer = Number(
          setTimeout(
            () => {
              groups.delete(due);
              for (const key of callbacks.keys()) dueOf.delete(key);
              runAll([...callbacks.values()].map((run) => () => run()));
            },
            Math.max(0, due - now()),
          ),
        );
        group = { timer, callbacks };
        groups.set(due, group);
      }
      group.callbacks.set(id, callback);
      dueOf.set(id, due);
      return id;
    },
    clearTimeout(id) {
      if (id === undefined) return;
      const key = Number(id);
      if (key > 0) {
        clearTimeout(key);
        return;
      }
      const due = dueOf.get(key);
      if (due === undefined) return;
      dueOf.delete(key);
      const group = groups.get(due);
      group?.callbacks.delete(key);
      // The group's timer stays: clearing it costs as much as letting it find nothing to do.
    },
    setInterval: (callback, delay) => Number(setInterval(callback, delay)),
    clearInterval: (id) => clearInterval(id === undefined ? undefined : Number(id)),
    pending: () => dueOf.size,
  };
}

let installed = false;

/** Installs both for the app's query clients; before the first QueryClient is made. */
export function installQueryTimers(): void {
  if (installed) return;
  installed = true;
  notifyManager.setScheduler(coalescingScheduler());
  timeoutManager.setTimeoutProvider(coalescingTimeoutProvider());
}
