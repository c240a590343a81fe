/**
 * The pure pieces of the contract screens: where a contract's views live per area, what the form
 * shows per product group, what a save leaves out, the KVG deductibles offered, who may delete or
 * cancel a contract and what cancelling sends, the tab's link to a customer's whole list.
 */
import { describe, expect, it, vi } from 'vitest';
import { contractHref, contractRoute } from '../../shell/paths.ts';

const { user } = vi.hoisted(() => ({
  user: { current: null as null | { permissions: string[] } },
}));
vi.mock('../../resources/registry.ts', () => ({
  getModel: () => ({
    fields: [],
    permissions: { read: 'authenticated', update: 'authenticated', delete: 'delete-contracts' },
  }),
}));
vi.mock('../../auth/session.ts', () => ({ getStoredUser: () => user.current }));

const {
  canDelete,
  canUpdate,
  cleanForGroup,
  FIXED_FILTERS,
  isCancellable,
  isKvgChild,
  localToday,
  mainSubProductSource,
  sectionsOf,
  supplementarySource,
} = await import('./model.ts');
const { cancellationOf, deleteFailureMessage } = await import('./ContractActions.tsx');
const { contractListOfCustomer } = await import('./CustomerContractsTab.tsx');
const { HttpError } = await import('react-admin');

describe('contract paths', () => {
  it('puts closures under contracts and non-closures under non-closures', () => {
    expect(contractRoute('admin', 'closure', 'show', 5)).toBe('contracts/5');
    expect(contractRoute('consultant', 'non-closure', 'show', 5)).toBe('non-closures/5');
    expect(contractHref('admin', 'non-closure', 'edit', 7)).toBe('/admin/non-closures/7/edit');
    expect(contractHref('admin', 'closure', 'create')).toBe('/admin/contracts/new');
    expect(contractRoute('admin', 'non-closure', 'list')).toBe('non-closures');
  });

  it('has no edit or create in the consultant area (SPEC §2)', () => {
    expect(contractRoute('consultant', 'closure', 'edit', 5)).toBeUndefined();
    expect(contractRoute('consultant', 'non-closure', 'create')).toBeUndefined();
  });
});

describe('contract lists', () => {
  it('fix the contract type, and broker contracts the broker-mandate product', () => {
    expect(FIXED_FILTERS.closures).toEqual({ contractType: 'closure' });
    expect(FIXED_FILTERS['non-closures']).toEqual({ contractType: 'non-closure' });
    expect(FIXED_FILTERS['broker-contracts']).toEqual({ contractType: 'closure', productId: 28 });
  });
});

describe('the form follows the product group', () => {
  it('health: basic model and deductible for basic insurance, supplementary for the others', () => {
    expect(sectionsOf('health', 1)).toMatchObject({ basic: true, supplementary: false });
    expect(sectionsOf('health', 2)).toMatchObject({ basic: false, supplementary: true });
    expect(sectionsOf('health', 3)).toMatchObject({ basic: true, supplementary: true });
    expect(mainSubProductSource(3)).toBe(1);
    expect(supplementarySource(3)).toBe(2);
    expect(supplementarySource(1)).toBeUndefined();
  });

  it('life: premium and term; P&C: coverage lines; finance: amount and rate, no premium', () => {
    expect(sectionsOf('life', 4)).toMatchObject({
      premium: true,
      term: true,
      coverageLines: false,
    });
    expect(sectionsOf('property_casualty', 7)).toMatchObject({ coverageLines: true, term: false });
    expect(sectionsOf('finance', 24)).toMatchObject({ finance: true, premium: false });
  });

  it('leaves out what the group does not show, and empty nested values', () => {
    const values = {
      productId: 7,
      productGroup: 'property_casualty',
      insurance: {
        subProductId: 9,
        subProductVariantId: 5,
        deductible: 300,
        premium: 50,
        termYears: null,
      },
      coverage: { lines: [{ coverage: 'Haftpflicht' }], amount: 1000, interestRate: 2 },
      supplementaryInsurances: [{ subProductId: 5 }],
    };
    expect(cleanForGroup(values, 'property_casualty')).toEqual({
      productId: 7,
      insurance: { subProductId: 9, premium: 50 },
      coverage: { lines: [{ coverage: 'Haftpflicht' }] },
      supplementaryInsurances: [],
    });
    expect(cleanForGroup({ ...values, productId: 24 }, 'finance')).toMatchObject({
      insurance: { subProductId: 9 },
      coverage: { amount: 1000, interestRate: 2 },
    });
  });
});

