/**
 * What may be done with one offer (./model.ts offerActionsOf): mark it sent, accept it (a dialog
 * for the closure's contract number, signing and start dates; the closure is made in the same
 * step and opened), decline it (a dialog for the reason and whether to record a non-closure),
 * revise an expired one (back to draft), and download it as PDF in the customer's language or the
 * user's. The server's refusal (409: the offer moved on meanwhile, 422 naming a field of the
 * closure) shows in the user's language; afterwards the page is fetched again.
 */
import CancelIcon from '@mui/icons-material/Cancel';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import EditNoteIcon from '@mui/icons-material/EditNote';
import PictureAsPdfIcon from '@mui/icons-material/PictureAsPdf';
import SendIcon from '@mui/icons-material/Send';
import {
  Alert,
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
  BooleanInput,
  Button,
  Form,
  required,
  TextInput,
  useLocale,
  useNotify,
  useRefresh,
  useTranslate,
} from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { api, fieldErrorsOf, messageOf } from '../../dataProvider/apiClient.ts';
import { LocalizedDateInput } from '../../i18n/components.tsx';
import { EnumInput } from '../../resources/inputs.tsx';
import { getModel } from '../../resources/registry.ts';
import { swissToday } from '../../schema/swiss-time.ts';
import { contractHref } from '../../shell/paths.ts';
import { useArea } from '../../shell/area.ts';
import {
  type Offer,
  type OfferAction,
  offerActionsOf,
  offerPdfName,
  offerPdfPath,
} from './model.ts';

const t = (key: string) => `app.offers.actions.${key}`;

function useOfferCall() {
  const notify = useNotify();
  const refresh = useRefresh();
  const [busy, setBusy] = useState(false);
  const call = async <T,>(path: string, body: Record<string, unknown>, done: string) => {
    setBusy(true);
    try {
      const answer = await api.json<T>('POST', path, { body });
      notify(done, { type: 'success' });
      refresh();
      return answer;
    } catch (error) {
      refresh();
      throw error;
    } finally {
      setBusy(false);
    }
  };
  return { call, busy, notify };
}

function AcceptDialog({ offer, onClose }: { offer: Offer; onClose: () => void }) {
  const translate = useTranslate();
  const navigate = useNavigate();
  const area = useArea();
  const { call, busy } = useOfferCall();
  const [error, setError] = useState<string>();
  const submit = async (values: Record<string, unknown>) => {
    setError(undefined);
    try {
      const answer = await call<{ contract: { id: number } | null }>(
        `offers/${offer.id}/accept`,
        {
          version: offer.version,
          contract_number: values.contractNumber || undefined,
          signing_date: values.signingDate || undefined,
          start_date: values.startDate || undefined,
        },
        t('accepted'),
      );
      onClose();
      const to = answer.contract ? contractHref(area, 'closure', 'show', answer.contract.id) : null;
      if (to) navigate(to);
      return undefined;
    } catch (caught) {
      const fields = fieldErrorsOf(caught);
      const named: Record<string, unknown> = {};
      if (fields.contract_number) named.contractNumber = fields.contract_number;
      if (fields.signing_date) named.signingDate = fields.signing_date;
      if (fields.start_date) named.startDate = fields.start_date;
      if (Object.keys(named).length === 0) setError(translate(messageOf(caught)));
      return named;
    }
  };
  return (
    <Dialog
      open
      onClose={busy ? undefined : onClose}
      maxWidth="xs"
      fullWidth
      data-testid="offer-accept-dialog"
    >
      <Form
        defaultValues={{ signingDate: swissToday(), startDate: offer.startDate ?? null }}
        onSubmit={submit}
      >
        <DialogTitle>{translate(t('acceptTitle'))}</DialogTitle>
        <DialogContent>
          <DialogContentText variant="body2" sx={{ mb: 1 }}>
            {translate(t('acceptIntro'))}
          </DialogContentText>
          <TextInput
            source="contractNumber"
            label="resources.contracts.fields.contractNumber"
            fullWidth
          />
          <LocalizedDateInput
            source="signingDate"
            label="resources.contracts.fields.signingDate"
            validate={required()}
            fullWidth
          />
          <LocalizedDateInput
            source="startDate"
            label="resources.contracts.fields.startDate"
            fullWidth
          />
          {error && (
            <Alert severity="error" data-testid="offer-action-error">
              {error}
            </Alert>
          )}
        </DialogContent>
        <DialogActions>
          <MuiButton onClick={onClose} disabled={busy}>
            {translate('ra.action.cancel')}
          </MuiButton>
          <MuiButton
            type="submit"
            variant="contained"
            disabled={busy}
            data-testid="offer-accept-confirm"
          >
            {translate(t('accept'))}
          </MuiButton>
        </DialogActions>
      </Form>
    </Dialog>
  );
}

