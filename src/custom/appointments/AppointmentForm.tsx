/**
 * Booking and editing an appointment (both areas): the customer (`?clientId=` fills it in, so a
 * customer's page can link "book appointment"), the consultant, the type and who asked for it;
 * the day and the start and end times in Swiss local time (the server keeps dateStart/dateEnd in
 * step; the form sends both, the same moments); the address, taken from the customer when one is
 * chosen on a new appointment and the address is still empty, with a map link; the comment and
 * the consultant's note; the status offering only the allowed moves from the stored one (the ones
 * only feedback sets never), the cancellation's reason and follow-up when cancelled. A warning
 * appears under the times when the consultant is booked elsewhere then (asked a moment after the
 * times stop changing). Server errors show beside the inputs (src/resources/forms/); the edit is
 * pessimistic with the version conflict question (ConflictGuard). Booked from a lead
 * (`?leadId=`, with the lead's `street`, `zip`, `city`): it carries `leadId`, which closes the
 * lead as "appointment set" when saved, and says so above the form.
 */
import VisibilityIcon from '@mui/icons-material/Visibility';
import { Alert, Box, Stack, Typography } from '@mui/material';
import { type ReactNode, useEffect, useMemo } from 'react';
import {
  Button,
  Create,
  Edit,
  required,
  SaveButton,
  SelectInput,
  Toolbar,
  TopToolbar,
  useGetOne,
  useRecordContext,
  useTranslate,
  type Validator,
} from 'react-admin';
import { useFormContext, useWatch } from 'react-hook-form';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { LocalizedDateInput } from '../../i18n/components.tsx';
import { ConflictGuard } from '../../resources/conflict/ConflictGuard.tsx';
import { SimpleForm } from '../../resources/forms/forms.tsx';
import { inputFor } from '../../resources/inputs.tsx';
import type { ApiRecord } from '../../resources/records.ts';
import { appointmentStatusKey } from '../../schema/appointments.ts';
import { fieldLabelKey } from '../../schema/labels.ts';
import { resourceHref, resourceRoute } from '../../shell/paths.ts';
import { useArea } from '../../shell/area.ts';
import { MapLink, OverlapWarning, useOverlaps } from './components.tsx';
import {
  addressOfCustomer,
  type Appointment,
  appointmentBody,
  appointmentModel,
  fieldOf,
  isCancelled,
  shortTime,
  statusChoices,
  swissTimesOf,
  swissToIso,
  timePlus,
} from './model.ts';
import { TimeInput } from './TimeInput.tsx';

const GRID = {
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fill, minmax(240px, 1fr))',
  columnGap: 2,
  width: '100%',
} as const;

const label = (name: string) => fieldLabelKey('appointments', name);
const input = (name: string) => inputFor(appointmentModel(), fieldOf(name));

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
    <Box component="section" sx={{ width: '100%', mb: 1 }} data-section={testId}>
      <Typography variant="subtitle2" color="text.secondary" sx={{ mb: 0.5 }}>
        {translate(title)}
      </Typography>
      {children}
    </Box>
  );
}

/** The end after the start (the same day: the date is shared). */
const endAfterStart: Validator = (value: unknown, values: Record<string, unknown>) => {
  const end = shortTime(value);
  const start = shortTime(values.startTime);
  return end && start && end <= start ? 'app.errors.endBeforeStart' : undefined;
};

/** The status: the stored one and where it may move from there (APPOINTMENT_TRANSITIONS). */
function StatusInput() {
  const translate = useTranslate();
  const record = useRecordContext<Appointment>();
  const stored = record?.id ? record.status : undefined;
  const choices = statusChoices(stored).map((status) => ({
    id: status,
    name: translate(appointmentStatusKey(status)),
  }));
  return (
    <SelectInput
      source="status"
      label={label('status')}
      choices={choices}
      translateChoice={false}
      validate={[required()]}
      disabled={choices.length <= 1}
      data-testid="appointment-status"
    />
  );
}

/**
 * On a new appointment, the customer's address fills the address fields that are still empty when
 * a customer is chosen (the server would do the same for fields left out).
 */
