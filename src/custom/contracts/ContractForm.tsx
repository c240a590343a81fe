/**
 * Create and edit of a contract (admin area). The form follows the product group: health shows
 * the basic model (sub-products of the product), its variant and the KVG deductible (adults or
 * children, DOMAIN.md §1) and the supplementary insurances with monthly premiums; life the premium,
 * term and payment cycle; P&C the coverage lines; finance the amount and interest rate. Only the
 * sub-products and variants of the chosen product, and the insurers offering it
 * (companies.products), are offered. A non-closure needs its reason. The insured person is the
 * customer or one of its household members. The commissions are the commission engine's (shown,
 * never entered: ./CommissionsTable.tsx). Values of sections the group does not show are left out when
 * saving (./model.ts cleanForGroup). The server computes the figures and checks everything again;
 * a life form shows its annual premium and production sum live, with the server's own function
 * (src/schema/figures.ts), marked as calculated on save.
 * Forms from src/resources/forms/ (server errors beside the inputs); the edit is pessimistic with
 * the version conflict question (ConflictGuard).
 */
import VisibilityIcon from '@mui/icons-material/Visibility';
import { Box, TextField, Typography } from '@mui/material';
import { type ReactNode, useEffect, useMemo } from 'react';
import {
  ArrayInput,
  AutocompleteInput,
  Button,
  Create,
  Edit,
  NumberInput,
  required,
  SaveButton,
  SelectInput,
  SimpleFormIterator,
  TextInput,
  Toolbar,
  TopToolbar,
  useGetList,
  useGetOne,
  useGetRecordRepresentation,
  useRecordContext,
  useSourceContext,
  useTranslate,
  type Validator,
} from 'react-admin';
import { useFormContext, useWatch } from 'react-hook-form';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { LocalizedDateInput } from '../../i18n/components.tsx';
import { formatChf } from '../../i18n/format.ts';
import { ConflictGuard } from '../../resources/conflict/ConflictGuard.tsx';
import { SimpleForm, withValidator } from '../../resources/forms/forms.tsx';
import { EnumInput, inputFor, ReferencePicker, validatorsFor } from '../../resources/inputs.tsx';
import type { ApiRecord } from '../../resources/records.ts';
import type { ProductGroup } from '../../schema/catalogue.ts';
import { contractFigures, type PaymentCycle } from '../../schema/figures.ts';
import { fieldLabelKey } from '../../schema/labels.ts';
import type { JsonSchema } from '../../schema/model.ts';
import { type ContractType, contractHref, contractRoute } from '../../shell/paths.ts';
import { useArea } from '../../shell/area.ts';
import { DeleteContractButton } from './ContractActions.tsx';
import { CommissionsTable } from './CommissionsTable.tsx';
import {
  cleanForGroup,
  type Contract,
  contractModel,
  fieldOf,
  isKvgChild,
  KVG_DEDUCTIBLES,
  mainSubProductSource,
  sectionsOf,
  supplementarySource,
  withoutEmpty,
} from './model.ts';

const GRID = {
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fill, minmax(240px, 1fr))',
  columnGap: 2,
  width: '100%',
} as const;

const label = (path: string) => fieldLabelKey('contracts', path);

/** The JSON schema of a nested property (`insurance.premium`, `supplementaryInsurances.premiumMonth`). */
function nestedSchema(path: string): JsonSchema {
  const [top, child] = path.split('.');
  const schema = fieldOf(top).schema;
  const properties = (schema.type === 'array' ? schema.items?.properties : schema.properties) ?? {};
  return properties[child] ?? {};
}

const nestedValidators = (path: string, isRequired = false) =>
  validatorsFor(nestedSchema(path), isRequired);

function Section({
  title,
  testId,
  children,
}: {
  title: string;
  testId: string;
  children: ReactNode;
}) {
  const translate = useTranslate();
  return (
    <Box component="section" sx={{ width: '100%', mb: 2 }} data-section={testId}>
      <Typography variant="subtitle2" color="text.secondary" sx={{ mb: 1 }}>
        {translate(title)}
      </Typography>
      {children}
    </Box>
  );
}

/** An input of a top-level field as the schema describes it. */
const input = (name: string) => inputFor(contractModel(), fieldOf(name));

/** Inside an array row: the path of a sibling (`supplementaryInsurances.2.subProductId`). */
function useSibling(name: string): unknown {
  const sourceContext = useSourceContext();
  return useWatch({ name: sourceContext.getSource(name) });
}

