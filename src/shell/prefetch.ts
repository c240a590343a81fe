/**
 * Lists asked for at start-up, before the screen that needs them has rendered: src/App.tsx sends
 * the first screen's list requests beside the texts instead of after the area's frame and the page
 * have rendered (the lead board's four columns, src/custom/leads/boardQuery.ts).
 *
 * An answer asked for early is kept for the one `getList` with the same resource and parameters
 * that comes within `PREFETCH_LIFE_MS`, and handed to it once: that call still goes through
 * react-admin's own wrapper of the data provider, as if it had asked then (the prefetched
 * references go into its cache, a 401 signs out, a failure is the page's to show). Every other
 * call, a second or a later one, and one with other parameters, asks the server as usual.
 */
import type { DataProvider, GetListParams, GetListResult, RaRecord } from 'react-admin';

/** How long an early answer waits for the page that asked for it (the start-up takes < 1 s). */
export const PREFETCH_LIFE_MS = 5_000;

/** What a list request is: the resource and the parameters sent (not the abort signal). */
export function listKey(resource: string, params: GetListParams): string {
  const { pagination, sort, filter, meta } = params;
  // Object keys in one order: the same request whatever order its filter was built in.
  return JSON.stringify([resource, pagination, sort, filter, meta], (_key, value: unknown) =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(
          Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
            a < b ? -1 : a > b ? 1 : 0,
          ),
        )
      : value,
  );
}

export type PrefetchList = (resource: string, params: GetListParams) => void;

export interface PrefetchingDataProvider extends DataProvider {
  /** Asks for a list now, for the page that will ask for it in a moment. */
  prefetchList: PrefetchList;
}

export function withPrefetch(
  dataProvider: DataProvider,
  now: () => number = () => Date.now(),
): PrefetchingDataProvider {
  const kept = new Map<string, { answer: Promise<GetListResult>; at: number }>();
  return {
    ...dataProvider,
    getList<RecordType extends RaRecord>(resource: string, params: GetListParams) {
      const key = listKey(resource, params);
      const early = kept.get(key);
      if (early) {
        kept.delete(key);
        if (now() - early.at <= PREFETCH_LIFE_MS)
          return early.answer as Promise<GetListResult<RecordType>>;
      }
      return dataProvider.getList<RecordType>(resource, params);
    },
    prefetchList(resource, params) {
      const answer = dataProvider.getList(resource, params);
      // A failure is the taker's to handle; an answer nobody takes is dropped.
      answer.catch(() => undefined);
      kept.set(listKey(resource, params), { answer, at: now() });
      for (const [key, entry] of kept) if (now() - entry.at > PREFETCH_LIFE_MS) kept.delete(key);
    },
  };
}
