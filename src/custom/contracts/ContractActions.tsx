/**
 * Ending a contract, on its page (and deleting it on the edit page too):
 * - **Delete** (only with `delete-contracts`, the schema's rule: ADMIN, BACKOFFICE) asks first; the
 *   server refuses a contract that still has documents (409 `stillUsed` naming `documents`), which
 *   the dialog says in words (move or delete the documents, or cancel the contract instead).
 * - **Cancel contract** (whoever may change contracts, so also those who may not delete them: a
 *   consultant ends its customers' contracts this way) asks the end date and the ending status of
 *   the schema (terminated: ended by notice; cancelled: withdrawn or cancelled before its start) and
 *   saves them in one update based on the contract's version. The server checks it as any write
 *   (end not before start: 422 beside the date); someone else's save in between answers 409 and
 *   asks Reload or Overwrite (ConflictGuard), like every edit form.
 */
import DeleteIcon from '@mui/icons-material/Delete';
import EventBusyIcon from '@mui/icons-material/EventBusy';
import {
  Alert,
  Button as MuiButton,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
} from '@mui/material';
import { useState } from 'react';
import {
  Button,
  EditBase,
  RadioButtonGroupInput,
  required,
  SaveButton,
  Toolbar,
  useDelete,
  useNotify,
  useRecordContext,
  useTranslate,
  type Validator,
} from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { messageOf, statusOf } from '../../dataProvider/apiClient.ts';
import { LocalizedDateInput } from '../../i18n/components.tsx';
import { ConflictGuard } from '../../resources/conflict/ConflictGuard.tsx';
import { SimpleForm, withValidator } from '../../resources/forms/forms.tsx';
import { enumKey, fieldLabelKey } from '../../schema/labels.ts';
import { useArea } from '../../shell/area.ts';
import { contractHref } from '../../shell/paths.ts';
import {
  canDelete,
  canUpdate,
  type Contract,
  contractTypeOf,
  ENDING_STATUSES,
  isCancellable,
  localToday,
} from './model.ts';

/**
 * What the dialog says when the server refuses the delete: a contract with documents in words of
 * its own; another record still naming it (e.g. a reminder) with the server's message.
 */
export function deleteFailureMessage(error: unknown): string {
  const users = (error as { body?: { args?: { users?: unknown } } } | null)?.body?.args?.users;
  if (statusOf(error) === 409 && typeof users === 'string' && users.includes('documents'))
    return 'app.contracts.delete.hasDocuments';
  return messageOf(error);
}

/** Delete, with a confirmation; shown only to those who may delete contracts. */
export function DeleteContractButton() {
  const record = useRecordContext<Contract>();
  const translate = useTranslate();
  const notify = useNotify();
  const navigate = useNavigate();
  const area = useArea();
  const [open, setOpen] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [remove, { isPending }] = useDelete<Contract>();
  if (!record || !canDelete()) return null;
  const close = () => {
    if (isPending) return;
    setOpen(false);
    setFailure(null);
  };
  const confirm = () => {
    setFailure(null);
    void remove(
      'contracts',
      { id: record.id, previousData: record },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          setOpen(false);
          notify('app.contracts.delete.done', { type: 'info' });
          navigate(contractHref(area, contractTypeOf(record), 'list') ?? `/${area}`);
        },
        onError: (error) => setFailure(deleteFailureMessage(error)),
      },
    );
  };
  const name = record.contractNumber ?? `#${record.id}`;
  return (
    <>
      <Button
        label="ra.action.delete"
        color="error"
        onClick={() => setOpen(true)}
        data-testid="contract-delete"
      >
        <DeleteIcon />
      </Button>
      <Dialog
        open={open}
        onClose={close}
        aria-labelledby="contract-delete-title"
        aria-describedby="contract-delete-text"
        data-testid="contract-delete-dialog"
      >
        <DialogTitle id="contract-delete-title">
          {translate('app.contracts.delete.title', { name })}
        </DialogTitle>
        <DialogContent>
          <DialogContentText id="contract-delete-text">
            {translate('app.contracts.delete.content')}
          </DialogContentText>
          {failure ? (
            <Alert severity="error" sx={{ mt: 2 }} data-testid="contract-delete-error">
              {translate(failure)}
            </Alert>
          ) : null}
        </DialogContent>
        <DialogActions>
          <MuiButton onClick={close} disabled={isPending}>
            {translate('ra.action.cancel')}
          </MuiButton>
          <MuiButton
            variant="contained"
            color="error"
            onClick={confirm}
            disabled={isPending || failure !== null}
            startIcon={<DeleteIcon />}
            data-testid="contract-delete-confirm"
          >
            {translate('ra.action.delete')}
          </MuiButton>
        </DialogActions>
      </Dialog>
    </>
  );
}

