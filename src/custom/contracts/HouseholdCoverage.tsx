/**
 * The household coverage view (issue 14): what everybody in the customer's household has insured,
 * the screen a consultant opens before a meeting. Rows are the product groups and products
 * (`GET /api/customers/:id/coverage`, server/contracts/coverage-rules.ts decides which), columns
 * the people (the customer first, then its household members); each cell lists the person's
 * active or applied-for closures — insurer, product, CHF a month, start and end, the next
 * termination deadline — each a link to the contract. Gaps are marked in the cell or on the row
 * (household-wide) with a warning colour, an icon and a text, and listed above the table; the
 * monthly premiums per person and for the household close it.
 */
import ReportProblemOutlinedIcon from '@mui/icons-material/ReportProblemOutlined';
import VerifiedUserOutlinedIcon from '@mui/icons-material/VerifiedUserOutlined';
import {
  Alert,
  AlertTitle,
  Box,
  Chip,
  CircularProgress,
  Link,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { alpha } from '@mui/material/styles';
import { useQuery } from '@tanstack/react-query';
import { useLocale, useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { api } from '../../dataProvider/apiClient.ts';
import { formatChf, formatDate } from '../../i18n/format.ts';
import { enumKey } from '../../schema/labels.ts';
import { useArea } from '../../shell/area.ts';
import { contractHref } from '../../shell/paths.ts';

interface CoverageContract {
  id: number;
  productId: number;
  product: string;
  subProduct: string | null;
  companyId: number | null;
  company: string | null;
  contractNumber: string | null;
  status: string | null;
  premiumMonth: number;
  startDate: string | null;
  endDate: string | null;
  terminationDeadline: string | null;
}

interface CoveragePerson {
  key: string;
  kind: 'customer' | 'member';
  id: number;
  name: string;
  relation: string | null;
  dateOfBirth: string | null;
  age: number | null;
  inHousehold: boolean;
  premiumMonth: number;
  cells: Array<{ column: string; contracts: CoverageContract[] }>;
}

interface Gap {
  rule: string;
  column: string;
  person?: string;
}

export interface Coverage {
  customerId: number;
  today: string;
  isCompany: boolean;
  brokerMandate: boolean;
  premiumMonth: number;
  columns: string[];
  people: CoveragePerson[];
  gaps: Gap[];
}

const LABEL_WIDTH = 190;

function ContractEntry({
  contract,
  columnLabel,
}: {
  contract: CoverageContract;
  /** The row's label: the product is not repeated under it. */
  columnLabel: string;
}) {
  const translate = useTranslate();
  const locale = useLocale();
  const area = useArea();
  const href = contractHref(area, 'closure', 'show', contract.id);
  const dates = [
    contract.startDate
      ? translate('app.coverage.since', { date: formatDate(contract.startDate, locale) })
      : null,
    contract.endDate
      ? translate('app.coverage.until', { date: formatDate(contract.endDate, locale) })
      : null,
  ].filter(Boolean);
  const title = contract.company ?? contract.product;
  return (
    <Box sx={{ '& + &': { mt: 1, pt: 1, borderTop: 1, borderColor: 'divider' } }}>
      <Link
        component={RouterLink}
        to={href ?? '#'}
        underline="hover"
        sx={{ fontWeight: 600, display: 'block', lineHeight: 1.3 }}
        data-testid={`coverage-contract-${contract.id}`}
        aria-label={`${title}, ${contract.product}${contract.contractNumber ? `, ${contract.contractNumber}` : ''}`}
      >
        {title}
      </Link>
      <Typography variant="caption" component="div" color="text.secondary" sx={{ lineHeight: 1.3 }}>
        {[contract.product === columnLabel ? null : contract.product, contract.subProduct]
          .filter(Boolean)
          .join(' · ')}
      </Typography>
      <Typography variant="body2" component="div" sx={{ fontVariantNumeric: 'tabular-nums' }}>
        {translate('app.coverage.perMonth', { amount: formatChf(contract.premiumMonth) })}
        {contract.status === 'application' ? (
          <Chip
            size="small"
            variant="outlined"
            color="info"
            sx={{ ml: 0.5, height: 18, fontSize: 11 }}
            label={translate(enumKey('contractStatus', 'application'))}
          />
        ) : null}
      </Typography>
      {dates.length > 0 ? (
        <Typography variant="caption" component="div" color="text.secondary">
          {dates.join(' · ')}
        </Typography>
      ) : null}
      {contract.terminationDeadline ? (
        <Typography variant="caption" component="div" color="text.secondary">
          {translate('app.coverage.deadline', {
            date: formatDate(contract.terminationDeadline, locale),
          })}
        </Typography>
      ) : null}
    </Box>
  );
}

function GapNote({ text }: { text: string }) {
  return (
    <Stack
      direction="row"
      spacing={0.5}
      sx={{ alignItems: 'flex-start', color: 'warning.dark', fontWeight: 500 }}
    >
      <ReportProblemOutlinedIcon fontSize="small" aria-hidden sx={{ mt: '1px' }} />
      <Typography variant="body2" component="span" sx={{ fontWeight: 500 }}>
        {text}
      </Typography>
    </Stack>
  );
}

export function HouseholdCoverage({ customerId }: { customerId: number }) {
  const translate = useTranslate();
  const locale = useLocale();
  // Names of products, sub-products and insurers in the language on screen.
  const { data, isPending, isError } = useQuery({
    queryKey: ['coverage', customerId, locale],
    queryFn: () =>
      api
        .json<{ data: Coverage }>('GET', `customers/${customerId}/coverage?language=${locale}`)
        .then((answer) => answer.data),
  });

  if (isPending) {
    return (
      <Box sx={{ py: 3, display: 'flex', justifyContent: 'center' }}>
        <CircularProgress size={24} aria-label={translate('ra.page.loading')} />
      </Box>
    );
  }
  if (isError || !data) {
    return <Alert severity="error">{translate('app.coverage.loadError')}</Alert>;
  }

  const gapText = (gap: Gap) =>
    translate(`app.coverage.gaps.${gap.rule}`, {
      name: data.people.find((person) => person.key === gap.person)?.name ?? '',
    });
  const personGap = (person: string, column: string) =>
    data.gaps.find((gap) => gap.person === person && gap.column === column);
  const householdGap = (column: string) =>
    data.gaps.find((gap) => gap.person === undefined && gap.column === column);
  const warning = (theme: { palette: { warning: { main: string } } }) =>
    alpha(theme.palette.warning.main, 0.12);

  return (
    <Paper variant="outlined" sx={{ p: 2 }} data-testid="household-coverage">
      <Stack
        direction="row"
        spacing={2}
        sx={{ alignItems: 'baseline', flexWrap: 'wrap', mb: 1.5, rowGap: 1 }}
      >
        <Typography variant="h6" component="h2" sx={{ flex: 1, minWidth: 240 }}>
          {translate('app.coverage.title')}
        </Typography>
        <Chip
          size="small"
          icon={data.brokerMandate ? <VerifiedUserOutlinedIcon /> : undefined}
          color={data.brokerMandate ? 'success' : 'default'}
          variant={data.brokerMandate ? 'filled' : 'outlined'}
          label={translate(
            data.brokerMandate ? 'app.coverage.brokerMandateYes' : 'app.coverage.brokerMandateNo',
          )}
        />
        <Typography
          variant="subtitle1"
          component="p"
          sx={{ fontWeight: 600, fontVariantNumeric: 'tabular-nums' }}
          data-testid="coverage-household-total"
        >
          {translate('app.coverage.householdTotal', { amount: formatChf(data.premiumMonth) })}
        </Typography>
      </Stack>

      {data.gaps.length > 0 ? (
        <Alert
          severity="warning"
          sx={{ mb: 2 }}
          data-testid="coverage-gaps"
          icon={<ReportProblemOutlinedIcon />}
        >
          <AlertTitle>
            {translate('app.coverage.gapsTitle', { count: data.gaps.length })}
          </AlertTitle>
          <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
            {data.gaps.map((gap) => (
              <li key={`${gap.rule}-${gap.person ?? 'household'}`}>{gapText(gap)}</li>
            ))}
          </Box>
        </Alert>
      ) : data.isCompany ? null : (
        <Alert severity="success" sx={{ mb: 2 }} data-testid="coverage-no-gaps">
          {translate('app.coverage.noGaps')}
        </Alert>
      )}

      <Box sx={{ overflowX: 'auto' }}>
        <Table
          size="small"
          sx={{ tableLayout: 'fixed', minWidth: LABEL_WIDTH + data.people.length * 200 }}
          aria-label={translate('app.coverage.title')}
        >
          <TableHead>
            <TableRow>
              <TableCell sx={{ width: LABEL_WIDTH }}>{translate('app.coverage.product')}</TableCell>
              {data.people.map((person) => (
                <TableCell key={person.key} scope="col" sx={{ verticalAlign: 'bottom' }}>
                  <Typography variant="subtitle2" component="div" sx={{ lineHeight: 1.3 }}>
                    {person.name}
                  </Typography>
                  <Typography variant="caption" color="text.secondary" component="div">
                    {[
                      person.kind === 'customer'
                        ? translate('app.coverage.customer')
                        : person.relation
                          ? translate(enumKey('householdRelation', person.relation))
                          : null,
                      person.age !== null
                        ? translate('app.coverage.age', { age: person.age })
                        : null,
                    ]
                      .filter(Boolean)
                      .join(' · ')}
                  </Typography>
                  {!person.inHousehold ? (
                    <Typography variant="caption" color="text.secondary" component="div">
                      {translate('app.coverage.notInHousehold')}
                    </Typography>
                  ) : null}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {data.columns.map((column) => {
              const household = householdGap(column);
              return (
                <TableRow key={column} data-testid={`coverage-row-${column}`}>
                  <TableCell
                    component="th"
                    scope="row"
                    sx={{
                      verticalAlign: 'top',
                      fontWeight: 600,
                      ...(household ? { bgcolor: warning } : {}),
                    }}
                  >
                    {translate(`app.coverage.columns.${column}`)}
                    {household ? <GapNote text={gapText(household)} /> : null}
                  </TableCell>
                  {data.people.map((person) => {
                    const contracts =
                      person.cells.find((cell) => cell.column === column)?.contracts ?? [];
                    const gap = personGap(person.key, column);
                    return (
                      <TableCell
                        key={person.key}
                        sx={{
                          verticalAlign: 'top',
                          ...(gap ? { bgcolor: warning } : {}),
                          ...(household && contracts.length === 0 ? { bgcolor: warning } : {}),
                        }}
                        data-testid={`coverage-cell-${person.key}-${column}`}
                      >
                        {contracts.map((contract) => (
                          <ContractEntry
                            key={contract.id}
                            contract={contract}
                            columnLabel={translate(`app.coverage.columns.${column}`)}
                          />
                        ))}
                        {gap ? <GapNote text={translate('app.coverage.missing')} /> : null}
                        {contracts.length === 0 && !gap ? (
                          <Typography
                            variant="body2"
                            color="text.disabled"
                            aria-label={translate('app.coverage.none')}
                          >
                            –
                          </Typography>
                        ) : null}
                      </TableCell>
                    );
                  })}
                </TableRow>
              );
            })}
            <TableRow>
              <TableCell component="th" scope="row" sx={{ fontWeight: 700, borderBottom: 0 }}>
                {translate('app.coverage.totalPerMonth')}
              </TableCell>
              {data.people.map((person) => (
                <TableCell
                  key={person.key}
                  sx={{ fontWeight: 700, borderBottom: 0, fontVariantNumeric: 'tabular-nums' }}
                  data-testid={`coverage-total-${person.key}`}
                >
                  {formatChf(person.premiumMonth)}
                </TableCell>
              ))}
            </TableRow>
          </TableBody>
        </Table>
      </Box>
    </Paper>
  );
}
