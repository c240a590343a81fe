/**
 * Where the generic views of a resource lead in an area, from its paths (src/shell/paths.ts): a
 * list row opens the record's show page (else its edit page), the list and show page offer edit,
 * the edit page offers show, and a created record opens on its show page (else the list). A schema
 * resource the spec names no path for has all four views in the admin area, so it is fully
 * navigable without any entry.
 */
import type { Identifier } from 'react-admin';
import { type Area, resourceHref, resourceRoute } from '../shell/paths.ts';

export interface Navigation {
  /** Absolute path a list row opens, or false (not clickable) when the area has no record view. */
  rowLink(id: Identifier): string | false;
  /** Absolute path of the record's edit view, if the area has one. */
  editLink(id: Identifier): string | undefined;
  /** Absolute path of the record's show view, if the area has one. */
  showLink(id: Identifier): string | undefined;
  /** Where react-admin goes after a create (relative to the area, as its `redirect` wants). */
  afterCreate(id: Identifier | undefined): string;
}

export function navigationOf(area: Area, resource: string): Navigation {
  const href = (view: 'show' | 'edit', id: Identifier) => resourceHref(area, resource, view, id);
  return {
    rowLink: (id) => href('show', id) ?? href('edit', id) ?? false,
    editLink: (id) => href('edit', id),
    showLink: (id) => href('show', id),
    afterCreate: (id) =>
      resourceRoute(area, resource, 'show', id) ?? resourceRoute(area, resource, 'list') ?? '',
  };
}
