/**
 * What the leads' filter bar sends (both views), and where booking an appointment from a lead goes.
 */
import { describe, expect, it, vi } from 'vitest';
import type { LeadFilters } from './model.ts';

vi.mock('../../resources/registry.ts', () => ({ getModel: () => ({ fields: [] }) }));

const { activeFilterCount, apiFilter, appointmentHref } = await import('./model.ts');

describe('the filters sent', () => {
  it('the assignee: me and nobody as the server\u2019s assignment, a user by id', () => {
    expect(apiFilter({ assignedTo: 'me' }, 'kanban')).toEqual({ assignment: 'me' });
    expect(apiFilter({ assignedTo: 'none' }, 'kanban')).toEqual({ assignment: 'unassigned' });
    expect(apiFilter({ assignedTo: 7 }, 'list')).toEqual({ assignedTo: 7 });
  });

  it('the status and close reason only in the list (the board\u2019s columns are the statuses)', () => {
    const filters: LeadFilters = { status: 'closed', closeStatus: 'invalid', leadSource: [2, 3] };
    expect(apiFilter(filters, 'kanban')).toEqual({ leadSource: [2, 3] });
    expect(apiFilter(filters, 'list')).toEqual({
      status: 'closed',
      closeStatus: 'invalid',
      leadSource: [2, 3],
    });
    expect(activeFilterCount(filters, 'kanban')).toBe(1);
    expect(activeFilterCount(filters, 'list')).toBe(3);
  });

  it('leaves out what is empty; the search trimmed, the days as they are', () => {
    expect(
      apiFilter(
        { q: '  meier ', leadSource: [], createdFrom: '2026-11-01', createdUntil: undefined },
        'list',
      ),
    ).toEqual({ q: 'meier', createdFrom: '2026-11-01' });
    expect(apiFilter({ q: '   ' }, 'kanban')).toEqual({});
  });
});

describe('booking from a lead', () => {
  it('the appointment form with the customer, the lead, its address and the consultant', () => {
    expect(
      appointmentHref('admin', { id: 5, street: 'Seeweg 7', zip: '8001', city: ' ' }, 12, 3),
    ).toBe('/admin/appointments/new?clientId=12&leadId=5&consultantId=3&street=Seeweg+7&zip=8001');
    expect(appointmentHref('consultant', { id: 5, street: null, zip: null, city: null }, 12)).toBe(
      '/consultant/appointments/new?clientId=12&leadId=5',
    );
  });
});
