/** /forgot-password: mails a single-use link to set a new password (same answer for any address). */
import { Alert, Button, CircularProgress, TextField } from '@mui/material';
import { type FormEvent, useState } from 'react';
import { useTranslate } from 'react-admin';
import { api, statusOf } from '../../dataProvider/apiClient.ts';
import { PublicCard } from './PublicCard.tsx';

export default function ForgotPasswordPage() {
  const translate = useTranslate();
  const [email, setEmail] = useState('');
  const [state, setState] = useState<'idle' | 'busy' | 'sent' | 'tooMany' | 'failed'>('idle');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setState('busy');
    try {
      await api.json('POST', 'account/forgot-password', { body: { email: email.trim() } });
      setState('sent');
    } catch (caught) {
      setState(statusOf(caught) === 429 ? 'tooMany' : 'failed');
    }
  };

  return (
    <PublicCard
      subtitle="app.account.forgot.title"
      onSubmit={state === 'sent' ? undefined : submit}
      links={[{ to: '/login', label: 'app.account.toLogin' }]}
    >
      {state === 'sent' ? (
        <Alert severity="success" role="status">
          {translate('app.account.forgot.sent')}
        </Alert>
      ) : (
        <>
          {state === 'tooMany' && (
            <Alert severity="error">{translate('app.account.tooMany')}</Alert>
          )}
          {state === 'failed' && (
            <Alert severity="error">{translate('app.login.unavailable')}</Alert>
          )}
          <Alert severity="info" variant="outlined">
            {translate('app.account.forgot.intro')}
          </Alert>
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
          <Button
            type="submit"
            variant="contained"
            size="large"
            disabled={state === 'busy' || !email.trim()}
          >
            {state === 'busy' ? (
              <CircularProgress size={24} color="inherit" />
            ) : (
              translate('app.account.forgot.submit')
            )}
          </Button>
        </>
      )}
    </PublicCard>
  );
}
