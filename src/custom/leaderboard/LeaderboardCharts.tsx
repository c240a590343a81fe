/**
 * The leaderboard's charts section (MUI X Charts): stars or closures per month or week, one line
 * per user (the top ten and the viewer), the viewer's own line drawn thicker; a single bucket as
 * bars. Loaded only when the section opens (a lazy import of the leaderboard page, itself a lazy
 * route), so neither the app's entry nor the ranking downloads the chart library.
 */
import { Box } from '@mui/material';
import { BarChart } from '@mui/x-charts/BarChart';
import { LineChart } from '@mui/x-charts/LineChart';
import { formatNumber } from '../../i18n/format.ts';
import type { ChartsAnswer } from './model.ts';

/** Series colours: distinct, readable on white (as the reports' charts). */
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
  '#ad1457',
  '#283593',
];

export default function LeaderboardCharts({
  answer,
  measure,
  labels,
  me,
}: {
  answer: ChartsAnswer;
  measure: 'stars' | 'closures';
  /** The buckets as the axis names them. */
  labels: string[];
  /** The viewer's user id (their line is drawn thicker). */
  me: number | undefined;
}) {
  const series = answer.series.map((entry) => ({
    id: `user-${entry.userId}`,
    label: entry.name,
    data: entry[measure],
    valueFormatter: (value: number | null) => (value === null ? '' : formatNumber(value)),
  }));
  const axis = {
    scaleType: 'point' as const,
    data: answer.buckets,
    valueFormatter: (bucket: string) => labels[answer.buckets.indexOf(bucket)] ?? bucket,
  };
  const yAxis = [
    {
      width: 48,
      tickMinStep: 1,
      valueFormatter: (value: number) => formatNumber(value),
    },
  ];
  const legend = {
    legend: {
      direction: 'horizontal' as const,
      position: { vertical: 'bottom' as const, horizontal: 'center' as const },
    },
  };
  return (
    <Box
      data-testid="leaderboard-chart"
      data-measure={measure}
      sx={{
        width: '100%',
        ...(me === undefined
          ? {}
          : { [`& .MuiLineElement-root[data-series="user-${me}"]`]: { strokeWidth: 4 } }),
      }}
    >
      {answer.buckets.length > 1 ? (
        <LineChart
          height={360}
          // Room for the last month's name beside the plot.
          margin={{ right: 24 }}
          colors={COLORS}
          grid={{ horizontal: true }}
          xAxis={[axis]}
          yAxis={yAxis}
          series={series.map((entry) => ({ ...entry, curve: 'linear' as const }))}
          slotProps={legend}
        />
      ) : (
        <BarChart
          height={360}
          colors={COLORS}
          grid={{ horizontal: true }}
          xAxis={[{ ...axis, scaleType: 'band' as const }]}
          yAxis={yAxis}
          series={series}
          slotProps={legend}
        />
      )}
    </Box>
  );
}
