/**
 * The settings page's account sections: the password change (old, new, confirm; the server's field
 * errors beside the fields, in the user's language) and the offer-service login, whose password is
 * stored encrypted and never shown. Errors no field shows are notified
 * (src/resources/forms/useServerErrors.ts).
 */
import { Alert, Box, Button, Chip, TextField } from '@mui/material';
import { type FormEvent, useEffect, useState } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import { api, statusOf } from '../../dataProvider/apiClient.ts';
import { useServerErrors } from '../../resources/forms/useServerErrors.ts';
import { PasswordFields, passwordAcceptable } from './PasswordFields.tsx';
import { Section } from './SettingsSection.tsx';

const PASSWORD_FIELDS = new Set(['oldPassword', 'newPassword', 'confirmPassword']);
const isPasswordField = (path: string) => PASSWORD_FIELDS.has(path);
const OFFER_FIELDS = new Set(['offerUsername', 'offerPassword']);
const isOfferField = (path: string) => OFFER_FIELDS.has(path);

export function PasswordSection() {
  const translate = useTranslate();
  const notify = useNotify();
  const [oldPassword, setOldPassword] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const errors = useServerErrors({ shown: isPasswordField });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    errors.clear();
    try {
      await api.json('POST', 'account/password', {
        body: { oldPassword, newPassword: password, confirmPassword: confirm },
      });
      setOldPassword('');
      setPassword('');
      setConfirm('');
      notify('app.settings.passwordChanged', { type: 'success' });
    } catch (caught) {
      setError(caught);
      // Too many attempts has its own message above the fields.
      if (statusOf(caught) !== 429) errors.report(caught);
    } finally {
      setBusy(false);
    }
  };
  const oldWrong = errors.errorOf('oldPassword') ? translate('app.settings.oldWrong') : undefined;
  return (
    <Section title="app.settings.password">
      <Box
        component="form"
        onSubmit={submit}
        sx={{ display: 'flex', flexDirection: 'column', gap: 2, maxWidth: 420 }}
      >
        {statusOf(error) === 429 ? (
          <Alert severity="error">{translate('app.account.tooMany')}</Alert>
        ) : null}
        <TextField
          label={translate('app.password.old')}
          type="password"
          name="old-password"
          autoComplete="current-password"
          value={oldPassword}
          onChange={(event) => setOldPassword(event.target.value)}
          error={Boolean(oldWrong)}
          helperText={oldWrong}
          required
        />
        <PasswordFields
          password={password}
          confirm={confirm}
          onPassword={setPassword}
          onConfirm={setConfirm}
          passwordError={errors.errorOf('newPassword')}
          confirmError={errors.errorOf('confirmPassword')}
        />
        <Box>
          <Button
            type="submit"
            variant="contained"
            disabled={busy || !oldPassword || !passwordAcceptable(password, confirm)}
          >
            {translate('app.settings.changePassword')}
          </Button>
        </Box>
      </Box>
    </Section>
  );
}

/** GET and PUT /api/account/offer-credentials (the password itself is never answered). */
interface OfferCredentials {
  offerUsername: string | null;
  hasPassword: boolean;
  updatedAt: string | null;
}

export function OfferCredentialsSection() {
  const translate = useTranslate();
  const notify = useNotify();
  const [stored, setStored] = useState<OfferCredentials | null>(null);
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const errors = useServerErrors({ shown: isOfferField });
  useEffect(() => {
    api.json<{ data: OfferCredentials }>('GET', 'account/offer-credentials').then(
      (answer) => {
        setStored(answer.data);
        setUsername(answer.data.offerUsername ?? '');
      },
      () => undefined,
    );
  }, []);
  if (!stored) return null;
  const save = async (body: Record<string, string | null>) => {
    setBusy(true);
    errors.clear();
    try {
      const answer = await api.json<{ data: OfferCredentials }>(
        'PUT',
        'account/offer-credentials',
        {
          body,
        },
      );
      setStored(answer.data);
      setPassword('');
      notify('app.settings.saved', { type: 'success' });
    } catch (caught) {
      errors.report(caught);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Section title="app.settings.offerCredentials">
      <Box
        component="form"
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          void save({
            offerUsername: username.trim() || null,
            ...(password ? { offerPassword: password } : {}),
          });
        }}
        sx={{ display: 'flex', flexDirection: 'column', gap: 2, maxWidth: 420 }}
      >
        <Alert severity="info" variant="outlined">
          {translate('app.settings.offerIntro')}
        </Alert>
        <TextField
          label={translate('app.settings.offerUsername')}
          name="offer-username"
          autoComplete="off"
          value={username}
          onChange={(event) => setUsername(event.target.value)}
          error={Boolean(errors.errorOf('offerUsername'))}
          helperText={errors.errorOf('offerUsername')}
          slotProps={{ htmlInput: { maxLength: 200 } }}
        />
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
          <TextField
            label={translate('app.settings.offerPassword')}
            type="password"
            name="offer-password"
            autoComplete="new-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            placeholder={stored.hasPassword ? '••••••••' : undefined}
            error={Boolean(errors.errorOf('offerPassword'))}
            helperText={
              errors.errorOf('offerPassword') ??
              translate(
                stored.hasPassword
                  ? 'app.settings.offerPasswordKept'
                  : 'app.settings.offerPasswordNone',
              )
            }
            slotProps={{ htmlInput: { maxLength: 200 } }}
            sx={{ flex: 1 }}
          />
          <Chip
            data-testid="offer-password-state"
            color={stored.hasPassword ? 'success' : 'default'}
            label={translate(
              stored.hasPassword
                ? 'app.settings.offerPasswordSet'
                : 'app.settings.offerPasswordNotSet',
            )}
          />
        </Box>
        <Box sx={{ display: 'flex', gap: 1 }}>
          <Button type="submit" variant="contained" disabled={busy}>
            {translate('app.settings.saveOffer')}
          </Button>
          {stored.hasPassword ? (
            <Button disabled={busy} onClick={() => void save({ offerPassword: null })}>
              {translate('app.settings.offerRemovePassword')}
            </Button>
          ) : null}
        </Box>
      </Box>
    </Section>
  );
}
