/**
 * Top-level routes: the public pages, and one react-admin app per area (/admin, /consultant),
 * all sharing one i18n provider, data provider and auth provider.
 */
import { Box, CircularProgress } from '@mui/material';
import { lazy, Suspense, useEffect, useState } from 'react';
import { Admin, AdminContext, type I18nProvider } from 'react-admin';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router-dom';
import { createAuthProvider } from './auth/authProvider.ts';
import { getStoredUser, getToken, homeOf } from './auth/session.ts';
import {
  NoAccessPage,
  NotFoundPage,
  RedirectToLogin,
  RootRedirect,
} from './custom/PublicPages.tsx';
import { createDataProvider } from './dataProvider/index.ts';
import { setActiveI18n } from './i18n/active.ts';
import { createI18nProvider } from './i18n/index.ts';
import { Layout } from './layout/Layout.tsx';
import { resourceElements } from './resources/resources.tsx';
import { theme } from './theme.ts';

const LoginPage = lazy(() => import('./custom/LoginPage.tsx'));
const Dashboard = lazy(() => import('./custom/Dashboard.tsx'));

const dataProvider = createDataProvider({ apiUrl: '/api', getToken });
const authProvider = createAuthProvider();

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

function Area({
  area,
  i18nProvider,
}: {
  area: 'admin' | 'consultant';
  i18nProvider: I18nProvider;
}) {
  const user = getStoredUser();
  // A signed-in user opening the other area's routes goes to its own dashboard (the server refuses anyway).
  if (getToken() && user && user.routeSet !== area) return <Navigate to={homeOf(user)} replace />;
  return (
    <Admin
      basename={`/${area}`}
      dataProvider={dataProvider}
      authProvider={authProvider}
      i18nProvider={i18nProvider}
      loginPage={RedirectToLogin}
      dashboard={Dashboard}
      layout={Layout}
      theme={theme}
      title="GS CRM"
      catchAll={NotFoundPage}
      requireAuth
      disableTelemetry
    >
      {resourceElements()}
    </Admin>
  );
}

export function App() {
  const [i18nProvider, setI18nProvider] = useState<I18nProvider | null>(null);
  useEffect(() => {
    createI18nProvider().then((provider) => {
      setActiveI18n(provider);
      setI18nProvider(provider);
    });
  }, []);
  if (!i18nProvider) return <FullPageSpinner />;
  return (
    <BrowserRouter>
      <Routes>
        <Route path="/admin/*" element={<Area area="admin" i18nProvider={i18nProvider} />} />
        <Route
          path="/consultant/*"
          element={<Area area="consultant" i18nProvider={i18nProvider} />}
        />
        <Route
          path="*"
          element={
            <AdminContext
              dataProvider={dataProvider}
              authProvider={authProvider}
              i18nProvider={i18nProvider}
              theme={theme}
            >
              <Suspense fallback={<FullPageSpinner />}>
                <Routes>
                  <Route path="/" element={<RootRedirect />} />
                  <Route path="/login" element={<LoginPage />} />
                  <Route path="/no-access" element={<NoAccessPage />} />
                  <Route path="*" element={<NotFoundPage />} />
                </Routes>
              </Suspense>
            </AdminContext>
          }
        />
      </Routes>
    </BrowserRouter>
  );
}
