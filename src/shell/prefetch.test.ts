/**
 * Lists asked for at start-up (src/App.tsx): each early answer goes to the one getList that asks
 * the same, once, while it is young; everything else asks the server.
 */
import type { DataProvider, GetListParams } from 'react-admin';
import { describe, expect, it, vi } from 'vitest';
import { listKey, PREFETCH_LIFE_MS, withPrefetch } from './prefetch.ts';

const params = (status: string, page = 1): GetListParams => ({
  pagination: { page, perPage: 30 },
  sort: { field: 'position', order: 'ASC' },
  filter: { leadSource: [2], status },
  meta: { prefetch: ['assignedTo'] },
});

function setup() {
  let clock = 1_000;
  let asked = 0;
  const getList = vi.fn(() => Promise.resolve({ data: [{ id: (asked += 1) }], total: 1 }));
  const provider = withPrefetch({ getList } as unknown as DataProvider, () => clock);
  return { provider, getList, tick: (ms: number) => (clock += ms) };
}

describe('withPrefetch', () => {
  it('hands an early answer to the same request once; the next one asks again', async () => {
    const { provider, getList } = setup();
    provider.prefetchList('leads', params('new'));
    expect(getList).toHaveBeenCalledTimes(1);
    // The same request, its filter built in another order and with an abort signal.
    const same = { ...params('new'), filter: { status: 'new', leadSource: [2] } };
    await expect(
      provider.getList('leads', { ...same, signal: new AbortController().signal }),
    ).resolves.toEqual({ data: [{ id: 1 }], total: 1 });
    expect(getList).toHaveBeenCalledTimes(1);
    await expect(provider.getList('leads', params('new'))).resolves.toEqual({
      data: [{ id: 2 }],
      total: 1,
    });
    expect(getList).toHaveBeenCalledTimes(2);
  });

  it('asks the server for another request, another resource, or after the answer got old', async () => {
    const { provider, getList, tick } = setup();
    provider.prefetchList('leads', params('new'));
    provider.prefetchList('leads', params('to do'));
    await provider.getList('leads', params('new', 2));
    await provider.getList('customers', params('new'));
    expect(getList).toHaveBeenCalledTimes(4);
    tick(PREFETCH_LIFE_MS + 1);
    await provider.getList('leads', params('to do'));
    expect(getList).toHaveBeenCalledTimes(5);
  });

  it('passes a failure to the request that takes it, and none is left unhandled', async () => {
    const failing = vi.fn(() => Promise.reject(new Error('offline')));
    const provider = withPrefetch({ getList: failing } as unknown as DataProvider);
    provider.prefetchList('leads', params('new'));
    provider.prefetchList('leads', params('closed'));
    await expect(provider.getList('leads', params('new'))).rejects.toThrow('offline');
  });

  it('names a request by its content, not its key order', () => {
    expect(listKey('leads', { ...params('new'), filter: { status: 'new', leadSource: [2] } })).toBe(
      listKey('leads', params('new')),
    );
    expect(listKey('leads', params('new'))).not.toBe(listKey('leads', params('new', 2)));
  });
});
