/**
 * Starts loading the code of a route entry's page: its resource view (generic or overridden) or
 * its own page. The shell calls it for the first screen at start-up (./AreaApp.tsx preloadRoute)
 * and the menu when the pointer rests on an item or the keyboard focuses it (./Menu.tsx), so a
 * click finds the page's code parsed rather than fetching it then.
 */
import { hasModel } from '../resources/registry.ts';
import { resourceView } from '../resources/resources.tsx';
import type { RouteEntry } from '../routes.tsx';
import { preloadPage } from './lazyPage.ts';

export function preloadEntry(entry: RouteEntry): void {
  if (entry.resource && entry.view && hasModel(entry.resource)) {
    preloadPage(resourceView(entry.resource, entry.view));
  } else {
    preloadPage(entry.page);
  }
}
