/**
 * Commission rules (admin area, manage-commission-rules; route `commission-rules`): name, validity
 * (signing dates), insurer, commission type, calculation basis, the factor or flat rate as the
 * basis reads it (16 monthly premiums, 15 % of the annual premium, CHF 200.00), active; filters
 * by search, active, insurer, product, category, type and basis; "Which rule applies?" opens the
 * tester (./RuleTester.tsx).
 */
import ScienceIcon from '@mui/icons-material/Science';
import { useState } from 'react';
import {
  BooleanField,
  Button,
  CreateButton,
  Datagrid,
  FilterButton,
  FunctionField,
  List,
  NullableBooleanInput,
  TextInput,
  TopToolbar,
  useLocale,
  useTranslate,
} from 'react-admin';
import { pageSizeFor } from '../../auth/session.ts';
import { formatChf, formatDate, formatNumber } from '../../i18n/format.ts';
import { fieldFor, prefetchMeta } from '../../resources/fields.tsx';
import { EnumInput, ReferencePicker } from '../../resources/inputs.tsx';
import { getModel } from '../../resources/registry.ts';
import { enumKey, fieldLabelKey } from '../../schema/labels.ts';
import { resourceHref } from '../../shell/paths.ts';
import { useArea } from '../../shell/area.ts';
import type { CommissionRule } from './model.ts';
import { RuleTester } from './RuleTester.tsx';

const RESOURCE = 'commission-rules';
const label = (name: string) => fieldLabelKey(RESOURCE, name);
const ruleModel = () => getModel(RESOURCE);
export const ruleFieldOf = (name: string) => {
  const field = ruleModel().fields.find((candidate) => candidate.name === name);
  if (!field) throw new Error(`commission-rules has no field ${name}`);
  return field;
};

function enumFilter(name: string) {
  const field = ruleFieldOf(name);
  return (
    <EnumInput
      key={name}
      source={name}
      label={label(name)}
      schema={field.schema}
      enumName={field.enumName ?? ''}
    />
  );
}

const FILTERS = [
  <TextInput key="q" source="q" label="ra.action.search" alwaysOn resettable />,
  <NullableBooleanInput key="isActive" source="isActive" label={label('isActive')} alwaysOn />,
  <ReferencePicker
    key="companyId"
    source="companyId"
    reference="companies"
    label={label('companyId')}
    alwaysOn
  />,
  <ReferencePicker
    key="productIds"
    source="productIds"
    reference="products"
    label={label('productIds')}
  />,
  enumFilter('contractType'),
  enumFilter('commissionType'),
  enumFilter('calculationBasis'),
];

function Actions() {
  const translate = useTranslate();
  const area = useArea();
  const [testing, setTesting] = useState(false);
  return (
    <TopToolbar sx={{ alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
      <FilterButton />
      <Button
        label={translate('app.commissionRules.tester.open')}
        onClick={() => setTesting(true)}
        data-testid="rule-tester-open"
      >
        <ScienceIcon />
      </Button>
      <CreateButton to={resourceHref(area, RESOURCE, 'create')} data-testid="rule-create" />
      {testing ? <RuleTester onClose={() => setTesting(false)} /> : null}
    </TopToolbar>
  );
}

/** The factor as its basis reads it: 16 monthly premiums, 15 %, CHF 200.00. */
export function useAmountText() {
  const translate = useTranslate();
  return (rule: Pick<CommissionRule, 'calculationBasis' | 'premiumAmount' | 'flatRate'>) => {
    if (rule.calculationBasis === 'flat') return formatChf(rule.flatRate);
    if (rule.premiumAmount === null || rule.premiumAmount === undefined) return '';
    const factor = formatNumber(rule.premiumAmount);
    return rule.calculationBasis === 'monthly_premium'
      ? translate('app.commissionRules.amount.monthly', { factor })
      : translate('app.commissionRules.amount.percent', { factor });
  };
}

export default function RuleList() {
  const translate = useTranslate();
  const locale = useLocale();
  const area = useArea();
  const amountText = useAmountText();
  return (
    <List
      resource={RESOURCE}
      filters={FILTERS}
      sort={{ field: 'availableFrom', order: 'DESC' }}
      perPage={pageSizeFor(RESOURCE)}
      queryOptions={{ meta: prefetchMeta([ruleFieldOf('companyId')]) }}
      actions={<Actions />}
      title="app.menu.commissionRules"
    >
      <Datagrid
        rowClick={(id) => resourceHref(area, RESOURCE, 'edit', id) ?? false}
        bulkActionButtons={false}
        data-testid="rules-list"
        sx={{ '& td': { py: 0.75 } }}
      >
        {fieldFor(ruleModel(), ruleFieldOf('name'), { inList: true })}
        <FunctionField<CommissionRule>
          source="availableFrom"
          label="app.commissionRules.validity"
          render={(rule) => (
            <span style={{ whiteSpace: 'nowrap' }}>
              {translate(
                rule.availableTill
                  ? 'app.commissionRules.validFromTill'
                  : 'app.commissionRules.validFrom',
                {
                  from: formatDate(rule.availableFrom, locale),
                  till: formatDate(rule.availableTill, locale),
                },
              )}
            </span>
          )}
        />
        {fieldFor(ruleModel(), ruleFieldOf('companyId'), { inList: true })}
        <FunctionField<CommissionRule>
          source="commissionType"
          label={label('commissionType')}
          render={(rule) => translate(enumKey('commissionType', rule.commissionType))}
        />
        <FunctionField<CommissionRule>
          source="calculationBasis"
          label={label('calculationBasis')}
          render={(rule) => translate(enumKey('calculationBasis', rule.calculationBasis))}
        />
        <FunctionField<CommissionRule>
          label="app.commissionRules.amount.column"
          textAlign="right"
          render={(rule) => <span style={{ whiteSpace: 'nowrap' }}>{amountText(rule)}</span>}
        />
        <BooleanField source="isActive" label={label('isActive')} />
      </Datagrid>
    </List>
  );
}