describe('KVG deductibles', () => {
  it('offers children’s deductibles through the year a child turns 18', () => {
    const on = new Date('2026-06-01');
    expect(isKvgChild('2008-12-31', on)).toBe(true);
    expect(isKvgChild('2007-01-01', on)).toBe(false);
    expect(isKvgChild(undefined, on)).toBe(false);
  });
});

describe('ending a contract', () => {
  it('deleting follows the schema’s rule (delete-contracts), changing any signed-in user', () => {
    user.current = null;
    expect(canDelete()).toBe(false);
    expect(canUpdate()).toBe(false);
    user.current = { permissions: [] };
    expect(canDelete()).toBe(false);
    expect(canUpdate()).toBe(true);
    user.current = { permissions: ['delete-contracts'] };
    expect(canDelete()).toBe(true);
    expect(canUpdate()).toBe(true);
    user.current = null;
  });

  it('cancels closures that have not ended; never a non-closure', () => {
    expect(isCancellable({ contractType: 'closure', status: 'active' })).toBe(true);
    expect(isCancellable({ contractType: 'closure', status: 'application' })).toBe(true);
    expect(isCancellable({ contractType: 'closure' })).toBe(true);
    expect(isCancellable({ contractType: 'closure', status: 'terminated' })).toBe(false);
    expect(isCancellable({ contractType: 'closure', status: 'cancelled' })).toBe(false);
    expect(isCancellable({ contractType: 'closure', status: 'rejected' })).toBe(false);
    expect(isCancellable({ contractType: 'non-closure' })).toBe(false);
  });

  it('sends one update: status, end date, the version and what a PUT must name', () => {
    const values = {
      id: 5,
      version: 3,
      customerId: 9,
      contractType: 'closure',
      productId: 4,
      status: 'terminated',
      endDate: '2026-12-31',
      note: 'unchanged',
      annualPremium: 100,
    };
    expect(cancellationOf(values)).toEqual({
      customerId: 9,
      contractType: 'closure',
      productId: 4,
      status: 'terminated',
      endDate: '2026-12-31',
      version: 3,
    });
  });

  it('says in words that a contract with documents cannot be deleted', () => {
    const documents = new HttpError('@@react-admin@@{}', 409, {
      key: 'app.errors.stillUsed',
      args: { what: 'contract', users: ' (documents)' },
    });
    expect(deleteFailureMessage(documents)).toBe('app.contracts.delete.hasDocuments');
    const reminders = new HttpError('still used', 409, { args: { users: ' (reminders)' } });
    expect(deleteFailureMessage(reminders)).toBe('still used');
    expect(deleteFailureMessage(new Error('x'))).toBe('ra.notification.http_error');
  });

  it('today in the local calendar, as the server writes dates', () => {
    expect(localToday(new Date(2026, 0, 5, 23, 30))).toBe('2026-01-05');
  });
});

describe('the customer’s contracts tab', () => {
  it('links to the list of the kind, filtered by the customer', () => {
    expect(contractListOfCustomer('admin', 'closure', 12)).toBe(
      '/admin/contracts?filter=%7B%22customerId%22%3A12%7D',
    );
    expect(contractListOfCustomer('consultant', 'non-closure', 3)).toBe(
      '/consultant/non-closures?filter=%7B%22customerId%22%3A3%7D',
    );
  });
});
