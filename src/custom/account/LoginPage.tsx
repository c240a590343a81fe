/**
 * /login: email and password. On success the user's own language is applied and the user lands on
 * its own dashboard (or the no-access page). A wrong combination gets one message whichever part
 * was wrong; a registration still waiting for approval, and the throttle, are told as such.
 */
import { Alert, Button, CircularProgress, TextField } from '@mui/material';
import { type FormEvent, useState } from 'react';
import { useAuthProvider, useLocaleState, useTranslate } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { getStoredUser } from '../../auth/session.ts';
import { isLanguage } from '../../i18n/index.ts';
import { PublicCard } from './PublicCard.tsx';

const MESSAGE_OF_STATUS: Record<number, string> = {
  401: 'app.login.failed',
  403: 'app.login.pending',
  422: 'app.login.failed',
  429: 'app.login.throttled',
};

export default function LoginPage() {
  const translate = useTranslate();
  const authProvider = useAuthProvider();
  const navigate = useNavigate();
  const [locale, setLocale] = useLocaleState();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!authProvider) return;
    setBusy(true);
    setError(null);
    try {
      const result = (await authProvider.login({ email, password })) as
        { redirectTo?: string } | undefined;
      const language = getStoredUser()?.language;
      if (isLanguage(language) && language !== locale) setLocale(language);
      navigate(result?.redirectTo ?? '/', { replace: true });
    } catch (caught) {
      const status = (caught as { status?: number }).status ?? 0;
      setError(MESSAGE_OF_STATUS[status] ?? 'app.login.unavailable');
      setBusy(false);
    }
  };

  return (
    <PublicCard
      subtitle="app.login.subtitle"
      onSubmit={submit}
      links={[
        { to: '/forgot-password', label: 'app.account.forgotLink' },
        { to: '/register', label: 'app.account.registerLink' },
      ]}
    >
      {error && (
        <Alert severity={error === 'app.login.pending' ? 'info' : 'error'} role="alert">
          {translate(error)}
        </Alert>
      )}
      <TextField
        label={translate('app.login.email')}
        type="email"
        name="email"
        autoComplete="username"
        value={email}
        onChange={(event) => setEmail(event.target.value)}
        required
        autoFocus
      />
      <TextField
        label={translate('app.login.password')}
        type="password"
        name="password"
        autoComplete="current-password"
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        required
      />
      <Button type="submit" variant="contained" size="large" disabled={busy || !email || !password}>
        {busy ? <CircularProgress size={24} color="inherit" /> : translate('app.login.submit')}
      </Button>
    </PublicCard>
  );
}