/** The active sub-products of a product, as a select (none: the input says so and is disabled). */
function SubProductSelect({
  source,
  productId,
  labelKey,
  validate,
}: {
  source: string;
  productId: number | undefined;
  labelKey: string;
  validate?: Validator[];
}) {
  const representation = useGetRecordRepresentation('sub-products');
  const { data = [], isPending } = useGetList(
    'sub-products',
    {
      filter: { productId, isActive: true },
      pagination: { page: 1, perPage: 200 },
      sort: { field: 'id', order: 'ASC' },
    },
    { enabled: productId !== undefined },
  );
  const choices = data.map((record) => ({ id: record.id, name: String(representation(record)) }));
  return (
    <SelectInput
      source={source}
      label={labelKey}
      choices={choices}
      isPending={productId !== undefined && isPending}
      disabled={productId === undefined}
      validate={validate}
      emptyText=""
    />
  );
}

/** The active variants of the sub-product in `siblingSource`. */
function VariantSelect({
  source,
  subProductSource,
  labelKey,
}: {
  source: string;
  subProductSource: string;
  labelKey: string;
}) {
  const subProductId = useSibling(subProductSource) as number | undefined | null;
  const representation = useGetRecordRepresentation('sub-product-variants');
  const { data = [] } = useGetList(
    'sub-product-variants',
    {
      filter: { subProductId, isActive: true },
      pagination: { page: 1, perPage: 200 },
      sort: { field: 'id', order: 'ASC' },
    },
    { enabled: Boolean(subProductId) },
  );
  const { setValue, getValues } = useFormContext();
  const sourceContext = useSourceContext();
  const path = sourceContext.getSource(source);
  // A variant of another sub-product is dropped when the sub-product changes.
  useEffect(() => {
    const current = getValues(path) as number | null | undefined;
    if (!current) return;
    if (!subProductId || (data.length > 0 && !data.some((record) => record.id === current))) {
      setValue(path, null, { shouldDirty: true });
    }
  }, [subProductId, data, getValues, setValue, path]);
  const choices = data.map((record) => ({ id: record.id, name: String(representation(record)) }));
  return (
    <SelectInput
      source={source}
      label={labelKey}
      choices={choices}
      disabled={!subProductId || choices.length === 0}
      emptyText=""
    />
  );
}

/** The insurers offering the chosen product (companies.products), plus the one already chosen. */
function InsurerInput({
  productId,
  isRequired,
}: {
  productId: number | undefined;
  isRequired: boolean;
}) {
  const representation = useGetRecordRepresentation('companies');
  const current = useWatch({ name: 'companyId' }) as number | null | undefined;
  const { data = [], isPending } = useGetList<ApiRecord<'companies'>>('companies', {
    pagination: { page: 1, perPage: 500 },
    sort: { field: '_label', order: 'ASC' },
  });
  const choices = useMemo(
    () =>
      data
        .filter(
          (company) =>
            productId === undefined ||
            (company.products ?? []).includes(productId) ||
            company.id === current,
        )
        .map((company) => ({ id: company.id, name: String(representation(company)) })),
    [data, productId, current, representation],
  );
  return (
    <AutocompleteInput
      source="companyId"
      label={label('companyId')}
      choices={choices}
      isPending={isPending}
      validate={isRequired ? [required()] : undefined}
      data-testid="contract-company"
    />
  );
}

/** The insured person: the customer (empty) or one of its household members. */
function InsuredPersonInput() {
  const translate = useTranslate();
  const customerId = useWatch({ name: 'customerId' }) as number | null | undefined;
  const { data = [] } = useGetList<ApiRecord<'household-members'>>(
    'household-members',
    {
      filter: { customerId },
      pagination: { page: 1, perPage: 100 },
      sort: { field: 'id', order: 'ASC' },
    },
    { enabled: Boolean(customerId) },
  );
  const choices = data.map((member) => ({
    id: member.id,
    name: `${member.firstName} ${member.lastName}`,
  }));
  return (
    <SelectInput
      source="householdMemberId"
      label="app.contracts.fields.insuredPerson"
      choices={choices}
      emptyText={translate('app.contracts.insuredIsCustomer')}
      disabled={!customerId}
    />
  );
}

