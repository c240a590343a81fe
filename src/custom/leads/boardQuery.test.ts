// @vitest-environment jsdom
/**
 * The board's column requests sent at start-up are the ones the board sends (the same
 * `columnPageParams`), with the filters the page reads, and only when the page shows the board.
 */
import { localStorageStore } from 'react-admin';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearSession, type StoredUser, storeSession } from '../../auth/session.ts';
import { listKey } from '../../shell/prefetch.ts';
import { columnPageParams, prefetchBoard } from './boardQuery.ts';
import { filtersStoreKey } from './filters.ts';

const user = (changes: Partial<StoredUser> = {}): StoredUser => ({
  id: 1,
  email: 'admin@example.ch',
  firstName: 'A',
  lastName: 'B',
  role: 'ADMIN',
  language: 'de',
  permissions: [],
  routeSet: 'admin',
  ...changes,
});

afterEach(() => {
  clearSession();
  localStorage.clear();
});

describe('prefetchBoard', () => {
  it("asks each column's first page as the board will, with the stored filters", () => {
    storeSession('token', user());
    // The app's store (src/App.tsx), read before react-admin has set it up, as at start-up.
    const store = localStorageStore();
    store.setItem(filtersStoreKey('admin'), { assignedTo: 'me', status: 'closed', q: ' x ' });
    const prefetch = vi.fn();
    prefetchBoard('admin', store, prefetch);
    const filter = { assignment: 'me', q: 'x' };
    expect(prefetch.mock.calls.map(([resource, params]) => listKey(resource, params))).toEqual(
      ['new', 'not reached', 'to do', 'closed'].map((status) =>
        listKey('leads', columnPageParams(filter, status as 'new', 1)),
      ),
    );
  });

  it('asks nothing without a session, in the other area, or when the list is the view', () => {
    const prefetch = vi.fn();
    prefetchBoard('admin', localStorageStore(), prefetch);
    storeSession('token', user({ routeSet: 'consultant' }));
    prefetchBoard('admin', localStorageStore(), prefetch);
    storeSession('token', user({ preferences: { leadsView: 'list' } }));
    prefetchBoard('admin', localStorageStore(), prefetch);
    expect(prefetch).not.toHaveBeenCalled();
  });
});
