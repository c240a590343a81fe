/**
 * A payout's note (schemas/payouts.schema.json `note`, up to 2,000 characters): shown on the
 * payout's page, and changeable while the payout is new — the only change the server takes
 * (server/commissions/payouts.ts; 409 `payoutFrozen` once approved). Saved with the version the
 * page shows: a payout changed meanwhile is refused with the server's reason, and the page reloads.
 */
import EditNoteIcon from '@mui/icons-material/EditNote';
import {
  Box,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  TextField,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { Button, useNotify, useRefresh, useTranslate } from 'react-admin';
import { api, messageOf } from '../../dataProvider/apiClient.ts';
import { fieldLabelKey } from '../../schema/labels.ts';
import type { Payout } from './model.ts';

const NOTE_LIMIT = 2000;

export function PayoutNote({ payout }: { payout: Payout }) {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [saving, setSaving] = useState(false);
  const editable = payout.status === 'new';
  const label = translate(fieldLabelKey('payouts', 'note'));
  if (!payout.note && !editable) return null;

  const save = async () => {
    setSaving(true);
    try {
      await api.json('PATCH', `payouts/${payout.id}`, {
        body: { note: text.trim() === '' ? null : text, version: payout.version ?? undefined },
      });
      notify('app.payouts.page.noteSaved', { type: 'success' });
      setOpen(false);
    } catch (error) {
      notify(messageOf(error), { type: 'error' });
    } finally {
      setSaving(false);
      refresh();
    }
  };

  return (
    <Box sx={{ mt: 2 }} data-testid="payout-note">
      <Typography variant="caption" color="text.secondary" component="div">
        {label}
      </Typography>
      {payout.note ? (
        <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap' }}>
          {payout.note}
        </Typography>
      ) : null}
      {editable ? (
        <Button
          label={payout.note ? 'app.payouts.page.editNote' : 'app.payouts.page.addNote'}
          onClick={() => {
            setText(payout.note ?? '');
            setOpen(true);
          }}
          data-testid="payout-note-edit"
        >
          <EditNoteIcon />
        </Button>
      ) : null}
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        fullWidth
        maxWidth="sm"
        aria-labelledby="payout-note-title"
      >
        <DialogTitle id="payout-note-title">{label}</DialogTitle>
        <DialogContent>
          <TextField
            autoFocus
            multiline
            minRows={3}
            fullWidth
            margin="dense"
            label={label}
            value={text}
            onChange={(event) => setText(event.target.value)}
            error={text.length > NOTE_LIMIT}
            helperText={`${text.length} / ${NOTE_LIMIT}`}
            slotProps={{ htmlInput: { 'data-testid': 'payout-note-input' } }}
          />
        </DialogContent>
        <DialogActions>
          <Button label="ra.action.cancel" onClick={() => setOpen(false)} />
          <Button
            label="ra.action.save"
            variant="contained"
            disabled={saving || text.length > NOTE_LIMIT}
            onClick={() => void save()}
            data-testid="payout-note-save"
          />
        </DialogActions>
      </Dialog>
    </Box>
  );
}