function AddressFromCustomer() {
  const record = useRecordContext<Appointment>();
  const clientId = useWatch({ name: 'clientId' }) as number | null | undefined;
  const { getValues, setValue } = useFormContext();
  const { data: customer } = useGetOne<ApiRecord<'customers'>>(
    'customers',
    { id: clientId ?? 0 },
    { enabled: Boolean(clientId) && !record?.id },
  );
  useEffect(() => {
    if (!customer || customer.id !== clientId || record?.id) return;
    for (const [name, value] of Object.entries(addressOfCustomer(customer))) {
      const current = getValues(name) as unknown;
      if (value && (current === undefined || current === null || current === '')) {
        setValue(name, value, { shouldDirty: true });
      }
    }
  }, [customer, clientId, record?.id, getValues, setValue]);
  return null;
}

/** The end time follows a newly chosen start while it is empty or no longer after it. */
function EndFollowsStart() {
  const start = useWatch({ name: 'startTime' }) as unknown;
  const { getValues, setValue } = useFormContext();
  useEffect(() => {
    const from = shortTime(start);
    if (!from) return;
    const end = shortTime(getValues('endTime'));
    if (!end || end <= from) setValue('endTime', timePlus(from, 60), { shouldDirty: true });
  }, [start, getValues, setValue]);
  return null;
}

function TimesOverlaps() {
  const record = useRecordContext<Appointment>();
  const [consultantId, date, startTime, endTime] = useWatch({
    name: ['consultantId', 'date', 'startTime', 'endTime'],
  }) as [number | null, unknown, unknown, unknown];
  const overlaps = useOverlaps(
    consultantId,
    swissToIso(date, startTime),
    swissToIso(date, endTime),
    record?.id,
  );
  return <OverlapWarning overlaps={overlaps} />;
}

function AddressMapLink() {
  const [street, number, zip, city] = useWatch({
    name: ['street', 'number', 'zip', 'city'],
  }) as (string | null | undefined)[];
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', minHeight: 48 }}>
      <MapLink address={{ street, number, zip, city }} testId="appointment-map-link" />
    </Box>
  );
}

function Cancellation() {
  const status = useWatch({ name: 'status' }) as unknown;
  if (!isCancelled(status)) return null;
  return (
    <Section title="app.appointments.sections.cancellation" testId="cancellation">
      <Box sx={GRID}>
        {input('cancelReason')}
        {input('cancelStatus')}
      </Box>
    </Section>
  );
}

function AppointmentSections() {
  return (
    <>
      <Section title="app.appointments.sections.appointment" testId="appointment">
        <Box
          sx={{
            ...GRID,
            // The customer wider: its name is what the row is about.
            gridTemplateColumns: {
              xs: '1fr',
              sm: '1fr 1fr',
              md: 'minmax(0, 2fr) minmax(0, 1.4fr) minmax(0, 1.1fr) minmax(0, 1fr) minmax(0, 1.3fr)',
            },
          }}
        >
          {input('clientId')}
          {input('consultantId')}
          {input('appointmentType')}
          {input('whoRequested')}
          <StatusInput />
        </Box>
      </Section>
      <Section title="app.appointments.sections.time" testId="time">
        <Box sx={GRID}>
          <LocalizedDateInput source="date" label={label('date')} validate={required()} />
          <TimeInput source="startTime" label={label('startTime')} validate={[required()]} />
          <TimeInput
            source="endTime"
            label={label('endTime')}
            validate={[required(), endAfterStart]}
          />
        </Box>
        <TimesOverlaps />
      </Section>
      <Section title="app.appointments.sections.address" testId="address">
        <Stack direction="row" useFlexGap sx={{ alignItems: 'flex-start', gap: 1 }}>
          <Box
            sx={{
              ...GRID,
              gridTemplateColumns: {
                xs: '1fr 1fr',
                md: 'minmax(180px, 3fr) minmax(80px, 1fr) minmax(90px, 1fr) minmax(160px, 3fr)',
              },
            }}
          >
            {input('street')}
            {input('number')}
            {input('zip')}
            {input('city')}
          </Box>
          <AddressMapLink />
        </Stack>
      </Section>
      <Cancellation />
      <Section title="app.appointments.sections.notes" testId="notes">
        <Box sx={{ ...GRID, gridTemplateColumns: 'repeat(auto-fill, minmax(320px, 1fr))' }}>
          {input('comment')}
          {input('note')}
        </Box>
      </Section>
      <AddressFromCustomer />
      <EndFollowsStart />
    </>
  );
}

