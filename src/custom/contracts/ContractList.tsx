/**
 * The three lists of contracts (SPEC §2, §9): closures (`contracts`), non-closures and broker
 * contracts (closures of the broker-mandate product), each with its fixed filter the user cannot
 * remove. Page size from the `contracts` listing preference; the assignment filter all / me /
 * unassigned (`assignment=`); with the preference contractsFilterByWorkLocation on, only contracts
 * whose consultant works at the user's work location (`work_location=`). Search (number,
 * alternative number, customer, insurer) and filters by product group and product (the products
 * of the chosen group), insurer, status or reason, and the signing, start and end dates; by customer
 * (the customer's contracts tab links to its contracts here when it has more than the tab shows).
 */
import DownloadIcon from '@mui/icons-material/Download';
import { Chip } from '@mui/material';
import type { ReactElement } from 'react';
import {
  Button,
  CreateButton,
  Datagrid,
  FilterButton,
  FunctionField,
  List,
  Loading,
  ReferenceField,
  ResourceContextProvider,
  SelectInput,
  TextInput,
  TopToolbar,
  useGetOne,
  useTranslate,
} from 'react-admin';
import { useWatch } from 'react-hook-form';
import { useNavigate } from 'react-router-dom';
import { getStoredUser, pageSizeFor } from '../../auth/session.ts';
import { LocalizedDateInput } from '../../i18n/components.tsx';
import { fieldFor, prefetchMeta } from '../../resources/fields.tsx';
import { EnumInput, ReferencePicker } from '../../resources/inputs.tsx';
import { fieldLabelKey } from '../../schema/labels.ts';
import { withDefaults } from '../../schema/preferences.ts';
import { contractHref } from '../../shell/paths.ts';
import { useArea } from '../../shell/area.ts';
import { ToggleFilter } from '../../components/ToggleFilter.tsx';
import { ContractExportButton } from './ContractExportButton.tsx';
import { MemberName } from './fields.tsx';
import {
  type Contract,
  type ContractListKind,
  contractModel,
  contractTypeOf,
  FIXED_FILTERS,
  fieldOf,
  typeOfList,
} from './model.ts';

