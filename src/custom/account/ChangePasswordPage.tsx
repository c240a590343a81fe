/**
 * /change-password?token=…: sets a new password with the single-use token of a reset or invitation
 * mail. Without a token, a signed-in user goes to its settings (password change there); anyone else
 * is told to ask for a new link.
 */
import { Alert, Button, CircularProgress } from '@mui/material';
import { type FormEvent, useState } from 'react';
import { useTranslate } from 'react-admin';
import { Navigate, useSearchParams } from 'react-router-dom';
import { getStoredUser, getToken } from '../../auth/session.ts';
import { api, fieldErrorOf, fieldErrorsOf, statusOf } from '../../dataProvider/apiClient.ts';
import { PasswordFields, passwordAcceptable } from './PasswordFields.tsx';
import { PublicCard } from './PublicCard.tsx';

export default function ChangePasswordPage() {
  const translate = useTranslate();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [state, setState] = useState<'idle' | 'busy' | 'done'>('idle');

  if (!token) {
    const user = getStoredUser();
    if (getToken() && user?.routeSet) return <Navigate to={`/${user.routeSet}/settings`} replace />;
    return (
      <PublicCard
        subtitle="app.account.reset.title"
        links={[{ to: '/forgot-password', label: 'app.account.forgotLink' }]}
      >
        <Alert severity="warning">{translate('app.account.reset.noToken')}</Alert>
      </PublicCard>
    );
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setState('busy');
    setError(null);
    try {
      await api.json('POST', 'account/reset-password', {
        body: { token, newPassword: password, confirmPassword: confirm },
      });
      setState('done');
    } catch (caught) {
      setError(caught);
      setState('idle');
    }
  };

  if (state === 'done') {
    return (
      <PublicCard
        subtitle="app.account.reset.title"
        links={[{ to: '/login', label: 'app.account.toLogin' }]}
      >
        <Alert severity="success" role="status">
          {translate('app.account.reset.done')}
        </Alert>
      </PublicCard>
    );
  }
  const tokenRefused = Boolean(fieldErrorOf(error, 'token'));
  const other =
    error && Object.keys(fieldErrorsOf(error)).length === 0
      ? statusOf(error) === 429
        ? 'app.account.tooMany'
        : 'app.login.unavailable'
      : null;
  return (
    <PublicCard
      subtitle="app.account.reset.title"
      onSubmit={submit}
      links={[
        { to: '/login', label: 'app.account.toLogin' },
        { to: '/forgot-password', label: 'app.account.newLink' },
      ]}
    >
      {tokenRefused && <Alert severity="error">{translate('app.account.reset.invalid')}</Alert>}
      {other && <Alert severity="error">{translate(other)}</Alert>}
      <PasswordFields
        password={password}
        confirm={confirm}
        onPassword={setPassword}
        onConfirm={setConfirm}
        passwordError={fieldErrorOf(error, 'newPassword')}
        confirmError={fieldErrorOf(error, 'confirmPassword')}
        autoFocus
      />
      <Button
        type="submit"
        variant="contained"
        size="large"
        disabled={state === 'busy' || !passwordAcceptable(password, confirm)}
      >
        {state === 'busy' ? (
          <CircularProgress size={24} color="inherit" />
        ) : (
          translate('app.account.reset.submit')
        )}
      </Button>
    </PublicCard>
  );
}
