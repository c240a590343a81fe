/**
 * A scenario's chart (MUI X Charts): two bars, the need and the cover, the cover stacked by source
 * (AHV, IV, BVG, UVG, KTG, own contracts, earnings still made) with the gap on top in red, so the
 * second bar reaches the need when there is a gap. Loaded only by the Global check's screens (a
 * lazy import), so no other page downloads the chart library.
 */
import { Box } from '@mui/material';
import { BarChart } from '@mui/x-charts/BarChart';
import { formatNumber } from '../../i18n/format.ts';
import { type ChartSource, coverBySource, francs, type ScenarioAnswer, SOURCES } from './model.ts';

const COLORS: Record<ChartSource | 'need' | 'gap', string> = {
  need: '#546e7a',
  ahv: '#1565c0',
  iv: '#42a5f5',
  bvg: '#2e7d32',
  uvg: '#ef6c00',
  ktg: '#6a1b9a',
  own: '#00838f',
  earnings: '#9e9d24',
  gap: '#c62828',
};

export default function GapChart({
  answer,
  labels,
}: {
  answer: ScenarioAnswer;
  /** Translated names: need, cover, gap and each source. */
  labels: Record<ChartSource | 'need' | 'cover' | 'gap', string>;
}) {
  const bySource = coverBySource(answer);
  const money = (value: number | null) => (value === null || value === 0 ? '' : francs(value));
  const shown = SOURCES.filter((source) => bySource[source] > 0);
  const series = [
    {
      id: 'need',
      label: labels.need,
      data: [answer.need, null],
      stack: 'total',
      color: COLORS.need,
      valueFormatter: money,
    },
    ...shown.map((source) => ({
      id: source,
      label: labels[source],
      data: [null, bySource[source]],
      stack: 'total',
      color: COLORS[source],
      valueFormatter: money,
    })),
    ...(answer.gap > 0
      ? [
          {
            id: 'gap',
            label: labels.gap,
            data: [null, answer.gap],
            stack: 'total',
            color: COLORS.gap,
            valueFormatter: money,
          },
        ]
      : []),
  ];
  return (
    <Box data-testid="gc-chart" sx={{ width: '100%' }}>
      <BarChart
        height={280}
        grid={{ horizontal: true }}
        xAxis={[
          {
            scaleType: 'band' as const,
            data: [labels.need, labels.cover],
            categoryGapRatio: 0.45,
          },
        ]}
        yAxis={[{ width: 72, valueFormatter: (value: number) => formatNumber(value) }]}
        series={series}
        slotProps={{
          legend: {
            direction: 'horizontal' as const,
            position: { vertical: 'bottom' as const, horizontal: 'center' as const },
          },
        }}
      />
    </Box>
  );
}
