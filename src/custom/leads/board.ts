/**
 * The lead board's state, without React (issue 16; DOMAIN.md §3): four columns, each a prefix of
 * its leads in board order (`position`, loaded BOARD_PAGE_SIZE at a time), its total as the
 * server counted it, and the moves the user made that the server has not confirmed yet.
 *
 * A move is optimistic: `move` takes the card out of its column and puts it after `afterId` in the
 * target at once (both counts follow); `confirm` replaces the card by the server's answer and
 * makes the move part of the server's counts; `rollback` puts the card back where it was, after
 * the card that was before it (or at its old place when that one is gone). While a move is
 * pending the card cannot be moved again (its version would be stale), and pages that arrive meanwhile
 * never show it twice.
 *
 * Pages are asked by offset, which moves shift: `nextPage` asks the page the column's loaded
 * count falls in, so a card moved out never makes the next page skip one (an overlap is dropped by
 * id instead).
 */
import type { ApiRecord } from '../../resources/records.ts';
import { LEAD_STATUSES, type LeadStatus } from '../../schema/leads.ts';

export type Lead = ApiRecord<'leads'>;

export interface ColumnState {
  /** The loaded prefix of the column, in board order. */
  cards: Lead[];
  /** The column's count as the server last answered it (without pending moves); undefined: not yet. */
  serverTotal: number | undefined;
  /** The server has no more cards after the loaded ones. */
  exhausted: boolean;
  loading: boolean;
  failed: boolean;
  /** The column's reload it shows (numbered by the caller): an older reload's answer is dropped. */
  generation: number;
}

export interface PendingMove {
  id: number;
  from: LeadStatus;
  to: LeadStatus;
  /** The card it followed in `from` when it was picked up (null: the top), and its index there. */
  fromAfterId: number | null;
  fromIndex: number;
  /** The card as it was before the move. */
  before: Lead;
}

export interface BoardState {
  columns: Record<LeadStatus, ColumnState>;
  pending: Record<number, PendingMove>;
}

export type BoardAction =
  | { type: 'reload'; status: LeadStatus; generation: number }
  | { type: 'loading'; status: LeadStatus }
  | {
      type: 'loaded';
      status: LeadStatus;
      generation: number;
      records: Lead[];
      total: number | undefined;
      hasMore: boolean;
    }
  | { type: 'failed'; status: LeadStatus; generation: number }
  | { type: 'move'; id: number; to: LeadStatus; afterId: number | null }
  | { type: 'confirm'; id: number; lead: Lead }
  | { type: 'rollback'; id: number };

const emptyColumn = (generation = 0): ColumnState => ({
  cards: [],
  serverTotal: undefined,
  exhausted: false,
  loading: false,
  failed: false,
  generation,
});

export function initialBoard(): BoardState {
  return {
    columns: Object.fromEntries(LEAD_STATUSES.map((status) => [status, emptyColumn()])) as Record<
      LeadStatus,
      ColumnState
    >,
    pending: {},
  };
}

/** Where a card is shown now: its column and index, or undefined. */
export function locate(
  state: BoardState,
  id: number,
): { status: LeadStatus; index: number } | undefined {
  for (const status of LEAD_STATUSES) {
    const index = state.columns[status].cards.findIndex((card) => card.id === id);
    if (index >= 0) return { status, index };
  }
  return undefined;
}

/** `cards` with `card` after the card `afterId` (null or not found: at the top). */
function insertAfter(cards: Lead[], card: Lead, afterId: number | null): Lead[] {
  const at = afterId === null ? 0 : cards.findIndex((candidate) => candidate.id === afterId) + 1;
  return [...cards.slice(0, at), card, ...cards.slice(at)];
}

/** `cards` with `card` at its place by position (after the last card not after it). */
function insertByPosition(cards: Lead[], card: Lead): Lead[] {
  const position = card.position ?? '';
  let at = cards.length;
  while (at > 0 && (cards[at - 1].position ?? '') > position) at -= 1;
  return [...cards.slice(0, at), card, ...cards.slice(at)];
}

