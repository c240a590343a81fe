/**
 * The question after a version conflict: someone else saved the record while the user was editing
 * it. It lists the fields where the user's values and the saved record differ (shown with the same
 * fields as the show views, so references and enums read as names) and offers Reload (discard my
 * changes) or Overwrite (save my values over the current version).
 */
import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import {
  RecordContextProvider,
  type RaRecord,
  useResourceContext,
  useTranslate,
} from 'react-admin';
import type { FieldModel, ResourceModel } from '../../schema/model.ts';
import { fieldLabelKey, objectLabelKey } from '../../schema/labels.ts';
import { fieldFor } from '../fields.tsx';
import { getModel, hasModel } from '../registry.ts';
import { differingFields } from './differences.ts';
import type { Conflict } from './useConflictAwareSave.ts';

export interface ConflictDialogProps {
  open: boolean;
  conflict: Conflict | null;
  onReload: () => void;
  onOverwrite: () => void;
  onClose: () => void;
}

/** One value of the comparison, shown by the field the show views use for it. */
function Value({
  model,
  field,
  record,
}: {
  model: ResourceModel;
  field: FieldModel;
  record: Record<string, unknown>;
}) {
  return (
    <RecordContextProvider value={record as RaRecord}>
      {fieldFor(model, field, { inList: true }) ?? fieldFor(model, field)}
    </RecordContextProvider>
  );
}

function Differences({ model, conflict }: { model: ResourceModel; conflict: Conflict }) {
  const translate = useTranslate();
  const fields = differingFields(model, conflict.mine, conflict.current);
  if (fields.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary">
        {translate('app.conflict.noDifferences')}
      </Typography>
    );
  }
  return (
    <Table size="small" aria-label={translate('app.conflict.differences')}>
      <TableHead>
        <TableRow>
          <TableCell>{translate('app.conflict.field')}</TableCell>
          <TableCell>{translate('app.conflict.theirs')}</TableCell>
          <TableCell>{translate('app.conflict.yours')}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {fields.map((field) => (
          <TableRow key={field.name} data-field={field.name}>
            <TableCell component="th" scope="row">
              {translate(
                field.kind === 'object'
                  ? objectLabelKey(model.name, field.name)
                  : fieldLabelKey(model.name, field.name),
              )}
            </TableCell>
            <TableCell data-value="theirs">
              <Value model={model} field={field} record={conflict.current} />
            </TableCell>
            <TableCell data-value="yours">
              <Value model={model} field={field} record={conflict.mine} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

export function ConflictDialog({
  open,
  conflict,
  onReload,
  onOverwrite,
  onClose,
}: ConflictDialogProps) {
  const translate = useTranslate();
  const resource = useResourceContext();
  const model = resource && hasModel(resource) ? getModel(resource) : undefined;
  return (
    <Dialog
      open={open}
      onClose={onClose}
      maxWidth="md"
      fullWidth
      aria-labelledby="conflict-title"
      aria-describedby="conflict-message"
      data-testid="conflict-dialog"
    >
      <DialogTitle id="conflict-title">{translate('app.conflict.title')}</DialogTitle>
      <DialogContent>
        <Alert severity="warning" id="conflict-message" sx={{ mb: 2 }}>
          {translate('app.conflict.message')}
        </Alert>
        <Typography variant="body2" sx={{ mb: 2 }}>
          {translate('app.conflict.choice')}
        </Typography>
        {model && conflict ? <Differences model={model} conflict={conflict} /> : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onReload} data-testid="conflict-reload">
          {translate('app.conflict.reload')}
        </Button>
        <Button variant="contained" onClick={onOverwrite} data-testid="conflict-overwrite">
          {translate('app.conflict.overwrite')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
