/**
 * Admin merge: pick the duplicate of the customer shown; everything hanging off the duplicate moves
 * here, empty fields are filled from it, the duplicate is deleted (the server keeps an audit
 * record).
 */
import MergeIcon from '@mui/icons-material/MergeType';
import {
  Alert,
  Autocomplete,
  Button as MuiButton,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  TextField,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import {
  Button,
  useGetList,
  useNotify,
  useRecordContext,
  useRefresh,
  useTranslate,
} from 'react-admin';
import { api, messageOf } from '../../dataProvider/apiClient.ts';
import type { ApiRecord } from '../../resources/records.ts';
import { customerName } from './model.ts';

export function MergeButton() {
  const record = useRecordContext<ApiRecord<'customers'>>();
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState('');
  const [duplicate, setDuplicate] = useState<ApiRecord<'customers'> | null>(null);
  const [fillEmpty, setFillEmpty] = useState(true);
  const [busy, setBusy] = useState(false);
  const { data = [] } = useGetList(
    'customers',
    {
      filter: search ? { q: search } : {},
      pagination: { page: 1, perPage: 20 },
      sort: { field: 'lastName', order: 'ASC' },
    },
    { enabled: open },
  );
  if (!record) return null;
  const options = data.filter((candidate) => candidate.id !== record.id);

  const merge = async () => {
    if (!duplicate) return;
    setBusy(true);
    try {
      const answer = await api.json<{ moved: Record<string, number>; filled: string[] }>(
        'POST',
        `customers/${record.id}/merge`,
        { body: { duplicateId: duplicate.id, fillEmpty } },
      );
      const moved = Object.values(answer.moved).reduce((sum, count) => sum + count, 0);
      notify('app.customers.merge.done', {
        type: 'success',
        messageArgs: { moved, filled: answer.filled.length },
      });
      setOpen(false);
      setDuplicate(null);
      refresh();
    } catch (error) {
      notify(messageOf(error), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button label="app.customers.merge.action" onClick={() => setOpen(true)}>
        <MergeIcon />
      </Button>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        fullWidth
        maxWidth="sm"
        aria-labelledby="merge-title"
      >
        <DialogTitle id="merge-title">
          {translate('app.customers.merge.title', { name: customerName(record) })}
        </DialogTitle>
        <DialogContent>
          <Typography variant="body2" sx={{ mb: 2 }}>
            {translate('app.customers.merge.text')}
          </Typography>
          <Autocomplete
            options={options}
            value={duplicate}
            onChange={(_event, value) => setDuplicate(value)}
            onInputChange={(_event, value) => setSearch(value)}
            getOptionLabel={(option) =>
              `${customerName(option)} (#${option.id})${option.city ? `, ${option.city}` : ''}`
            }
            filterOptions={(items) => items}
            renderInput={(params) => (
              <TextField {...params} label={translate('app.customers.merge.duplicate')} />
            )}
          />
          <FormControlLabel
            sx={{ mt: 1 }}
            control={
              <Checkbox
                checked={fillEmpty}
                onChange={(event) => setFillEmpty(event.target.checked)}
              />
            }
            label={translate('app.customers.merge.fillEmpty')}
          />
          {duplicate ? (
            <Alert severity="warning" sx={{ mt: 1 }}>
              {translate('app.customers.merge.warning', { name: customerName(duplicate) })}
            </Alert>
          ) : null}
        </DialogContent>
        <DialogActions>
          <MuiButton onClick={() => setOpen(false)}>{translate('ra.action.cancel')}</MuiButton>
          <MuiButton
            variant="contained"
            color="warning"
            disabled={!duplicate || busy}
            onClick={merge}
          >
            {translate('app.customers.merge.confirm')}
          </MuiButton>
        </DialogActions>
      </Dialog>
    </>
  );
}
