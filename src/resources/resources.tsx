/**
 * Views of every schema resource: generic ones, lazily loaded, unless a resource overrides one of
 * them in ./overrides.ts.
 */
import { Resource } from 'react-admin';
import type { ResourceModel } from '../schema/model.ts';
import { representRecord } from './labels.ts';
import { lazyPage, type PreloadablePage } from '../shell/lazyPage.ts';
import type { ViewKind } from '../shell/paths.ts';
import { OVERRIDES } from './overrides.ts';
import { MODELS } from './registry.ts';

const GENERIC: Record<ViewKind, PreloadablePage> = {
  list: lazyPage(() => import('./views.tsx').then((module) => ({ default: module.GenericList }))),
  show: lazyPage(() => import('./views.tsx').then((module) => ({ default: module.GenericShow }))),
  edit: lazyPage(() => import('./views.tsx').then((module) => ({ default: module.GenericEdit }))),
  create: lazyPage(() =>
    import('./views.tsx').then((module) => ({ default: module.GenericCreate })),
  ),
};

/** The component of one view of a resource: its override, or the generic one. */
export const resourceView = (resource: string, kind: ViewKind) =>
  OVERRIDES[resource]?.[kind] ?? GENERIC[kind];

/**
 * Registers resources with react-admin (record representation, which views exist) without
 * routes: the shell places the views at the paths of src/shell/paths.ts.
 */
export function resourceRegistrations(models: ResourceModel[] = MODELS) {
  return models.map((model) => (
    <Resource
      key={model.name}
      name={model.name}
      intent="registration"
      hasCreate
      hasEdit
      hasShow
      recordRepresentation={(record) => representRecord(model, record)}
    />
  ));
}
