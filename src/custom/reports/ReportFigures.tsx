/**
 * The reports page's figures: the totals (for leads a funnel lead → appointment → closure with its
 * rates) and the table per lead source with its totals row. Counts and CHF amounts in the Swiss
 * style (1'234, 1'234.50), rates as percentages with one decimal.
 */
import ArrowForwardIcon from '@mui/icons-material/ArrowForward';
import {
  Card,
  CardContent,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { Fragment } from 'react';
import { useTranslate } from 'react-admin';
import { formatNumber } from '../../i18n/format.ts';
import {
  CHF_MEASURES,
  rate,
  REPORT_MEASURES,
  type ReportKind,
  type ReportMeasure,
} from '../../schema/reports.ts';
import type { Figures, ReportAnswer } from './model.ts';

export const percent = (share: number) => `${formatNumber(share * 100, { decimals: 1 })} %`;

export const figure = (measure: ReportMeasure, value: number | undefined) =>
  formatNumber(value ?? 0, CHF_MEASURES.includes(measure) ? { decimals: 2 } : undefined);

/** The conversion rates: appointments of leads, closures of appointments. */
const rates = (values: Figures) => [
  rate(values.withAppointment ?? 0, values.count ?? 0),
  rate(values.withClosure ?? 0, values.withAppointment ?? 0),
];

const measuresOf = (kind: ReportKind) => REPORT_MEASURES[kind] as readonly ReportMeasure[];

export function ReportTotals({
  answer,
  kind,
  measureLabel,
}: {
  answer: ReportAnswer;
  kind: ReportKind;
  measureLabel: (measure: ReportMeasure) => string;
}) {
  const translate = useTranslate();
  const conversion = kind === 'leads';
  return (
    <Stack
      direction="row"
      sx={{ mt: 2, gap: 2, flexWrap: 'wrap', alignItems: 'stretch' }}
      data-testid="report-totals"
    >
      {measuresOf(kind).map((name, at) => (
        <Fragment key={name}>
          {conversion && at > 0 && (
            <ArrowForwardIcon color="action" sx={{ alignSelf: 'center' }} aria-hidden />
          )}
          <Card sx={{ flex: '1 1 160px', minWidth: 150, maxWidth: 300 }} variant="outlined">
            <CardContent sx={{ py: 1.5, '&:last-child': { pb: 1.5 } }}>
              <Typography variant="body2" color="text.secondary">
                {measureLabel(name)}
              </Typography>
              <Typography variant="h5" component="p" data-testid={`report-total-${name}`}>
                {figure(name, answer.totals[name])}
              </Typography>
              {conversion && at > 0 && (
                <Typography variant="caption" color="text.secondary">
                  {translate(at === 1 ? 'app.reports.appointmentRate' : 'app.reports.closureRate')}{' '}
                  {percent(rates(answer.totals)[at - 1])}
                </Typography>
              )}
            </CardContent>
          </Card>
        </Fragment>
      ))}
    </Stack>
  );
}

export function SourceTable({
  answer,
  kind,
  measureLabel,
  sourceName,
}: {
  answer: ReportAnswer;
  kind: ReportKind;
  measureLabel: (measure: ReportMeasure) => string;
  sourceName: (id: number | null) => string;
}) {
  const translate = useTranslate();
  const measures = measuresOf(kind);
  const conversion = kind === 'leads';
  const cells = (values: Figures) => (
    <>
      {measures.map((name) => (
        <TableCell key={name} align="right">
          {figure(name, values[name])}
        </TableCell>
      ))}
      {conversion &&
        rates(values).map((share, at) => (
          <TableCell key={at} align="right">
            {percent(share)}
          </TableCell>
        ))}
    </>
  );
  return (
    <TableContainer>
      <Table size="small" data-testid="report-table">
        <TableHead>
          <TableRow>
            <TableCell>{translate('app.reports.leadSource')}</TableCell>
            {measures.map((name) => (
              <TableCell key={name} align="right">
                {measureLabel(name)}
              </TableCell>
            ))}
            {conversion && (
              <>
                <TableCell align="right">{translate('app.reports.appointmentRate')}</TableCell>
                <TableCell align="right">{translate('app.reports.closureRate')}</TableCell>
              </>
            )}
          </TableRow>
        </TableHead>
        <TableBody>
          {answer.bySource.map((row) => (
            <TableRow key={row.leadSource ?? 'none'} hover data-testid="report-row">
              <TableCell>{sourceName(row.leadSource)}</TableCell>
              {cells(row)}
            </TableRow>
          ))}
          <TableRow
            data-testid="report-total-row"
            sx={{ '& td': { fontWeight: 600, borderBottom: 0 }, bgcolor: 'action.hover' }}
          >
            <TableCell>{translate('app.reports.total')}</TableCell>
            {cells(answer.totals)}
          </TableRow>
        </TableBody>
      </Table>
    </TableContainer>
  );
}
