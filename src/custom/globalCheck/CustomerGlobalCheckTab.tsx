/**
 * The Global check tab of a customer (customers/{id}?tab=globalCheck, issue 19): the customer's
 * saved checks, newest first — date, topics, gross income and the gap of each scenario (CHF a
 * month) — each opening the check's page (customers/{id}/global-check, ./GlobalCheckPage.tsx);
 * "compare" opens a check beside the one before it; "open global check" and "new check".
 */
import AddIcon from '@mui/icons-material/Add';
import CompareArrowsIcon from '@mui/icons-material/CompareArrows';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import { Button, IconButton, Link, TableCell, TableRow, Tooltip } from '@mui/material';
import { useLocale, useRecordContext, useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import type { ApiRecord } from '../../resources/records.ts';
import { enumKey } from '../../schema/labels.ts';
import { useArea } from '../../shell/area.ts';
import { CustomerTabTable } from '../customers/CustomerTabTable.tsx';
import { useSavedChecks } from './hooks.ts';
import { enumLabelKey, labelKey } from './labels.ts';
import { checkPagePath, checkWhen, francs, SCENARIOS } from './model.ts';

const ui = (key: string) => `app.globalCheck.ui.${key}`;
const numeric = { whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' } as const;

export function CustomerGlobalCheckTab() {
  const customer = useRecordContext<ApiRecord<'customers'>>();
  const translate = useTranslate();
  const locale = useLocale();
  const area = useArea();
  const { data = [], total, isPending } = useSavedChecks(customer?.id);
  if (!customer) return null;
  return (
    <CustomerTabTable
      testId="customer-global-checks"
      title={translate('app.customers.tabs.globalCheck')}
      total={total}
      isPending={isPending}
      empty={data.length === 0}
      emptyText={translate(ui('noneForCustomer'))}
      actions={
        <>
          {data.length > 0 ? (
            <Button
              size="small"
              startIcon={<OpenInNewIcon />}
              component={RouterLink}
              to={checkPagePath(area, customer.id)}
              data-testid="customer-global-check-open"
            >
              {translate(ui('open'))}
            </Button>
          ) : null}
          <Button
            size="small"
            startIcon={<AddIcon />}
            component={RouterLink}
            to={`${checkPagePath(area, customer.id)}?new=1`}
            data-testid="customer-global-check-new"
          >
            {translate(ui('newCheck'))}
          </Button>
        </>
      }
      head={
        <>
          <TableCell>{translate(labelKey('checkDate'))}</TableCell>
          <TableCell>{translate(labelKey('topics'))}</TableCell>
          <TableCell align="right">{translate(labelKey('grossIncome'))}</TableCell>
          {SCENARIOS.map((scenario) => (
            <TableCell key={scenario} align="right">
              {translate(ui('gapOf'), {
                scenario: translate(enumKey('globalCheckScenario', scenario)),
              })}
            </TableCell>
          ))}
          <TableCell />
        </>
      }
    >
      {data.map((check, index) => {
        const before = data[index + 1];
        return (
          <TableRow key={check.id} hover data-testid={`customer-global-check-${check.id}`}>
            <TableCell sx={{ whiteSpace: 'nowrap' }}>
              <Link
                component={RouterLink}
                to={checkPagePath(area, customer.id, { check: check.id })}
              >
                {checkWhen(check, data, locale)}
              </Link>
            </TableCell>
            <TableCell>
              {(check.topics ?? [])
                .map((topic) => translate(enumLabelKey('topics', topic)))
                .join(', ')}
            </TableCell>
            <TableCell align="right" sx={numeric}>
              {francs(check.grossIncome)}
            </TableCell>
            {SCENARIOS.map((scenario) => {
              const gap = check.results?.scenarios?.[scenario]?.gap;
              return (
                <TableCell
                  key={scenario}
                  align="right"
                  sx={{ ...numeric, color: gap ? 'error.main' : 'text.secondary' }}
                  data-testid={`customer-global-check-gap-${scenario}`}
                >
                  {gap === undefined ? '–' : francs(gap)}
                </TableCell>
              );
            })}
            <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
              {before ? (
                <Tooltip title={translate(ui('compareWithPrevious'))}>
                  <IconButton
                    size="small"
                    component={RouterLink}
                    to={checkPagePath(area, customer.id, {
                      check: check.id,
                      compare: before.id,
                    })}
                    aria-label={translate(ui('compareWithPrevious'))}
                    data-testid={`customer-global-check-compare-${check.id}`}
                  >
                    <CompareArrowsIcon fontSize="small" />
                  </IconButton>
                </Tooltip>
              ) : null}
              <Tooltip title={translate(ui('openCheck'))}>
                <IconButton
                  size="small"
                  component={RouterLink}
                  to={checkPagePath(area, customer.id, { check: check.id })}
                  aria-label={translate(ui('openCheck'))}
                  data-testid={`customer-global-check-open-${check.id}`}
                >
                  <OpenInNewIcon fontSize="small" />
                </IconButton>
              </Tooltip>
            </TableCell>
          </TableRow>
        );
      })}
    </CustomerTabTable>
  );
}
