/**
 * /admin/settings and /consultant/settings (spec §3 User preferences, Offer credentials): language,
 * page sizes per listing, the appointments / leads / contracts options, notification e-mails; then the password change
 * and the offer-service login (./SettingsAccountSections.tsx).
 */
import {
  Box,
  Button,
  CircularProgress,
  FormControlLabel,
  MenuItem,
  Switch,
  TextField,
} from '@mui/material';
import { type FormEvent, useEffect, useState } from 'react';
import { Title, useLocaleState, useNotify, useTranslate } from 'react-admin';
import { getStoredUser, updateStoredUser } from '../../auth/session.ts';
import { api } from '../../dataProvider/apiClient.ts';
import { type Language, LANGUAGES } from '../../i18n/index.ts';
import {
  APPOINTMENTS_VIEWS,
  LEADS_VIEWS,
  LISTINGS,
  PAGE_SIZES,
  type Preferences,
} from '../../schema/preferences.ts';
import { OfferCredentialsSection, PasswordSection } from './SettingsAccountSections.tsx';
import { Section } from './SettingsSection.tsx';

/** What GET and PUT /api/account/settings carry (camelCase here): the language and preferences. */
type Settings = Preferences & { language: Language };

function PreferencesSection() {
  const translate = useTranslate();
  const notify = useNotify();
  const [, setLocale] = useLocaleState();
  const [settings, setSettings] = useState<Settings | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    api.json<{ data: Settings }>('GET', 'account/settings').then(
      (answer) => setSettings(answer.data),
      () => notify('app.login.unavailable', { type: 'error' }),
    );
  }, [notify]);
  if (!settings) return <CircularProgress aria-label={translate('app.settings.title')} />;

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      const answer = await api.json<{ data: Settings }>('PUT', 'account/settings', {
        body: settings,
      });
      setSettings(answer.data);
      const { language, ...preferences } = answer.data;
      updateStoredUser({ language, preferences });
      setLocale(language);
      notify('app.settings.saved', { type: 'success' });
    } catch {
      notify('app.settings.failed', { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  const choose = <K extends keyof Settings>(key: K, value: Settings[K]) =>
    setSettings({ ...settings, [key]: value });

  return (
    <Box component="form" onSubmit={save} sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Section title="app.settings.general">
        <TextField
          select
          label={translate('app.language')}
          value={settings.language}
          onChange={(event) => choose('language', event.target.value as Language)}
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
              value={settings.pageSizes[listing]}
              onChange={(event) =>
                choose('pageSizes', {
                  ...settings.pageSizes,
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
            value={settings.leadsView}
            onChange={(event) => choose('leadsView', event.target.value as Settings['leadsView'])}
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
            value={settings.appointmentsView}
            onChange={(event) =>
              choose('appointmentsView', event.target.value as Settings['appointmentsView'])
            }
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
              checked={settings.appointmentsFilterByRegion}
              onChange={(event) => choose('appointmentsFilterByRegion', event.target.checked)}
            />
          }
          label={translate('app.settings.appointmentsFilterByRegion')}
        />
        <FormControlLabel
          control={
            <Switch
              checked={settings.contractsFilterByWorkLocation}
              onChange={(event) => choose('contractsFilterByWorkLocation', event.target.checked)}
            />
          }
          label={translate('app.settings.contractsFilterByWorkLocation')}
        />
        <FormControlLabel
          control={
            <Switch
              name="notification_emails"
              checked={settings.notificationEmails}
              onChange={(event) => choose('notificationEmails', event.target.checked)}
            />
          }
          label={translate('app.settings.notificationEmails')}
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
