/** Small public pages: root redirect, the login redirect of the admin areas, no-access and 404. */
import { Box, Button, Typography } from '@mui/material';
import { useLogout, useTranslate } from 'react-admin';
import { Navigate, useLocation } from 'react-router-dom';
import { getStoredUser, getToken, homeOf } from '../auth/session.ts';

/** `/`: the signed-in user's dashboard, else the login page. */
export function RootRedirect() {
  return <Navigate to={getToken() ? homeOf(getStoredUser()) : '/login'} replace />;
}

/** react-admin's own login route inside an area (/admin/login) sends to the public /login. */
export function RedirectToLogin() {
  const location = useLocation();
  return <Navigate to="/login" replace state={{ from: location.pathname }} />;
}

function Message({
  title,
  text,
  action,
  inLayout,
}: {
  title: string;
  text: string;
  action: React.ReactNode;
  inLayout?: boolean;
}) {
  const translate = useTranslate();
  return (
    <Box
      data-testid="message-page"
      sx={{
        minHeight: inLayout ? '50vh' : '100vh',
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        gap: 2,
        p: 2,
        textAlign: 'center',
      }}
    >
      <Typography variant="h4" component="h1">
        {translate(title)}
      </Typography>
      <Typography color="text.secondary">{translate(text)}</Typography>
      {action}
    </Box>
  );
}

/** 404; inside an area's layout (`inLayout`) it keeps the menu. */
export function NotFoundPage({ inLayout }: { inLayout?: boolean }) {
  const translate = useTranslate();
  return (
    <Message
      inLayout={inLayout}
      title="app.notFound.title"
      text="app.notFound.text"
      action={
        <Button variant="contained" href="/">
          {translate('app.notFound.home')}
        </Button>
      }
    />
  );
}

export function NoAccessPage() {
  const translate = useTranslate();
  const logout = useLogout();
  return (
    <Message
      title="app.noAccess.title"
      text="app.noAccess.text"
      action={
        <Button variant="contained" onClick={() => logout()}>
          {translate('ra.auth.logout')}
        </Button>
      }
    />
  );
}
