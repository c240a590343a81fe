/**
 * /admin/reports (issue 16; spec §3 "report filters"): the back office's reports — clients,
 * contracts, appointments and leads — for a period (Swiss days) and lead sources, from
 * GET /api/reports/{kind}: the totals, a bar chart per month stacked by lead source, a table per
 * lead source with its totals row, for leads the conversion lead → appointment → closure; the same
 * report as CSV or Excel (GET /api/reports/{kind}/export). Only the reports the account may run
 * are offered (users.reports, ADMIN all; the menu hides the page from accounts with none), and only
 * the lead sources its role may see. What each figure counts is the page's help text
 * (app.reports.help.*; docs/ARCHITECTURE.md "Reports").
 */
import DownloadIcon from '@mui/icons-material/Download';
import InfoOutlinedIcon from '@mui/icons-material/InfoOutlined';
import {
  Alert,
  Autocomplete,
  Box,
  Button,
  Card,
  CardContent,
  Checkbox,
  Collapse,
  LinearProgress,
  MenuItem,
  Stack,
  Tab,
  Tabs,
  TextField,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Title, useGetList, useLocaleState, useNotify, useTranslate } from 'react-admin';
import { getStoredUser } from '../../auth/session.ts';
import { DateFilterField } from '../../components/DateFilterField.tsx';
import { api, messageOf } from '../../dataProvider/apiClient.ts';
import type { ApiRecord } from '../../resources/records.ts';
import { leadSourceVisible } from '../../schema/leads.ts';
import {
  type DateBasis,
  REPORT_DATE_BASES,
  REPORT_KINDS,
  REPORT_MEASURES,
  type ReportKind,
  type ReportMeasure,
} from '../../schema/reports.ts';
import { swissToday } from '../../schema/swiss-time.ts';
import { defaultPeriod, type ReportAnswer, type ReportFilters, reportQuery } from './model.ts';
import { ConversionChart, MonthChart } from './ReportCharts.tsx';
import { ReportTotals, SourceTable } from './ReportFigures.tsx';

type LeadSource = ApiRecord<'lead-sources'>;

const localName = (source: LeadSource, locale: string): string =>
  ({ de: source.nameDe, fr: source.nameFr, it: source.nameIt, en: source.nameEn })[locale] ||
  source.nameDe;

function useReport(filters: ReportFilters | undefined) {
  const query = filters ? reportQuery(filters).toString() : '';
  return useQuery({
    queryKey: ['reports', filters?.kind, query],
    enabled: Boolean(filters),
    placeholderData: keepPreviousData,
    queryFn: async ({ signal }) =>
      (
        await api.json<{ data: ReportAnswer }>('GET', `reports/${filters!.kind}?${query}`, {
          signal,
        })
      ).data,
  });
}

