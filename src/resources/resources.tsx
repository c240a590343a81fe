/**
 * <Resource> elements for every schema: generic views, lazily loaded, unless a resource overrides
 * one of them in ./overrides.ts.
 */
import { type ComponentType, type LazyExoticComponent, lazy } from 'react';
import { Resource } from 'react-admin';
import type { ResourceModel } from '../schema/model.ts';
import { representRecord } from './labels.ts';
import { OVERRIDES, type ViewKind } from './overrides.ts';
import { MODELS } from './registry.ts';

const GENERIC: Record<ViewKind, LazyExoticComponent<ComponentType>> = {
  list: lazy(() => import('./views.tsx').then((module) => ({ default: module.GenericList }))),
  show: lazy(() => import('./views.tsx').then((module) => ({ default: module.GenericShow }))),
  edit: lazy(() => import('./views.tsx').then((module) => ({ default: module.GenericEdit }))),
  create: lazy(() => import('./views.tsx').then((module) => ({ default: module.GenericCreate }))),
};

const view = (model: ResourceModel, kind: ViewKind) =>
  OVERRIDES[model.name]?.[kind] ?? GENERIC[kind];

export function resourceElements(models: ResourceModel[] = MODELS) {
  return models.map((model) => (
    <Resource
      key={model.name}
      name={model.name}
      list={view(model, 'list')}
      show={view(model, 'show')}
      edit={view(model, 'edit')}
      create={view(model, 'create')}
      recordRepresentation={(record) => representRecord(model, record)}
    />
  ));
}
