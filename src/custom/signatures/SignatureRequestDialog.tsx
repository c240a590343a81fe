/**
 * "Request signature" on a PDF broker mandate, advice protocol or application (a customer's or a
 * contract's document): who signs (the customer by default), their e-mail (the link is mailed;
 * empty: pass the link on yourself), the language of the mail and page (the customer's
 * correspondence language by default) and how many days the link stays valid. The link is shown
 * once, with "copy". A newer request withdraws the open one of the same document (said up front).
 */
import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  MenuItem,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { useGetOne, useLocale, useTranslate } from 'react-admin';
import { LinkField } from '../../components/LinkField.tsx';
import { api, fieldErrorsOf, messageOf } from '../../dataProvider/apiClient.ts';
import { formatDate } from '../../i18n/format.ts';
import { isLanguage, type Language, LANGUAGES } from '../../i18n/index.ts';
import type { ApiRecord } from '../../resources/records.ts';
import { fieldLabelKey } from '../../schema/labels.ts';
import { LINK_DAYS, RESOURCE } from './model.ts';

interface Created {
  data: ApiRecord<'signature-requests'>;
  url: string;
  mailed: boolean;
}

export function SignatureRequestDialog({
  document,
  onClose,
}: {
  document: Pick<ApiRecord<'documents'>, 'id' | 'customerId' | 'documentName'>;
  onClose: (created: boolean) => void;
}) {
  const translate = useTranslate();
  const locale = useLocale();
  const { data: customer } = useGetOne<ApiRecord<'customers'>>('customers', {
    id: document.customerId,
  });
  const [edited, setEdited] = useState<{
    name?: string;
    email?: string;
    language?: Language;
    days?: string;
  }>({});
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<Created | null>(null);

  const preferred = customer?.correspondenceLanguages?.[0];
  const name =
    edited.name ??
    (customer
      ? [customer.firstName, customer.lastName].filter(Boolean).join(' ') ||
        (customer.organization ?? '')
      : '');
  const email = edited.email ?? customer?.email ?? '';
  const language = edited.language ?? (isLanguage(preferred) ? preferred : 'de');
  const days = edited.days ?? String(LINK_DAYS.default);
  const address = created ? `${window.location.origin}${created.url}` : '';
  const label = (field: string) => translate(fieldLabelKey(RESOURCE, field));
  const shown = (text: string | undefined) => (text ? translate(text, { _: text }) : undefined);

  const submit = async () => {
    setBusy(true);
    setErrors({});
    setError(null);
    try {
      setCreated(
        await api.json<Created>('POST', `documents/${document.id}/signature-requests`, {
          body: {
            signerName: name.trim(),
            ...(email.trim() ? { signerEmail: email.trim() } : {}),
            language,
            days: Number(days),
          },
        }),
      );
    } catch (caught) {
      const fields = fieldErrorsOf(caught);
      setErrors(fields);
      setError(messageOf(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open onClose={() => onClose(created !== null)} fullWidth maxWidth="sm">
      <DialogTitle>{translate('app.signatures.dialogTitle')}</DialogTitle>
      <DialogContent>
        {created ? (
          <Stack spacing={2} sx={{ pt: 1 }} data-testid="signature-created">
            <Alert severity="success">
              {created.mailed
                ? translate('app.signatures.mailed', { email: created.data.signerEmail ?? '' })
                : translate('app.signatures.notMailed')}
            </Alert>
            <LinkField
              value={address}
              label="app.signatures.link"
              copyLabel="app.signatures.copy"
              copiedLabel="app.signatures.copied"
              helperText={`${translate('app.signatures.linkOnce')} ${translate(
                'app.signatures.page.validUntil',
                { date: formatDate(created.data.expiresAt, locale) },
              )}`}
              testId="signature-link"
            />
          </Stack>
        ) : (
          <Stack
            component="form"
            id="signature-request-form"
            spacing={2}
            sx={{ pt: 1 }}
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              void submit();
            }}
          >
            <Typography variant="body2" color="text.secondary">
              {translate('app.signatures.dialogText', { document: document.documentName })}
            </Typography>
            <TextField
              label={label('signerName')}
              value={name}
              required
              size="small"
              onChange={(event) => setEdited((now) => ({ ...now, name: event.target.value }))}
              error={Boolean(errors.signerName)}
              helperText={shown(errors.signerName)}
              slotProps={{ htmlInput: { maxLength: 200, 'data-testid': 'signature-signer' } }}
            />
            <TextField
              label={label('signerEmail')}
              value={email}
              type="email"
              size="small"
              onChange={(event) => setEdited((now) => ({ ...now, email: event.target.value }))}
              error={Boolean(errors.signerEmail)}
              helperText={shown(errors.signerEmail) ?? translate('app.signatures.emailHint')}
              slotProps={{ htmlInput: { maxLength: 254, 'data-testid': 'signature-email' } }}
            />
            <Stack direction="row" spacing={2}>
              <TextField
                select
                label={label('language')}
                value={language}
                size="small"
                sx={{ flex: 1 }}
                onChange={(event) =>
                  setEdited((now) => ({ ...now, language: event.target.value as Language }))
                }
                slotProps={{ htmlInput: { 'data-testid': 'signature-language' } }}
              >
                {LANGUAGES.map((code) => (
                  <MenuItem key={code} value={code}>
                    {translate(`app.languageNames.${code}`)}
                  </MenuItem>
                ))}
              </TextField>
              <TextField
                label={translate('app.signatures.days')}
                type="number"
                value={days}
                size="small"
                sx={{ flex: 1 }}
                onChange={(event) => setEdited((now) => ({ ...now, days: event.target.value }))}
                error={Boolean(errors.days)}
                helperText={shown(errors.days)}
                slotProps={{
                  htmlInput: { min: 1, max: LINK_DAYS.max, 'data-testid': 'signature-days' },
                }}
              />
            </Stack>
            <Typography variant="body2" color="text.secondary">
              {translate('app.signatures.replaces')}
            </Typography>
            {error && Object.keys(errors).length === 0 ? (
              <Alert severity="error" data-testid="signature-request-error">
                {shown(error)}
              </Alert>
            ) : null}
            {errors.document ? (
              <Alert severity="error" data-testid="signature-request-error">
                {shown(errors.document)}
              </Alert>
            ) : null}
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={() => onClose(created !== null)}>
          {translate(created ? 'ra.action.close' : 'ra.action.cancel')}
        </Button>
        {created ? null : (
          <Button
            type="submit"
            form="signature-request-form"
            variant="contained"
            disabled={busy || !customer}
            data-testid="signature-send"
          >
            {translate('app.signatures.send')}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
