/**
 * Renders one route-table entry: a schema resource's view, a hand-written page, or the "coming"
 * placeholder; an `{id}` that is not a positive integer shows the 404 page.
 */
import { createElement, Suspense } from 'react';
import { Loading, ResourceContextProvider } from 'react-admin';
import { useParams } from 'react-router-dom';
import ComingSoon from '../custom/ComingSoon.tsx';
import { NotFoundPage } from '../custom/PublicPages.tsx';
import { hasModel } from '../resources/registry.ts';
import { resourceView } from '../resources/resources.tsx';
import type { RouteEntry } from '../routes.tsx';

export function RouteView({ entry }: { entry: RouteEntry }) {
  const { id } = useParams();
  if (id !== undefined && !/^[1-9]\d{0,9}$/.test(id)) return <NotFoundPage inLayout />;
  let content: React.ReactNode;
  if (entry.resource && entry.view && hasModel(entry.resource)) {
    content = (
      <ResourceContextProvider value={entry.resource}>
        {createElement(resourceView(entry.resource, entry.view))}
      </ResourceContextProvider>
    );
  } else if (entry.page) {
    content = createElement(entry.page);
  } else {
    content = <ComingSoon feature={entry.coming ?? entry.resource ?? entry.path} />;
  }
  return <Suspense fallback={<Loading />}>{content}</Suspense>;
}
