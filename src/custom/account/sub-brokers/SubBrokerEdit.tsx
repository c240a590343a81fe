/**
 * sub-brokers/{id}/edit: the sub-broker's own fields (generic inputs from its schema) and, below,
 * its payout rules (sub-broker-rules with organizationId = this sub-broker): listed, added and
 * changed in a dialog with the rule schema's inputs, removed with confirmation. Both edits ask
 * Reload or Overwrite on a version conflict (ConflictGuard).
 */
import AddIcon from '@mui/icons-material/Add';
import { Box, Dialog, DialogContent, DialogTitle, Typography } from '@mui/material';
import { useState } from 'react';
import {
  Button,
  CreateBase,
  Datagrid,
  DeleteButton,
  Edit,
  EditBase,
  type Identifier,
  ReferenceManyField,
  SaveButton,
  Toolbar,
  useNotify,
  useRecordContext,
  useRefresh,
  useTranslate,
} from 'react-admin';
import { fieldFor, listFields } from '../../../resources/fields.tsx';
import { ConflictGuard } from '../../../resources/conflict/ConflictGuard.tsx';
import { SimpleForm } from '../../../resources/forms/forms.tsx';
import { inputFor } from '../../../resources/inputs.tsx';
import type { ApiRecord } from '../../../resources/records.ts';
import { getModel } from '../../../resources/registry.ts';

const RULES = 'sub-broker-rules';

function RuleInputs() {
  const model = getModel(RULES);
  return (
    <>
      {model.fields
        .filter((field) => field.name !== 'organizationId')
        .map((field) => inputFor(model, field))}
    </>
  );
}

function RuleDialog({
  subBrokerId,
  ruleId,
  onClose,
}: {
  subBrokerId: Identifier;
  /** undefined: a new rule. */
  ruleId?: Identifier;
  onClose: () => void;
}) {
  const translate = useTranslate();
  const refresh = useRefresh();
  const notify = useNotify();
  const done = () => {
    notify('app.settings.saved', { type: 'success' });
    refresh();
    onClose();
  };
  // In a modal dialog: the page's form keeps the unsaved-changes question (./forms.tsx).
  const form = (
    <SimpleForm
      warnWhenUnsavedChanges={false}
      toolbar={
        <Toolbar>
          <SaveButton />
        </Toolbar>
      }
    >
      <RuleInputs />
    </SimpleForm>
  );
  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth>
      <DialogTitle>
        {translate(ruleId ? 'app.subBrokers.editRule' : 'app.subBrokers.addRule')}
      </DialogTitle>
      <DialogContent>
        {ruleId ? (
          <EditBase
            resource={RULES}
            id={ruleId}
            mutationMode="pessimistic"
            mutationOptions={{ onSuccess: done }}
            redirect={false}
          >
            <ConflictGuard>{form}</ConflictGuard>
          </EditBase>
        ) : (
          <CreateBase
            resource={RULES}
            record={{ organizationId: subBrokerId, isActive: true }}
            transform={(data: Record<string, unknown>) => ({
              ...data,
              organizationId: subBrokerId,
            })}
            mutationOptions={{ onSuccess: done }}
            redirect={false}
          >
            {form}
          </CreateBase>
        )}
      </DialogContent>
    </Dialog>
  );
}

function Rules() {
  const record = useRecordContext<ApiRecord<'sub-brokers'>>();
  const translate = useTranslate();
  const [editing, setEditing] = useState<Identifier | 'new' | null>(null);
  const model = getModel(RULES);
  if (!record) return null;
  return (
    <Box
      component="section"
      sx={{ p: 2 }}
      aria-label={translate('resources.sub-broker-rules.name_other')}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between' }}>
        <Typography variant="h6" component="h2">
          {translate('resources.sub-broker-rules.name_other')}
        </Typography>
        <Button label="app.subBrokers.addRule" onClick={() => setEditing('new')}>
          <AddIcon />
        </Button>
      </Box>
      <ReferenceManyField
        reference={RULES}
        target="organizationId"
        sort={{ field: 'dateFrom', order: 'DESC' }}
      >
        <Datagrid
          rowClick={(id) => {
            setEditing(id);
            return false;
          }}
          bulkActionButtons={false}
          empty={
            <Typography color="text.secondary">{translate('app.subBrokers.noRules')}</Typography>
          }
        >
          {listFields(model)
            .filter((field) => field.name !== 'organizationId')
            .map((field) => fieldFor(model, field, { inList: true }))}
          <DeleteButton mutationMode="pessimistic" redirect={false} />
        </Datagrid>
      </ReferenceManyField>
      {editing !== null ? (
        <RuleDialog
          subBrokerId={record.id}
          ruleId={editing === 'new' ? undefined : editing}
          onClose={() => setEditing(null)}
        />
      ) : null}
    </Box>
  );
}

export default function SubBrokerEdit() {
  const model = getModel('sub-brokers');
  return (
    <Edit mutationMode="pessimistic" actions={false}>
      <ConflictGuard>
        <SimpleForm
          toolbar={
            <Toolbar sx={{ justifyContent: 'space-between' }}>
              <SaveButton />
              <DeleteButton mutationMode="pessimistic" />
            </Toolbar>
          }
        >
          {model.fields.map((field) => inputFor(model, field))}
        </SimpleForm>
      </ConflictGuard>
      <Rules />
    </Edit>
  );
}