const withColumn = (
  state: BoardState,
  status: LeadStatus,
  change: Partial<ColumnState>,
): BoardState => ({
  ...state,
  columns: { ...state.columns, [status]: { ...state.columns[status], ...change } },
});

/** The count a column header shows: the server's count with the pending moves applied. */
export function shownTotal(state: BoardState, status: LeadStatus): number | undefined {
  const total = state.columns[status].serverTotal;
  if (total === undefined) return undefined;
  let shown = total;
  for (const move of Object.values(state.pending)) {
    if (move.from === move.to) continue;
    if (move.to === status) shown += 1;
    if (move.from === status) shown -= 1;
  }
  return Math.max(shown, state.columns[status].cards.length);
}

/** Whether the server may hold more cards of the column than are loaded. */
export const hasMore = (column: ColumnState): boolean => !column.exhausted;

/**
 * The page to ask next (1-based, `pageSize` a page): the page the loaded count falls in. Cards
 * moved in or out shift the server's offsets; an overlap with loaded cards is dropped by id.
 */
export const nextPage = (column: ColumnState, pageSize: number): number =>
  Math.floor(column.cards.length / pageSize) + 1;

export function boardReducer(state: BoardState, action: BoardAction): BoardState {
  switch (action.type) {
    case 'reload':
      return withColumn(state, action.status, {
        ...emptyColumn(action.generation),
        loading: true,
      });
    case 'loading':
      return withColumn(state, action.status, { loading: true, failed: false });
    case 'loaded': {
      const column = state.columns[action.status];
      if (action.generation !== column.generation) return state;
      // A card shown anywhere already (loaded before, moved here or away) is not added again.
      const shown = new Set<number>();
      for (const status of LEAD_STATUSES) {
        for (const card of state.columns[status].cards) shown.add(card.id);
      }
      const fresh = action.records.filter(
        (record) => !shown.has(record.id) && !state.pending[record.id],
      );
      return withColumn(state, action.status, {
        cards: [...column.cards, ...fresh],
        serverTotal: action.total ?? column.serverTotal,
        exhausted: !action.hasMore,
        loading: false,
        failed: false,
      });
    }
    case 'failed':
      if (action.generation !== state.columns[action.status].generation) return state;
      return withColumn(state, action.status, { loading: false, failed: true });
    case 'move': {
      if (state.pending[action.id]) return state;
      const where = locate(state, action.id);
      if (!where) return state;
      const from = state.columns[where.status].cards;
      const card = from[where.index];
      const fromAfterId = where.index > 0 ? from[where.index - 1].id : null;
      const moved: Lead = { ...card, status: action.to };
      const without = from.filter((candidate) => candidate.id !== action.id);
      let next = withColumn(state, where.status, { cards: without });
      next = withColumn(next, action.to, {
        cards: insertAfter(next.columns[action.to].cards, moved, action.afterId),
      });
      return {
        ...next,
        pending: {
          ...next.pending,
          [action.id]: {
            id: action.id,
            from: where.status,
            to: action.to,
            fromAfterId,
            fromIndex: where.index,
            before: card,
          },
        },
      };
    }
    case 'confirm': {
      const move = state.pending[action.id];
      const { [action.id]: _done, ...pending } = state.pending;
      let next: BoardState = { ...state, pending };
      if (move && move.from !== move.to) {
        const from = next.columns[move.from];
        const to = next.columns[move.to];
        if (from.serverTotal !== undefined)
          next = withColumn(next, move.from, { serverTotal: Math.max(0, from.serverTotal - 1) });
        if (to.serverTotal !== undefined)
          next = withColumn(next, move.to, { serverTotal: to.serverTotal + 1 });
      }
      const where = locate(next, action.id);
      const status = action.lead.status;
      if (where && where.status === status) {
        const cards = [...next.columns[status].cards];
        cards[where.index] = action.lead;
        return withColumn(next, status, { cards });
      }
      // Not where the server put it (the column was reloaded meanwhile): placed by position.
      if (where) {
        next = withColumn(next, where.status, {
          cards: next.columns[where.status].cards.filter((card) => card.id !== action.id),
        });
      }
      return withColumn(next, status, {
        cards: insertByPosition(next.columns[status].cards, action.lead),
      });
    }
    case 'rollback': {
      const move = state.pending[action.id];
      if (!move) return state;
      const { [action.id]: _undone, ...pending } = state.pending;
      let next: BoardState = { ...state, pending };
      const where = locate(next, action.id);
      if (where) {
        next = withColumn(next, where.status, {
          cards: next.columns[where.status].cards.filter((card) => card.id !== action.id),
        });
      }
      const cards = next.columns[move.from].cards;
      const afterIndex =
        move.fromAfterId === null ? -1 : cards.findIndex((card) => card.id === move.fromAfterId);
      const at = move.fromAfterId === null ? 0 : afterIndex >= 0 ? afterIndex + 1 : move.fromIndex;
      const index = Math.min(at, cards.length);
      return withColumn(next, move.from, {
        cards: [...cards.slice(0, index), move.before, ...cards.slice(index)],
      });
    }
  }
}