function DeclineDialog({ offer, onClose }: { offer: Offer; onClose: () => void }) {
  const translate = useTranslate();
  const { call, busy } = useOfferCall();
  const [error, setError] = useState<string>();
  const reasonSchema = getModel('offers').fields.find((field) => field.name === 'declineReason')!;
  const submit = async (values: Record<string, unknown>) => {
    setError(undefined);
    try {
      await call(
        `offers/${offer.id}/decline`,
        { version: offer.version, reason: values.reason, non_closure: values.nonClosure === true },
        t('declined'),
      );
      onClose();
      return undefined;
    } catch (caught) {
      const fields = fieldErrorsOf(caught);
      if (fields.reason) return { reason: fields.reason };
      setError(translate(messageOf(caught)));
      return undefined;
    }
  };
  return (
    <Dialog
      open
      onClose={busy ? undefined : onClose}
      maxWidth="xs"
      fullWidth
      data-testid="offer-decline-dialog"
    >
      <Form defaultValues={{ nonClosure: true }} onSubmit={submit}>
        <DialogTitle>{translate(t('declineTitle'))}</DialogTitle>
        <DialogContent>
          <EnumInput
            source="reason"
            label="resources.offers.fields.declineReason"
            schema={reasonSchema.schema}
            enumName="nonClosureReason"
            validate={[required()]}
          />
          <BooleanInput source="nonClosure" label={t('recordNonClosure')} />
          {error && (
            <Alert severity="error" data-testid="offer-action-error">
              {error}
            </Alert>
          )}
        </DialogContent>
        <DialogActions>
          <MuiButton onClick={onClose} disabled={busy}>
            {translate('ra.action.cancel')}
          </MuiButton>
          <MuiButton
            type="submit"
            variant="contained"
            color="error"
            disabled={busy}
            data-testid="offer-decline-confirm"
          >
            {translate(t('decline'))}
          </MuiButton>
        </DialogActions>
      </Form>
    </Dialog>
  );
}

const ICONS: Record<OfferAction, typeof SendIcon> = {
  send: SendIcon,
  accept: CheckCircleIcon,
  decline: CancelIcon,
  revise: EditNoteIcon,
};

export function OfferActions({ offer }: { offer: Offer }) {
  const locale = useLocale();
  const notify = useNotify();
  const refresh = useRefresh();
  const [open, setOpen] = useState<'accept' | 'decline'>();
  const [busy, setBusy] = useState(false);

  const patchStatus = async (status: 'sent' | 'draft', done: string) => {
    setBusy(true);
    try {
      await api.json('PATCH', `offers/${offer.id}`, { body: { status, version: offer.version } });
      notify(done, { type: 'success' });
    } catch (error) {
      notify(messageOf(error), { type: 'error' });
    } finally {
      setBusy(false);
      refresh();
    }
  };
  const pdf = async () => {
    setBusy(true);
    try {
      await api.download(offerPdfPath(offer.id, locale), offerPdfName(offer.id));
    } catch (error) {
      notify(messageOf(error), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  const run = (action: OfferAction) => {
    if (action === 'send') void patchStatus('sent', t('sentDone'));
    else if (action === 'revise') void patchStatus('draft', t('revised'));
    else setOpen(action);
  };
  return (
    <Stack direction="row" sx={{ gap: 1, flexWrap: 'wrap' }} data-testid="offer-actions">
      {offerActionsOf(offer.status).map((action) => {
        const Icon = ICONS[action];
        return (
          <Button
            key={action}
            label={t(action)}
            onClick={() => run(action)}
            disabled={busy}
            variant={action === 'accept' ? 'contained' : 'outlined'}
            color={action === 'decline' ? 'error' : 'primary'}
            data-testid={`offer-${action}`}
          >
            <Icon />
          </Button>
        );
      })}
      <Button label={t('pdf')} onClick={() => void pdf()} disabled={busy} data-testid="offer-pdf">
        <PictureAsPdfIcon />
      </Button>
      {open === 'accept' && <AcceptDialog offer={offer} onClose={() => setOpen(undefined)} />}
      {open === 'decline' && <DeclineDialog offer={offer} onClose={() => setOpen(undefined)} />}
    </Stack>
  );
}
