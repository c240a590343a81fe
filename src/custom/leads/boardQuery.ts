/**
 * The board's column requests (./LeadBoard.tsx) in one place, and the same requests sent at the
 * app's start (src/App.tsx, on a visit of the leads' path): the four first pages go out beside the
 * texts rather than after the area and the page have rendered, and the board takes their answers
 * when it asks (src/shell/prefetch.ts). The view and the filters are read as the page reads them
 * (the stored user's `leadsView`, the filters in react-admin's store); when they differ by the time
 * the board asks, or the list shows instead, the early answers go unused.
 */
import type { GetListParams, Store } from 'react-admin';
import { getStoredUser, getToken } from '../../auth/session.ts';
import { withDefaults } from '../../schema/preferences.ts';
import { BOARD_PAGE_SIZE, LEAD_STATUSES, type LeadStatus } from '../../schema/leads.ts';
import type { Area } from '../../shell/paths.ts';
import type { PrefetchList } from '../../shell/prefetch.ts';
import { apiFilter, filtersStoreKey, type LeadFilters } from './filters.ts';

/** The references a card names, sent with each page (src/dataProvider `meta.prefetch`). */
export const BOARD_PREFETCH = ['assignedTo', 'customerId'];

/** One page of a column, in board order, with the names its cards show. */
export const columnPageParams = (
  filter: Record<string, unknown>,
  status: LeadStatus,
  page: number,
): GetListParams => ({
  pagination: { page, perPage: BOARD_PAGE_SIZE },
  sort: { field: 'position', order: 'ASC' },
  filter: { ...filter, status },
  meta: { prefetch: BOARD_PREFETCH },
});

/** At start-up on the leads' path: the first page of each column, when the page will show the board. */
export function prefetchBoard(area: Area, store: Store, prefetchList: PrefetchList): void {
  const user = getStoredUser();
  // No session, or the other area's user (sent to their own start page): nothing to ask.
  if (!getToken() || !user || user.routeSet !== area) return;
  if (withDefaults(user.preferences).leadsView !== 'kanban') return;
  const filters = store.getItem<LeadFilters>(filtersStoreKey(area), {}) ?? {};
  const filter = apiFilter(filters, 'kanban');
  for (const status of LEAD_STATUSES) prefetchList('leads', columnPageParams(filter, status, 1));
}
