/**
 * One react-admin app per area (/admin, /consultant): resources registered from the schemas, routes
 * from the route table at the spec's paths, plus the react-admin style aliases its own buttons use
 * (`<resource>`, `<resource>/create`, `<resource>/:id/show`).
 */
import { QueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import {
  Admin,
  CustomRoutes,
  type DataProvider,
  type AuthProvider,
  type I18nProvider,
  Notification,
  type Store,
  useNotify,
} from 'react-admin';
import { matchPath, Navigate, Route, useLocation } from 'react-router-dom';
import { getStoredUser, getToken, homeOf } from '../auth/session.ts';
import { NotFoundPage, RedirectToLogin } from '../custom/PublicPages.tsx';
import { Layout } from '../layout/Layout.tsx';
import { MODELS } from '../resources/registry.ts';
import { resourceRegistrations } from '../resources/resources.tsx';
import { crud, mayOpen, type RouteEntry, routesOf } from '../routes.tsx';
import { theme } from '../theme.ts';
import { UI } from './config.ts';
import { preloadEntry } from './preloadEntry.ts';
import { type Area, isDeclared, routerPath } from './paths.ts';
import { RouteView } from './RouteView.tsx';

function AppNotification() {
  return <Notification autoHideDuration={UI.notificationMs} />;
}

/** Tells the user why they landed here when a route was refused (state.denied). */
function DeniedNotice() {
  const location = useLocation();
  const notify = useNotify();
  const denied = (location.state as { denied?: string } | null)?.denied;
  useEffect(() => {
    if (denied) notify('app.access.denied', { type: 'warning', messageArgs: { path: denied } });
  }, [denied, notify]);
  return null;
}

function Guarded({ entry, area }: { entry: RouteEntry; area: Area }) {
  const location = useLocation();
  if (!mayOpen(entry, getStoredUser())) {
    return <Navigate to={`/${area}/dashboard`} replace state={{ denied: location.pathname }} />;
  }
  return (
    <>
      <DeniedNotice />
      <RouteView entry={entry} />
    </>
  );
}

function ToDashboard({ area }: { area: Area }) {
  return <Navigate to={`/${area}/dashboard`} replace />;
}

/** Schema resources the spec names no path for get the generic routes (src/shell/paths.ts). */
const UNLISTED: RouteEntry[] = MODELS.filter((model) => !isDeclared(model.name)).flatMap((model) =>
  crud(model.name),
);

/** react-admin's own paths for a resource's views, routed to the same entries. */
function aliases(entries: RouteEntry[]): [string, RouteEntry][] {
  const out: [string, RouteEntry][] = [];
  for (const entry of entries) {
    if (!entry.resource || !entry.view) continue;
    if (entry.view === 'list' && entry.path !== entry.resource) out.push([entry.resource, entry]);
    if (entry.view === 'create') out.push([`${entry.resource}/create`, entry]);
    if (entry.view === 'show') out.push([`${entry.resource}/:id/show`, entry]);
  }
  return out;
}

const entriesOf = (area: Area): RouteEntry[] => [
  ...routesOf(area),
  ...(area === 'admin' ? UNLISTED : []),
];

/**
 * Starts loading the code of the page at `pathname` (in `area`), so it comes with the area's app
 * rather than after the area has rendered its frame (src/App.tsx calls it at start-up).
 */
export function preloadRoute(area: Area, pathname: string): void {
  const inArea = pathname.replace(new RegExp(`^/${area}`), '');
  const entries = entriesOf(area);
  const entry =
    entries.find((candidate) => matchPath(`/${routerPath(candidate.path)}`, inArea)) ??
    aliases(entries).find(([path]) => matchPath(`/${path}`, inArea))?.[1];
  if (entry) preloadEntry(entry);
}

export function AreaApp({
  area,
  i18nProvider,
  dataProvider,
  authProvider,
  store,
}: {
  area: Area;
  i18nProvider: I18nProvider;
  dataProvider: DataProvider;
  authProvider: AuthProvider;
  /** The app's one react-admin store (src/App.tsx), shared with the public pages; react-admin's default in tests. */
  store?: Store;
}) {
  const queryClient = useMemo(
    () =>
      new QueryClient({
        defaultOptions: {
          queries: { staleTime: UI.staleTimeMs, refetchOnWindowFocus: false },
        },
      }),
    [],
  );
  const location = useLocation();
  const user = getStoredUser();
  if (getToken() && user && user.routeSet !== area) {
    // A signed-in user opening the other area's routes goes to its own start page.
    return <Navigate to={homeOf(user)} replace state={{ denied: location.pathname }} />;
  }
  const entries = entriesOf(area);
  return (
    <Admin
      basename={`/${area}`}
      dataProvider={dataProvider}
      authProvider={authProvider}
      i18nProvider={i18nProvider}
      store={store}
      queryClient={queryClient}
      loginPage={RedirectToLogin}
      dashboard={() => <ToDashboard area={area} />}
      layout={Layout}
      notification={AppNotification}
      theme={theme}
      title="GS CRM"
      catchAll={() => <NotFoundPage inLayout />}
      requireAuth
      disableTelemetry
    >
      {/* Every resource is registered in both areas (references show their record's name); only the
          area's routes are reachable. */}
      {resourceRegistrations(MODELS)}
      <CustomRoutes>
        {entries.map((entry) => (
          <Route
            key={entry.path}
            path={routerPath(entry.path)}
            element={<Guarded entry={entry} area={area} />}
          />
        ))}
        {aliases(entries).map(([path, entry]) => (
          <Route
            key={`alias:${path}`}
            path={path}
            element={<Guarded entry={entry} area={area} />}
          />
        ))}
      </CustomRoutes>
    </Admin>
  );
}
