/**
 * "Reverse" on a line of the commissions page (manage-commissions): asks the reason and sends
 * POST /api/commission-lines/{id}/reverse. The ledger is append-only: the server writes a reversal
 * line (−amount) — both 'reversed' when the line had not been paid out, else the reversal lands in
 * the user's next open month. A line in a payout not yet paid (frozen) or already reversed is
 * refused (409), the reason shown in the user's language; a missing reason is shown on its field.
 */
import UndoIcon from '@mui/icons-material/Undo';
import {
  Alert,
  Button as MuiButton,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  IconButton,
  TextField,
  Tooltip,
} from '@mui/material';
import { useState } from 'react';
import { useNotify, useRefresh, useTranslate } from 'react-admin';
import { api, fieldErrorsOf, messageOf, statusOf } from '../../dataProvider/apiClient.ts';
import { enumKey } from '../../schema/labels.ts';
import { type CommissionLine, formatCentimes } from './model.ts';

const REASON_MAX = 1000;

export function ReverseButton({ line }: { line: CommissionLine }) {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  // A reversed line has its reversal already; nothing is left to reverse.
  const reversed = line.status === 'reversed';
  const title = reversed
    ? translate('app.commissions.reverse.alreadyReversed')
    : translate('app.commissions.reverse.action');
  return (
    <>
      <Tooltip title={title}>
        <span>
          <IconButton
            size="small"
            aria-label={translate('app.commissions.reverse.action')}
            disabled={reversed}
            data-testid="line-reverse"
            onClick={(event) => {
              event.stopPropagation();
              setOpen(true);
            }}
          >
            <UndoIcon fontSize="small" />
          </IconButton>
        </span>
      </Tooltip>
      {open ? <ReverseDialog line={line} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

export function ReverseDialog({ line, onClose }: { line: CommissionLine; onClose: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | undefined>();
  const [refusal, setRefusal] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const send = async () => {
    if (!reason.trim()) {
      setReasonError(translate('ra.validation.required'));
      return;
    }
    setBusy(true);
    setRefusal(undefined);
    try {
      await api.json('POST', `commission-lines/${line.id}/reverse`, {
        body: { reason: reason.trim() },
      });
      notify('app.commissions.reverse.done', { type: 'success' });
      onClose();
      refresh();
    } catch (error) {
      const errors = fieldErrorsOf(error);
      if (errors.reason) setReasonError(translate(errors.reason, { _: errors.reason }));
      else if (statusOf(error) === 409) {
        const message = messageOf(error);
        setRefusal(translate(message, { _: message }));
      } else notify(messageOf(error), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open
      onClose={busy ? undefined : onClose}
      onClick={(event) => event.stopPropagation()}
      maxWidth="sm"
      fullWidth
      data-testid="reverse-dialog"
    >
      <DialogTitle>{translate('app.commissions.reverse.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>
          {translate('app.commissions.reverse.explain', {
            amount: formatCentimes(line.amount),
            kind: translate(enumKey('commissionLineKind', line.kind)),
            reversal: formatCentimes(-line.amount),
          })}
        </DialogContentText>
        {refusal ? (
          <Alert severity="error" sx={{ mb: 2 }} data-testid="reverse-refused">
            {refusal}
          </Alert>
        ) : null}
        <TextField
          autoFocus
          fullWidth
          multiline
          minRows={2}
          required
          label={translate('app.commissions.reverse.reason')}
          value={reason}
          onChange={(event) => {
            setReason(event.target.value.slice(0, REASON_MAX));
            setReasonError(undefined);
          }}
          error={Boolean(reasonError)}
          helperText={reasonError}
          slotProps={{ htmlInput: { 'data-testid': 'reverse-reason', maxLength: REASON_MAX } }}
        />
      </DialogContent>
      <DialogActions>
        <MuiButton onClick={onClose} disabled={busy}>
          {translate('ra.action.cancel')}
        </MuiButton>
        <MuiButton
          variant="contained"
          color="error"
          onClick={() => void send()}
          disabled={busy}
          data-testid="reverse-confirm"
        >
          {translate('app.commissions.reverse.confirm')}
        </MuiButton>
      </DialogActions>
    </Dialog>
  );
}
