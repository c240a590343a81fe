/**
 * Create and edit of a commission rule (`commission-rules/new`, `commission-rules/{id}/edit`): the
 * schema's fields in the sections of its `x-group`s — the rule (name, validity by signing date,
 * active, note), what it matches (category, client age, insurer, products, sub-products, variants),
 * the amount (type, basis, factor or flat rate, clawback period) and the people (stars). Only the
 * products the chosen insurer offers (companies.products) are offered, only the sub-products of the
 * chosen products and the variants of the chosen sub-products. The factor's label and help follow
 * the basis (monthly premiums, or percent of the annual premium / production sum); a flat rule has
 * a CHF amount instead. The server's refusals show beside their inputs — the overlap with another
 * equally specific active rule on "valid from", naming that rule.
 */
import { Box, InputAdornment, Typography } from '@mui/material';
import { type ReactNode, useMemo } from 'react';
import {
  Create,
  DeleteButton,
  Edit,
  maxValue,
  minValue,
  NumberInput,
  required,
  SaveButton,
  Toolbar,
  useGetOne,
  useTranslate,
  type Validator,
} from 'react-admin';
import { useWatch } from 'react-hook-form';
import { ConflictGuard } from '../../resources/conflict/ConflictGuard.tsx';
import { SimpleForm } from '../../resources/forms/forms.tsx';
import { inputFor, ReferencePicker } from '../../resources/inputs.tsx';
import type { ApiRecord } from '../../resources/records.ts';
import { getModel } from '../../resources/registry.ts';
import { fieldLabelKey } from '../../schema/labels.ts';
import { resourceRoute } from '../../shell/paths.ts';
import { useArea } from '../../shell/area.ts';
import { premiumAmountKeys, ruleBody, subProductOwners } from './model.ts';

const RESOURCE = 'commission-rules';
const label = (name: string) => fieldLabelKey(RESOURCE, name);
const ruleModel = () => getModel(RESOURCE);

const SECTIONS = [
  { group: 'rule', title: 'app.commissionRules.sections.rule' },
  { group: 'match', title: 'app.commissionRules.sections.match' },
  { group: 'amount', title: 'app.commissionRules.sections.amount' },
  { group: 'people', title: 'app.commissionRules.sections.people' },
] as const;

const GRID = {
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fill, minmax(240px, 1fr))',
  columnGap: 2,
  width: '100%',
} as const;

/** Fields that take a whole row of the grid (long lists, the note). */
const WIDE = new Set(['productIds', 'subProductIds', 'subProductVariantIds', 'note']);

const ids = (value: unknown): number[] =>
  Array.isArray(value) ? value.filter((id): id is number => typeof id === 'number') : [];

/** The products the chosen insurer offers (all of them while none is chosen or it lists none). */
function ProductsInput() {
  const companyId = useWatch({ name: 'companyId' }) as number | null | undefined;
  const { data: company } = useGetOne<ApiRecord<'companies'>>(
    'companies',
    { id: companyId ?? 0 },
    { enabled: Boolean(companyId) },
  );
  const offered = companyId && company?.id === companyId ? ids(company.products) : [];
  return (
    <ReferencePicker
      source="productIds"
      reference="products"
      label={label('productIds')}
      filter={offered.length > 0 ? { id: offered } : undefined}
      multiple
    />
  );
}

/** The sub-products of the chosen products (health "basic + supplementary": also of its parts). */
function SubProductsInput() {
  const productIds = ids(useWatch({ name: 'productIds' }));
  const owners = subProductOwners(productIds);
  return (
    <ReferencePicker
      source="subProductIds"
      reference="sub-products"
      label={label('subProductIds')}
      filter={owners.length > 0 ? { productId: owners } : undefined}
      multiple
    />
  );
}

/** The variants of the chosen sub-products. */
function VariantsInput() {
  const subProductIds = ids(useWatch({ name: 'subProductIds' }));
  return (
    <ReferencePicker
      source="subProductVariantIds"
      reference="sub-product-variants"
      label={label('subProductVariantIds')}
      filter={subProductIds.length > 0 ? { subProductId: subProductIds } : undefined}
      multiple
    />
  );
}

