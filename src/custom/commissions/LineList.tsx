/**
 * The ledger's lines as a list, for "my commissions" (the signed-in user's lines; both areas) and
 * "commissions" (everyone's; manage-commissions): the filters (period from/until as months,
 * status, kind; on the commissions page also person, product and insurer), the totals of the same
 * filters above the table (GET /api/commission-lines/summary), and per line its month and date,
 * the contract (a link) and customer, kind, stars, the amount in CHF (negative in red) and the
 * status; a row opens its explain (the arithmetic, step by step). The commissions page adds the
 * person and a "Reverse" action.
 */
import { Box, Chip, Stack, Typography } from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ReactElement } from 'react';
import {
  Datagrid,
  FunctionField,
  List,
  ReferenceField,
  SelectArrayInput,
  SelectInput,
  TextField,
  useListContext,
  useLocale,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { Link } from 'react-router-dom';
import { api } from '../../dataProvider/apiClient.ts';
import { formatDate, formatNumber } from '../../i18n/format.ts';
import { fieldFor, prefetchMeta } from '../../resources/fields.tsx';
import { ReferencePicker } from '../../resources/inputs.tsx';
import { getModel } from '../../resources/registry.ts';
import { enumKey, fieldLabelKey } from '../../schema/labels.ts';
import { contractHref } from '../../shell/paths.ts';
import { useArea } from '../../shell/area.ts';
import { Amount, CapFlag, ExplainSteps, LineStatusChip, Month } from './components.tsx';
import {
  type CommissionLine,
  LINE_KINDS,
  LINE_STATUSES,
  type LineKind,
  type LineStatus,
  periodReversed,
  summaryOf,
  summaryQuery,
} from './model.ts';
import { MonthInput } from './MonthInput.tsx';
import { ReverseButton } from './ReverseDialog.tsx';

export type LineScope = 'mine' | 'all';

const label = (name: string) => fieldLabelKey('commission-lines', name);
const lineModel = () => getModel('commission-lines');
const fieldOf = (name: string) => {
  const field = lineModel().fields.find((candidate) => candidate.name === name);
  if (!field) throw new Error(`commission-lines has no field ${name}`);
  return field;
};

/** A person's own lines are never the brokerage's courtage nor a sub-broker's. */
const OWN_KINDS: readonly LineKind[] = LINE_KINDS.filter(
  (kind) => kind !== 'courtage' && kind !== 'sub_broker',
);

function useChoices(enumName: string, values: readonly string[]) {
  const translate = useTranslate();
  return values.map((value) => ({ id: value, name: translate(enumKey(enumName, value)) }));
}

function StatusFilter(_props: { source: string; alwaysOn?: boolean }) {
  const choices = useChoices('commissionLineStatus', LINE_STATUSES);
  return (
    <SelectArrayInput
      source="status"
      label={label('status')}
      choices={choices}
      translateChoice={false}
      sx={{ minWidth: 200 }}
      data-testid="lines-status-filter"
    />
  );
}

function KindFilter({ kinds }: { source: string; alwaysOn?: boolean; kinds: readonly LineKind[] }) {
  const choices = useChoices('commissionLineKind', kinds);
  return (
    <SelectInput
      source="kind"
      label={label('kind')}
      choices={choices}
      translateChoice={false}
      emptyText=""
      sx={{ minWidth: 160 }}
    />
  );
}

function filters(scope: LineScope): ReactElement[] {
  const out: ReactElement[] = [];
  if (scope === 'all') {
    out.push(
      <ReferencePicker
        key="userId"
        source="userId"
        reference="users"
        label={label('userId')}
        alwaysOn
      />,
    );
  }
  out.push(
    <MonthInput
      key="periodFrom"
      source="periodFrom"
      label="app.commissions.filters.periodFrom"
      isFilter
      alwaysOn
      testId="lines-period-from"
    />,
    <MonthInput
      key="periodUntil"
      source="periodUntil"
      label="app.commissions.filters.periodUntil"
      isFilter
      alwaysOn
      testId="lines-period-until"
    />,
    <StatusFilter key="status" source="status" alwaysOn />,
    <KindFilter
      key="kind"
      source="kind"
      alwaysOn
      kinds={scope === 'mine' ? OWN_KINDS : LINE_KINDS}
    />,
  );
  if (scope === 'all') {
    out.push(
      <ReferencePicker
        key="productId"
        source="productId"
        reference="products"
        label={label('productId')}
        alwaysOn
      />,
      <ReferencePicker
        key="companyId"
        source="companyId"
        reference="companies"
        label={label('companyId')}
        alwaysOn
      />,
      // One contract's lines (its courtage, the people's shares and their reversals).
      <ReferencePicker
        key="contractId"
        source="contractId"
        reference="contracts"
        label={label('contractId')}
        alwaysOn
      />,
    );
  }
  return out;
}

/** The totals of the list's filters: all of them, and by status (a click filters by it). */
function Summary({ fixed }: { fixed: Record<string, unknown> }) {
  const translate = useTranslate();
  const { filterValues, setFilters, displayedFilters } = useListContext();
  const query = summaryQuery({ ...filterValues, ...fixed });
  const reversedPeriod = periodReversed(filterValues);
  const { data, isPending, isError } = useQuery({
    queryKey: ['commission-lines', 'summary', query],
    enabled: !reversedPeriod,
    placeholderData: keepPreviousData,
    // Raw: the keys of by_status and by_kind are values (ready_present), not names to camelCase.
    queryFn: async ({ signal }) =>
      summaryOf(
        await api.json<unknown>('GET', `commission-lines/summary?${query}`, { signal, raw: true }),
      ),
  });
  if (reversedPeriod) {
    return (
      <Typography color="error" variant="body2" sx={{ px: 2, py: 1 }}>
        {translate('app.commissions.filters.periodReversed')}
      </Typography>
    );
  }
  const chosen = new Set<string>(
    Array.isArray(filterValues.status)
      ? (filterValues.status as string[])
      : filterValues.status
        ? [String(filterValues.status)]
        : [],
  );
  return (
    <Stack
      direction="row"
      sx={{ px: 2, py: 1.5, gap: 3, flexWrap: 'wrap', alignItems: 'center' }}
      data-testid="lines-summary"
      aria-busy={isPending}
    >
      <Box>
        <Typography variant="caption" color="text.secondary" component="div">
          {translate('app.commissions.summary.total')}
        </Typography>
        {isError ? (
          <Typography variant="body2" color="text.secondary">
            {translate('app.commissions.summary.unavailable')}
          </Typography>
        ) : (
          <Typography variant="h6" component="div" data-testid="lines-summary-total">
            <Amount centimes={data?.total ?? null} strong />
          </Typography>
        )}
      </Box>
      <Box>
        <Typography variant="caption" color="text.secondary" component="div">
          {translate('app.commissions.summary.count')}
        </Typography>
        <Typography variant="body1" data-testid="lines-summary-count">
          {data ? formatNumber(data.count) : ''}
        </Typography>
      </Box>
      {data?.stars !== null && data?.stars !== undefined ? (
        <Box>
          <Typography variant="caption" color="text.secondary" component="div">
            {translate('app.commissions.summary.stars')}
          </Typography>
          <Typography variant="body1" data-testid="lines-summary-stars">
            {formatNumber(data.stars)}
          </Typography>
        </Box>
      ) : null}
      <Stack direction="row" sx={{ gap: 1, flexWrap: 'wrap' }}>
        {LINE_STATUSES.filter((status) => data?.byStatus?.[status] !== undefined).map((status) => (
          <Chip
            key={status}
            variant={chosen.has(status) ? 'filled' : 'outlined'}
            data-testid={`lines-summary-${status}`}
            onClick={() => setFilters({ ...filterValues, status: [status] }, displayedFilters)}
            label={
              <span>
                {translate(enumKey('commissionLineStatus', status))}
                {': '}
                <Amount centimes={data?.byStatus?.[status] ?? 0} />
              </span>
            }
          />
        ))}
      </Stack>
    </Stack>
  );
}

/** The month the line counts for, and the day it was written. */
function PeriodField(_props: { source: string; label: string; sortBy: string }) {
  const locale = useLocale();
  return (
    <FunctionField<CommissionLine>
      render={(line) => (
        <Stack component="span">
          <Month month={line.period} />
          <Typography variant="caption" color="text.secondary" component="span">
            {formatDate(line.createdAt, locale)}
          </Typography>
        </Stack>
      )}
    />
  );
}

/** The contract (a link to its page) and its customer; a single payment's reason instead. */
function ContractField(_props: { source: string; label: string; sortable?: boolean }) {
  const area = useArea();
  return (
    <FunctionField<CommissionLine>
      render={(line) => {
        const href = line.contractId ? contractHref(area, 'closure', 'show', line.contractId) : '';
        return (
          <Stack component="span" sx={{ minWidth: 0 }}>
            {href ? (
              <Link
                to={href}
                onClick={(event) => event.stopPropagation()}
                data-testid="line-contract"
              >
                {line.contractNumber || `#${line.contractId}`}
              </Link>
            ) : line.contractNumber ? (
              <Typography variant="body2" component="span">
                {line.contractNumber}
              </Typography>
            ) : null}
            <Typography
              variant="caption"
              color="text.secondary"
              component="span"
              sx={{ overflowWrap: 'break-word' }}
            >
              {line.customerName ?? line.reason ?? ''}
            </Typography>
          </Stack>
        );
      }}
    />
  );
}

/** Who earns the line: a person, a sub-broker, or the brokerage (the courtage). */
function EarnerField(_props: { source: string; label: string; sortBy: string }) {
  const translate = useTranslate();
  return (
    <FunctionField<CommissionLine>
      render={(line) => {
        if (line.userId) return fieldFor(lineModel(), fieldOf('userId'));
        if (line.subBrokerId)
          return (
            <ReferenceField source="subBrokerId" reference="sub-brokers" link={false}>
              <TextField source="name" />
            </ReferenceField>
          );
        return (
          <Typography variant="body2" component="span" color="text.secondary">
            {translate('app.commissions.brokerage')}
          </Typography>
        );
      }}
    />
  );
}

/** A row's details: the arithmetic, the reason of a reversal or correction, the legal cap. */
function LineDetails() {
  const translate = useTranslate();
  const line = useRecordContext<CommissionLine>();
  if (!line) return null;
  return (
    <Box sx={{ py: 1, pl: 1 }} data-testid="line-details">
      <Typography variant="subtitle2" color="text.secondary" sx={{ mb: 0.5 }}>
        {translate(label('explain'))}
      </Typography>
      <ExplainSteps steps={line.explain} />
      {line.reason && line.contractId ? (
        <Typography variant="body2" sx={{ mt: 1 }}>
          {translate(label('reason'))}: {line.reason}
        </Typography>
      ) : null}
      {line.capExceeded ? (
        <Box sx={{ mt: 1 }}>
          <CapFlag capAmount={line.capAmount} />
        </Box>
      ) : null}
    </Box>
  );
}

export function LineList({
  scope,
  fixed,
  title,
  defaultStatus,
}: {
  scope: LineScope;
  /** Filters the user cannot change (my commissions: user_id = me). */
  fixed: Record<string, unknown>;
  title: string;
  defaultStatus?: LineStatus;
}) {
  const translate = useTranslate();
  return (
    <List
      resource="commission-lines"
      storeKey={`commission-lines.${scope}`}
      filter={fixed}
      filters={filters(scope)}
      filterDefaultValues={defaultStatus ? { status: [defaultStatus] } : undefined}
      sort={{ field: 'period', order: 'DESC' }}
      perPage={25}
      queryOptions={{
        meta: scope === 'all' ? prefetchMeta([fieldOf('userId')]) : undefined,
      }}
      actions={false}
      title={title}
      empty={false}
      sx={{ '& .RaList-main': { mt: 1 } }}
    >
      <Summary fixed={fixed} />
      <Datagrid
        bulkActionButtons={false}
        rowClick="expand"
        expand={<LineDetails />}
        data-testid="lines-list"
        empty={
          <Typography variant="body2" color="text.secondary" sx={{ p: 2 }}>
            {translate('app.commissions.empty')}
          </Typography>
        }
        sx={{
          '& td': { py: 0.75 },
          '& td.column-amount, & th.column-amount': { textAlign: 'right' },
          // On a tablet the table scrolls inside its card rather than breaking names and dates.
          '& td.column-period, & td.column-amount, & td.column-status, & td.column-kind': {
            whiteSpace: 'nowrap',
          },
          '& td.column-contractId': { minWidth: 150 },
          '& td.column-userId': { minWidth: 130 },
        }}
      >
        <PeriodField source="period" label={label('period')} sortBy="period" />
        {scope === 'all' ? (
          <EarnerField source="userId" label={label('userId')} sortBy="userId" />
        ) : null}
        <ContractField source="contractId" label={label('contractId')} sortable={false} />
        <FunctionField<CommissionLine>
          source="kind"
          label={label('kind')}
          render={(line) => translate(enumKey('commissionLineKind', line.kind))}
        />
        <FunctionField<CommissionLine>
          source="stars"
          label={label('stars')}
          sortable={false}
          textAlign="right"
          render={(line) => (line.stars === null ? '' : formatNumber(line.stars))}
        />
        <FunctionField<CommissionLine>
          source="amount"
          label={label('amount')}
          sortable={false}
          textAlign="right"
          render={(line) => <Amount centimes={line.amount} testId="line-amount" />}
        />
        <FunctionField<CommissionLine>
          source="status"
          label={label('status')}
          render={(line) => <LineStatusChip status={line.status} />}
        />
        {scope === 'all' ? (
          <FunctionField<CommissionLine>
            label="app.commissions.reverse.column"
            sortable={false}
            render={(line) => <ReverseButton line={line} />}
          />
        ) : null}
      </Datagrid>
    </List>
  );
}
