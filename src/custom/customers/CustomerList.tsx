/**
 * The customer list: newest first; search by name, email, phone, city; filters for the consultant
 * (all, mine, unassigned — back office), lead source, person/company, city and zip; the schema's
 * list columns (fieldFor). Actions: create, import (back office), client report export.
 * The open-issue filter (open-due, open-not-due, closed, none: `open_issue=`, from the customers'
 * reminders on the server).
 */
import UploadFileIcon from '@mui/icons-material/UploadFile';
import {
  Button,
  CreateButton,
  Datagrid,
  FunctionField,
  List,
  SelectInput,
  TextInput,
  TopToolbar,
  useTranslate,
} from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { getStoredUser } from '../../auth/session.ts';
import { fieldFor, listFields, prefetchMeta } from '../../resources/fields.tsx';
import { ReferencePicker } from '../../resources/inputs.tsx';
import { OPEN_ISSUE_FILTERS } from '../../schema/appointments.ts';
import { fieldLabelKey } from '../../schema/labels.ts';
import type { ApiRecord } from '../../resources/records.ts';
import { resourceRoute } from '../../shell/paths.ts';
import { useArea } from '../../shell/area.ts';
import { pageSizeFor } from '../../auth/session.ts';
import { CustomerAvatar } from './CustomerAvatar.tsx';
import { ToggleFilter } from '../../components/ToggleFilter.tsx';
import { ExportButton } from './ExportDialog.tsx';
import { customerModel, customerName, isBackOffice } from './model.ts';

function ListActions() {
  const translate = useTranslate();
  const area = useArea();
  const navigate = useNavigate();
  const backOffice = isBackOffice();
  const importPath = backOffice ? `/${area}/customers/import` : undefined;
  return (
    <TopToolbar sx={{ alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
      <CreateButton
        to={`/${area}/${resourceRoute(area, 'customers', 'create') ?? 'customers/new'}`}
      />
      {importPath ? (
        <Button
          label={translate('app.customers.import.action')}
          data-testid="customer-import"
          onClick={() => navigate(importPath)}
        >
          <UploadFileIcon />
        </Button>
      ) : null}
      <ExportButton />
    </TopToolbar>
  );
}

function filters() {
  const model = customerModel();
  const label = (field: string) => fieldLabelKey(model.name, field);
  const out = [
    <TextInput key="q" source="q" label="ra.action.search" alwaysOn resettable />,
    <ReferencePicker
      key="leadSource"
      source="leadSource"
      reference="lead-sources"
      label={label('leadSource')}
    />,
    <SelectInput
      key="isCompany"
      source="isCompany"
      label="app.customers.filters.kind"
      choices={[
        { id: 'false', name: 'app.customers.filters.person' },
        { id: 'true', name: 'app.customers.filters.company' },
      ]}
    />,
    <SelectInput
      key="openIssue"
      source="openIssue"
      label="app.customers.filters.openIssue"
      choices={OPEN_ISSUE_FILTERS.map((value) => ({ id: value, name: `enums.openIssue.${value}` }))}
    />,
    <TextInput key="city" source="city" label={label('city')} />,
    <TextInput key="zip" source="zip" label={label('zip')} />,
  ];
  if (isBackOffice()) {
    const me = getStoredUser()?.id ?? 0;
    out.push(
      // All / mine / unassigned: `assignedTo=<me>` or `assignedToNull=true` on the API.
      <ToggleFilter
        key="assignedToNull"
        source="assignedToNull"
        alwaysOn
        keys={['assignedTo', 'assignedToNull']}
        choices={[
          { id: 'all', label: 'app.customers.assignment.all', values: {} },
          { id: 'mine', label: 'app.customers.assignment.mine', values: { assignedTo: me } },
          {
            id: 'unassigned',
            label: 'app.customers.assignment.unassigned',
            values: { assignedToNull: true },
          },
        ]}
        label="app.customers.assignment.label"
        testIdPrefix="assignment-"
      />,
      <ReferencePicker
        key="assignedTo"
        source="assignedTo"
        reference="users"
        label={label('assignedTo')}
      />,
    );
  }
  return out;
}

export default function CustomerList() {
  const model = customerModel();
  const area = useArea();
  const columns = listFields(model).filter((field) => field.name !== 'id');
  return (
    <List
      filters={filters()}
      sort={{ field: 'createdAt', order: 'DESC' }}
      perPage={pageSizeFor('customers')}
      // The reference columns' records come with the page (no request per referenced resource).
      queryOptions={{ meta: prefetchMeta(columns) }}
      actions={<ListActions />}
    >
      <Datagrid
        // On a tablet (below 1200 px) the kind and creation date give way (the avatar shows a
        // company) and only very long e-mail addresses wrap, so the list (nearly) fits; what is
        // left scrolls inside the card (src/theme.ts).
        sx={{
          '& .column-isCompany, & .column-createdAt': { display: { xs: 'none', lg: 'table-cell' } },
          '& td.column-email': { minWidth: 190, overflowWrap: 'anywhere' },
        }}
        rowClick={(id) => `/${area}/${resourceRoute(area, 'customers', 'show', id)}`}
        bulkActionButtons={false}
      >
        {/* Shows the whole name (or the company's), so it is labelled "Name"; it sorts by last name. */}
        <FunctionField<ApiRecord<'customers'>>
          source="lastName"
          label="app.customers.columns.name"
          render={(record) => (
            <span style={{ display: 'inline-flex', alignItems: 'center', gap: 8 }}>
              <CustomerAvatar record={record} size={28} />
              {customerName(record)}
            </span>
          )}
        />
        {columns.map((field) => fieldFor(model, field, { inList: true }))}
        {fieldFor(model, model.fields.find((field) => field.name === 'createdAt') ?? columns[0], {
          inList: true,
        })}
      </Datagrid>
    </List>
  );
}
