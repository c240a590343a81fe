/**
 * A payout's page (/admin/payouts/{id}, manage-commissions): who, which month, status, total and
 * lines, when and by whom it was approved and paid, its note; the actions its status allows
 * (approve, mark paid, delete) and its statement (PDF); the month's payouts as CSV or Excel; then
 * its ledger lines (GET /api/commission-lines?payout_id=) with the contract they came from, their
 * kind, how each was calculated (the explanation, step by step), stars and amount.
 */
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import {
  Alert,
  Box,
  Card,
  CardContent,
  Chip,
  Divider,
  Link,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import {
  Button,
  Labeled,
  ShowBase,
  Title,
  useGetList,
  useGetOne,
  useLocale,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { Link as RouterLink, useNavigate, useParams } from 'react-router-dom';
import { TablePager } from '../../components/Pagers.tsx';
import { formatDate, formatDateTime, formatNumber } from '../../i18n/format.ts';
import { fieldFor } from '../../resources/fields.tsx';
import { getModel } from '../../resources/registry.ts';
import { enumKey, fieldLabelKey } from '../../schema/labels.ts';
import { contractHref, resourceHref } from '../../shell/paths.ts';
import { Amount, ExplainSteps, Month } from '../commissions/components.tsx';
import { type CommissionLine, formatCentimes, formatMonth } from '../commissions/model.ts';
import { type Payout, userName } from './model.ts';
import { PayoutActions } from './PayoutActions.tsx';
import { PayoutNote } from './PayoutNote.tsx';
import { ExportButtons } from './PayoutDialogs.tsx';
import { PayoutStatusChip } from './PayoutList.tsx';

const label = (name: string) => fieldLabelKey('payouts', name);
const lineLabel = (name: string) => fieldLabelKey('commission-lines', name);

const GRID = {
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fill, minmax(200px, 1fr))',
  gap: 2,
} as const;

function Detail({ name, children }: { name: string; children: React.ReactNode }) {
  return (
    <Labeled label={label(name)}>
      {children === null || children === undefined || children === '' ? (
        <Typography variant="body2" color="text.disabled">
          –
        </Typography>
      ) : (
        <Box component="span" data-testid={`payout-${name}`}>
          {children}
        </Box>
      )}
    </Labeled>
  );
}

function UserName({ id }: { id: number | null | undefined }) {
  const { data } = useGetOne('users', { id: id ?? 0 }, { enabled: Boolean(id) });
  return <>{data ? userName(data) : ''}</>;
}

const LINES_PER_PAGE = 50;

function Lines({ payout }: { payout: Payout }) {
  const translate = useTranslate();
  const locale = useLocale();
  const [page, setPage] = useState(1);
  const [perPage, setPerPage] = useState(LINES_PER_PAGE);
  const {
    data = [],
    total,
    isPending,
    error,
  } = useGetList<CommissionLine>('commission-lines', {
    pagination: { page, perPage },
    sort: { field: 'createdAt', order: 'ASC' },
    filter: { payoutId: payout.id },
  });
  if (error) return <Alert severity="error">{translate('ra.notification.http_error')}</Alert>;
  return (
    <>
      <TableContainer>
        <Table size="small" data-testid="payout-lines">
          <TableHead>
            <TableRow>
              <TableCell>{translate(lineLabel('createdAt'))}</TableCell>
              <TableCell>{translate(lineLabel('period'))}</TableCell>
              <TableCell>{translate(lineLabel('contractNumber'))}</TableCell>
              <TableCell>{translate(lineLabel('customerName'))}</TableCell>
              <TableCell>{translate(lineLabel('kind'))}</TableCell>
              <TableCell sx={{ minWidth: 260 }}>{translate(lineLabel('explain'))}</TableCell>
              <TableCell align="right">{translate(lineLabel('stars'))}</TableCell>
              <TableCell align="right">{translate('app.payouts.page.amount')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {data.map((line) => {
              const href = line.contractId
                ? contractHref('admin', 'closure', 'show', line.contractId)
                : undefined;
              return (
                <TableRow key={line.id} data-testid="payout-line" sx={{ verticalAlign: 'top' }}>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>
                    {formatDate(line.createdAt, locale)}
                  </TableCell>
                  <TableCell>
                    <Month month={line.period} />
                  </TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>
                    {href ? (
                      <Link component={RouterLink} to={href}>
                        {line.contractNumber || `#${line.contractId}`}
                      </Link>
                    ) : (
                      (line.contractNumber ?? '–')
                    )}
                  </TableCell>
                  <TableCell sx={{ overflowWrap: 'anywhere' }}>
                    {line.customerName ?? '–'}
                  </TableCell>
                  <TableCell>
                    <Chip
                      size="small"
                      variant="outlined"
                      label={translate(enumKey('commissionLineKind', line.kind))}
                    />
                    {line.reversesId ? (
                      <Typography
                        variant="caption"
                        color="text.secondary"
                        component="div"
                        sx={{ mt: 0.5 }}
                      >
                        {translate('app.payouts.page.reverses', { id: line.reversesId })}
                      </Typography>
                    ) : null}
                  </TableCell>
                  <TableCell>
                    <ExplainSteps steps={line.explain} testId="payout-line-explain" />
                    {line.reason &&
                    // A single payment's explanation names its reason already.
                    !(line.explain ?? []).some((step) => step.params?.reason === line.reason) ? (
                      <Typography variant="caption" color="text.secondary" component="div">
                        {translate('app.payouts.page.reason', { reason: line.reason })}
                      </Typography>
                    ) : null}
                  </TableCell>
                  <TableCell align="right">
                    {line.stars === null ? '' : formatNumber(line.stars)}
                  </TableCell>
                  <TableCell align="right">
                    <Amount centimes={line.amount} testId="payout-line-amount" />
                  </TableCell>
                </TableRow>
              );
            })}
            {!isPending && data.length === 0 && (
              <TableRow>
                <TableCell colSpan={8}>
                  <Typography variant="body2" color="text.secondary">
                    {translate('app.payouts.page.noLines')}
                  </Typography>
                </TableCell>
              </TableRow>
            )}
            {data.length > 0 && (
              <TableRow sx={{ '& td': { fontWeight: 600, borderBottom: 0 } }}>
                <TableCell colSpan={7}>{translate('app.payouts.page.total')}</TableCell>
                <TableCell align="right">
                  <Amount centimes={payout.total ?? 0} strong testId="payout-lines-total" />
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </TableContainer>
      <TablePager
        count={total ?? 0}
        page={page - 1}
        rowsPerPage={perPage}
        rowsPerPageOptions={[25, 50, 100]}
        onPageChange={(_event, next) => setPage(next + 1)}
        onRowsPerPageChange={(event) => {
          setPerPage(Number(event.target.value));
          setPage(1);
        }}
      />
    </>
  );
}

function Page() {
  const payout = useRecordContext<Payout>();
  const translate = useTranslate();
  const locale = useLocale();
  const navigate = useNavigate();
  const { data: user } = useGetOne(
    'users',
    { id: payout?.userId ?? 0 },
    { enabled: Boolean(payout?.userId) },
  );
  if (!payout) return null;
  const listPath = resourceHref('admin', 'payouts', 'list') ?? '/admin/payouts';
  const model = getModel('payouts');
  const userField = model.fields.find((field) => field.name === 'userId');
  const heading = translate('app.payouts.page.heading', {
    name: user ? userName(user) : '…',
    period: formatMonth(payout.period, locale),
  });
  return (
    <Box sx={{ mt: 2, mb: 4 }} data-testid="payout-show" data-status={payout.status}>
      <Title title={heading} />
      <Card sx={{ mb: 2 }}>
        <CardContent>
          <Stack
            direction="row"
            useFlexGap
            spacing={1}
            sx={{ alignItems: 'center', flexWrap: 'wrap', mb: 2 }}
          >
            <Button label="app.payouts.page.back" onClick={() => navigate(listPath)}>
              <ArrowBackIcon />
            </Button>
            <Typography variant="h5" component="h1" sx={{ mr: 1 }} data-testid="payout-heading">
              {heading}
            </Typography>
            <PayoutStatusChip status={payout.status} />
            <Box sx={{ flexGrow: 1 }} />
            <PayoutActions payout={payout} onDeleted={() => navigate(listPath)} />
          </Stack>
          <Box sx={GRID}>
            <Detail name="userId">{userField ? fieldFor(model, userField) : null}</Detail>
            <Detail name="period">{formatMonth(payout.period, locale)}</Detail>
            <Detail name="total">
              <Typography variant="h6" component="span">
                {formatCentimes(payout.total ?? 0)}
              </Typography>
            </Detail>
            <Detail name="lineCount">{formatNumber(payout.lineCount ?? 0)}</Detail>
            <Detail name="approvedAt">
              {payout.approvedAt ? (
                <>
                  {formatDateTime(payout.approvedAt, locale)}
                  {payout.approvedBy ? (
                    <Typography variant="caption" color="text.secondary" component="div">
                      <UserName id={payout.approvedBy} />
                    </Typography>
                  ) : null}
                </>
              ) : null}
            </Detail>
            <Detail name="paidAt">
              {payout.paidAt ? (
                <>
                  {formatDateTime(payout.paidAt, locale)}
                  {payout.paidBy ? (
                    <Typography variant="caption" color="text.secondary" component="div">
                      <UserName id={payout.paidBy} />
                    </Typography>
                  ) : null}
                </>
              ) : null}
            </Detail>
          </Box>
          <PayoutNote payout={payout} />
          <Divider sx={{ my: 2 }} />
          <Stack direction="row" sx={{ alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
            <Typography variant="body2" color="text.secondary">
              {translate('app.payouts.page.export.month', {
                period: formatMonth(payout.period, locale),
              })}
            </Typography>
            <ExportButtons period={payout.period} testIdPrefix="payout-export" />
          </Stack>
        </CardContent>
      </Card>
      <Card>
        <CardContent>
          <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
            {translate('app.payouts.page.lines')}
          </Typography>
          <Lines payout={payout} />
        </CardContent>
      </Card>
    </Box>
  );
}

export default function PayoutShow() {
  const { id } = useParams();
  return (
    <ShowBase resource="payouts" id={id}>
      <Page />
    </ShowBase>
  );
}
