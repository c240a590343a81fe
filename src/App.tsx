/**
 * Top level: waits for the language (spinner) and the server's configuration, then routes the
 * public pages and one react-admin app per area, all sharing one i18n, data and auth provider.
 */
import { Alert, Box, Button, CircularProgress } from '@mui/material';
import { startTransition, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { AdminContext, type I18nProvider, localStorageStore, Notification } from 'react-admin';
import { createBrowserRouter, matchPath, Route, RouterProvider, Routes } from 'react-router-dom';
import { createAuthProvider } from './auth/authProvider.ts';
import { getToken } from './auth/session.ts';
import ComingSoon from './custom/ComingSoon.tsx';
// In the entry (1 KB with its imports): a chunk of its own came after the area's code.
import { prefetchBoard } from './custom/leads/boardQuery.ts';
import { NotFoundPage, RootRedirect } from './custom/PublicPages.tsx';
import { api } from './dataProvider/apiClient.ts';
import { createDataProvider } from './dataProvider/index.ts';
import { setActiveI18n } from './i18n/active.ts';
import { createI18nProvider } from './i18n/index.ts';
import { PUBLIC_ROUTES } from './routes.tsx';
import { EnvStrip, ProgressBar, useGuideShortcut } from './shell/Chrome.tsx';
import type { AreaApp as AreaAppComponent } from './shell/AreaApp.tsx';
import { type AppEnv, isAppEnv, UI } from './shell/config.ts';
import { lazyModule, preloadPage } from './shell/lazyPage.ts';
import { type Area, resourceHref, routerPath } from './shell/paths.ts';
import { withPrefetch } from './shell/prefetch.ts';
import { theme } from './theme.ts';

/**
 * The areas (react-admin's Admin, the layout and menu, every schema resource) load only when an
 * area's path opens: the public pages (login first) do not download the back office.
 */
const loadAreaApp = () => import('./shell/AreaApp.tsx');
/** Rendered at once when its code is there (no Suspense fallback and React's reveal delay). */
const AreaApp = lazyModule<Parameters<typeof AreaAppComponent>[0]>(() =>
  loadAreaApp().then((module) => ({ default: module.AreaApp })),
);

/**
 * The code the first screen needs, asked for while the texts load rather than after them: the
 * area's app and the page of this path in it, or the public page of this path.
 */
function preloadFor(pathname: string): void {
  const area = /^\/(admin|consultant)(\/|$)/.exec(pathname)?.[1] as Area | undefined;
  if (area) {
    // A failure shows when the page renders (React.lazy asks again).
    AreaApp.preload().catch(() => undefined);
    loadAreaApp().then(
      (module) => module.preloadRoute(area, pathname),
      () => undefined,
    );
    return;
  }
  // Patterns too (/financescout24/{clientID}/…), as the routes below match them.
  preloadPage(
    PUBLIC_ROUTES.find((route) =>
      matchPath(`/${routerPath(route.path)}`, pathname.replace(/\/+$/, '')),
    )?.page,
  );
}

/**
 * The data the first screen of a path will ask for, asked for as soon as the texts are there
 * rather than once the area and the page have rendered (their render takes a few hundred ms, the
 * answers come meanwhile): the lead board's columns (src/shell/prefetch.ts). Not before the
 * texts: the server would answer the texts, which everything waits for, after them.
 */
function prefetchData(pathname: string): void {
  const area = /^\/(admin|consultant)(\/|$)/.exec(pathname)?.[1] as Area | undefined;
  if (!area || pathname.replace(/\/+$/, '') !== resourceHref(area, 'leads', 'list')) return;
  prefetchBoard(area, store, dataProvider.prefetchList);
}

const dataProvider = withPrefetch(createDataProvider({ apiUrl: '/api', getToken }));
const authProvider = createAuthProvider();
/**
 * One react-admin store for the public pages and both areas: the locale react-admin keeps (store key
 * "locale") is then one value, so the language chosen at sign-in is the one the area starts in.
 */
const store = localStorageStore();

function FullPageSpinner() {
  return (
    <Box
      sx={{ height: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center' }}
      role="progressbar"
      aria-busy="true"
    >
      <CircularProgress />
    </Box>
  );
}

/** Before any translation is loaded: a plain message in the four languages, and a retry. */
function StartupError({ onRetry }: { onRetry: () => void }) {
  return (
    <Box
      sx={{
        height: '100vh',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        p: 2,
      }}
    >
      <Alert
        severity="error"
        action={
          <Button color="inherit" onClick={onRetry}>
            ↻
          </Button>
        }
      >
        Der Server antwortet nicht. · The server does not answer. · Le serveur ne répond pas. · Il
        server non risponde.
      </Alert>
    </Box>
  );
}

async function fetchAppEnv(): Promise<AppEnv> {
  // Public and asked before anything else: no token (an expired one must not stop the start).
  const body = await api.json<{ appEnv?: unknown }>('GET', 'config', { auth: false });
  return isAppEnv(body.appEnv) ? body.appEnv : 'production';
}

function PublicPages({ i18nProvider }: { i18nProvider: I18nProvider }) {
  return (
    <AdminContext
      dataProvider={dataProvider}
      authProvider={authProvider}
      i18nProvider={i18nProvider}
      store={store}
      theme={theme}
    >
      <Notification autoHideDuration={UI.notificationMs} />
      {/* The areas' layouts have their own bar, which also follows data loading. */}
      <ProgressBar />
      <Suspense fallback={<FullPageSpinner />}>
        <Routes>
          <Route path="/" element={<RootRedirect />} />
          {PUBLIC_ROUTES.map(({ path, page: Page, coming }) => (
            <Route
              key={path}
              path={routerPath(path)}
              element={Page ? <Page /> : <ComingSoon feature={coming ?? path} />}
            />
          ))}
          <Route path="*" element={<NotFoundPage />} />
        </Routes>
      </Suspense>
    </AdminContext>
  );
}

function Shell({ i18nProvider, appEnv }: { i18nProvider: I18nProvider; appEnv: AppEnv }) {
  useGuideShortcut();
  return (
    <>
      <EnvStrip env={appEnv} />
      <Suspense fallback={<FullPageSpinner />}>
        <Routes>
          <Route
            path="/admin/*"
            element={
              <AreaApp
                area="admin"
                i18nProvider={i18nProvider}
                dataProvider={dataProvider}
                authProvider={authProvider}
                store={store}
              />
            }
          />
          <Route
            path="/consultant/*"
            element={
              <AreaApp
                area="consultant"
                i18nProvider={i18nProvider}
                dataProvider={dataProvider}
                authProvider={authProvider}
                store={store}
              />
            }
          />
          <Route path="*" element={<PublicPages i18nProvider={i18nProvider} />} />
        </Routes>
      </Suspense>
    </>
  );
}

/**
 * A data router rather than <BrowserRouter>: the question before a changed form is left
 * (react-admin's `warnWhenUnsavedChanges`, src/resources/forms/) blocks navigation with
 * react-router's useBlocker, which works only under a data router.
 */
function AppRouter({ i18nProvider, appEnv }: { i18nProvider: I18nProvider; appEnv: AppEnv }) {
  const router = useMemo(
    () =>
      createBrowserRouter([
        { path: '*', element: <Shell i18nProvider={i18nProvider} appEnv={appEnv} /> },
      ]),
    [i18nProvider, appEnv],
  );
  return <RouterProvider router={router} />;
}

export function App() {
  const [state, setState] = useState<
    | { status: 'loading' }
    | { status: 'failed' }
    | { status: 'ready'; i18nProvider: I18nProvider; appEnv: AppEnv }
  >({ status: 'loading' });
  const load = useCallback(() => {
    preloadFor(window.location.pathname);
    Promise.all([createI18nProvider(), fetchAppEnv()]).then(
      ([i18nProvider, appEnv]) => {
        setActiveI18n(i18nProvider);
        prefetchData(window.location.pathname);
        // A transition: React renders the app in slices and lets the browser paint and answer
        // input between them, instead of one long task (the spinner stays until it is ready).
        startTransition(() => setState({ status: 'ready', i18nProvider, appEnv }));
      },
      () => setState({ status: 'failed' }),
    );
  }, []);
  const retry = () => {
    setState({ status: 'loading' });
    load();
  };
  useEffect(load, [load]);
  if (state.status === 'loading') return <FullPageSpinner />;
  if (state.status === 'failed') return <StartupError onRetry={retry} />;
  return <AppRouter i18nProvider={state.i18nProvider} appEnv={state.appEnv} />;
}
