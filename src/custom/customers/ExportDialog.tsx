/**
 * Client report export (from, until, lead sources) as CSV: the server streams the customers the
 * user sees; the browser saves the file.
 */
import DownloadIcon from '@mui/icons-material/Download';
import {
  Box,
  Button as MuiButton,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  FormGroup,
  Typography,
} from '@mui/material';
import { lazy, Suspense, useState } from 'react';
import { Button, useGetList, useLocaleState, useNotify, useTranslate } from 'react-admin';
import { api, messageOf } from '../../dataProvider/apiClient.ts';
import type { ApiRecord } from '../../resources/records.ts';
import { leadSourceName } from './model.ts';

/** The date pickers load when the dialog first opens, not with the customers list. */
const DateFilterField = lazy(() =>
  import('../../components/DateFilterField.tsx').then((module) => ({
    default: module.DateFilterField,
  })),
);

export function ExportButton() {
  const translate = useTranslate();
  const notify = useNotify();
  const [locale] = useLocaleState();
  const [open, setOpen] = useState(false);
  const [from, setFrom] = useState('');
  const [until, setUntil] = useState('');
  const [sources, setSources] = useState<number[]>([]);
  const [busy, setBusy] = useState(false);
  // Asked for when the dialog opens, not with the list the button stands on.
  const { data: leadSources = [] } = useGetList<ApiRecord<'lead-sources'>>(
    'lead-sources',
    { pagination: { page: 1, perPage: 200 }, sort: { field: 'id', order: 'ASC' } },
    { enabled: open },
  );
  const invalid = Boolean(from && until && from > until);

  const run = async () => {
    const query = new URLSearchParams();
    if (from) query.set('from', from);
    if (until) query.set('until', until);
    for (const id of sources) query.append('lead_source', String(id));
    setBusy(true);
    try {
      await api.download(`customers/export?${query}`, 'customers.csv');
      setOpen(false);
    } catch (error) {
      notify(messageOf(error), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button
        label={translate('app.customers.export.action')}
        onClick={() => setOpen(true)}
        data-testid="customer-export"
      >
        <DownloadIcon />
      </Button>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        aria-labelledby="export-title"
        fullWidth
        maxWidth="sm"
      >
        <DialogTitle id="export-title">{translate('app.customers.export.title')}</DialogTitle>
        <DialogContent>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            {translate('app.customers.export.text')}
          </Typography>
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, mb: 2, minHeight: 76 }}>
            <Suspense fallback={null}>
              <DateFilterField
                label={translate('app.customers.export.from')}
                value={from}
                onChange={setFrom}
                helperText=" "
                testId="export-from"
                sx={{ flex: '1 1 200px' }}
              />
              <DateFilterField
                label={translate('app.customers.export.until')}
                value={until}
                onChange={setUntil}
                error={invalid}
                helperText={invalid ? translate('app.customers.export.untilBeforeFrom') : ' '}
                testId="export-until"
                sx={{ flex: '1 1 200px' }}
              />
            </Suspense>
          </Box>
          <Typography variant="subtitle2">
            {translate('app.customers.export.leadSources')}
          </Typography>
          <FormGroup row>
            {leadSources.map((source) => (
              <FormControlLabel
                key={source.id}
                control={
                  <Checkbox
                    checked={sources.includes(Number(source.id))}
                    onChange={(event) =>
                      setSources((current) =>
                        event.target.checked
                          ? [...current, Number(source.id)]
                          : current.filter((id) => id !== Number(source.id)),
                      )
                    }
                  />
                }
                label={leadSourceName(source, locale)}
              />
            ))}
          </FormGroup>
        </DialogContent>
        <DialogActions>
          <MuiButton onClick={() => setOpen(false)}>{translate('ra.action.cancel')}</MuiButton>
          <MuiButton
            variant="contained"
            onClick={run}
            disabled={busy || invalid}
            startIcon={<DownloadIcon />}
          >
            {translate('app.customers.export.download')}
          </MuiButton>
        </DialogActions>
      </Dialog>
    </>
  );
}
