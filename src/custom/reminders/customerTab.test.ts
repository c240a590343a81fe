/** The customer tab's order: open first, oldest due first; then the closed, newest due first. */
import { describe, expect, it, vi } from 'vitest';

vi.mock('../../resources/registry.ts', () => ({ getModel: () => ({ fields: [] }) }));
vi.mock('../../auth/session.ts', () => ({ getStoredUser: () => null }));

const { orderForTab } = await import('./CustomerRemindersTab.tsx');

describe('customer reminders tab', () => {
  it('orders open before closed', () => {
    const row = (id: number, status: string, dueDate: string) => ({ id, status, dueDate }) as never;
    const ordered = orderForTab([
      row(1, 'resolved', '2026-01-01'),
      row(2, 'open', '2026-03-01'),
      row(3, 'cancelled', '2026-02-01'),
      row(4, 'open', '2026-02-01'),
    ]);
    expect(ordered.map((reminder: { id: number }) => reminder.id)).toEqual([4, 2, 3, 1]);
  });
});
