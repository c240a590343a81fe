/**
 * The pure pieces of the reminder screens: Swiss "today" and "overdue", the moves offered to whom,
 * the list's default filter, the customer tab's order, the `?clientId=` of the create page, and the
 * worklist's section order and links.
 */
import { describe, expect, it, vi } from 'vitest';

vi.mock('../../resources/registry.ts', () => ({ getModel: () => ({ fields: [] }) }));
vi.mock('../../auth/session.ts', () => ({ getStoredUser: () => null, pageSizeFor: () => 25 }));

const {
  clientIdOf,
  defaultListFilter,
  isOverdue,
  movesOf,
  swissMidnight,
  swissToday,
  swissTodayRange,
} = await import('./model.ts');
const { orderSections } = await import('../tasks/useTasks.ts');
const { linkTarget } = await import('../../layout/useNotificationRead.ts');

describe('Swiss today', () => {
  it('is the Zurich date, not the UTC one', () => {
    // 23:30 UTC on 14 March is 00:30 on 15 March in Zurich (winter time, UTC+1).
    expect(swissToday(new Date('2026-03-14T23:30:00Z'))).toBe('2026-03-15');
    expect(swissToday(new Date('2026-03-14T22:30:00Z'))).toBe('2026-03-14');
    // Summer time, UTC+2.
    expect(swissToday(new Date('2026-07-01T22:30:00Z'))).toBe('2026-07-02');
  });

  it('begins at Swiss midnight', () => {
    expect(swissMidnight('2026-01-10').toISOString()).toBe('2026-01-09T23:00:00.000Z');
    expect(swissMidnight('2026-07-10').toISOString()).toBe('2026-07-09T22:00:00.000Z');
    const range = swissTodayRange(new Date('2026-07-10T12:00:00Z'));
    expect(range).toEqual({
      from: '2026-07-09T22:00:00.000Z',
      to: '2026-07-10T21:59:59.999Z',
    });
  });
});

describe('overdue', () => {
  const now = new Date('2026-05-12T08:00:00Z'); // 10:00 in Zurich
  it('is an open reminder due before today', () => {
    expect(isOverdue({ status: 'open', dueDate: '2026-05-11', time: null }, now)).toBe(true);
    expect(isOverdue({ status: 'open', dueDate: '2026-05-13', time: null }, now)).toBe(false);
  });
  it('today: once its time (else 08:00) has passed', () => {
    expect(isOverdue({ status: 'open', dueDate: '2026-05-12', time: null }, now)).toBe(true);
    expect(isOverdue({ status: 'open', dueDate: '2026-05-12', time: '09:59:00' }, now)).toBe(true);
    expect(isOverdue({ status: 'open', dueDate: '2026-05-12', time: '10:30' }, now)).toBe(false);
  });
  it('never a closed one', () => {
    expect(isOverdue({ status: 'resolved', dueDate: '2026-01-01', time: null }, now)).toBe(false);
    expect(isOverdue({ status: 'cancelled', dueDate: '2026-01-01', time: null }, now)).toBe(false);
  });
});

describe('the moves offered', () => {
  it('an open reminder: resolve and cancel, for anyone', () => {
    expect(movesOf({ status: 'open', assignerId: 2 }, 7, false)).toEqual(['resolved', 'cancelled']);
  });
  it('a closed one: reopen for its assigner or the back office only', () => {
    expect(movesOf({ status: 'resolved', assignerId: 2 }, 7, false)).toEqual([]);
    expect(movesOf({ status: 'resolved', assignerId: 7 }, 7, false)).toEqual(['open']);
    expect(movesOf({ status: 'cancelled', assignerId: 2 }, 7, true)).toEqual(['open']);
    expect(movesOf({ status: 'cancelled', assignerId: null }, undefined, false)).toEqual([]);
  });
});

describe('the list', () => {
  it('opens on the open ones due up to today, mine', () => {
    expect(defaultListFilter(7, new Date('2026-05-12T08:00:00Z'))).toEqual({
      status: 'open',
      dueDate_lte: '2026-05-12',
      userId: 7,
    });
    expect(defaultListFilter(undefined, new Date('2026-05-12T08:00:00Z'))).not.toHaveProperty(
      'userId',
    );
  });
  it('takes the customer from ?clientId=', () => {
    expect(clientIdOf('?clientId=42')).toBe(42);
    expect(clientIdOf('?clientId=abc')).toBeUndefined();
    expect(clientIdOf('?clientId=-3')).toBeUndefined();
    expect(clientIdOf('')).toBeUndefined();
  });
});

describe('the worklist', () => {
  it('shows its sections in a fixed order and leaves unknown ones out', () => {
    const sections = orderSections([
      { key: 'to_rebook', total: 1, items: [] },
      { key: 'reminders_due', total: 2, items: [] },
      { key: 'leads' as never, total: 3, items: [] },
      { key: 'missing_feedbacks', total: 0, items: [] },
    ]);
    expect(sections.map((section) => section.key)).toEqual([
      'reminders_due',
      'missing_feedbacks',
      'to_rebook',
    ]);
  });
});

describe('notification links', () => {
  it('a path of the app is followed inside it, an address outside as is', () => {
    expect(linkTarget('/admin/reminders/5')).toEqual({ path: '/admin/reminders/5' });
    expect(linkTarget('admin/reminders/5')).toEqual({ path: '/admin/reminders/5' });
    expect(linkTarget('https://example.ch/x')).toEqual({ url: 'https://example.ch/x' });
    expect(linkTarget(null)).toEqual({});
  });
});
