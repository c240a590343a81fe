/**
 * Per-resource replacements of generic views, by resource name. A replacement is a hand-written
 * component (in src/custom/) that may reuse fieldFor/inputFor rather than repeating the schema's
 * field list. Example:
 *   customers: { show: lazy(() => import('../custom/customers/CustomerShow.tsx')) },
 */
import type { ComponentType, LazyExoticComponent } from 'react';

export type ViewKind = 'list' | 'show' | 'edit' | 'create';

export const OVERRIDES: Record<
  string,
  Partial<Record<ViewKind, LazyExoticComponent<ComponentType>>>
> = {};
