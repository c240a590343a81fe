/**
 * "Record a call" on a lead: what the call came to (reached, not reached, voicemail, busy, wrong
 * number, call back later) and a note → POST /api/leads/{id}/call-attempts. The server may move
 * the lead to another column (src/schema/leads.ts columnAfterCall); the message says where.
 */
import PhoneInTalkIcon from '@mui/icons-material/PhoneInTalk';
import {
  Button as MuiButton,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  FormLabel,
  Radio,
  RadioGroup,
  TextField,
} from '@mui/material';
import { useState } from 'react';
import { useNotify, useRefresh, useTranslate } from 'react-admin';
import { api, fieldErrorsOf, messageOf } from '../../dataProvider/apiClient.ts';
import { enumKey } from '../../schema/labels.ts';
import { LEAD_CALL_OUTCOMES, type LeadCallOutcome } from '../../schema/leads.ts';
import type { Lead } from './board.ts';

const NOTE_MAX = 1000;

export function CallAttemptButton({ lead }: { lead: Lead }) {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const [open, setOpen] = useState(false);
  const [outcome, setOutcome] = useState<LeadCallOutcome | null>(null);
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [noteError, setNoteError] = useState<string | undefined>();
  const close = () => {
    setOpen(false);
    setOutcome(null);
    setNote('');
    setNoteError(undefined);
  };
  const save = async () => {
    if (!outcome) return;
    setBusy(true);
    try {
      const answer = await api.json<{ data: Lead }>('POST', `leads/${lead.id}/call-attempts`, {
        body: { outcome, note: note.trim() || undefined },
      });
      const moved = answer.data.status !== lead.status;
      notify(moved ? 'app.leads.call.savedMoved' : 'app.leads.call.saved', {
        type: 'success',
        messageArgs: { column: translate(enumKey('leadStatus', answer.data.status)) },
      });
      close();
      refresh();
    } catch (error) {
      const errors = fieldErrorsOf(error);
      if (errors.note) setNoteError(translate(errors.note, { _: errors.note }));
      else notify(messageOf(error), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <MuiButton
        size="small"
        variant="contained"
        startIcon={<PhoneInTalkIcon />}
        onClick={() => setOpen(true)}
        data-testid="lead-record-call"
      >
        {translate('app.leads.call.record')}
      </MuiButton>
      <Dialog
        open={open}
        onClose={busy ? undefined : close}
        maxWidth="xs"
        fullWidth
        aria-labelledby="lead-call-title"
        data-testid="lead-call-dialog"
      >
        <DialogTitle id="lead-call-title">{translate('app.leads.call.title')}</DialogTitle>
        <DialogContent>
          <FormLabel id="lead-call-outcome" sx={{ typography: 'body2' }}>
            {translate('app.leads.call.outcome')}
          </FormLabel>
          <RadioGroup
            aria-labelledby="lead-call-outcome"
            value={outcome ?? ''}
            onChange={(event) => setOutcome(event.target.value as LeadCallOutcome)}
            sx={{ mb: 1 }}
          >
            {LEAD_CALL_OUTCOMES.map((value) => (
              <FormControlLabel
                key={value}
                value={value}
                control={<Radio size="small" />}
                label={translate(enumKey('leadCallOutcome', value))}
                data-testid={`lead-call-${value}`}
              />
            ))}
          </RadioGroup>
          <TextField
            label={translate('app.leads.call.note')}
            value={note}
            onChange={(event) => {
              setNote(event.target.value);
              setNoteError(undefined);
            }}
            multiline
            minRows={2}
            fullWidth
            error={Boolean(noteError)}
            helperText={noteError ?? `${note.length} / ${NOTE_MAX}`}
            slotProps={{ htmlInput: { maxLength: NOTE_MAX, 'data-testid': 'lead-call-note' } }}
          />
        </DialogContent>
        <DialogActions>
          <MuiButton onClick={close} disabled={busy}>
            {translate('ra.action.cancel')}
          </MuiButton>
          <MuiButton
            variant="contained"
            disabled={!outcome || busy}
            onClick={() => void save()}
            data-testid="lead-call-save"
          >
            {translate('app.leads.call.save')}
          </MuiButton>
        </DialogActions>
      </Dialog>
    </>
  );
}
