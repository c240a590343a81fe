/**
 * The lead board's pure pieces: the optimistic move and its confirmation or rollback (cards and
 * counts), pages that arrive while a move is pending, the neighbour a drop sends, the next page
 * asked after moves, the age shown on a card and the name a lead goes by.
 */
import { describe, expect, it } from 'vitest';
import type { LeadStatus } from '../../schema/leads.ts';
import {
  type BoardAction,
  type BoardState,
  boardReducer,
  dropPlacement,
  initialBoard,
  type Lead,
  leadAge,
  leadName,
  nextPage,
  shownTotal,
} from './board.ts';

const lead = (id: number, status: LeadStatus, position = `a${id}`): Lead =>
  ({ id, status, position, version: 1, lastName: `Lead ${id}` }) as unknown as Lead;

const run = (state: BoardState, ...actions: BoardAction[]) => actions.reduce(boardReducer, state);

/** New: 1 2 3 (of 10 on the server); Not reached: 4 5 (of 2); To do: none (of 0). */
function loadedBoard(): BoardState {
  let state = initialBoard();
  for (const status of ['new', 'not reached', 'to do', 'closed'] as const) {
    state = boardReducer(state, { type: 'reload', status, generation: 1 });
  }
  return run(
    state,
    {
      type: 'loaded',
      status: 'new',
      generation: 1,
      records: [lead(1, 'new'), lead(2, 'new'), lead(3, 'new')],
      total: 10,
      hasMore: true,
    },
    {
      type: 'loaded',
      status: 'not reached',
      generation: 1,
      records: [lead(4, 'not reached'), lead(5, 'not reached')],
      total: 2,
      hasMore: false,
    },
    { type: 'loaded', status: 'to do', generation: 1, records: [], total: 0, hasMore: false },
  );
}

const ids = (state: BoardState, status: LeadStatus) =>
  state.columns[status].cards.map((card) => card.id);

describe('the board reducer', () => {
  it('moves a card at once, with both counts', () => {
    const state = run(loadedBoard(), { type: 'move', id: 2, to: 'not reached', afterId: 4 });
    expect(ids(state, 'new')).toEqual([1, 3]);
    expect(ids(state, 'not reached')).toEqual([4, 2, 5]);
    expect(state.columns['not reached'].cards[1].status).toBe('not reached');
    expect(shownTotal(state, 'new')).toBe(9);
    expect(shownTotal(state, 'not reached')).toBe(3);
    expect(state.pending[2]).toMatchObject({ from: 'new', to: 'not reached', fromAfterId: 1 });
  });

  it('puts a card at the top of the column when it follows none', () => {
    const state = run(loadedBoard(), { type: 'move', id: 3, to: 'not reached', afterId: null });
    expect(ids(state, 'not reached')).toEqual([3, 4, 5]);
  });

  it('rolls a refused move back to its old place and counts', () => {
    const state = run(
      loadedBoard(),
      { type: 'move', id: 2, to: 'to do', afterId: null },
      { type: 'rollback', id: 2 },
    );
    expect(ids(state, 'new')).toEqual([1, 2, 3]);
    expect(ids(state, 'to do')).toEqual([]);
    expect(state.columns.new.cards[1].status).toBe('new');
    expect(shownTotal(state, 'new')).toBe(10);
    expect(shownTotal(state, 'to do')).toBe(0);
    expect(state.pending).toEqual({});
  });

  it('rolls back after the card it followed even when others moved meanwhile', () => {
    const state = run(
      loadedBoard(),
      { type: 'move', id: 2, to: 'to do', afterId: null },
      { type: 'move', id: 1, to: 'to do', afterId: 2 },
      { type: 'rollback', id: 2 },
    );
    // Card 1 (which 2 followed) left too: 2 goes back to its old index.
    expect(ids(state, 'new')).toEqual([3, 2]);
    expect(ids(state, 'to do')).toEqual([1]);
  });

  it('rolls back a move within a column', () => {
    const state = run(
      loadedBoard(),
      { type: 'move', id: 1, to: 'new', afterId: 3 },
      { type: 'rollback', id: 1 },
    );
    expect(ids(state, 'new')).toEqual([1, 2, 3]);
    expect(shownTotal(state, 'new')).toBe(10);
  });

  it('confirms a move with the server’s card and makes the counts the server’s', () => {
    const answer = { ...lead(2, 'to do', 'a0V'), version: 2 };
    const state = run(
      loadedBoard(),
      { type: 'move', id: 2, to: 'to do', afterId: null },
      { type: 'confirm', id: 2, lead: answer },
    );
    expect(state.columns['to do'].cards).toEqual([answer]);
    expect(state.pending).toEqual({});
    expect(state.columns.new.serverTotal).toBe(9);
    expect(state.columns['to do'].serverTotal).toBe(1);
    expect(shownTotal(state, 'new')).toBe(9);
    expect(shownTotal(state, 'to do')).toBe(1);
  });

  it('does not move a card twice while its first move is pending', () => {
    const once = run(loadedBoard(), { type: 'move', id: 2, to: 'to do', afterId: null });
    expect(run(once, { type: 'move', id: 2, to: 'closed', afterId: null })).toBe(once);
  });

  it('never shows a pending card twice when a page arrives meanwhile', () => {
    const state = run(
      loadedBoard(),
      { type: 'move', id: 5, to: 'new', afterId: 3 },
      // The server has not moved it yet: its old column, reloaded, still names it.
      { type: 'reload', status: 'not reached', generation: 2 },
      {
        type: 'loaded',
        status: 'not reached',
        generation: 2,
        records: [lead(4, 'not reached'), lead(5, 'not reached')],
        total: 2,
        hasMore: false,
      },
    );
    expect(ids(state, 'not reached')).toEqual([4]);
    expect(ids(state, 'new')).toEqual([1, 2, 3, 5]);
    // And a rollback then puts it back once.
    expect(ids(run(state, { type: 'rollback', id: 5 }), 'not reached')).toEqual([4, 5]);
  });

  it('drops the answer of a page asked before the column was reloaded', () => {
    const state = run(loadedBoard(), { type: 'reload', status: 'new', generation: 2 });
    const stale = run(state, {
      type: 'loaded',
      status: 'new',
      generation: 1,
      records: [lead(9, 'new')],
      total: 1,
      hasMore: false,
    });
    expect(stale).toBe(state);
    expect(state.columns.new.loading).toBe(true);
  });

  it('places a confirmed card by position when its column was reloaded meanwhile', () => {
    const state = run(
      loadedBoard(),
      { type: 'move', id: 1, to: 'not reached', afterId: 4 },
      { type: 'reload', status: 'not reached', generation: 2 },
      {
        type: 'loaded',
        status: 'not reached',
        generation: 2,
        records: [lead(4, 'not reached', 'a4'), lead(5, 'not reached', 'a6')],
        total: 2,
        hasMore: false,
      },
      { type: 'confirm', id: 1, lead: lead(1, 'not reached', 'a5') },
    );
    expect(ids(state, 'not reached')).toEqual([4, 1, 5]);
    expect(ids(state, 'new')).toEqual([2, 3]);
  });

  it('asks the page its loaded count falls in, so moves never skip a card', () => {
    const column = { ...initialBoard().columns.new, cards: new Array(60).fill(lead(1, 'new')) };
    expect(nextPage(column, 30)).toBe(3);
    expect(nextPage({ ...column, cards: column.cards.slice(1) }, 30)).toBe(2);
    expect(nextPage({ ...column, cards: [] }, 30)).toBe(1);
  });
});

