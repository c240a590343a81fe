/**
 * Per-resource replacements of generic views, by resource name. A replacement is a hand-written
 * component (in src/custom/) that may reuse fieldFor/inputFor rather than repeating the schema's
 * field list. Example:
 *   customers: { show: lazy(() => import('../custom/customers/CustomerShow.tsx')) },
 */
import { type ComponentType, type LazyExoticComponent, lazy } from 'react';
import type { ViewKind } from '../shell/paths.ts';

export const OVERRIDES: Record<
  string,
  Partial<Record<ViewKind, LazyExoticComponent<ComponentType>>>
> = {
  users: {
    list: lazy(() => import('../custom/account/users/UserList.tsx')),
    edit: lazy(() => import('../custom/account/users/UserForm.tsx')),
    create: lazy(() => import('../custom/account/users/UserCreate.tsx')),
  },
  'sub-brokers': { edit: lazy(() => import('../custom/account/sub-brokers/SubBrokerEdit.tsx')) },
  'external-users': {
    edit: lazy(() => import('../custom/account/external-users/ExternalUserEdit.tsx')),
  },
  customers: {
    list: lazy(() => import('../custom/customers/CustomerList.tsx')),
    show: lazy(() => import('../custom/customers/CustomerShow.tsx')),
    edit: lazy(() => import('../custom/customers/CustomerForm.tsx')),
    create: lazy(() =>
      import('../custom/customers/CustomerForm.tsx').then((module) => ({
        default: module.CustomerCreate,
      })),
    ),
  },
};
