/**
 * The five result tabs of a Global check (retirement, disability and death after a disease or an
 * accident): each with its chart (./GapChart.tsx, lazy: MUI X Charts only on these screens) and its
 * table — the benefit lines by source and kind with who receives them, CHF a month and notes; the
 * earnings still made; need, cover and gap; for disability the waiting period (KTG after a disease,
 * the UVG daily allowance after an accident). A scenario with a gap offers "create reminder" and
 * "create lead" (POST global-checks/{id}/follow-up) once the check is saved.
 */
import AlarmAddIcon from '@mui/icons-material/AlarmAdd';
import TrendingUpIcon from '@mui/icons-material/TrendingUp';
import {
  Alert,
  Box,
  Button,
  Chip,
  Link,
  Stack,
  Tab,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Tabs,
  Tooltip,
  Typography,
} from '@mui/material';
import { lazy, Suspense, useState } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { api, messageOf } from '../../dataProvider/apiClient.ts';
import { enumKey } from '../../schema/labels.ts';
import { contractHref, resourceHref } from '../../shell/paths.ts';
import { useArea } from '../../shell/area.ts';
import {
  type BenefitLine,
  camel,
  type ChartSource,
  type CheckResults,
  type Child,
  francs,
  type ScenarioAnswer,
  type ScenarioKind,
  SCENARIOS,
  SOURCES,
} from './model.ts';

const GapChart = lazy(() => import('./GapChart.tsx'));

const ui = (key: string) => `app.globalCheck.ui.${key}`;
const numeric = { whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' } as const;

interface FollowUpAnswer {
  data: { id: number };
  resource: string;
}

function BenefitRows({ lines, childrenOf }: { lines: BenefitLine[]; childrenOf: Child[] }) {
  const translate = useTranslate();
  const area = useArea();
  const who = (line: BenefitLine) => {
    const beneficiary = line.beneficiary ?? 'insured';
    if (beneficiary !== 'child') return translate(enumKey('pensionBeneficiary', beneficiary));
    const name = line.child === undefined ? '' : childrenOf[line.child]?.firstName;
    return name || translate(ui('beneficiary.childNumber'), { number: (line.child ?? 0) + 1 });
  };
  return (
    <>
      {lines.map((line, index) => (
        <TableRow key={index} data-testid="gc-benefit">
          <TableCell>
            {line.contractId && contractHref(area, 'closure', 'show', line.contractId) ? (
              <Link
                component={RouterLink}
                to={contractHref(area, 'closure', 'show', line.contractId) ?? '#'}
              >
                {translate(enumKey('pensionSource', camel(line.source)))}
              </Link>
            ) : (
              translate(enumKey('pensionSource', camel(line.source)))
            )}
          </TableCell>
          <TableCell>{translate(enumKey('pensionKind', camel(line.kind)))}</TableCell>
          <TableCell>{who(line)}</TableCell>
          <TableCell align="right" sx={numeric}>
            {francs(line.monthly)}
          </TableCell>
          <TableCell>
            <Stack direction="row" useFlexGap spacing={0.5} sx={{ flexWrap: 'wrap' }}>
              {(line.notes ?? []).map((note) => (
                <Chip
                  key={note}
                  size="small"
                  variant="outlined"
                  label={translate(enumKey('pensionNote', camel(note)))}
                />
              ))}
            </Stack>
          </TableCell>
        </TableRow>
      ))}
    </>
  );
}

function TotalRow({
  label,
  value,
  testId,
  strong,
}: {
  label: string;
  value: number;
  testId: string;
  strong?: boolean;
}) {
  const translate = useTranslate();
  return (
    <TableRow data-testid={testId}>
      <TableCell colSpan={3} sx={{ fontWeight: strong ? 700 : 500 }}>
        {translate(label)}
      </TableCell>
      <TableCell
        align="right"
        sx={{
          ...numeric,
          fontWeight: strong ? 700 : 500,
          color: strong && value > 0 ? 'error.main' : undefined,
        }}
      >
        {francs(value)}
      </TableCell>
      <TableCell />
    </TableRow>
  );
}

function Head() {
  const translate = useTranslate();
  return (
    <TableHead>
      <TableRow>
        <TableCell>{translate(ui('table.source'))}</TableCell>
        <TableCell>{translate(ui('table.kind'))}</TableCell>
        <TableCell>{translate(ui('table.beneficiary'))}</TableCell>
        <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
          {translate(ui('table.monthly'))}
        </TableCell>
        <TableCell>{translate(ui('table.notes'))}</TableCell>
      </TableRow>
    </TableHead>
  );
}

function WaitingPeriodTable({
  answer,
  childrenOf,
}: {
  answer: ScenarioAnswer;
  childrenOf: Child[];
}) {
  const translate = useTranslate();
  const waiting = answer.waitingPeriod;
  if (!waiting) return null;
  const source = waiting.source ? camel(waiting.source) : 'none';
  return (
    <Box data-testid="gc-waiting" sx={{ mt: 2 }}>
      <Typography variant="subtitle2">{translate(ui('waiting.title'))}</Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 0.5 }}>
        {waiting.source === null
          ? translate(ui('waiting.none'))
          : translate(ui(waiting.days === null ? 'waiting.untilPension' : 'waiting.days'), {
              source: translate(enumKey('pensionSource', source)),
              from: waiting.fromDay,
              days: waiting.days ?? '',
            })}
      </Typography>
      <Box sx={{ overflowX: 'auto' }}>
        <Table size="small">
          <Head />
          <TableBody>
            <BenefitRows lines={waiting.benefits ?? []} childrenOf={childrenOf} />
            <TotalRow label={ui('need')} value={answer.need} testId="gc-waiting-need" />
            <TotalRow label={ui('cover')} value={waiting.cover} testId="gc-waiting-cover" />
            <TotalRow label={ui('gap')} value={waiting.gap} testId="gc-waiting-gap" strong />
          </TableBody>
        </Table>
      </Box>
    </Box>
  );
}