/** The date of birth of the insured person (member or customer), for the deductibles offered. */
function useInsuredBirthDate(): string | undefined {
  const customerId = useWatch({ name: 'customerId' }) as number | null | undefined;
  const memberId = useWatch({ name: 'householdMemberId' }) as number | null | undefined;
  const { data: customer } = useGetOne<ApiRecord<'customers'>>(
    'customers',
    { id: customerId ?? 0 },
    { enabled: Boolean(customerId) && !memberId },
  );
  const { data: member } = useGetOne<ApiRecord<'household-members'>>(
    'household-members',
    { id: memberId ?? 0 },
    { enabled: Boolean(memberId) },
  );
  return (memberId ? member?.dateOfBirth : customer?.dateOfBirth) ?? undefined;
}

function DeductibleInput() {
  const birth = useInsuredBirthDate();
  const signing = useWatch({ name: 'signingDate' }) as string | null | undefined;
  const current = useWatch({ name: 'insurance.deductible' }) as number | null | undefined;
  const child = isKvgChild(birth, signing ? new Date(signing) : new Date());
  const values: number[] = [...(child ? KVG_DEDUCTIBLES.children : KVG_DEDUCTIBLES.adults)];
  if (typeof current === 'number' && !values.includes(current)) values.push(current);
  return (
    <SelectInput
      source="insurance.deductible"
      label={label('insurance.deductible')}
      choices={values.map((value) => ({ id: value, name: `CHF ${value}` }))}
      translateChoice={false}
      emptyText=""
      helperText={child ? 'app.contracts.deductibleChild' : false}
    />
  );
}

