/**
 * Closing a lead (a card dropped into Done): why it is closed, one of the six close reasons.
 * "Appointment set" is not a move: it opens the appointment form prefilled from the lead, and
 * saving the appointment closes the lead (server side). "Blacklist" says what it means — the
 * person is not contacted again, anywhere — and needs a tick before it is sent. Cancelling puts
 * the card back. Also: the question whether to make a customer of a prospect first (booking needs
 * a customer), POST /api/leads/{id}/convert.
 */
import EventAvailableIcon from '@mui/icons-material/EventAvailable';
import {
  Alert,
  Box,
  Button as MuiButton,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  FormControlLabel,
  Radio,
  RadioGroup,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import { api, messageOf } from '../../dataProvider/apiClient.ts';
import { enumKey } from '../../schema/labels.ts';
import { APPOINTMENT_SET, LEAD_CLOSE_STATUSES, type LeadCloseStatus } from '../../schema/leads.ts';
import type { Lead } from './board.ts';

export function CloseDialog({
  open,
  name,
  onCancel,
  onConfirm,
}: {
  open: boolean;
  /** The lead's name, for the title. */
  name: string;
  onCancel: () => void;
  onConfirm: (reason: LeadCloseStatus) => void;
}) {
  const translate = useTranslate();
  const [reason, setReason] = useState<LeadCloseStatus | null>(null);
  const [confirmed, setConfirmed] = useState(false);
  const blacklist = reason === 'blacklist';
  const ready = reason !== null && (!blacklist || confirmed);
  const finish = (action: () => void) => {
    action();
    setReason(null);
    setConfirmed(false);
  };
  const label =
    reason === APPOINTMENT_SET
      ? 'app.leads.close.book'
      : blacklist
        ? 'app.leads.close.blacklistConfirm'
        : 'app.leads.close.confirm';
  return (
    <Dialog
      open={open}
      onClose={() => finish(onCancel)}
      maxWidth="sm"
      fullWidth
      aria-labelledby="lead-close-title"
      data-testid="lead-close-dialog"
    >
      <DialogTitle id="lead-close-title">
        {translate('app.leads.close.title', { name })}
      </DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 1 }}>{translate('app.leads.close.intro')}</DialogContentText>
        <RadioGroup
          value={reason ?? ''}
          onChange={(event) => {
            setReason(event.target.value as LeadCloseStatus);
            setConfirmed(false);
          }}
          aria-labelledby="lead-close-title"
        >
          {LEAD_CLOSE_STATUSES.map((value) => (
            <FormControlLabel
              key={value}
              value={value}
              control={<Radio size="small" />}
              data-testid={`lead-close-${value}`}
              sx={{ alignItems: 'flex-start', mb: 0.5, '& .MuiRadio-root': { pt: 0.5 } }}
              label={
                <Box sx={{ pt: 0.75 }}>
                  <Typography variant="body2" sx={{ fontWeight: 500 }}>
                    {value === APPOINTMENT_SET ? (
                      <EventAvailableIcon
                        fontSize="inherit"
                        color="success"
                        sx={{ mr: 0.5, verticalAlign: '-2px' }}
                      />
                    ) : null}
                    {translate(enumKey('leadCloseStatus', value))}
                  </Typography>
                  <Typography variant="caption" color="text.secondary" component="div">
                    {translate(`app.leads.close.hint.${value}`)}
                  </Typography>
                </Box>
              }
            />
          ))}
        </RadioGroup>
        {blacklist ? (
          <Alert severity="warning" sx={{ mt: 1 }} data-testid="lead-close-blacklist-warning">
            {translate('app.leads.close.blacklistWarning')}
            <FormControlLabel
              sx={{ display: 'flex', mt: 1 }}
              control={
                <Checkbox
                  size="small"
                  checked={confirmed}
                  onChange={(event) => setConfirmed(event.target.checked)}
                  data-testid="lead-close-blacklist-confirm"
                />
              }
              label={translate('app.leads.close.blacklistTick')}
              slotProps={{ typography: { variant: 'body2' } }}
            />
          </Alert>
        ) : null}
      </DialogContent>
      <DialogActions>
        <MuiButton onClick={() => finish(onCancel)} data-testid="lead-close-cancel">
          {translate('ra.action.cancel')}
        </MuiButton>
        <MuiButton
          variant="contained"
          color={blacklist ? 'error' : 'primary'}
          disabled={!ready}
          onClick={() => {
            if (reason) finish(() => onConfirm(reason));
          }}
          data-testid="lead-close-submit"
        >
          {translate(label)}
        </MuiButton>
      </DialogActions>
    </Dialog>
  );
}

/**
 * Making a customer of a prospect (a lead without a customer), POST /api/leads/{id}/convert:
 * asked before an appointment is booked (`book`: an appointment needs a customer) or on its own
 * (`convert`); hands the new customer's id on.
 */
export function ConvertDialog({
  lead,
  name,
  mode = 'book',
  onCancel,
  onConverted,
}: {
  lead: Lead | null;
  name: string;
  mode?: 'book' | 'convert';
  onCancel: () => void;
  onConverted: (customerId: number, lead: Lead) => void;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const convert = async () => {
    if (!lead) return;
    setBusy(true);
    try {
      const answer = await api.json<{ data: { customerId: number; lead: Lead } }>(
        'POST',
        `leads/${lead.id}/convert`,
      );
      notify('app.leads.convert.done', { type: 'success' });
      onConverted(answer.data.customerId, answer.data.lead);
    } catch (error) {
      notify(messageOf(error), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog
      open={lead !== null}
      onClose={busy ? undefined : onCancel}
      maxWidth="xs"
      fullWidth
      aria-labelledby="lead-convert-title"
      data-testid="lead-convert-dialog"
    >
      <DialogTitle id="lead-convert-title">{translate('app.leads.convert.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText>
          {translate(mode === 'book' ? 'app.leads.convert.first' : 'app.leads.convert.question', {
            name,
          })}
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <MuiButton onClick={onCancel} disabled={busy}>
          {translate('ra.action.cancel')}
        </MuiButton>
        <MuiButton
          variant="contained"
          onClick={() => void convert()}
          disabled={busy}
          data-testid="lead-convert-submit"
        >
          {translate(mode === 'book' ? 'app.leads.convert.andBook' : 'app.leads.convert.action')}
        </MuiButton>
      </DialogActions>
    </Dialog>
  );
}