function FollowUp({ checkId, scenario }: { checkId: number | null; scenario: ScenarioKind }) {
  const translate = useTranslate();
  const notify = useNotify();
  const area = useArea();
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<{ resource: string; id: number } | null>(null);
  const create = async (kind: 'reminder' | 'lead') => {
    if (checkId === null) return;
    setBusy(true);
    try {
      const answer = await api.json<FollowUpAnswer>('POST', `global-checks/${checkId}/follow-up`, {
        body: { scenario, kind },
      });
      const resource = answer.resource || (kind === 'lead' ? 'leads' : 'reminders');
      setCreated({ resource, id: answer.data.id });
      notify(ui(kind === 'lead' ? 'followUp.leadCreated' : 'followUp.reminderCreated'), {
        type: 'success',
      });
    } catch (caught) {
      notify(messageOf(caught), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  const href = created ? resourceHref(area, created.resource, 'show', created.id) : undefined;
  const disabled = busy || checkId === null;
  return (
    <Box sx={{ mt: 2 }} data-testid="gc-follow-up">
      <Stack direction="row" useFlexGap spacing={1} sx={{ flexWrap: 'wrap', alignItems: 'center' }}>
        <Tooltip title={checkId === null ? translate(ui('followUp.saveFirst')) : ''}>
          <span>
            <Button
              size="small"
              variant="outlined"
              startIcon={<AlarmAddIcon />}
              disabled={disabled}
              onClick={() => void create('reminder')}
              data-testid={`gc-follow-up-reminder-${scenario}`}
            >
              {translate(ui('followUp.reminder'))}
            </Button>
          </span>
        </Tooltip>
        <Tooltip title={checkId === null ? translate(ui('followUp.saveFirst')) : ''}>
          <span>
            <Button
              size="small"
              variant="outlined"
              startIcon={<TrendingUpIcon />}
              disabled={disabled}
              onClick={() => void create('lead')}
              data-testid={`gc-follow-up-lead-${scenario}`}
            >
              {translate(ui('followUp.lead'))}
            </Button>
          </span>
        </Tooltip>
        {checkId === null ? (
          <Typography variant="caption" color="text.secondary">
            {translate(ui('followUp.saveFirst'))}
          </Typography>
        ) : null}
      </Stack>
      {created ? (
        <Alert severity="success" sx={{ mt: 1 }} data-testid="gc-follow-up-created">
          {translate(
            ui(created.resource === 'leads' ? 'followUp.leadCreated' : 'followUp.reminderCreated'),
          )}{' '}
          {href ? (
            <Link component={RouterLink} to={href} data-testid="gc-follow-up-link">
              {translate(ui('followUp.open'))}
            </Link>
          ) : null}
        </Alert>
      ) : null}
    </Box>
  );
}

function ScenarioPanel({
  scenario,
  answer,
  checkId,
  childrenOf,
}: {
  scenario: ScenarioKind;
  answer: ScenarioAnswer;
  checkId: number | null;
  childrenOf: Child[];
}) {
  const translate = useTranslate();
  const labels = {
    need: translate(ui('need')),
    cover: translate(ui('cover')),
    gap: translate(ui('gap')),
    ...(Object.fromEntries(
      SOURCES.map((source) => [
        source,
        translate(
          source === 'earnings' ? ui('remainingEarnings') : enumKey('pensionSource', source),
        ),
      ]),
    ) as Record<ChartSource, string>),
  };
  return (
    <Box data-testid={`gc-scenario-${scenario}`}>
      <Stack direction="row" useFlexGap spacing={1} sx={{ flexWrap: 'wrap', mb: 1 }}>
        <Chip label={`${labels.need}: ${francs(answer.need)}`} data-testid="gc-need" />
        <Chip label={`${labels.cover}: ${francs(answer.cover)}`} data-testid="gc-cover" />
        <Chip
          color={answer.gap > 0 ? 'error' : 'success'}
          label={`${labels.gap}: ${francs(answer.gap)}`}
          data-testid="gc-gap"
          data-gap={answer.gap}
        />
        <Typography variant="caption" color="text.secondary" sx={{ alignSelf: 'center' }}>
          {translate(ui('perMonth'))}
        </Typography>
      </Stack>
      <Suspense fallback={<Box sx={{ height: 280 }} />}>
        <GapChart answer={answer} labels={labels} />
      </Suspense>
      <Box sx={{ overflowX: 'auto' }}>
        <Table size="small" data-testid="gc-table">
          <Head />
          <TableBody>
            <BenefitRows lines={answer.benefits ?? []} childrenOf={childrenOf} />
            {answer.benefits?.length ? null : (
              <TableRow>
                <TableCell colSpan={5} sx={{ color: 'text.secondary' }}>
                  {translate(ui('noBenefits'))}
                </TableCell>
              </TableRow>
            )}
            {answer.remainingEarnings > 0 ? (
              <TotalRow
                label={ui('remainingEarnings')}
                value={answer.remainingEarnings}
                testId="gc-remaining"
              />
            ) : null}
            <TotalRow label={ui('need')} value={answer.need} testId="gc-row-need" />
            <TotalRow label={ui('cover')} value={answer.cover} testId="gc-row-cover" />
            <TotalRow label={ui('gap')} value={answer.gap} testId="gc-row-gap" strong />
          </TableBody>
        </Table>
      </Box>
      <WaitingPeriodTable answer={answer} childrenOf={childrenOf} />
      {answer.gap > 0 ? <FollowUp checkId={checkId} scenario={scenario} /> : null}
    </Box>
  );
}

export function Results({
  results,
  checkId,
  childrenOf,
  tab,
  onTab,
}: {
  results: CheckResults;
  /** The saved check the results belong to (follow-ups need one), null for a preview. */
  checkId: number | null;
  childrenOf: Child[];
  tab: ScenarioKind;
  onTab: (tab: ScenarioKind) => void;
}) {
  const translate = useTranslate();
  const answer = results.scenarios?.[tab];
  return (
    <Box data-testid="gc-results">
      <Tabs
        value={tab}
        onChange={(_event, value: ScenarioKind) => onTab(value)}
        variant="scrollable"
        scrollButtons="auto"
        sx={{ borderBottom: 1, borderColor: 'divider', mb: 2 }}
      >
        {SCENARIOS.map((scenario) => {
          const gap = results.scenarios?.[scenario]?.gap ?? 0;
          return (
            <Tab
              key={scenario}
              value={scenario}
              data-testid={`gc-tab-${scenario}`}
              label={
                <Stack direction="row" spacing={0.75} sx={{ alignItems: 'center' }}>
                  <span>{translate(enumKey('globalCheckScenario', scenario))}</span>
                  {gap > 0 ? (
                    <Box
                      component="span"
                      sx={{ width: 8, height: 8, borderRadius: '50%', bgcolor: 'error.main' }}
                      aria-label={translate(ui('hasGap'))}
                    />
                  ) : null}
                </Stack>
              }
            />
          );
        })}
      </Tabs>
      {answer ? (
        <ScenarioPanel
          key={tab}
          scenario={tab}
          answer={answer}
          checkId={checkId}
          childrenOf={childrenOf}
        />
      ) : (
        <Typography color="text.secondary">{translate(ui('noResults'))}</Typography>
      )}
    </Box>
  );
}