describe('the neighbour a drop sends', () => {
  it('in another column: before the card dropped on, or after it on its lower half', () => {
    expect(dropPlacement([4, 5, 6], 1, 5, false)).toEqual({ afterId: 4, index: 1 });
    expect(dropPlacement([4, 5, 6], 1, 5, true)).toEqual({ afterId: 5, index: 2 });
    expect(dropPlacement([4, 5, 6], 1, 4, false)).toEqual({ afterId: null, index: 0 });
    expect(dropPlacement([4, 5, 6], 1, 6, true)).toEqual({ afterId: 6, index: 3 });
  });

  it('on a column rather than a card: its head is the top, under its cards the end', () => {
    expect(dropPlacement([4, 5], 1, null, false)).toEqual({ afterId: null, index: 0 });
    expect(dropPlacement([4, 5], 1, null, true)).toEqual({ afterId: 5, index: 2 });
    expect(dropPlacement([], 1, null, false)).toEqual({ afterId: null, index: 0 });
    expect(dropPlacement([], 1, null, true)).toEqual({ afterId: null, index: 0 });
  });

  it('in its own column: the place of the card dropped on', () => {
    // Down: 1 takes 3's place, after 3.
    expect(dropPlacement([1, 2, 3, 4], 1, 3, false)).toEqual({ afterId: 3, index: 2 });
    // Up: 4 takes 2's place, after 1.
    expect(dropPlacement([1, 2, 3, 4], 4, 2, true)).toEqual({ afterId: 1, index: 1 });
    // To the top.
    expect(dropPlacement([1, 2, 3, 4], 3, 1, false)).toEqual({ afterId: null, index: 0 });
  });

  it('in its own column, on its head or under its cards: to the top or the end', () => {
    expect(dropPlacement([1, 2, 3], 3, null, false)).toEqual({ afterId: null, index: 0 });
    expect(dropPlacement([1, 2, 3], 1, null, true)).toEqual({ afterId: 3, index: 2 });
  });

  it('nothing when a card is dropped where it is', () => {
    expect(dropPlacement([1, 2, 3], 2, 2, false)).toBeNull();
    expect(dropPlacement([1, 2, 3], 1, null, false)).toBeNull();
    expect(dropPlacement([1, 2, 3], 3, null, true)).toBeNull();
  });
});

describe('the age on a card', () => {
  const now = new Date('2026-11-28T12:00:00Z');
  it('in the largest whole unit', () => {
    expect(leadAge('2026-11-25T11:00:00Z', now)).toEqual({ unit: 'days', count: 3 });
    expect(leadAge('2026-11-27T12:00:01Z', now)).toEqual({ unit: 'hours', count: 23 });
    expect(leadAge('2026-11-28T11:18:00Z', now)).toEqual({ unit: 'minutes', count: 42 });
  });
  it('at least a minute (also for a clock a little behind the server)', () => {
    expect(leadAge('2026-11-28T11:59:50Z', now)).toEqual({ unit: 'minutes', count: 1 });
    expect(leadAge('2026-11-28T12:00:30Z', now)).toEqual({ unit: 'minutes', count: 1 });
  });
  it('nothing without a date', () => {
    expect(leadAge(null, now)).toBeUndefined();
    expect(leadAge('not a date', now)).toBeUndefined();
  });
});

describe('the name of a lead', () => {
  it('the company, else first and last name', () => {
    expect(
      leadName({ organization: 'Muster AG', firstName: 'Anna', lastName: 'Meier' } as Lead),
    ).toBe('Muster AG');
    expect(leadName({ organization: ' ', firstName: 'Anna', lastName: 'Meier' } as Lead)).toBe(
      'Anna Meier',
    );
    expect(leadName({ organization: null, firstName: null, lastName: 'Meier' } as Lead)).toBe(
      'Meier',
    );
    expect(leadName({ organization: null, firstName: null, lastName: null } as Lead)).toBe('');
  });
});