function ListActions({ kind }: { kind: ContractListKind }) {
  const area = useArea();
  const navigate = useNavigate();
  const translate = useTranslate();
  const createPath =
    kind === 'broker-contracts' ? undefined : contractHref(area, typeOfList(kind), 'create');
  const canExportPage =
    area === 'admin' && (getStoredUser()?.permissions ?? []).includes('contract-export-page');
  return (
    <TopToolbar sx={{ alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
      <FilterButton />
      {createPath ? <CreateButton to={createPath} data-testid="contract-create" /> : null}
      <ContractExportButton />
      {canExportPage ? (
        <Button
          label={translate('app.contracts.exportPage')}
          onClick={() => navigate(`/${area}/contracts/export`)}
          data-testid="contract-export-page"
        >
          <DownloadIcon />
        </Button>
      ) : null}
    </TopToolbar>
  );
}

/** The product filter: the products of the chosen product group (all of them without one). */
function ProductFilter({ label }: { source: string; label: string; alwaysOn?: boolean }) {
  // The filter form's own value: the list's filters follow it only after a pause.
  const chosen: unknown = useWatch({ name: 'productGroup' });
  const group = typeof chosen === 'string' && chosen !== '' ? chosen : undefined;
  return (
    <ReferencePicker
      source="productId"
      reference="products"
      label={label}
      filter={group ? { group } : undefined}
    />
  );
}

function filters(kind: ContractListKind): ReactElement[] {
  const label = (field: string) => fieldLabelKey('contracts', field);
  const enumFilter = (name: string) => {
    const field = fieldOf(name);
    return (
      <EnumInput
        key={name}
        source={name}
        label={label(name)}
        schema={field.schema}
        enumName={field.enumName ?? ''}
      />
    );
  };
  const range = (name: string) => [
    <LocalizedDateInput
      key={`${name}_gte`}
      source={`${name}_gte`}
      label={`app.contracts.filters.${name}From`}
      isFilter
    />,
    <LocalizedDateInput
      key={`${name}_lte`}
      source={`${name}_lte`}
      label={`app.contracts.filters.${name}Until`}
      isFilter
    />,
  ];
  const out: ReactElement[] = [
    <TextInput key="q" source="q" label="ra.action.search" alwaysOn resettable />,
    // One customer's contracts (the customer's contracts tab links here beyond its first rows).
    <ReferencePicker
      key="customerId"
      source="customerId"
      reference="customers"
      label={label('customerId')}
    />,
    // All / me / unassigned (SPEC §4): `assignment=me|unassigned` on the API, nothing for all.
    <ToggleFilter
      key="assignment"
      source="assignment"
      alwaysOn
      keys={['assignment']}
      choices={[
        { id: 'all', label: 'app.contracts.assignment.all', values: {} },
        { id: 'me', label: 'app.contracts.assignment.me', values: { assignment: 'me' } },
        {
          id: 'unassigned',
          label: 'app.contracts.assignment.unassigned',
          values: { assignment: 'unassigned' },
        },
      ]}
      label="app.contracts.assignment.label"
      testIdPrefix="contract-assignment-"
    />,
  ];
  if (kind !== 'broker-contracts') {
    out.push(enumFilter('productGroup'));
    out.push(<ProductFilter key="productId" source="productId" label={label('productId')} />);
  }
  out.push(
    <ReferencePicker
      key="companyId"
      source="companyId"
      reference="companies"
      label={label('companyId')}
    />,
  );
  out.push(kind === 'non-closures' ? enumFilter('reason') : enumFilter('status'));
  if (kind === 'closures') {
    // Health closures without a signed advice protocol, for the back office to chase.
    out.push(
      <SelectInput
        key="protocolMissing"
        source="protocolMissing"
        label="app.contracts.protocolMissing"
        choices={[
          { id: 'true', name: 'ra.boolean.true' },
          { id: 'false', name: 'ra.boolean.false' },
        ]}
      />,
    );
  }
  out.push(...range('signingDate'), ...range('startDate'), ...range('endDate'));
  return out;
}

/** The insured person: the household member, else the customer (label and source for the header). */
function InsuredPerson(_props: { label: string; source: string; sortable?: boolean }) {
  return (
    <FunctionField<Contract>
      render={(record) =>
        record.householdMemberId ? (
          <MemberName />
        ) : (
          <ReferenceField source="customerId" reference="customers" link={false} />
        )
      }
    />
  );
}

/** The contract number with a "protocol missing" chip (a health closure without a signed advice protocol). */
export function NumberWithProtocol(_props: { label: string; source: string }) {
  const translate = useTranslate();
  return (
    <FunctionField<Contract>
      render={(record) => (
        <span style={{ display: 'inline-flex', alignItems: 'center', gap: 6, flexWrap: 'wrap' }}>
          {record.contractNumber ?? '–'}
          {record.protocolMissing ? (
            <Chip
              size="small"
              color="warning"
              label={translate('app.contracts.protocolMissing')}
              data-testid="protocol-missing"
            />
          ) : null}
        </span>
      )}
    />
  );
}

const TITLES: Record<ContractListKind, string> = {
  closures: 'app.menu.contracts',
  'non-closures': 'app.menu.nonClosures',
  'broker-contracts': 'app.menu.brokerContracts',
};

const NON_CLOSURE_COLUMNS = [
  'customerId',
  'productId',
  'companyId',
  'reason',
  'signingDate',
  'annualPremium',
  'consultantId',
] as const;

const COLUMNS = [
  'customerId',
  'productId',
  'companyId',
  'status',
  'startDate',
  'endDate',
  'annualPremium',
  'consultantId',
] as const;

function ContractListView({ kind }: { kind: ContractListKind }) {
  const model = contractModel();
  const area = useArea();
  const user = getStoredUser();
  const byLocation = withDefaults(user?.preferences).contractsFilterByWorkLocation;
  // The user's work location (the users list is readable by every signed-in user).
  const { data: me, isPending } = useGetOne(
    'users',
    { id: user?.id ?? 0 },
    { enabled: byLocation && user !== null },
  );
  if (byLocation && isPending) return <Loading />;
  const workLocation = byLocation ? (me?.workLocation as string | undefined) : undefined;
  // A non-closure has no status and never started: its signing (advice) date instead.
  const names: readonly string[] = kind === 'non-closures' ? NON_CLOSURE_COLUMNS : COLUMNS;
  const columns = names.map(fieldOf);
  const fixed = { ...FIXED_FILTERS[kind], ...(workLocation ? { workLocation } : {}) };
  return (
    <List
      resource="contracts"
      storeKey={`contracts.${kind}`}
      filter={fixed}
      filters={filters(kind)}
      sort={{ field: 'createdAt', order: 'DESC' }}
      perPage={pageSizeFor('contracts')}
      queryOptions={{ meta: prefetchMeta([...columns, fieldOf('householdMemberId')]) }}
      actions={<ListActions kind={kind} />}
      title={TITLES[kind]}
    >
      <Datagrid
        sx={{
          // On a laptop (below 1536 px) the end date and the consultant give way; what is left
          // fits beside the menu.
          '& .column-consultantId, & .column-endDate': {
            display: { xs: 'none', xl: 'table-cell' },
          },
          '& td.column-startDate, & td.column-endDate, & td.column-annualPremium': {
            whiteSpace: 'nowrap',
          },
        }}
        rowClick={(id, _resource, record) =>
          contractHref(area, contractTypeOf(record as Contract), 'show', id) ?? false
        }
        bulkActionButtons={false}
      >
        <NumberWithProtocol
          source="contractNumber"
          label={fieldLabelKey('contracts', 'contractNumber')}
        />
        {fieldFor(model, fieldOf('customerId'), { inList: true })}
        <InsuredPerson
          source="householdMemberId"
          label="app.contracts.columns.insured"
          sortable={false}
        />
        {columns
          .filter((field) => field.name !== 'customerId')
          .map((field) => fieldFor(model, field, { inList: true }))}
      </Datagrid>
    </List>
  );
}

function Wrapped({ kind }: { kind: ContractListKind }) {
  return (
    <ResourceContextProvider value="contracts">
      <ContractListView kind={kind} />
    </ResourceContextProvider>
  );
}

export function NonClosureList() {
  return <Wrapped kind="non-closures" />;
}

export function BrokerContractList() {
  return <Wrapped kind="broker-contracts" />;
}

export default function ContractList() {
  return <Wrapped kind="closures" />;
}