/** Keeps the product group and the product in step; answers the group the form follows. */
function useProductGroup(): { group: ProductGroup | undefined; productId: number | undefined } {
  const { setValue } = useFormContext();
  const chosenGroup = useWatch({ name: 'productGroup' }) as ProductGroup | null | undefined;
  const productId = (useWatch({ name: 'productId' }) as number | null | undefined) ?? undefined;
  const { data: product } = useGetOne<ApiRecord<'products'>>(
    'products',
    { id: productId ?? 0 },
    { enabled: productId !== undefined },
  );
  const productGroup = product && product.id === productId ? product.group : undefined;
  useEffect(() => {
    if (!productGroup) return;
    // A product chosen first sets its group; a group chosen then that is not the product's drops it.
    if (!chosenGroup) setValue('productGroup', productGroup);
    else if (chosenGroup !== productGroup) setValue('productId', null, { shouldDirty: true });
    // Only when the product's group or the chosen group changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [productGroup, chosenGroup]);
  return {
    group: (productGroup ?? chosenGroup ?? undefined) as ProductGroup | undefined,
    productId: productGroup ? productId : undefined,
  };
}

const afterStart: Validator = (value: unknown, values: Record<string, unknown>) =>
  typeof value === 'string' && typeof values.startDate === 'string' && value < values.startDate
    ? 'app.contracts.validation.endBeforeStart'
    : undefined;

const notInFuture: Validator = (value: unknown) => {
  if (typeof value !== 'string') return undefined;
  const today = new Date();
  const local = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}-${String(today.getDate()).padStart(2, '0')}`;
  return value > local ? 'app.contracts.validation.signingInFuture' : undefined;
};

function ContractSection({ contractType }: { contractType: ContractType }) {
  const closure = contractType === 'closure';
  const category = useWatch({ name: 'category' }) as string | undefined;
  const { group, productId } = useProductGroup();
  const groupField = fieldOf('productGroup');
  return (
    <Section title="app.contracts.sections.contract" testId="contract">
      <Box sx={GRID}>
        {input('customerId')}
        <InsuredPersonInput />
        {input('category')}
        {category === 'business' ? input('businessName') : null}
        <EnumInput
          source="productGroup"
          label={label('productGroup')}
          schema={groupField.schema}
          enumName={groupField.enumName ?? 'productGroup'}
        />
        <ReferencePicker
          source="productId"
          reference="products"
          label={label('productId')}
          validate={[required()]}
          filter={{ isActive: true, ...(group ? { group } : {}) }}
        />
        <InsurerInput productId={productId} isRequired={closure} />
        {input('contractNumber')}
        {input('altContractNumber')}
        {closure ? input('status') : null}
        {closure ? null : withValidator(input('reason'), required())}
        {input('consultantId')}
        {input('finmaConsultant')}
        {closure ? input('brokerMandate') : null}
        {closure ? input('isPrecrmClosure') : null}
      </Box>
    </Section>
  );
}

function DatesSection() {
  return (
    <Section title="app.contracts.sections.dates" testId="dates">
      <Box sx={GRID}>
        {withValidator(input('signingDate'), notInFuture)}
        {input('startDate')}
        {withValidator(input('endDate'), afterStart)}
        {input('paymentCycle')}
      </Box>
    </Section>
  );
}

const numberOrNull = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;

/**
 * Life (3a, 3b, payment plan): the annual premium and the production sum while the user types,
 * computed by the function the server computes them with on save (src/schema/figures.ts); shown,
 * never sent (the server's are read-only).
 */
function LiveFigures({ group }: { group: ProductGroup }) {
  const translate = useTranslate();
  const premium = useWatch({ name: 'insurance.premium' }) as unknown;
  const termYears = useWatch({ name: 'insurance.termYears' }) as unknown;
  const paymentCycle = useWatch({ name: 'paymentCycle' }) as PaymentCycle | null | undefined;
  const figures = contractFigures({
    productGroup: group,
    paymentCycle: paymentCycle ?? null,
    insurance: { premium: numberOrNull(premium), termYears: numberOrNull(termYears) },
  });
  const figure = (name: 'annualPremium' | 'productionSum') => (
    <TextField
      label={translate(label(name))}
      value={formatChf(figures[name])}
      helperText={translate('app.contracts.computed.onSave')}
      variant="filled"
      size="small"
      margin="dense"
      slotProps={{
        input: { readOnly: true, disableUnderline: true },
        htmlInput: { 'data-testid': `form-${name}`, tabIndex: -1 },
      }}
    />
  );
  return (
    <Box sx={GRID} data-testid="contract-live-figures">
      {figure('annualPremium')}
      {figure('productionSum')}
    </Box>
  );
}

/** The sections the product group decides. */
function GroupSections() {
  const translate = useTranslate();
  const { group, productId } = useProductGroup();
  if (!group) {
    return (
      <Typography
        variant="body2"
        color="text.secondary"
        sx={{ mb: 2 }}
        data-testid="choose-product"
      >
        {translate('app.contracts.chooseProduct')}
      </Typography>
    );
  }
  const sections = sectionsOf(group, productId);
  const mainSource = mainSubProductSource(productId);
  const supplementary = supplementarySource(productId);
  return (
    <>
      {sections.premium || sections.basic ? (
        <Section title="app.contracts.sections.insurance" testId="insurance">
          <Box sx={GRID}>
            {group !== 'health' || sections.basic ? (
              <SubProductSelect
                source="insurance.subProductId"
                productId={mainSource}
                labelKey={
                  group === 'health'
                    ? 'app.contracts.fields.basicModel'
                    : label('insurance.subProductId')
                }
              />
            ) : null}
            {sections.basic ? (
              <VariantSelect
                source="insurance.subProductVariantId"
                subProductSource="insurance.subProductId"
                labelKey={label('insurance.subProductVariantId')}
              />
            ) : null}
            {sections.basic ? <DeductibleInput /> : null}
            {sections.premium ? (
              <NumberInput
                source="insurance.premium"
                label={label('insurance.premium')}
                validate={nestedValidators('insurance.premium')}
              />
            ) : null}
            {sections.term ? (
              <NumberInput
                source="insurance.termYears"
                label={label('insurance.termYears')}
                step={1}
                validate={nestedValidators('insurance.termYears')}
              />
            ) : null}
          </Box>
          {group === 'life' ? <LiveFigures group={group} /> : null}
        </Section>
      ) : null}
      {sections.supplementary ? (
        <Section title="app.contracts.sections.supplementary" testId="supplementary">
          <ArrayInput source="supplementaryInsurances" label={false}>
            <SimpleFormIterator inline disableReordering>
              <SubProductSelect
                source="subProductId"
                productId={supplementary}
                labelKey="app.contracts.fields.subProduct"
                validate={[required()]}
              />
              <VariantSelect
                source="subProductVariantId"
                subProductSource="subProductId"
                labelKey="app.contracts.fields.variant"
              />
              <NumberInput
                source="premiumMonth"
                label="app.contracts.fields.premiumMonth"
                validate={nestedValidators('supplementaryInsurances.premiumMonth')}
              />
              <TextInput
                source="note"
                label="app.contracts.fields.note"
                validate={nestedValidators('supplementaryInsurances.note')}
              />
            </SimpleFormIterator>
          </ArrayInput>
        </Section>
      ) : null}
      {sections.coverageLines ? (
        <Section title="app.contracts.sections.coverage" testId="coverage">
          <ArrayInput source="coverage.lines" label={false}>
            <SimpleFormIterator inline disableReordering>
              <TextInput
                source="coverage"
                label="app.contracts.fields.coverage"
                validate={nestedValidators('coverage.lines', true)}
              />
              <NumberInput source="sum" label="app.contracts.fields.sum" min={0} />
              <NumberInput source="deductible" label="app.contracts.fields.deductible" min={0} />
              <NumberInput source="premium" label="app.contracts.fields.premium" min={0} />
              <TextInput source="note" label="app.contracts.fields.note" />
            </SimpleFormIterator>
          </ArrayInput>
          <Box sx={GRID}>
            <NumberInput
              source="coverage.totalBasicPremium"
              label={label('coverage.totalBasicPremium')}
              validate={nestedValidators('coverage.totalBasicPremium')}
            />
          </Box>
        </Section>
      ) : null}
      {sections.finance ? (
        <Section title="app.contracts.sections.finance" testId="finance">
          <Box sx={GRID}>
            <NumberInput
              source="coverage.amount"
              label={label('coverage.amount')}
              validate={nestedValidators('coverage.amount')}
            />
            <NumberInput
              source="coverage.interestRate"
              label={label('coverage.interestRate')}
              validate={nestedValidators('coverage.interestRate')}
            />
          </Box>
        </Section>
      ) : null}
      <Section title="app.contracts.sections.closure" testId="closure">
        <Box sx={GRID}>
          <EnumInput
            source="coverage.closureType"
            label={label('coverage.closureType')}
            schema={nestedSchema('coverage.closureType')}
            enumName="closureType"
          />
          <EnumInput
            source="coverage.insuranceGroupType"
            label={label('coverage.insuranceGroupType')}
            schema={nestedSchema('coverage.insuranceGroupType')}
            enumName="insuranceGroupType"
          />
        </Box>
      </Section>
    </>
  );
}

/** What the contract's people earn: kept by the commission engine, shown, never entered. */
function CommissionsSection() {
  const record = useRecordContext<Contract>();
  const translate = useTranslate();
  return (
    <Section title="app.contracts.sections.commissions" testId="commissions">
      {record?.id ? <CommissionsTable lines={record.commissions} /> : null}
      <Typography variant="caption" color="text.secondary" data-testid="commissions-kept">
        {translate('app.contracts.commissionsKept')}
      </Typography>
    </Section>
  );
}

function PreviousSection() {
  const key = (name: string) => `previousInsurance.${name}`;
  return (
    <Section title="app.contracts.sections.previous" testId="previous">
      <Box sx={GRID}>
        <ReferencePicker
          source={key('previousCompanies')}
          reference="companies"
          label={label(key('previousCompanies'))}
          multiple
        />
        <EnumInput
          source={key('terminationResponsible')}
          label={label(key('terminationResponsible'))}
          schema={nestedSchema(key('terminationResponsible'))}
          enumName="terminationResponsible"
        />
        <LocalizedDateInput source={key('terminationDate')} label={label(key('terminationDate'))} />
        <TextInput
          source={key('reason')}
          label={label(key('reason'))}
          validate={nestedValidators(key('reason'))}
        />
      </Box>
      <Box sx={GRID}>
        <TextInput
          source={key('terminationNote')}
          label={label(key('terminationNote'))}
          multiline
          validate={nestedValidators(key('terminationNote'))}
        />
        <TextInput
          source={key('terminationConsultantNote')}
          label={label(key('terminationConsultantNote'))}
          multiline
          validate={nestedValidators(key('terminationConsultantNote'))}
        />
      </Box>
    </Section>
  );
}

function ClientSection() {
  const key = (name: string) => `client.${name}`;
  return (
    <Section title="app.contracts.sections.client" testId="client">
      <Box sx={GRID}>
        <EnumInput
          source={key('nationality')}
          label={label(key('nationality'))}
          schema={nestedSchema(key('nationality'))}
          enumName="country"
        />
        <TextInput
          source={key('occupation')}
          label={label(key('occupation'))}
          validate={nestedValidators(key('occupation'))}
        />
        <EnumInput
          source={key('permitType')}
          label={label(key('permitType'))}
          schema={nestedSchema(key('permitType'))}
          enumName="permitType"
        />
      </Box>
    </Section>
  );
}

function ContractSections({ contractType }: { contractType: ContractType }) {
  return (
    <>
      <ContractSection contractType={contractType} />
      <DatesSection />
      <GroupSections />
      <CommissionsSection />
      <PreviousSection />
      <ClientSection />
      <Section title="app.contracts.sections.overview" testId="overview">
        {input('note')}
      </Section>
    </>
  );
}

const rows = (value: unknown): Record<string, unknown>[] =>
  Array.isArray(value)
    ? value.map((row) => withoutEmpty((row ?? {}) as Record<string, unknown>))
    : [];

/** What is sent: the group's sections only, no empty nested values (the schema forbids null there). */
function transform(data: Record<string, unknown>): Record<string, unknown> {
  const cleaned = cleanForGroup(data, data.productGroup as ProductGroup | undefined);
  const coverage = cleaned.coverage as Record<string, unknown>;
  if (Array.isArray(coverage.lines)) coverage.lines = rows(coverage.lines);
  return {
    ...cleaned,
    supplementaryInsurances: rows(cleaned.supplementaryInsurances),
    previousInsurance: withoutEmpty((cleaned.previousInsurance ?? {}) as Record<string, unknown>),
    client: withoutEmpty((cleaned.client ?? {}) as Record<string, unknown>),
  };
}

const showAfterSave =
  (area: ReturnType<typeof useArea>) =>
  (_resource: string | undefined, id: unknown, data: Record<string, unknown> | undefined) =>
    contractRoute(
      area,
      data?.contractType === 'non-closure' ? 'non-closure' : 'closure',
      'show',
      String(id),
    ) ?? '';

function CreateContract({ contractType }: { contractType: ContractType }) {
  const area = useArea();
  const [params] = useSearchParams();
  const customerId = Number(params.get('customerId'));
  const translate = useTranslate();
  return (
    <Create
      resource="contracts"
      redirect={showAfterSave(area)}
      transform={transform}
      title={translate(
        contractType === 'closure'
          ? 'app.contracts.titles.newClosure'
          : 'app.contracts.titles.newNonClosure',
      )}
    >
      <SimpleForm
        defaultValues={{
          contractType,
          customerId: Number.isInteger(customerId) && customerId > 0 ? customerId : undefined,
          category: 'private',
          paymentCycle: 'monthly',
          ...(contractType === 'closure' ? { status: 'active' } : {}),
          insurance: {},
          coverage: { lines: [] },
          supplementaryInsurances: [],
          previousInsurance: {},
          client: {},
        }}
        toolbar={
          <Toolbar>
            <SaveButton data-testid="contract-save" />
          </Toolbar>
        }
      >
        <ContractSections contractType={contractType} />
      </SimpleForm>
    </Create>
  );
}

export function ContractCreate() {
  return <CreateContract contractType="closure" />;
}

export function NonClosureCreate() {
  return <CreateContract contractType="non-closure" />;
}

function EditForm() {
  const contractType = useWatch({ name: 'contractType' }) as ContractType | undefined;
  return <ContractSections contractType={contractType ?? 'closure'} />;
}

/** The edit page's action: back to the contract's page (closure or non-closure). */
function EditActions() {
  const record = useRecordContext<ApiRecord<'contracts'>>();
  const area = useArea();
  const navigate = useNavigate();
  const path = record
    ? contractHref(
        area,
        record.contractType === 'non-closure' ? 'non-closure' : 'closure',
        'show',
        record.id,
      )
    : undefined;
  return (
    <TopToolbar>
      {path ? (
        <Button label="ra.action.show" onClick={() => navigate(path)}>
          <VisibilityIcon />
        </Button>
      ) : null}
    </TopToolbar>
  );
}

export default function ContractEdit() {
  const area = useArea();
  return (
    <Edit
      resource="contracts"
      actions={<EditActions />}
      mutationMode="pessimistic"
      redirect={showAfterSave(area)}
      transform={transform}
    >
      <ConflictGuard>
        <SimpleForm
          toolbar={
            <Toolbar sx={{ justifyContent: 'space-between', flexWrap: 'wrap', gap: 1 }}>
              <SaveButton data-testid="contract-save" />
              <DeleteContractButton />
            </Toolbar>
          }
        >
          <EditForm />
        </SimpleForm>
      </ConflictGuard>
    </Edit>
  );
}
