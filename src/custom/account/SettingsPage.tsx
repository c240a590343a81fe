/**
 * /admin/settings and /consultant/settings (spec §3 User preferences, Offer credentials): language,
 * page sizes per listing, the appointments / leads / contracts options, the password change (old,
 * new, confirm) and the offer-service login, whose password is stored encrypted and never shown.
 */
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  CardHeader,
  Chip,
  CircularProgress,
  FormControlLabel,
  MenuItem,
  Switch,
  TextField,
} from '@mui/material';
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import { Title, useLocaleState, useNotify, useTranslate } from 'react-admin';
import {
  APPOINTMENTS_VIEWS,
  LEADS_VIEWS,
  LISTINGS,
  type Listing,
  PAGE_SIZES,
} from '../../schema/preferences.ts';
import { getStoredUser, updateStoredUser } from '../../auth/session.ts';
import { toCamelDeep } from '../../schema/case.ts';
import { LANGUAGES } from '../../i18n/index.ts';
import { AccountApiError, accountApi, fieldError } from './api.ts';
import { PasswordFields, passwordAcceptable } from './PasswordFields.tsx';

interface SettingsWire {
  language: string;
  page_sizes: Record<Listing, number>;
  appointments_filter_by_region: boolean;
  leads_view: string;
  appointments_view: string;
  contracts_filter_by_work_location: boolean;
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const translate = useTranslate();
  return (
    <Card component="section" aria-label={translate(title)}>
      <CardHeader
        title={translate(title)}
        slotProps={{ title: { variant: 'h6', component: 'h2' } }}
      />
      <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 2, pt: 0 }}>
        {children}
      </CardContent>
    </Card>
  );
}

