/**
 * The payouts list's own actions, each in a dialog with a month picker:
 * - run the payouts of a month (POST /api/payouts/run {period}): one payout per user with ready
 *   lines up to that month; says how many were made and shows them in the list;
 * - create one payout for a user and month (POST /api/payouts); the server's refusals (nothing to
 *   pay, one already made for that month) beside the inputs, then the new payout's page;
 * - the month's payouts as CSV or Excel for the accounting (GET /api/payouts/export).
 */
import AddIcon from '@mui/icons-material/Add';
import DownloadIcon from '@mui/icons-material/Download';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import {
  Alert,
  Box,
  Button as MuiButton,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Stack,
} from '@mui/material';
import { useState } from 'react';
import {
  Button,
  Form,
  required,
  TextInput,
  useLocale,
  useNotify,
  useRefresh,
  useTranslate,
} from 'react-admin';
import { useWatch } from 'react-hook-form';
import { useNavigate } from 'react-router-dom';
import { api, fieldErrorsOf, messageOf } from '../../dataProvider/apiClient.ts';
import { ReferencePicker } from '../../resources/inputs.tsx';
import { fieldLabelKey } from '../../schema/labels.ts';
import { swissToday } from '../../schema/swiss-time.ts';
import { resourceHref } from '../../shell/paths.ts';
import { formatMonth, isMonth } from '../commissions/model.ts';
import { MonthInput } from '../commissions/MonthInput.tsx';
import { exportFileName, exportPath, type Payout, previousMonth } from './model.ts';

const label = (name: string) => fieldLabelKey('payouts', name);

/** "Run payouts for a month"; `onRan` gets the month (the list then shows its new payouts). */
export function RunPayoutsButton({ onRan }: { onRan: (period: string) => void }) {
  const translate = useTranslate();
  const locale = useLocale();
  const refresh = useRefresh();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ created: number; period: string } | undefined>();
  const [error, setError] = useState<string | undefined>();

  const close = () => {
    setOpen(false);
    setResult(undefined);
    setError(undefined);
  };
  const run = async (period: string) => {
    setBusy(true);
    setError(undefined);
    try {
      const answer = await api.json<{ data: { created: number; payouts: Payout[] } }>(
        'POST',
        'payouts/run',
        { body: { period } },
      );
      setResult({ created: answer.data.created, period });
      onRan(period);
      refresh();
      return undefined;
    } catch (caught) {
      const fields = fieldErrorsOf(caught);
      if (fields.period) return { period: fields.period };
      setError(translate(messageOf(caught)));
      return undefined;
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button
        label="app.payouts.page.run.button"
        onClick={() => setOpen(true)}
        variant="contained"
        data-testid="payouts-run"
      >
        <PlayArrowIcon />
      </Button>
      <Dialog
        open={open}
        onClose={busy ? undefined : close}
        maxWidth="xs"
        fullWidth
        aria-labelledby="payouts-run-title"
        data-testid="payouts-run-dialog"
      >
        <Form
          defaultValues={{ period: previousMonth(swissToday()) }}
          onSubmit={(values: Record<string, unknown>) => run(String(values.period))}
        >
          <DialogTitle id="payouts-run-title">
            {translate('app.payouts.page.run.title')}
          </DialogTitle>
          <DialogContent>
            <DialogContentText variant="body2" sx={{ mb: 1 }}>
              {translate('app.payouts.page.run.intro')}
            </DialogContentText>
            <MonthInput
              source="period"
              label="app.payouts.page.month"
              validate={required()}
              disabled={result !== undefined}
              testId="payouts-run-month"
            />
            {result && (
              <Alert
                severity={result.created > 0 ? 'success' : 'info'}
                sx={{ mt: 1 }}
                data-testid="payouts-run-result"
                data-created={result.created}
              >
                {result.created > 0
                  ? translate('app.payouts.page.run.created', {
                      count: result.created,
                      period: formatMonth(result.period, locale),
                    })
                  : translate('app.payouts.page.run.none', {
                      period: formatMonth(result.period, locale),
                    })}
              </Alert>
            )}
            {error && (
              <Alert severity="error" sx={{ mt: 1 }} data-testid="payouts-run-error">
                {error}
              </Alert>
            )}
          </DialogContent>
          <DialogActions>
            <MuiButton onClick={close} disabled={busy} data-testid="payouts-run-close">
              {translate(result ? 'ra.action.close' : 'ra.action.cancel')}
            </MuiButton>
            {!result && (
              <MuiButton
                type="submit"
                variant="contained"
                disabled={busy}
                data-testid="payouts-run-confirm"
              >
                {translate('app.payouts.page.run.confirm')}
              </MuiButton>
            )}
          </DialogActions>
        </Form>
      </Dialog>
    </>
  );
}

interface CreateValues {
  userId?: number | null;
  period?: string | null;
  note?: string | null;
}

