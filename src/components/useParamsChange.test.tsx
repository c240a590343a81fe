// @vitest-environment jsdom
/**
 * useParamsChange (./useParamsChange.ts): a change made by a handler of an earlier render keeps
 * the changes made since (the Global check's save reset the chosen result tab).
 */
import { act, cleanup, render } from '@testing-library/react';
import { useRef } from 'react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { useParamsChange } from './useParamsChange.ts';

afterEach(cleanup);

const seen: { search: string; first?: (next: Record<string, string | null>) => void } = {
  search: '',
};

function Probe() {
  const [, change] = useParamsChange();
  // The handler of the first render, as a save started before a tab click still holds it.
  const first = useRef(change);
  seen.first = first.current;
  seen.search = useLocation().search;
  return null;
}

describe('useParamsChange', () => {
  it('merges into the latest parameters, not those of the render that made the handler', () => {
    render(
      <MemoryRouter initialEntries={['/checks?check=1&scenario=retirement']}>
        <Probe />
      </MemoryRouter>,
    );
    act(() => seen.first?.({ scenario: 'accidentDeath' }));
    expect(new URLSearchParams(seen.search).get('scenario')).toBe('accidentDeath');
    act(() => seen.first?.({ check: '2', new: null }));
    const params = new URLSearchParams(seen.search);
    expect(params.get('check')).toBe('2');
    expect(params.get('scenario')).toBe('accidentDeath');
  });

  it('removes a parameter given null and keeps the others', () => {
    render(
      <MemoryRouter initialEntries={['/checks?new=1&lang=de']}>
        <Probe />
      </MemoryRouter>,
    );
    act(() => seen.first?.({ new: null }));
    expect(seen.search).toBe('?lang=de');
  });
});
