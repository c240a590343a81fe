/** Data of the Global check's screens shared by the customer's tab and the page. */
import { useGetList } from 'react-admin';
import { RESOURCE, type SavedCheck } from './model.ts';

/** The checks of a customer, newest first. */
export function useSavedChecks(customerId: number | undefined) {
  return useGetList<SavedCheck>(
    RESOURCE,
    {
      filter: { customerId },
      pagination: { page: 1, perPage: 100 },
      sort: { field: 'checkDate', order: 'DESC' },
    },
    { enabled: customerId !== undefined },
  );
}