const toolbar = (
  <Toolbar>
    <SaveButton data-testid="appointment-save" />
  </Toolbar>
);

const showAfterSave =
  (area: ReturnType<typeof useArea>) => (_resource: string | undefined, id: unknown) =>
    resourceRoute(area, 'appointments', 'show', String(id)) ?? '';

const positive = (value: string | null): number | undefined => {
  const number = Number(value);
  return Number.isInteger(number) && number > 0 ? number : undefined;
};

/** A new appointment booked from a lead: saving it closes the lead as "appointment set". */
function FromLead({ id }: { id: number }) {
  const translate = useTranslate();
  const { data } = useGetOne<ApiRecord<'leads'>>('leads', { id });
  const name = data
    ? data.organization || [data.firstName, data.lastName].filter(Boolean).join(' ')
    : '';
  return (
    <Alert severity="info" sx={{ mb: 2, width: '100%' }} data-testid="appointment-from-lead">
      {translate('app.leads.appointmentFromLead', { name: name || `#${id}` })}
    </Alert>
  );
}

export function AppointmentCreate() {
  const area = useArea();
  const [params] = useSearchParams();
  const translate = useTranslate();
  const defaults = useMemo(() => {
    const start = shortTime(params.get('startTime'));
    const date = params.get('date');
    // Booked from a lead (src/custom/leads/): saving closes it as "appointment set"; its address.
    const text = (name: string) => params.get(name)?.trim() || undefined;
    return {
      clientId: positive(params.get('clientId')),
      consultantId: positive(params.get('consultantId')),
      leadId: positive(params.get('leadId')),
      street: text('street'),
      zip: text('zip'),
      city: text('city'),
      status: 1,
      appointmentType: 'first',
      date: date && /^\d{4}-\d{2}-\d{2}$/.test(date) ? date : undefined,
      startTime: start,
      endTime: start ? timePlus(start, 60) : undefined,
    };
  }, [params]);
  return (
    <Create
      resource="appointments"
      redirect={showAfterSave(area)}
      transform={appointmentBody}
      title={translate('app.appointments.titles.new')}
    >
      <SimpleForm defaultValues={defaults} toolbar={toolbar}>
        {defaults.leadId ? <FromLead id={defaults.leadId} /> : null}
        <AppointmentSections />
      </SimpleForm>
    </Create>
  );
}

/** The edit page's action: back to the appointment's page. */
function EditActions() {
  const record = useRecordContext<Appointment>();
  const area = useArea();
  const navigate = useNavigate();
  const path = record ? resourceHref(area, 'appointments', 'show', record.id) : undefined;
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

/** The stored record with its Swiss times in the form's inputs ('HH:mm'). */
function EditForm() {
  const record = useRecordContext<Appointment>();
  const values = useMemo(() => {
    if (!record) return undefined;
    const times = swissTimesOf(record);
    return times
      ? { ...record, date: times.date, startTime: times.start, endTime: times.end }
      : record;
  }, [record]);
  if (!values) return null;
  return (
    <SimpleForm record={values} toolbar={toolbar}>
      <AppointmentSections />
    </SimpleForm>
  );
}

export default function AppointmentEdit() {
  const area = useArea();
  return (
    <Edit
      resource="appointments"
      actions={<EditActions />}
      mutationMode="pessimistic"
      redirect={showAfterSave(area)}
      transform={appointmentBody}
    >
      <ConflictGuard>
        <EditForm />
      </ConflictGuard>
    </Edit>
  );
}