export default function ReportsPage() {
  const translate = useTranslate();
  const notify = useNotify();
  const [locale] = useLocaleState();
  const user = getStoredUser();
  const kinds = REPORT_KINDS.filter((kind) => user?.reports?.includes(kind));
  const [kind, setKind] = useState<ReportKind | undefined>(kinds[0]);
  const [period] = useState(() => defaultPeriod(swissToday()));
  const [from, setFrom] = useState(period.from);
  const [until, setUntil] = useState(period.until);
  const [bases, setBases] = useState<Partial<Record<ReportKind, DateBasis>>>({});
  const [sources, setSources] = useState<number[]>([]);
  const [charted, setCharted] = useState<Partial<Record<ReportKind, ReportMeasure>>>({});
  const [downloading, setDownloading] = useState<'csv' | 'xlsx' | undefined>();
  const [helpOpen, setHelpOpen] = useState(false);

  const { data: allSources = [] } = useGetList<LeadSource>('lead-sources', {
    pagination: { page: 1, perPage: 500 },
    sort: { field: 'nameDe', order: 'ASC' },
  });
  const viewer = user ?? { role: '', permissions: [] };
  const collator = new Intl.Collator(locale);
  const choices = allSources
    .filter((source) => leadSourceVisible(viewer, source.visibleRoles))
    .map((source) => ({ id: Number(source.id), name: localName(source, locale) }))
    .sort((a, b) => collator.compare(a.name, b.name));

  const invalid = Boolean(from && until && from > until);
  const basis = kind ? (bases[kind] ?? REPORT_DATE_BASES[kind][0]) : 'created';
  const filters: ReportFilters | undefined =
    kind && !invalid ? { kind, from, until, basis, sources } : undefined;
  const report = useReport(filters);
  const answer = report.data?.kind === kind ? report.data : undefined;

  if (!kind) {
    return (
      <Box sx={{ mt: 2 }}>
        <Title title={translate('app.reports.title')} />
        <Alert severity="info">{translate('app.reports.noReports')}</Alert>
      </Box>
    );
  }

  const measures = REPORT_MEASURES[kind] as readonly ReportMeasure[];
  const measure = charted[kind] ?? 'count';
  const measureLabel = (name: ReportMeasure) =>
    translate(name === 'count' ? `app.reports.count.${kind}` : `app.reports.measure.${name}`);
  const names = new Map<number | null, string>([
    ...(answer?.sources ?? []).map((source) => [source.id, source.name ?? ''] as const),
    ...choices.map((choice) => [choice.id, choice.name] as const),
  ]);
  const sourceName = (id: number | null) =>
    id === null ? translate('app.reports.noLeadSource') : (names.get(id) ?? `#${id}`);
  const conversion = kind === 'leads';
  const empty = answer !== undefined && (answer.totals.count ?? 0) === 0;

  const download = async (format: 'csv' | 'xlsx') => {
    if (!filters) return;
    const query = reportQuery(filters);
    query.set('format', format);
    query.set('language', locale);
    setDownloading(format);
    try {
      await api.download(`reports/${kind}/export?${query}`, `report-${kind}.${format}`);
    } catch (error) {
      notify(messageOf(error), { type: 'error' });
    } finally {
      setDownloading(undefined);
    }
  };

  return (
    <Box sx={{ mt: 2, mb: 4 }} data-testid="reports-page">
      <Title title={translate('app.reports.title')} />
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
            value={kind}
            onChange={(_event, value: ReportKind) => setKind(value)}
            aria-label={translate('app.reports.kind')}
          >
            {kinds.map((value) => (
              <Tab
                key={value}
                value={value}
                label={translate(`enums.report.${value}`)}
                data-testid={`report-tab-${value}`}
              />
            ))}
          </Tabs>
          <Stack direction="row" sx={{ gap: 1, py: 1 }}>
            <Button
              variant="outlined"
              startIcon={<DownloadIcon />}
              onClick={() => void download('csv')}
              disabled={!filters || downloading !== undefined}
              data-testid="report-download-csv"
            >
              {translate('app.reports.downloadCsv')}
            </Button>
            <Button
              variant="contained"
              startIcon={<DownloadIcon />}
              onClick={() => void download('xlsx')}
              disabled={!filters || downloading !== undefined}
              data-testid="report-download-xlsx"
            >
              {translate('app.reports.downloadXlsx')}
            </Button>
          </Stack>
        </Stack>
        <CardContent>
          <Stack direction="row" sx={{ flexWrap: 'wrap', alignItems: 'flex-start', gap: 2 }}>
            <DateFilterField
              label={translate('app.reports.from')}
              value={from}
              onChange={setFrom}
              testId="report-from"
              sx={{ width: 200 }}
            />
            <DateFilterField
              label={translate('app.reports.until')}
              value={until}
              onChange={setUntil}
              error={invalid}
              helperText={invalid ? translate('app.reports.untilBeforeFrom') : undefined}
              testId="report-until"
              sx={{ width: 200 }}
            />
            {REPORT_DATE_BASES[kind].length > 1 && (
              <ToggleButtonGroup
                size="small"
                exclusive
                value={basis}
                onChange={(_event, value: DateBasis | null) =>
                  value && setBases((all) => ({ ...all, [kind]: value }))
                }
                aria-label={translate('app.reports.dateBasis')}
                sx={{ height: 48 }}
              >
                {REPORT_DATE_BASES[kind].map((value) => (
                  <ToggleButton key={value} value={value} data-testid={`report-basis-${value}`}>
                    {translate(`app.reports.basis.${value}`)}
                  </ToggleButton>
                ))}
              </ToggleButtonGroup>
            )}
            <Autocomplete
              multiple
              disableCloseOnSelect
              limitTags={2}
              size="small"
              options={choices}
              value={choices.filter((choice) => sources.includes(choice.id))}
              onChange={(_event, chosen) => setSources(chosen.map((choice) => choice.id))}
              getOptionLabel={(option) => option.name}
              isOptionEqualToValue={(option, value) => option.id === value.id}
              renderOption={({ key, ...props }, option, { selected }) => (
                <li key={key} {...props}>
                  <Checkbox size="small" checked={selected} sx={{ mr: 1, p: 0.5 }} />
                  {option.name}
                </li>
              )}
              renderInput={(params) => (
                <TextField
                  {...params}
                  label={translate('app.reports.leadSources')}
                  placeholder={sources.length === 0 ? translate('app.reports.allLeadSources') : ''}
                  slotProps={{
                    htmlInput: { ...params.inputProps, 'data-testid': 'report-sources' },
                    inputLabel: { shrink: true },
                  }}
                />
              )}
              sx={{ flex: '1 1 260px', minWidth: 240, maxWidth: 440 }}
            />
          </Stack>
          <Button
            size="small"
            startIcon={<InfoOutlinedIcon />}
            onClick={() => setHelpOpen((open) => !open)}
            aria-expanded={helpOpen}
            aria-controls="report-help"
            data-testid="report-help-toggle"
            sx={{ mt: 1, ml: -0.5, textTransform: 'none' }}
          >
            {translate('app.reports.howCounted')}
          </Button>
          <Collapse in={helpOpen}>
            <Typography
              variant="body2"
              color="text.secondary"
              sx={{ mt: 0.5, maxWidth: 960 }}
              id="report-help"
              data-testid="report-help"
            >
              {translate(`app.reports.help.${kind}`)} {translate('app.reports.help.general')}
            </Typography>
          </Collapse>
        </CardContent>
        <Box sx={{ height: 4 }}>{report.isFetching && <LinearProgress />}</Box>
      </Card>

      {report.isError && (
        <Alert severity="error" sx={{ mt: 2 }}>
          {messageOf(report.error)}
        </Alert>
      )}

      {answer && !empty && <ReportTotals answer={answer} kind={kind} measureLabel={measureLabel} />}

      {empty && (
        <Alert severity="info" sx={{ mt: 2 }} data-testid="report-empty">
          {translate('app.reports.empty')}
        </Alert>
      )}

      {answer && !empty && (
        <>
          <Card sx={{ mt: 2 }}>
            <CardContent>
              <Stack
                direction="row"
                sx={{ alignItems: 'center', justifyContent: 'space-between', gap: 2, mb: 1 }}
              >
                <Typography variant="h6" component="h2">
                  {translate('app.reports.perMonth')}
                </Typography>
                {measures.length > 1 && (
                  <TextField
                    select
                    size="small"
                    label={translate('app.reports.chartMeasure')}
                    value={measure}
                    onChange={(event) =>
                      setCharted((all) => ({
                        ...all,
                        [kind]: event.target.value as ReportMeasure,
                      }))
                    }
                    sx={{ width: 280, flexShrink: 0 }}
                    slotProps={{ htmlInput: { 'data-testid': 'report-chart-measure' } }}
                  >
                    {measures.map((name) => (
                      <MenuItem key={name} value={name}>
                        {measureLabel(name)}
                      </MenuItem>
                    ))}
                  </TextField>
                )}
              </Stack>
              <MonthChart
                answer={answer}
                measure={measure}
                sourceName={sourceName}
                othersLabel={translate('app.reports.others')}
                locale={locale}
              />
            </CardContent>
          </Card>

          <Card sx={{ mt: 2 }}>
            <CardContent>
              <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
                {translate('app.reports.bySource')}
              </Typography>
              <SourceTable
                answer={answer}
                kind={kind}
                measureLabel={measureLabel}
                sourceName={sourceName}
              />
            </CardContent>
          </Card>

          {conversion && (
            <Card sx={{ mt: 2 }}>
              <CardContent>
                <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
                  {translate('app.reports.conversion')}
                </Typography>
                <ConversionChart
                  answer={answer}
                  sourceName={sourceName}
                  labels={{
                    count: measureLabel('count'),
                    withAppointment: measureLabel('withAppointment'),
                    withClosure: measureLabel('withClosure'),
                  }}
                />
              </CardContent>
            </Card>
          )}
        </>
      )}
    </Box>
  );
}
