/**
 * The leaderboard (issue 17; spec §2 in both areas, §4 status 'active', §9 defaults: the current
 * month, insurance 'overall', section 'leaderboard'): filters range (week, month, quarter, year, or
 * custom days), insurance (overall or one product group), users (active or all) and the section —
 * the ranking (rank with medals for the first three, name, stars, closures, production, and CHF
 * where the server gives it: the viewer's own row, or everyone's for manage-commissions; '–'
 * otherwise) with the viewer's row highlighted, or the charts (stars or closures over time, loaded
 * only when opened). The filters live in the page's address, so a reload or a link keeps them.
 * Data: GET /api/leaderboard (server/commissions/leaderboard.ts).
 */
import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import EmojiEventsIcon from '@mui/icons-material/EmojiEvents';
import {
  Alert,
  alpha,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  IconButton,
  LinearProgress,
  MenuItem,
  Stack,
  Tab,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Tabs,
  TextField,
  ToggleButton,
  ToggleButtonGroup,
  Tooltip,
  Typography,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { Loading, Title, useLocale, useTranslate } from 'react-admin';
import { useSearchParams } from 'react-router-dom';
import { getStoredUser } from '../../auth/session.ts';
import { api, messageOf } from '../../dataProvider/apiClient.ts';
import { formatChf, formatDate, formatNumber } from '../../i18n/format.ts';
import { enumKey } from '../../schema/labels.ts';
import { swissToday } from '../../schema/swiss-time.ts';
import {
  apiQuery,
  bucketLabel,
  type ChartsAnswer,
  customIncomplete,
  filtersOf,
  INSURANCES,
  type LeaderboardFilters,
  type Medal,
  medalOf,
  neighbour,
  RANGES,
  type RankingAnswer,
  type RankingRow,
  searchOf,
  SECTIONS,
  STATUSES,
} from './model.ts';

const LeaderboardCharts = lazy(() => import('./LeaderboardCharts.tsx'));
// The date pickers come only with a custom range.
const DateFilterField = lazy(() =>
  import('../../components/DateFilterField.tsx').then((module) => ({
    default: module.DateFilterField,
  })),
);

const MEDAL_COLORS: Record<Medal, string> = {
  gold: '#c9a227',
  silver: '#9e9e9e',
  bronze: '#a0522d',
};

type Answer = RankingAnswer | ChartsAnswer;

function useLeaderboard(filters: LeaderboardFilters) {
  const query = apiQuery(filters).toString();
  const enabled = !customIncomplete(filters);
  return useQuery<Answer>({
    queryKey: ['leaderboard', query],
    enabled,
    // While another range loads, the last answer of the same section stays.
    placeholderData: (previous: Answer | undefined) => (previous && enabled ? previous : undefined),
    queryFn: async ({ signal }) =>
      (await api.json<{ data: Answer }>('GET', `leaderboard?${query}`, { signal })).data,
  });
}

function Rank({ rank }: { rank: number }) {
  const translate = useTranslate();
  const medal = medalOf(rank);
  return (
    <Stack direction="row" sx={{ alignItems: 'center', gap: 0.5 }}>
      <Box component="span" sx={{ minWidth: 20, textAlign: 'right', fontWeight: 600 }}>
        {formatNumber(rank)}
      </Box>
      {medal && (
        <EmojiEventsIcon
          fontSize="small"
          sx={{ color: MEDAL_COLORS[medal] }}
          titleAccess={translate(`app.leaderboard.page.medal.${medal}`)}
          data-testid="leaderboard-medal"
          data-medal={medal}
        />
      )}
    </Stack>
  );
}

function RankingTable({ rows }: { rows: RankingRow[] }) {
  const translate = useTranslate();
  const numeric = { whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' } as const;
  return (
    <TableContainer>
      <Table size="small" data-testid="leaderboard-table">
        <TableHead>
          <TableRow>
            <TableCell sx={{ width: 72 }}>{translate('app.leaderboard.page.rank')}</TableCell>
            <TableCell>{translate('app.leaderboard.page.name')}</TableCell>
            <TableCell align="right">{translate('app.leaderboard.page.stars')}</TableCell>
            <TableCell align="right">{translate('app.leaderboard.page.closures')}</TableCell>
            <TableCell align="right">{translate('app.leaderboard.page.production')}</TableCell>
            <TableCell align="right">{translate('app.leaderboard.page.chf')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <TableRow
              key={row.userId}
              data-testid="leaderboard-row"
              data-me={row.me ? 'true' : 'false'}
              data-user-id={row.userId}
              aria-current={row.me ? 'true' : undefined}
              sx={
                row.me
                  ? {
                      bgcolor: (theme) => alpha(theme.palette.primary.main, 0.1),
                      '& td': { fontWeight: 600 },
                      boxShadow: (theme) => `inset 4px 0 0 ${theme.palette.primary.main}`,
                    }
                  : undefined
              }
            >
              <TableCell>
                <Rank rank={row.rank} />
              </TableCell>
              <TableCell sx={{ overflowWrap: 'anywhere' }}>
                <Stack direction="row" sx={{ alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
                  <span data-testid="leaderboard-name">{row.name}</span>
                  {row.me && (
                    <Chip
                      size="small"
                      color="primary"
                      label={translate('app.leaderboard.page.you')}
                      data-testid="leaderboard-you"
                    />
                  )}
                </Stack>
              </TableCell>
              <TableCell align="right" sx={numeric} data-testid="leaderboard-stars">
                {formatNumber(row.stars)}
              </TableCell>
              <TableCell align="right" sx={numeric} data-testid="leaderboard-closures">
                {formatNumber(row.closures)}
              </TableCell>
              <TableCell align="right" sx={numeric} data-testid="leaderboard-production">
                {formatChf(row.production)}
              </TableCell>
              <TableCell align="right" sx={numeric} data-testid="leaderboard-chf">
                {row.chf === null ? '–' : formatChf(row.chf)}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

function ChartsSection({ answer }: { answer: ChartsAnswer }) {
  const translate = useTranslate();
  const locale = useLocale();
  const [measure, setMeasure] = useState<'stars' | 'closures'>('stars');
  const labels = answer.buckets.map((bucket) =>
    bucketLabel(bucket, locale, (week, year) =>
      translate('app.leaderboard.page.week', { week, year }),
    ),
  );
  return (
    <>
      <Stack
        direction="row"
        sx={{ alignItems: 'center', justifyContent: 'space-between', gap: 2, mb: 1 }}
      >
        <Typography variant="h6" component="h2">
          {translate(`app.leaderboard.page.chartTitle.${measure}`)}
        </Typography>
        <ToggleButtonGroup
          size="small"
          exclusive
          value={measure}
          onChange={(_event, value: 'stars' | 'closures' | null) => value && setMeasure(value)}
          aria-label={translate('app.leaderboard.page.measure')}
        >
          {(['stars', 'closures'] as const).map((value) => (
            <ToggleButton key={value} value={value} data-testid={`leaderboard-measure-${value}`}>
              {translate(`app.leaderboard.page.${value}`)}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
      </Stack>
      <Suspense fallback={<Box sx={{ height: 360 }} />}>
        <LeaderboardCharts
          answer={answer}
          measure={measure}
          labels={labels}
          me={answer.series.find((entry) => entry.me)?.userId ?? getStoredUser()?.id}
        />
      </Suspense>
    </>
  );
}

export default function LeaderboardPage() {
  const translate = useTranslate();
  const locale = useLocale();
  const [search, setSearch] = useSearchParams();
  const filters = filtersOf(search);
  const change = (changes: Partial<LeaderboardFilters>) =>
    setSearch(searchOf({ ...filters, ...changes }), { replace: true });
  const leaderboard = useLeaderboard(filters);
  const answer = leaderboard.data;
  const ranking = answer && 'rows' in answer ? answer : undefined;
  const charts = answer && 'series' in answer ? answer : undefined;
  const reversed =
    filters.range === 'custom' && filters.from && filters.until && filters.until < filters.from;

  const today = swissToday();
  const chooseRange = (range: LeaderboardFilters['range']) => {
    // Another length keeps the day shown (the month of a quarter shown, …).
    if (range !== 'custom') return change({ range, until: '' });
    // A custom range starts as the period shown.
    change({
      range,
      from: answer?.from ?? `${today.slice(0, 8)}01`,
      until: answer?.until ?? today,
    });
  };
  const stepper = filters.range !== 'custom' && answer;

  return (
    <Box sx={{ mt: 2, mb: 4 }} data-testid="leaderboard-page">
      <Title title={translate('app.menu.leaderboard')} />
      <Card>
        <Stack
          direction="row"
          sx={{
            alignItems: 'center',
            justifyContent: 'space-between',
            flexWrap: 'wrap',
            columnGap: 2,
            px: 2,
            borderBottom: 1,
            borderColor: 'divider',
          }}
        >
          <Tabs
            value={filters.section}
            onChange={(_event, section: LeaderboardFilters['section']) => change({ section })}
            aria-label={translate('app.leaderboard.page.section')}
          >
            {SECTIONS.map((section) => (
              <Tab
                key={section}
                value={section}
                label={translate(`app.leaderboard.page.sections.${section}`)}
                data-testid={`leaderboard-section-${section}`}
              />
            ))}
          </Tabs>
          {answer && (
            <Stack direction="row" sx={{ alignItems: 'center', gap: 0.5 }}>
              {stepper && (
                <Tooltip title={translate('app.leaderboard.page.previous')}>
                  <IconButton
                    size="small"
                    aria-label={translate('app.leaderboard.page.previous')}
                    onClick={() => change({ from: neighbour(answer, -1) })}
                    data-testid="leaderboard-previous"
                  >
                    <ChevronLeftIcon />
                  </IconButton>
                </Tooltip>
              )}
              <Typography variant="body2" color="text.secondary" data-testid="leaderboard-period">
                {translate('app.leaderboard.page.period', {
                  from: formatDate(answer.from, locale),
                  until: formatDate(answer.until, locale),
                })}
              </Typography>
              {stepper && (
                <Tooltip title={translate('app.leaderboard.page.next')}>
                  <span>
                    <IconButton
                      size="small"
                      aria-label={translate('app.leaderboard.page.next')}
                      disabled={answer.until >= today}
                      onClick={() => change({ from: neighbour(answer, 1) })}
                      data-testid="leaderboard-next"
                    >
                      <ChevronRightIcon />
                    </IconButton>
                  </span>
                </Tooltip>
              )}
              {stepper && filters.from && (
                <Button
                  size="small"
                  onClick={() => change({ from: '' })}
                  data-testid="leaderboard-current"
                >
                  {translate('app.leaderboard.page.current')}
                </Button>
              )}
            </Stack>
          )}
        </Stack>
        <CardContent>
          <Stack direction="row" sx={{ flexWrap: 'wrap', alignItems: 'flex-start', gap: 2 }}>
            <ToggleButtonGroup
              size="small"
              exclusive
              value={filters.range}
              onChange={(_event, range: LeaderboardFilters['range'] | null) =>
                range && chooseRange(range)
              }
              aria-label={translate('app.leaderboard.page.range.label')}
              sx={{ height: 40, flexWrap: 'wrap' }}
            >
              {RANGES.map((range) => (
                <ToggleButton key={range} value={range} data-testid={`leaderboard-range-${range}`}>
                  {translate(`app.leaderboard.page.range.${range}`)}
                </ToggleButton>
              ))}
            </ToggleButtonGroup>
            {filters.range === 'custom' && (
              <Suspense fallback={<Box sx={{ width: 376, height: 40 }} />}>
                <DateFilterField
                  label={translate('app.leaderboard.page.from')}
                  value={filters.from}
                  onChange={(from) => change({ from })}
                  testId="leaderboard-from"
                  sx={{ width: 180 }}
                />
                <DateFilterField
                  label={translate('app.leaderboard.page.until')}
                  value={filters.until}
                  onChange={(until) => change({ until })}
                  error={Boolean(reversed)}
                  helperText={
                    reversed ? translate('app.leaderboard.page.untilBeforeFrom') : undefined
                  }
                  testId="leaderboard-until"
                  sx={{ width: 180 }}
                />
              </Suspense>
            )}
            <TextField
              select
              size="small"
              label={translate('app.leaderboard.page.insurance')}
              value={filters.insurance}
              onChange={(event) =>
                change({ insurance: event.target.value as LeaderboardFilters['insurance'] })
              }
              sx={{ width: 230 }}
              slotProps={{ htmlInput: { 'data-testid': 'leaderboard-insurance' } }}
            >
              {INSURANCES.map((insurance) => (
                <MenuItem key={insurance} value={insurance}>
                  {insurance === 'overall'
                    ? translate('app.leaderboard.page.overall')
                    : translate(enumKey('productGroup', insurance))}
                </MenuItem>
              ))}
            </TextField>
            <ToggleButtonGroup
              size="small"
              exclusive
              value={filters.status}
              onChange={(_event, status: LeaderboardFilters['status'] | null) =>
                status && change({ status })
              }
              aria-label={translate('app.leaderboard.page.status.label')}
              sx={{ height: 40 }}
            >
              {STATUSES.map((status) => (
                <ToggleButton
                  key={status}
                  value={status}
                  data-testid={`leaderboard-status-${status}`}
                >
                  {translate(`app.leaderboard.page.status.${status}`)}
                </ToggleButton>
              ))}
            </ToggleButtonGroup>
          </Stack>
          <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 1.5 }}>
            {translate('app.leaderboard.page.help')}
          </Typography>
        </CardContent>
        <Box sx={{ height: 4 }}>{leaderboard.isFetching && <LinearProgress />}</Box>
      </Card>

      {leaderboard.isError && (
        <Alert severity="error" sx={{ mt: 2 }}>
          {translate(messageOf(leaderboard.error))}
        </Alert>
      )}
      {leaderboard.isPending && !customIncomplete(filters) && <Loading />}

      {filters.section === 'leaderboard' && ranking && (
        <Card sx={{ mt: 2 }}>
          <CardContent>
            {ranking.rows.length === 0 ? (
              <Alert severity="info" data-testid="leaderboard-empty">
                {translate('app.leaderboard.page.empty')}
              </Alert>
            ) : (
              <RankingTable rows={ranking.rows} />
            )}
          </CardContent>
        </Card>
      )}

      {filters.section === 'charts' && charts && (
        <Card sx={{ mt: 2 }}>
          <CardContent>
            {charts.series.length === 0 ? (
              <Alert severity="info" data-testid="leaderboard-empty">
                {translate('app.leaderboard.page.empty')}
              </Alert>
            ) : (
              <ChartsSection answer={charts} />
            )}
          </CardContent>
        </Card>
      )}
    </Box>
  );
}
