/**
 * /admin/payouts (issue 17; spec §2, §4 default status filter 'new', §9 page 1; manage-commissions):
 * the payouts, one per user and month — filters month, user and status; columns user, month,
 * status, lines, total in CHF, approved and paid on; per row approve, mark paid, delete (new ones)
 * and the statement (PDF); above the list: run the payouts of a month, create one for a user and
 * month, the month's payouts as CSV or Excel. A row opens the payout with its lines.
 */
import { Chip, Typography } from '@mui/material';
import type { ReactElement } from 'react';
import {
  Datagrid,
  FilterButton,
  FunctionField,
  List,
  TopToolbar,
  useListContext,
  useLocale,
  useTranslate,
} from 'react-admin';
import { pageSizeFor } from '../../auth/session.ts';
import { formatDate } from '../../i18n/format.ts';
import { fieldFor, prefetchMeta } from '../../resources/fields.tsx';
import { EnumInput, ReferencePicker } from '../../resources/inputs.tsx';
import { getModel } from '../../resources/registry.ts';
import { enumKey, fieldLabelKey } from '../../schema/labels.ts';
import type { FieldModel } from '../../schema/model.ts';
import { resourceHref } from '../../shell/paths.ts';
import { Amount, Month } from '../commissions/components.tsx';
import { MonthInput } from '../commissions/MonthInput.tsx';
import { DEFAULT_FILTER, type Payout, type PayoutStatus } from './model.ts';
import { CreatePayoutButton, ExportPayoutsButton, RunPayoutsButton } from './PayoutDialogs.tsx';
import { PayoutActions } from './PayoutActions.tsx';

const model = () => getModel('payouts');
const fieldOf = (name: string): FieldModel => {
  const field = model().fields.find((candidate) => candidate.name === name);
  if (!field) throw new Error(`payouts has no field ${name}`);
  return field;
};
const label = (name: string) => fieldLabelKey('payouts', name);

/** Chip looks of the statuses: readable on white (WCAG AA contrast: the theme's dark blue, green). */
const STATUS_LOOKS: Record<
  PayoutStatus,
  { color: 'primary' | 'success'; variant: 'filled' | 'outlined' }
> = {
  new: { color: 'primary', variant: 'filled' },
  approved: { color: 'primary', variant: 'outlined' },
  paid: { color: 'success', variant: 'filled' },
};

export function PayoutStatusChip({ status }: { status: PayoutStatus | null | undefined }) {
  const translate = useTranslate();
  if (!status) return null;
  return (
    <Chip
      size="small"
      {...STATUS_LOOKS[status]}
      label={translate(enumKey('payoutStatus', status))}
      data-testid="payout-status-chip"
      data-status={status}
    />
  );
}

function filters(): ReactElement[] {
  const status = fieldOf('status');
  return [
    <MonthInput
      key="period"
      source="period"
      label={label('period')}
      alwaysOn
      isFilter
      testId="payouts-filter-period"
    />,
    <ReferencePicker key="userId" source="userId" reference="users" label={label('userId')} />,
    <EnumInput
      key="status"
      source="status"
      label={label('status')}
      alwaysOn
      schema={status.schema}
      enumName={status.enumName ?? 'payoutStatus'}
    />,
  ];
}

function ListActions() {
  const { filterValues, setFilters, displayedFilters } = useListContext();
  const period = (filterValues as { period?: string }).period;
  return (
    <TopToolbar sx={{ alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
      <FilterButton />
      <ExportPayoutsButton period={period} />
      <CreatePayoutButton />
      <RunPayoutsButton
        onRan={(month) =>
          setFilters({ ...filterValues, period: month, status: 'new' }, displayedFilters)
        }
      />
    </TopToolbar>
  );
}

function DateCell({ value }: { value: string | null | undefined }) {
  const locale = useLocale();
  return (
    <Typography variant="body2" component="span" sx={{ whiteSpace: 'nowrap' }}>
      {formatDate(value, locale)}
    </Typography>
  );
}

export default function PayoutList() {
  const userColumn = fieldOf('userId');
  return (
    <List
      resource="payouts"
      title="app.menu.payouts"
      filters={filters()}
      filterDefaultValues={DEFAULT_FILTER}
      sort={{ field: 'period', order: 'DESC' }}
      perPage={pageSizeFor('payouts')}
      queryOptions={{ meta: prefetchMeta([userColumn]) }}
      actions={<ListActions />}
    >
      <Datagrid
        rowClick={(id) => resourceHref('admin', 'payouts', 'show', id) ?? false}
        bulkActionButtons={false}
        data-testid="payouts-list"
        sx={{ '& td': { py: 0.75 } }}
      >
        {fieldFor(model(), userColumn, { inList: true })}
        <FunctionField<Payout>
          source="period"
          label={label('period')}
          render={(record) => <Month month={record.period} />}
        />
        <FunctionField<Payout>
          source="status"
          label={label('status')}
          render={(record) => <PayoutStatusChip status={record.status} />}
        />
        <FunctionField<Payout>
          source="lineCount"
          label={label('lineCount')}
          textAlign="right"
          render={(record) => record.lineCount ?? 0}
        />
        <FunctionField<Payout>
          source="total"
          label={label('total')}
          textAlign="right"
          render={(record) => <Amount centimes={record.total ?? 0} testId="payout-total" />}
        />
        <FunctionField<Payout>
          source="approvedAt"
          label={label('approvedAt')}
          render={(record) => <DateCell value={record.approvedAt} />}
        />
        <FunctionField<Payout>
          source="paidAt"
          label={label('paidAt')}
          render={(record) => <DateCell value={record.paidAt} />}
        />
        <FunctionField<Payout>
          label=""
          textAlign="right"
          render={(record) => <PayoutActions payout={record} compact />}
        />
      </Datagrid>
    </List>
  );
}
