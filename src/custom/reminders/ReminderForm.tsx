/**
 * Create and edit of a reminder (spec §2 reminders/new, reminders/{id}/edit): subject, due date,
 * time, category, description, assigned to (the signed-in user by default; a consultant's are
 * always their own, the server sees to it), customer, and one of that customer's contracts
 * (optional). `?clientId=` fills in the customer (the customer page's "add reminder"). The status
 * is not edited here: it moves with the one-click actions (resolve, cancel, reopen). The edit is
 * pessimistic with the version conflict question (ConflictGuard); both land on the show page.
 */
import VisibilityIcon from '@mui/icons-material/Visibility';
import { Box } from '@mui/material';
import { useEffect, useRef } from 'react';
import {
  Button,
  Create,
  Edit,
  SaveButton,
  SelectInput,
  Toolbar,
  TopToolbar,
  useGetList,
  useLocale,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { useFormContext, useWatch } from 'react-hook-form';
import { useLocation, useNavigate } from 'react-router-dom';
import { getStoredUser } from '../../auth/session.ts';
import { formatDate } from '../../i18n/format.ts';
import { ConflictGuard } from '../../resources/conflict/ConflictGuard.tsx';
import { SimpleForm } from '../../resources/forms/forms.tsx';
import { inputFor } from '../../resources/inputs.tsx';
import type { ApiRecord } from '../../resources/records.ts';
import { getModel } from '../../resources/registry.ts';
import { fieldLabelKey } from '../../schema/labels.ts';
import { resourceHref, resourceRoute } from '../../shell/paths.ts';
import { useArea } from '../../shell/area.ts';
import { clientIdOf, type Reminder, swissToday } from './model.ts';

const GRID = {
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fill, minmax(240px, 1fr))',
  columnGap: 2,
  width: '100%',
} as const;

function input(name: string) {
  const model = getModel('reminders');
  const field = model.fields.find((candidate) => candidate.name === name);
  return field ? inputFor(model, field) : null;
}

/** The customer's contracts (none chosen: no contract); a contract of another customer is dropped. */
function ContractInput() {
  const translate = useTranslate();
  const locale = useLocale();
  const clientId = useWatch({ name: 'clientId' }) as number | null | undefined;
  const { setValue, getValues } = useFormContext();
  const { data = [], isPending } = useGetList<ApiRecord<'contracts'>>(
    'contracts',
    {
      filter: { customerId: clientId },
      pagination: { page: 1, perPage: 200 },
      sort: { field: 'startDate', order: 'DESC' },
    },
    { enabled: Boolean(clientId) },
  );
  const previous = useRef(clientId);
  useEffect(() => {
    if (previous.current !== clientId && previous.current !== undefined) {
      if (getValues('contractId')) setValue('contractId', null, { shouldDirty: true });
    }
    previous.current = clientId;
  }, [clientId, getValues, setValue]);
  const choices = data.map((contract) => ({
    id: contract.id,
    name: [
      contract.contractNumber ?? `#${contract.id}`,
      contract.startDate ? formatDate(contract.startDate, locale) : '',
    ]
      .filter(Boolean)
      .join(' · '),
  }));
  return (
    <SelectInput
      source="contractId"
      label={fieldLabelKey('reminders', 'contractId')}
      choices={choices}
      isPending={Boolean(clientId) && isPending}
      disabled={!clientId}
      emptyText=""
      helperText={clientId ? undefined : translate('app.reminders.contractNeedsCustomer')}
    />
  );
}

function Fields() {
  const consultant = getStoredUser()?.routeSet !== 'admin';
  return (
    <>
      <Box sx={GRID}>
        {input('subject')}
        {input('category')}
        {input('dueDate')}
        {input('time')}
        {/* A consultant's reminders are their own (the server sets them so). */}
        {consultant ? null : input('userId')}
        {input('clientId')}
        <ContractInput />
      </Box>
      {input('description')}
    </>
  );
}

const toolbar = (
  <Toolbar>
    <SaveButton data-testid="reminder-save" />
  </Toolbar>
);

/** What is sent: no empty time or contract (the schema's formats refuse ''). */
function transform(data: Record<string, unknown>): Record<string, unknown> {
  const out = { ...data };
  for (const key of ['time', 'contractId', 'clientId', 'description']) {
    if (out[key] === '') out[key] = null;
  }
  return out;
}

export function ReminderCreate() {
  const area = useArea();
  const location = useLocation();
  const clientId = clientIdOf(location.search);
  return (
    <Create
      resource="reminders"
      transform={transform}
      redirect={(_resource, id) => resourceRoute(area, 'reminders', 'show', id) ?? 'reminders'}
    >
      <SimpleForm
        defaultValues={{
          status: 'open',
          category: 'call',
          dueDate: swissToday(),
          userId: getStoredUser()?.id,
          clientId,
        }}
        toolbar={toolbar}
      >
        <Fields />
      </SimpleForm>
    </Create>
  );
}

function EditActions() {
  const record = useRecordContext<Reminder>();
  const area = useArea();
  const navigate = useNavigate();
  const path = record ? resourceHref(area, 'reminders', 'show', record.id) : undefined;
  return (
    <TopToolbar>
      {path ? (
        <Button label="ra.action.show" onClick={() => navigate(path)}>
          <VisibilityIcon />
        </Button>
      ) : null}
    </TopToolbar>
  );
}

export default function ReminderEdit() {
  const area = useArea();
  return (
    <Edit
      resource="reminders"
      mutationMode="pessimistic"
      actions={<EditActions />}
      transform={transform}
      redirect={(_resource, id) => resourceRoute(area, 'reminders', 'show', id) ?? 'reminders'}
    >
      <ConflictGuard>
        <SimpleForm toolbar={toolbar}>
          <Fields />
        </SimpleForm>
      </ConflictGuard>
    </Edit>
  );
}