/**
 * Where a card dropped on the board goes in the target column: the card it follows (`afterId`,
 * null = the top) and its index among the column's cards after the move; null when nothing moves.
 *
 * `ids` are the target column's cards as shown (with the dragged card when it is the same column);
 * `overId` the card it was dropped on, or null for the column itself — its head (`below` false:
 * the top) or the space under its last card (`below`: after the last loaded card). In its own
 * column a card dropped on another takes that card's place (the sortable list's rule); in another
 * column it goes before that card, or after it when dropped on its lower half (`below`).
 */
export function dropPlacement(
  ids: readonly number[],
  activeId: number,
  overId: number | null,
  below: boolean,
): { afterId: number | null; index: number } | null {
  const from = ids.indexOf(activeId);
  if (from >= 0) {
    // Its own column.
    if (overId === activeId) return null;
    const to = overId === null ? (below ? ids.length - 1 : 0) : ids.indexOf(overId);
    if (to < 0 || to === from) return null;
    const order = ids.filter((id) => id !== activeId);
    order.splice(to, 0, activeId);
    return { afterId: to > 0 ? order[to - 1] : null, index: to };
  }
  const over = overId === null ? -1 : ids.indexOf(overId);
  const index = over < 0 ? (overId === null && !below ? 0 : ids.length) : below ? over + 1 : over;
  return { afterId: index > 0 ? ids[index - 1] : null, index };
}

/** How old a lead is, in the largest whole unit: '3 d', '5 h', '12 min' (at least 1 min). */
export function leadAge(
  createdAt: string | null | undefined,
  now: Date,
): { unit: 'minutes' | 'hours' | 'days'; count: number } | undefined {
  const created = createdAt ? Date.parse(createdAt) : Number.NaN;
  if (!Number.isFinite(created)) return undefined;
  const minutes = Math.max(0, Math.floor((now.getTime() - created) / 60_000));
  if (minutes < 60) return { unit: 'minutes', count: Math.max(1, minutes) };
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return { unit: 'hours', count: hours };
  return { unit: 'days', count: Math.floor(hours / 24) };
}

/**
 * The name a lead goes by (the schema's representation): the company name, else first and last
 * name; empty when the lead names only its customer.
 */
export function leadName(
  lead: Pick<Lead, 'organization' | 'firstName' | 'lastName'> | undefined,
): string {
  if (!lead) return '';
  const organization = lead.organization?.trim();
  if (organization) return organization;
  return [lead.firstName, lead.lastName]
    .map((part) => part?.trim() ?? '')
    .filter(Boolean)
    .join(' ');
}