/** Creates one payout for a user and month, then opens it. */
export function CreatePayoutButton() {
  const translate = useTranslate();
  const notify = useNotify();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const defaults: CreateValues = { period: previousMonth(swissToday()) };

  const save = async (values: CreateValues) => {
    setBusy(true);
    try {
      const answer = await api.json<{ data: Payout }>('POST', 'payouts', {
        body: {
          userId: values.userId,
          period: values.period,
          note: values.note?.trim() || undefined,
        },
      });
      notify('app.payouts.page.create.done', { type: 'success' });
      setOpen(false);
      navigate(resourceHref('admin', 'payouts', 'show', answer.data.id) ?? '/admin/payouts');
      return undefined;
    } catch (caught) {
      const fields = fieldErrorsOf(caught);
      const shown = Object.keys(fields).filter((path) =>
        ['userId', 'period', 'note'].includes(path),
      );
      if (shown.length === 0) notify(messageOf(caught), { type: 'error' });
      return shown.length > 0 ? fields : undefined;
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button
        label="app.payouts.page.create.button"
        onClick={() => setOpen(true)}
        data-testid="payouts-create"
      >
        <AddIcon />
      </Button>
      <Dialog
        open={open}
        onClose={busy ? undefined : () => setOpen(false)}
        maxWidth="xs"
        fullWidth
        aria-labelledby="payouts-create-title"
        data-testid="payouts-create-dialog"
      >
        <Form
          defaultValues={defaults}
          onSubmit={(values: Record<string, unknown>) => save(values as CreateValues)}
        >
          <DialogTitle id="payouts-create-title">
            {translate('app.payouts.page.create.title')}
          </DialogTitle>
          <DialogContent>
            <DialogContentText variant="body2" sx={{ mb: 1 }}>
              {translate('app.payouts.page.create.intro')}
            </DialogContentText>
            <Stack sx={{ gap: 1 }}>
              <ReferencePicker
                source="userId"
                reference="users"
                label={label('userId')}
                validate={[required()]}
              />
              <MonthInput
                source="period"
                label={label('period')}
                validate={required()}
                testId="payouts-create-month"
              />
              <TextInput source="note" label={label('note')} multiline minRows={2} fullWidth />
            </Stack>
          </DialogContent>
          <DialogActions>
            <MuiButton onClick={() => setOpen(false)} disabled={busy}>
              {translate('ra.action.cancel')}
            </MuiButton>
            <MuiButton
              type="submit"
              variant="contained"
              disabled={busy}
              data-testid="payouts-create-confirm"
            >
              {translate('app.payouts.page.create.confirm')}
            </MuiButton>
          </DialogActions>
        </Form>
      </Dialog>
    </>
  );
}

/** Downloads a month's payouts as CSV or Excel. */
export function usePayoutExport() {
  const notify = useNotify();
  const locale = useLocale();
  const [busy, setBusy] = useState<'csv' | 'xlsx' | undefined>();
  const download = async (period: string, format: 'csv' | 'xlsx') => {
    setBusy(format);
    try {
      await api.download(exportPath(period, format, locale), exportFileName(period, format));
    } catch (error) {
      notify(messageOf(error), { type: 'error' });
    } finally {
      setBusy(undefined);
    }
  };
  return { download, busy };
}

/** The CSV and Excel buttons of a month (the payout's page; the list's export dialog). */
export function ExportButtons({ period, testIdPrefix }: { period: string; testIdPrefix: string }) {
  const translate = useTranslate();
  const { download, busy } = usePayoutExport();
  return (
    <Stack direction="row" sx={{ gap: 1, flexWrap: 'wrap' }}>
      {(['csv', 'xlsx'] as const).map((format) => (
        <MuiButton
          key={format}
          variant="outlined"
          startIcon={<DownloadIcon />}
          disabled={!isMonth(period) || busy !== undefined}
          onClick={() => void download(period, format)}
          data-testid={`${testIdPrefix}-${format}`}
        >
          {translate(`app.payouts.page.export.${format}`)}
        </MuiButton>
      ))}
    </Stack>
  );
}

/** The CSV and Excel buttons of the month the export dialog's form holds. */
function FormExportButtons() {
  const period: unknown = useWatch({ name: 'period' });
  return <ExportButtons period={isMonth(period) ? period : ''} testIdPrefix="payouts-export" />;
}

/** "Export a month": the month (the list's period filter, else the last month) and the files. */
export function ExportPayoutsButton({ period: filtered }: { period?: string }) {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  const month = isMonth(filtered) ? filtered : previousMonth(swissToday());
  return (
    <>
      <Button
        label="app.payouts.page.export.button"
        onClick={() => setOpen(true)}
        data-testid="payouts-export"
      >
        <DownloadIcon />
      </Button>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        maxWidth="xs"
        fullWidth
        aria-labelledby="payouts-export-title"
        data-testid="payouts-export-dialog"
      >
        <Form defaultValues={{ period: month }} onSubmit={() => undefined}>
          <DialogTitle id="payouts-export-title">
            {translate('app.payouts.page.export.title')}
          </DialogTitle>
          <DialogContent>
            <DialogContentText variant="body2" sx={{ mb: 1 }}>
              {translate('app.payouts.page.export.intro')}
            </DialogContentText>
            <MonthInput
              source="period"
              label="app.payouts.page.month"
              helperText={false}
              testId="payouts-export-month"
            />
            <Box sx={{ mt: 2 }}>
              <FormExportButtons />
            </Box>
          </DialogContent>
          <DialogActions>
            <MuiButton onClick={() => setOpen(false)}>{translate('ra.action.close')}</MuiButton>
          </DialogActions>
        </Form>
      </Dialog>
    </>
  );
}
