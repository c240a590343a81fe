/**
 * The reports page's charts (MUI X Charts, loaded with this page only: the page is a lazy route):
 * a measure per month, stacked by lead source; and the conversion lead → appointment → closure per
 * lead source as horizontal bars.
 */
import { Box } from '@mui/material';
import { BarChart } from '@mui/x-charts/BarChart';
import { formatNumber } from '../../i18n/format.ts';
import { CHF_MEASURES, type ReportMeasure } from '../../schema/reports.ts';
import { chartSeries, monthLabel, type ReportAnswer } from './model.ts';

/** Series colours: distinct, readable on white, the theme's blue first. */
const COLORS = [
  '#1565c0',
  '#ef6c00',
  '#2e7d32',
  '#6a1b9a',
  '#00838f',
  '#c62828',
  '#9e9d24',
  '#4e342e',
  '#78909c',
];

const format = (measure: ReportMeasure) => (value: number | null) =>
  value === null
    ? ''
    : formatNumber(value, CHF_MEASURES.includes(measure) ? { decimals: 2 } : undefined);

export function MonthChart({
  answer,
  measure,
  sourceName,
  othersLabel,
  locale,
}: {
  answer: ReportAnswer;
  measure: ReportMeasure;
  sourceName: (id: number | null) => string;
  othersLabel: string;
  locale: string;
}) {
  const series = chartSeries(answer, measure);
  const valueFormatter = format(measure);
  return (
    <Box data-testid="report-chart" sx={{ width: '100%' }}>
      <BarChart
        height={300}
        colors={COLORS}
        grid={{ horizontal: true }}
        xAxis={[
          {
            scaleType: 'band',
            data: answer.months,
            valueFormatter: (month: string) => monthLabel(month, locale),
          },
        ]}
        yAxis={[
          {
            width: CHF_MEASURES.includes(measure) ? 72 : 48,
            tickMinStep: CHF_MEASURES.includes(measure) ? undefined : 1,
            valueFormatter: (value: number) => formatNumber(value),
          },
        ]}
        series={series.map((entry) => ({
          id: entry.id,
          label: entry.id === 'others' ? othersLabel : sourceName(entry.sourceIds[0] ?? null),
          data: entry.data,
          stack: 'sources',
          valueFormatter,
        }))}
        slotProps={{
          legend: {
            direction: 'horizontal',
            position: { vertical: 'bottom', horizontal: 'center' },
          },
        }}
      />
    </Box>
  );
}

export function ConversionChart({
  answer,
  sourceName,
  labels,
}: {
  answer: ReportAnswer;
  sourceName: (id: number | null) => string;
  labels: { count: string; withAppointment: string; withClosure: string };
}) {
  const rows = answer.bySource;
  const names = rows.map((row) => sourceName(row.leadSource));
  const longest = Math.max(0, ...names.map((name) => name.length));
  return (
    <Box data-testid="report-conversion-chart" sx={{ width: '100%' }}>
      <BarChart
        layout="horizontal"
        height={Math.max(160, 70 + rows.length * 44)}
        colors={[COLORS[8], COLORS[0], COLORS[2]]}
        grid={{ vertical: true }}
        yAxis={[{ scaleType: 'band', data: names, width: Math.min(220, 16 + longest * 7) }]}
        xAxis={[{ tickMinStep: 1, valueFormatter: (value: number) => formatNumber(value) }]}
        series={(['count', 'withAppointment', 'withClosure'] as const).map((measure) => ({
          id: measure,
          label: labels[measure],
          data: rows.map((row) => row[measure] ?? 0),
          valueFormatter: format(measure),
        }))}
        slotProps={{
          legend: {
            direction: 'horizontal',
            position: { vertical: 'bottom', horizontal: 'center' },
          },
        }}
      />
    </Box>
  );
}
