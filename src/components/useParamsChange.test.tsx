// @vitest-environment jsdom
/**
 * useParamsChange (./useParamsChange.ts): a change made by a handler of an earlier render keeps
 * the changes made since (the Global check's save reset the chosen result tab).
 */
import { act, cleanup, render } from '@testing-library/react';
import { useEffect } from 'react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { useParamsChange } from './useParamsChange.ts';

afterEach(cleanup);

type Change = (next: Record<string, string | null>) => void;
const seen: { search: string; first?: Change } = { search: '' };

/** Reports the address and keeps the handler of the first render, as a save started before a tab
 *  click still holds it. */
function Probe({ report }: { report: (search: string, change: Change) => void }) {
  const [, change] = useParamsChange();
  const { search } = useLocation();
  useEffect(() => report(search, change));
  return null;
}

const report = (search: string, change: Change) => {
  seen.search = search;
  seen.first ??= change;
};

/** Renders the probe at `url`, with no handler kept yet. */
function mount(url: string) {
  seen.first = undefined;
  render(
    <MemoryRouter initialEntries={[url]}>
      <Probe report={report} />
    </MemoryRouter>,
  );
}

describe('useParamsChange', () => {
  it('merges into the latest parameters, not those of the render that made the handler', () => {
    mount('/checks?check=1&scenario=retirement');
    act(() => seen.first?.({ scenario: 'accidentDeath' }));
    expect(new URLSearchParams(seen.search).get('scenario')).toBe('accidentDeath');
    act(() => seen.first?.({ check: '2', new: null }));
    const params = new URLSearchParams(seen.search);
    expect(params.get('check')).toBe('2');
    expect(params.get('scenario')).toBe('accidentDeath');
  });

  it('removes a parameter given null and keeps the others', () => {
    mount('/checks?new=1&lang=de');
    act(() => seen.first?.({ new: null }));
    expect(seen.search).toBe('?lang=de');
  });
});
