/**
 * Changes some of the address's query parameters and keeps the others — also when two changes
 * follow each other before the router has rendered the first. react-router renders a new address
 * as a transition, so a handler that runs later (after a save's request) still holds the
 * parameters of its own render: merging into those would undo the change in between (a chosen
 * result tab reset by the save that followed). The last parameters written are kept in a ref,
 * and the router's own (a link, back and forward) replace them when they change.
 */
import { useCallback, useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router-dom';

export function useParamsChange(): [
  URLSearchParams,
  (next: Record<string, string | null>) => void,
] {
  const [params, setParams] = useSearchParams();
  const latest = useRef(params);
  useEffect(() => {
    latest.current = params;
  }, [params]);
  const change = useCallback(
    (next: Record<string, string | null>) => {
      const merged = new URLSearchParams(latest.current);
      for (const [key, value] of Object.entries(next)) {
        if (value === null) merged.delete(key);
        else merged.set(key, value);
      }
      latest.current = merged;
      setParams(merged, { replace: true });
    },
    [setParams],
  );
  return [params, change];
}
