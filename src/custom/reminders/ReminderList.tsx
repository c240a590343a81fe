/**
 * The reminders list (spec §2 reminders, §4 default filters): opens on the open reminders due up to
 * today, oldest due first, the signed-in user's own (mine / all toggle); the page size from the
 * `reminders` listing preference. Search (subject, description), filters by status, category,
 * customer, due-date range and — back office — the user. Columns: subject, due date with time
 * (overdue in red), category, customer, assigned to, status, and the one-click moves the user may
 * make (resolve, cancel, reopen).
 */
import { Box } from '@mui/material';
import { type ReactElement, useEffect } from 'react';
import {
  CreateButton,
  Datagrid,
  FilterButton,
  FunctionField,
  List,
  TextInput,
  TopToolbar,
  useListContext,
} from 'react-admin';
import { useFormContext } from 'react-hook-form';
import { getStoredUser, pageSizeFor } from '../../auth/session.ts';
import { ToggleFilter } from '../../components/ToggleFilter.tsx';
import { LocalizedDateInput } from '../../i18n/components.tsx';
import { fieldFor, prefetchMeta } from '../../resources/fields.tsx';
import { EnumInput, ReferencePicker } from '../../resources/inputs.tsx';
import { getModel } from '../../resources/registry.ts';
import { fieldLabelKey } from '../../schema/labels.ts';
import type { FieldModel } from '../../schema/model.ts';
import { resourceHref } from '../../shell/paths.ts';
import { useArea } from '../../shell/area.ts';
import { ReminderActions } from './ReminderActions.tsx';
import { defaultListFilter, type Reminder } from './model.ts';
import { DueCell, StatusChip } from './parts.tsx';

const model = () => getModel('reminders');
const fieldOf = (name: string): FieldModel => {
  const field = model().fields.find((candidate) => candidate.name === name);
  if (!field) throw new Error(`reminders has no field ${name}`);
  return field;
};
const label = (name: string) => fieldLabelKey('reminders', name);

/**
 * Puts the list's filters into the filter form for keys no input has registered yet: the mine / all
 * toggle (it only watches its key) and the date pickers (they load lazily). react-admin fills the
 * form only with the keys of inputs registered when the filters change, so the default filter
 * (mine, due up to today) applied to the list but the toggle showed "all" and the date was empty.
 */
function FormFromFilters({ keys }: { source: string; alwaysOn?: boolean; keys: string[] }) {
  const { filterValues } = useListContext();
  const { getValues, setValue } = useFormContext();
  useEffect(() => {
    for (const key of keys) {
      const value: unknown = (filterValues as Record<string, unknown>)[key];
      if (getValues(key) === undefined && value !== undefined && value !== '') {
        setValue(key, value);
      }
    }
  }, [filterValues, keys, getValues, setValue]);
  return null;
}

const SYNCED = ['userId', 'dueDate_gte', 'dueDate_lte'];

function filters(): ReactElement[] {
  const user = getStoredUser();
  const me = user?.id ?? 0;
  const enumFilter = (name: string) => (
    <EnumInput
      key={name}
      source={name}
      label={label(name)}
      schema={fieldOf(name).schema}
      enumName={fieldOf(name).enumName ?? ''}
    />
  );
  const out: ReactElement[] = [
    <TextInput key="q" source="q" label="ra.action.search" alwaysOn resettable />,
    <FormFromFilters key="sync" source="_sync" alwaysOn keys={SYNCED} />,
    <ToggleFilter
      key="userId"
      source="userId"
      alwaysOn
      keys={['userId']}
      choices={[
        { id: 'mine', label: 'app.reminders.mine', values: { userId: me } },
        { id: 'all', label: 'app.reminders.all', values: {} },
      ]}
      label="app.reminders.whose"
      testIdPrefix="reminders-whose-"
    />,
    enumFilter('status'),
    enumFilter('category'),
    <ReferencePicker
      key="clientId"
      source="clientId"
      reference="customers"
      label={label('clientId')}
    />,
    <LocalizedDateInput
      key="dueDate_gte"
      source="dueDate_gte"
      label="app.reminders.dueFrom"
      isFilter
    />,
    <LocalizedDateInput
      key="dueDate_lte"
      source="dueDate_lte"
      label="app.reminders.dueUntil"
      isFilter
    />,
  ];
  if (user?.routeSet === 'admin') {
    out.push(
      <ReferencePicker
        key="assignerId"
        source="assignerId"
        reference="users"
        label={label('assignerId')}
      />,
    );
  }
  return out;
}

function ListActions() {
  const area = useArea();
  return (
    <TopToolbar sx={{ alignItems: 'center', gap: 1 }}>
      <FilterButton />
      <CreateButton to={resourceHref(area, 'reminders', 'create')} data-testid="reminder-create" />
    </TopToolbar>
  );
}

export default function ReminderList() {
  const area = useArea();
  const user = getStoredUser();
  const columns = ['category', 'clientId', 'userId'].map(fieldOf);
  return (
    <List
      resource="reminders"
      filters={filters()}
      filterDefaultValues={defaultListFilter(user?.id)}
      sort={{ field: 'dueDate', order: 'ASC' }}
      perPage={pageSizeFor('reminders')}
      queryOptions={{ meta: prefetchMeta(columns) }}
      actions={<ListActions />}
    >
      <Datagrid
        rowClick={(id) => resourceHref(area, 'reminders', 'show', id) ?? false}
        bulkActionButtons={false}
        sx={{ '& .column-userId': { display: { xs: 'none', lg: 'table-cell' } } }}
        data-testid="reminder-list"
      >
        <FunctionField<Reminder>
          source="subject"
          label={label('subject')}
          render={(record) => (
            <Box component="span" data-testid="reminder-subject">
              {record.subject}
            </Box>
          )}
        />
        <FunctionField<Reminder>
          source="dueDate"
          label={label('dueDate')}
          render={(record) => <DueCell record={record} />}
        />
        {columns.map((field) => fieldFor(model(), field, { inList: true }))}
        <FunctionField<Reminder>
          source="status"
          label={label('status')}
          render={(record) => <StatusChip status={record.status} />}
        />
        <FunctionField<Reminder>
          label=""
          textAlign="right"
          render={(record) => <ReminderActions record={record} compact />}
        />
      </Datagrid>
    </List>
  );
}