/** The factor, named after the basis (monthly premiums or percent); none for a flat rate. */
function FactorInput() {
  const translate = useTranslate();
  const basis = useWatch({ name: 'calculationBasis' }) as string | null | undefined;
  const keys = premiumAmountKeys(basis);
  const validate = useMemo<Validator[]>(
    () => [...(basis ? [required()] : []), minValue(0), maxValue(1000)],
    [basis],
  );
  if (!keys) return null;
  const percent = basis === 'annual_premium' || basis === 'production_sum';
  return (
    <NumberInput
      source="premiumAmount"
      label={keys.label}
      helperText={translate(keys.help)}
      validate={validate}
      slotProps={{
        input: percent
          ? { endAdornment: <InputAdornment position="end">%</InputAdornment> }
          : undefined,
      }}
      data-testid="rule-factor"
    />
  );
}

/** The currency's code (not a word to translate). */
const CURRENCY = 'CHF';

const FLAT_RATE_VALIDATORS = [required(), minValue(0), maxValue(1_000_000)];

/** The flat rate in CHF, for a flat rule only. */
function FlatRateInput() {
  const basis = useWatch({ name: 'calculationBasis' }) as string | null | undefined;
  if (basis !== 'flat') return null;
  return (
    <NumberInput
      source="flatRate"
      label={label('flatRate')}
      validate={FLAT_RATE_VALIDATORS}
      slotProps={{
        input: { startAdornment: <InputAdornment position="start">{CURRENCY}</InputAdornment> },
      }}
      data-testid="rule-flat-rate"
    />
  );
}

function FieldInput({ name }: { name: string }): ReactNode {
  switch (name) {
    case 'productIds':
      return <ProductsInput />;
    case 'subProductIds':
      return <SubProductsInput />;
    case 'subProductVariantIds':
      return <VariantsInput />;
    case 'premiumAmount':
      return <FactorInput />;
    case 'flatRate':
      return <FlatRateInput />;
    default: {
      const field = ruleModel().fields.find((candidate) => candidate.name === name);
      return field ? inputFor(ruleModel(), field) : null;
    }
  }
}

function RuleSections() {
  const translate = useTranslate();
  const model = ruleModel();
  return (
    <>
      {SECTIONS.map(({ group, title }) => {
        const fields = model.fields.filter(
          (field) => field.schema['x-group'] === group && !field.readOnly,
        );
        return (
          <Box key={group} component="section" sx={{ width: '100%', mb: 1 }} data-section={group}>
            <Typography variant="subtitle2" color="text.secondary" sx={{ mb: 1 }}>
              {translate(title)}
            </Typography>
            <Box sx={GRID}>
              {fields.map((field) => (
                // A field the basis hides takes no cell (display: contents).
                <Box
                  key={field.name}
                  sx={WIDE.has(field.name) ? { gridColumn: '1 / -1' } : { display: 'contents' }}
                >
                  <FieldInput name={field.name} />
                </Box>
              ))}
            </Box>
          </Box>
        );
      })}
    </>
  );
}

const DEFAULTS = {
  isActive: true,
  commissionType: 'acquisition',
  productIds: [],
  subProductIds: [],
  subProductVariantIds: [],
  liabilityMonths: 0,
  stars: 0,
  teamLeadStars: 0,
};

const toList = (area: ReturnType<typeof useArea>) => () =>
  resourceRoute(area, RESOURCE, 'list') ?? '';

export function RuleCreate() {
  const area = useArea();
  return (
    <Create resource={RESOURCE} redirect={toList(area)} transform={ruleBody}>
      <SimpleForm
        defaultValues={DEFAULTS}
        toolbar={
          <Toolbar>
            <SaveButton data-testid="rule-save" />
          </Toolbar>
        }
      >
        <RuleSections />
      </SimpleForm>
    </Create>
  );
}

export default function RuleEdit() {
  const area = useArea();
  return (
    <Edit
      resource={RESOURCE}
      actions={false}
      mutationMode="pessimistic"
      redirect={toList(area)}
      transform={ruleBody}
    >
      <ConflictGuard>
        <SimpleForm
          toolbar={
            <Toolbar sx={{ justifyContent: 'space-between' }}>
              <SaveButton data-testid="rule-save" />
              <DeleteButton mutationMode="pessimistic" redirect={toList(area)()} />
            </Toolbar>
          }
        >
          <RuleSections />
        </SimpleForm>
      </ConflictGuard>
    </Edit>
  );
}