const notBeforeStart: Validator = (value: unknown, values: Record<string, unknown>) =>
  typeof value === 'string' && typeof values.startDate === 'string' && value < values.startDate
    ? 'app.contracts.validation.endBeforeStart'
    : undefined;

/**
 * The one update the dialog sends: the ending status and the end date, with the version the
 * dialog was opened on (an overwrite after a conflict: the current one) and the three fields a PUT
 * must name; the server keeps every other field as it is.
 */
export function cancellationOf(values: Record<string, unknown>): Record<string, unknown> {
  return {
    customerId: values.customerId,
    contractType: values.contractType,
    productId: values.productId,
    status: values.status,
    endDate: values.endDate,
    version: values.version,
  };
}

/** The dialog's form, from the contract as it is now (also after a reload). */
function CancelForm({ onClose }: { onClose: () => void }) {
  const record = useRecordContext<Contract>();
  const translate = useTranslate();
  if (!record) return null;
  const start = {
    ...record,
    status: isCancellable(record) ? 'terminated' : record.status,
    endDate: record.endDate ?? localToday(),
  };
  return (
    <SimpleForm
      record={start}
      warnWhenUnsavedChanges={false}
      sx={{ px: 0 }}
      toolbar={
        <Toolbar sx={{ justifyContent: 'flex-end', gap: 1, px: 0, bgcolor: 'transparent' }}>
          <MuiButton onClick={onClose}>{translate('ra.action.close')}</MuiButton>
          <SaveButton
            label="app.contracts.cancel.confirm"
            icon={<EventBusyIcon />}
            alwaysEnable
            data-testid="contract-cancel-save"
          />
        </Toolbar>
      }
    >
      <DialogContentText sx={{ mb: 2 }}>
        {translate('app.contracts.cancel.explanation')}
      </DialogContentText>
      {withValidator(
        <LocalizedDateInput
          source="endDate"
          label={fieldLabelKey('contracts', 'endDate')}
          validate={[required()]}
        />,
        notBeforeStart,
      )}
      <RadioButtonGroupInput
        source="status"
        label={fieldLabelKey('contracts', 'status')}
        choices={ENDING_STATUSES.map((status) => ({
          id: status,
          name: enumKey('contractStatus', status),
        }))}
        validate={[required()]}
        helperText="app.contracts.cancel.statusHelp"
      />
    </SimpleForm>
  );
}

/** Cancel contract: the end date and ending status in a small dialog, one versioned update. */
export function CancelContractButton() {
  const record = useRecordContext<Contract>();
  const translate = useTranslate();
  const notify = useNotify();
  const [open, setOpen] = useState(false);
  if (!record || !canUpdate() || !isCancellable(record)) return null;
  return (
    <>
      <Button
        label="app.contracts.cancel.action"
        onClick={() => setOpen(true)}
        data-testid="contract-cancel"
      >
        <EventBusyIcon />
      </Button>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        fullWidth
        maxWidth="sm"
        aria-labelledby="contract-cancel-title"
        data-testid="contract-cancel-dialog"
      >
        <DialogTitle id="contract-cancel-title">
          {translate('app.contracts.cancel.title', {
            name: record.contractNumber ?? `#${record.id}`,
          })}
        </DialogTitle>
        <DialogContent sx={{ pb: 0 }}>
          {open ? (
            <EditBase
              resource="contracts"
              id={record.id}
              mutationMode="pessimistic"
              redirect={false}
              transform={cancellationOf}
              mutationOptions={{
                onSuccess: () => {
                  setOpen(false);
                  notify('app.contracts.cancel.done', { type: 'info' });
                },
              }}
            >
              <ConflictGuard>
                <CancelForm onClose={() => setOpen(false)} />
              </ConflictGuard>
            </EditBase>
          ) : null}
        </DialogContent>
      </Dialog>
    </>
  );
}
