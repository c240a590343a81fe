/**
 * One ledger line (`commission-lines/{id}`, reached from a single payment or a reversal): who
 * earns it, kind, month, amount in CHF, status, the contract and customer, the rule (and its
 * version) that produced it, the line it reverses, its payout, the reason, and the explain.
 */
import { Box, Typography } from '@mui/material';
import {
  FunctionField,
  Labeled,
  Show,
  SimpleShowLayout,
  useLocale,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { Link } from 'react-router-dom';
import { formatDateTime, formatNumber } from '../../i18n/format.ts';
import { fieldFor } from '../../resources/fields.tsx';
import { getModel } from '../../resources/registry.ts';
import { enumKey, fieldLabelKey } from '../../schema/labels.ts';
import { contractHref } from '../../shell/paths.ts';
import { useArea } from '../../shell/area.ts';
import { Amount, CapFlag, ExplainSteps, LineStatusChip, Month } from './components.tsx';
import type { CommissionLine } from './model.ts';

const RESOURCE = 'commission-lines';
const label = (name: string) => fieldLabelKey(RESOURCE, name);
const model = () => getModel(RESOURCE);
const field = (name: string) => {
  const found = model().fields.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`${RESOURCE} has no field ${name}`);
  return fieldFor(model(), found);
};

function Details() {
  const translate = useTranslate();
  const locale = useLocale();
  const area = useArea();
  const line = useRecordContext<CommissionLine>();
  if (!line) return null;
  const contract = line.contractId ? contractHref(area, 'closure', 'show', line.contractId) : '';
  return (
    <SimpleShowLayout>
      {line.userId ? field('userId') : null}
      {line.subBrokerId ? field('subBrokerId') : null}
      <FunctionField<CommissionLine>
        label={label('kind')}
        render={(record) => translate(enumKey('commissionLineKind', record.kind))}
      />
      <FunctionField<CommissionLine>
        label={label('period')}
        render={(record) => <Month month={record.period} />}
      />
      <FunctionField<CommissionLine>
        label={label('amount')}
        render={(record) => <Amount centimes={record.amount} strong testId="line-amount" />}
      />
      {line.stars !== null ? (
        <FunctionField<CommissionLine>
          label={label('stars')}
          render={(record) => formatNumber(record.stars)}
        />
      ) : null}
      <FunctionField<CommissionLine>
        label={label('status')}
        render={(record) => <LineStatusChip status={record.status} />}
      />
      {contract ? (
        <Labeled label={label('contractId')}>
          <Typography variant="body2" component="span">
            <Link to={contract}>{line.contractNumber || `#${line.contractId}`}</Link>
            {line.customerName ? ` · ${line.customerName}` : ''}
          </Typography>
        </Labeled>
      ) : null}
      {line.ruleId ? field('ruleId') : null}
      {line.ruleVersion ? field('ruleVersion') : null}
      {line.reversesId ? field('reversesId') : null}
      {line.payoutId ? field('payoutId') : null}
      {line.reason ? field('reason') : null}
      <FunctionField<CommissionLine>
        label={label('createdAt')}
        render={(record) => formatDateTime(record.createdAt, locale)}
      />
      <Labeled label={label('explain')} fullWidth>
        <Box>
          <ExplainSteps steps={line.explain} />
          {line.capExceeded ? (
            <Box sx={{ mt: 1 }}>
              <CapFlag capAmount={line.capAmount} />
            </Box>
          ) : null}
        </Box>
      </Labeled>
    </SimpleShowLayout>
  );
}

export default function LineShow() {
  return (
    <Show resource={RESOURCE} actions={false}>
      <Details />
    </Show>
  );
}