function PreferencesSection() {
  const translate = useTranslate();
  const notify = useNotify();
  const [, setLocale] = useLocaleState();
  const [settings, setSettings] = useState<SettingsWire | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    accountApi<{ data: SettingsWire }>('GET', 'account/settings').then(
      (answer) => setSettings(answer.data),
      () => notify('app.login.unavailable', { type: 'error' }),
    );
  }, [notify]);
  if (!settings) return <CircularProgress aria-label={translate('app.settings.title')} />;

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      const answer = await accountApi<{ data: SettingsWire }>('PUT', 'account/settings', settings);
      setSettings(answer.data);
      const { language, ...preferences } = answer.data;
      updateStoredUser({ language, preferences: toCamelDeep(preferences) as never });
      setLocale(language);
      notify('app.settings.saved', { type: 'success' });
    } catch {
      notify('app.settings.failed', { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  const choose = <K extends keyof SettingsWire>(key: K, value: SettingsWire[K]) =>
    setSettings({ ...settings, [key]: value });

  return (
    <Box component="form" onSubmit={save} sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Section title="app.settings.general">
        <TextField
          select
          label={translate('app.language')}
          value={settings.language}
          onChange={(event) => choose('language', event.target.value)}
          sx={{ maxWidth: 320 }}
        >
          {LANGUAGES.map((language) => (
            <MenuItem key={language} value={language}>
              {translate(`enums.language.${language}`)}
            </MenuItem>
          ))}
        </TextField>
      </Section>
      <Section title="app.settings.pageSizes">
        <Box
          sx={{
            display: 'grid',
            gridTemplateColumns: 'repeat(auto-fill, minmax(180px, 1fr))',
            gap: 2,
          }}
        >
          {LISTINGS.map((listing) => (
            <TextField
              key={listing}
              select
              name={`page_sizes.${listing}`}
              label={translate(`app.settings.listing.${listing}`)}
              value={settings.page_sizes[listing]}
              onChange={(event) =>
                choose('page_sizes', {
                  ...settings.page_sizes,
                  [listing]: Number(event.target.value),
                })
              }
            >
              {PAGE_SIZES.map((size) => (
                <MenuItem key={size} value={size}>
                  {size}
                </MenuItem>
              ))}
            </TextField>
          ))}
        </Box>
      </Section>
      <Section title="app.settings.views">
        <Box
          sx={{
            display: 'grid',
            gridTemplateColumns: 'repeat(auto-fill, minmax(240px, 1fr))',
            gap: 2,
          }}
        >
          <TextField
            select
            label={translate('app.settings.leadsView')}
            value={settings.leads_view}
            onChange={(event) => choose('leads_view', event.target.value)}
          >
            {LEADS_VIEWS.map((view) => (
              <MenuItem key={view} value={view}>
                {translate(`app.settings.view.${view}`)}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            label={translate('app.settings.appointmentsView')}
            value={settings.appointments_view}
            onChange={(event) => choose('appointments_view', event.target.value)}
          >
            {APPOINTMENTS_VIEWS.map((view) => (
              <MenuItem key={view} value={view}>
                {translate(`app.settings.view.${view}`)}
              </MenuItem>
            ))}
          </TextField>
        </Box>
        <FormControlLabel
          control={
            <Switch
              checked={settings.appointments_filter_by_region}
              onChange={(event) => choose('appointments_filter_by_region', event.target.checked)}
            />
          }
          label={translate('app.settings.appointmentsFilterByRegion')}
        />
        <FormControlLabel
          control={
            <Switch
              checked={settings.contracts_filter_by_work_location}
              onChange={(event) =>
                choose('contracts_filter_by_work_location', event.target.checked)
              }
            />
          }
          label={translate('app.settings.contractsFilterByWorkLocation')}
        />
      </Section>
      <Box>
        <Button type="submit" variant="contained" disabled={busy}>
          {translate('app.settings.save')}
        </Button>
      </Box>
    </Box>
  );
}

function PasswordSection() {
  const translate = useTranslate();
  const notify = useNotify();
  const [oldPassword, setOldPassword] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await accountApi('POST', 'account/password', {
        old_password: oldPassword,
        new_password: password,
        confirm_password: confirm,
      });
      setOldPassword('');
      setPassword('');
      setConfirm('');
      notify('app.settings.passwordChanged', { type: 'success' });
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  const oldWrong = fieldError(error, 'old_password')
    ? translate('app.settings.oldWrong')
    : undefined;
  return (
    <Section title="app.settings.password">
      <Box
        component="form"
        onSubmit={submit}
        sx={{ display: 'flex', flexDirection: 'column', gap: 2, maxWidth: 420 }}
      >
        {error instanceof AccountApiError && error.status === 429 ? (
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
          passwordError={fieldError(error, 'new_password')}
          confirmError={fieldError(error, 'confirm_password')}
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

interface CredentialsWire {
  offer_username: string | null;
  has_password: boolean;
  updated_at: string | null;
}

function OfferCredentialsSection() {
  const translate = useTranslate();
  const notify = useNotify();
  const [stored, setStored] = useState<CredentialsWire | null>(null);
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    accountApi<{ data: CredentialsWire }>('GET', 'account/offer-credentials').then(
      (answer) => {
        setStored(answer.data);
        setUsername(answer.data.offer_username ?? '');
      },
      () => undefined,
    );
  }, []);
  if (!stored) return null;
  const save = async (body: Record<string, string | null>) => {
    setBusy(true);
    try {
      const answer = await accountApi<{ data: CredentialsWire }>(
        'PUT',
        'account/offer-credentials',
        body,
      );
      setStored(answer.data);
      setPassword('');
      notify('app.settings.saved', { type: 'success' });
    } catch {
      notify('app.settings.failed', { type: 'error' });
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
            offer_username: username.trim() || null,
            ...(password ? { offer_password: password } : {}),
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
            placeholder={stored.has_password ? '••••••••' : undefined}
            helperText={translate(
              stored.has_password
                ? 'app.settings.offerPasswordKept'
                : 'app.settings.offerPasswordNone',
            )}
            slotProps={{ htmlInput: { maxLength: 200 } }}
            sx={{ flex: 1 }}
          />
          <Chip
            data-testid="offer-password-state"
            color={stored.has_password ? 'success' : 'default'}
            label={translate(
              stored.has_password
                ? 'app.settings.offerPasswordSet'
                : 'app.settings.offerPasswordNotSet',
            )}
          />
        </Box>
        <Box sx={{ display: 'flex', gap: 1 }}>
          <Button type="submit" variant="contained" disabled={busy}>
            {translate('app.settings.saveOffer')}
          </Button>
          {stored.has_password ? (
            <Button disabled={busy} onClick={() => void save({ offer_password: null })}>
              {translate('app.settings.offerRemovePassword')}
            </Button>
          ) : null}
        </Box>
      </Box>
    </Section>
  );
}

export default function SettingsPage() {
  const external = Boolean(getStoredUser()?.subBrokerId);
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2, my: 2, maxWidth: 960 }}>
      <Title title="app.settings.title" />
      <PreferencesSection />
      <PasswordSection />
      {external ? null : <OfferCredentialsSection />}
    </Box>
  );
}
