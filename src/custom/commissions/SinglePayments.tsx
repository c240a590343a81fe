/**
 * Assigned single payments (admin area, manage-commissions; route `assigned-single-payments`):
 * manual ledger lines for a person — a bonus, an advance or a correction — with the month it
 * counts for and a reason. The list shows person, kind, amount (CHF, negative in red), month,
 * reason and the status of its line; the form picks the person, the kind, the amount in CHF, the
 * month (a month picker, 'YYYY-MM') and the reason. Saving writes the line; a change or a deletion
 * is a reversal plus a new line, refused (409, the reason as a notification) once the line is in a
 * payout not yet paid.
 */
import { Box, InputAdornment } from '@mui/material';
import {
  Create,
  CreateButton,
  Datagrid,
  DeleteButton,
  Edit,
  FilterButton,
  FunctionField,
  List,
  NumberInput,
  ReferenceField,
  SaveButton,
  TextField,
  TextInput,
  Toolbar,
  TopToolbar,
  useTranslate,
} from 'react-admin';
import { ConflictGuard } from '../../resources/conflict/ConflictGuard.tsx';
import { fieldFor, prefetchMeta } from '../../resources/fields.tsx';
import { SimpleForm } from '../../resources/forms/forms.tsx';
import { EnumInput, inputFor, ReferencePicker, validatorsFor } from '../../resources/inputs.tsx';
import { getModel } from '../../resources/registry.ts';
import { enumKey, fieldLabelKey } from '../../schema/labels.ts';
import { resourceHref, resourceRoute } from '../../shell/paths.ts';
import { useArea } from '../../shell/area.ts';
import { Amount, LineStatusChip, Month } from './components.tsx';
import type { CommissionLine, SinglePayment } from './model.ts';
import { MonthInput } from './MonthInput.tsx';

const RESOURCE = 'assigned-single-payments';
const label = (name: string) => fieldLabelKey(RESOURCE, name);
const model = () => getModel(RESOURCE);
const fieldOf = (name: string) => {
  const field = model().fields.find((candidate) => candidate.name === name);
  if (!field) throw new Error(`${RESOURCE} has no field ${name}`);
  return field;
};

const CURRENCY = 'CHF';

const FILTERS = [
  <TextInput key="q" source="q" label="ra.action.search" alwaysOn resettable />,
  <ReferencePicker
    key="userId"
    source="userId"
    reference="users"
    label={label('userId')}
    alwaysOn
  />,
  <EnumInput
    key="kind"
    source="kind"
    label={label('kind')}
    schema={fieldOf('kind').schema}
    enumName={fieldOf('kind').enumName ?? ''}
    alwaysOn
  />,
  <MonthInput key="period" source="period" label={label('period')} isFilter alwaysOn />,
];

function ListActions() {
  const area = useArea();
  return (
    <TopToolbar sx={{ alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
      <FilterButton />
      <CreateButton to={resourceHref(area, RESOURCE, 'create')} data-testid="payment-create" />
    </TopToolbar>
  );
}

export function SinglePaymentList() {
  const translate = useTranslate();
  const area = useArea();
  return (
    <List
      resource={RESOURCE}
      filters={FILTERS}
      sort={{ field: 'createdAt', order: 'DESC' }}
      perPage={25}
      queryOptions={{ meta: prefetchMeta([fieldOf('userId'), fieldOf('lineId')]) }}
      actions={<ListActions />}
      title="app.menu.assignedSinglePayments"
    >
      <Datagrid
        rowClick={(id) => resourceHref(area, RESOURCE, 'edit', id) ?? false}
        bulkActionButtons={false}
        data-testid="payments-list"
        sx={{ '& td': { py: 0.75 } }}
      >
        {fieldFor(model(), fieldOf('userId'), { inList: true })}
        <FunctionField<SinglePayment>
          source="kind"
          label={label('kind')}
          render={(payment) => translate(enumKey('singlePaymentKind', payment.kind))}
        />
        <FunctionField<SinglePayment>
          source="amount"
          label={label('amount')}
          textAlign="right"
          render={(payment) => <Amount centimes={Math.round(payment.amount * 100)} />}
        />
        <FunctionField<SinglePayment>
          source="period"
          label={label('period')}
          render={(payment) => <Month month={payment.period} />}
        />
        <TextField source="reason" label={label('reason')} sortable={false} />
        <ReferenceField
          source="lineId"
          reference="commission-lines"
          label="app.singlePayments.lineStatus"
          link={false}
          sortable={false}
        >
          <FunctionField<CommissionLine>
            render={(line) => <LineStatusChip status={line.status} />}
          />
        </ReferenceField>
      </Datagrid>
    </List>
  );
}

const AMOUNT_VALIDATORS = validatorsFor(fieldOf('amount').schema, true);
const PERIOD_VALIDATORS = validatorsFor({ type: 'string' }, true);
const REASON_VALIDATORS = validatorsFor(fieldOf('reason').schema, true);

const GRID = {
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fill, minmax(240px, 1fr))',
  columnGap: 2,
  width: '100%',
} as const;

function PaymentInputs() {
  const translate = useTranslate();
  return (
    <Box sx={GRID}>
      <ReferencePicker
        source="userId"
        reference="users"
        label={label('userId')}
        filter={{ isActive: true }}
        validate={validatorsFor(fieldOf('userId').schema, true)}
      />
      {inputFor(model(), fieldOf('kind'))}
      <NumberInput
        source="amount"
        label={label('amount')}
        validate={AMOUNT_VALIDATORS}
        helperText={translate('app.singlePayments.amountHelp')}
        slotProps={{
          input: {
            startAdornment: <InputAdornment position="start">{CURRENCY}</InputAdornment>,
          },
        }}
        data-testid="payment-amount"
      />
      <MonthInput
        source="period"
        label={label('period')}
        validate={PERIOD_VALIDATORS}
        testId="payment-period"
        fullWidth
      />
      <Box sx={{ gridColumn: '1 / -1' }}>
        <TextInput
          source="reason"
          label={label('reason')}
          validate={REASON_VALIDATORS}
          multiline
          minRows={2}
          fullWidth
        />
      </Box>
    </Box>
  );
}

const toList = (area: ReturnType<typeof useArea>) => () =>
  resourceRoute(area, RESOURCE, 'list') ?? '';

export function SinglePaymentCreate() {
  const area = useArea();
  return (
    <Create resource={RESOURCE} redirect={toList(area)}>
      <SimpleForm
        defaultValues={{ kind: 'bonus' }}
        toolbar={
          <Toolbar>
            <SaveButton data-testid="payment-save" />
          </Toolbar>
        }
      >
        <PaymentInputs />
      </SimpleForm>
    </Create>
  );
}

export function SinglePaymentEdit() {
  const area = useArea();
  return (
    <Edit resource={RESOURCE} actions={false} mutationMode="pessimistic" redirect={toList(area)}>
      <ConflictGuard>
        <SimpleForm
          toolbar={
            <Toolbar sx={{ justifyContent: 'space-between' }}>
              <SaveButton data-testid="payment-save" />
              <DeleteButton mutationMode="pessimistic" redirect={toList(area)()} />
            </Toolbar>
          }
        >
          <PaymentInputs />
        </SimpleForm>
      </ConflictGuard>
    </Edit>
  );
}

export default SinglePaymentList;
