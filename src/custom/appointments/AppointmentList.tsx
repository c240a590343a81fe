/**
 * The appointments (SPEC §2, §4; both areas): a calendar or a list, the user's preference
 * `appointmentsView` choosing the first, a switch for the other (kept for the tab's session). The
 * list: day and times, customer, consultant, type, status, city; the type filter all / past /
 * missing feedbacks / unassigned (`type=`), the region filter (`region=mine`, on by default with
 * the preference appointmentsFilterByRegion), consultant, status, type, from-date and search;
 * page size from the `calendar` listing preference. The calendar: ./AppointmentCalendar.tsx
 * (loaded only when shown).
 */
import CalendarMonthIcon from '@mui/icons-material/CalendarMonth';
import ViewListIcon from '@mui/icons-material/ViewList';
import { Typography } from '@mui/material';
import { lazy, type ReactElement, Suspense, useState } from 'react';
import {
  CreateButton,
  Datagrid,
  FilterButton,
  FunctionField,
  List,
  Loading,
  ResourceContextProvider,
  SelectInput,
  TextInput,
  Title,
  TopToolbar,
  useTranslate,
} from 'react-admin';
import { getStoredUser, pageSizeFor } from '../../auth/session.ts';
import { LocalizedDateInput } from '../../i18n/components.tsx';
import { fieldFor, prefetchMeta } from '../../resources/fields.tsx';
import { EnumInput, ReferencePicker } from '../../resources/inputs.tsx';
import { APPOINTMENT_STATUSES, appointmentStatusKey } from '../../schema/appointments.ts';
import { fieldLabelKey } from '../../schema/labels.ts';
import { APPOINTMENTS_VIEWS, withDefaults } from '../../schema/preferences.ts';
import { resourceHref, resourceRoute } from '../../shell/paths.ts';
import { useArea } from '../../shell/area.ts';
import { ToggleFilter } from '../../components/ToggleFilter.tsx';
import { ViewSwitch } from '../../components/ViewSwitch.tsx';
import { ClientField, StatusChip } from './components.tsx';
import { type Appointment, appointmentModel, fieldOf, swissTimesOf } from './model.ts';

const AppointmentCalendar = lazy(() => import('./AppointmentCalendar.tsx'));

type View = (typeof APPOINTMENTS_VIEWS)[number];

const VIEW_KEY = 'appointments.view';

/**
 * The view shown: the one chosen in this tab (while the preference is the same), else the
 * preference's.
 */
function initialView(preferred: View): View {
  try {
    const [preference, chosen] = (sessionStorage.getItem(VIEW_KEY) ?? '').split(':');
    if (preference === preferred && APPOINTMENTS_VIEWS.includes(chosen as View))
      return chosen as View;
  } catch {
    // No session storage: the preference.
  }
  return preferred;
}

function BookButton() {
  const area = useArea();
  const path = resourceRoute(area, 'appointments', 'create');
  return path ? (
    <CreateButton
      to={resourceHref(area, 'appointments', 'create')}
      label="app.appointments.book"
      data-testid="appointment-create"
    />
  ) : null;
}

function ListActions({ viewSwitch }: { viewSwitch: ReactElement }) {
  return (
    <TopToolbar sx={{ alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
      {viewSwitch}
      <FilterButton />
      <BookButton />
    </TopToolbar>
  );
}

function StatusFilter(_props: { source: string; label: string; alwaysOn?: boolean }) {
  const translate = useTranslate();
  return (
    <SelectInput
      source="status"
      label={fieldLabelKey('appointments', 'status')}
      choices={APPOINTMENT_STATUSES.map((status) => ({
        id: status,
        name: translate(appointmentStatusKey(status)),
      }))}
      translateChoice={false}
    />
  );
}

function filters(): ReactElement[] {
  const label = (name: string) => fieldLabelKey('appointments', name);
  const enumFilter = (name: string) => {
    const field = fieldOf(name);
    return (
      <EnumInput
        key={name}
        source={name}
        label={label(name)}
        schema={field.schema}
        enumName={field.enumName ?? ''}
      />
    );
  };
  return [
    <TextInput key="q" source="q" label="ra.action.search" alwaysOn resettable />,
    // All / past / missing feedbacks / unassigned (SPEC §4): `type=` on the API, nothing for all.
    <ToggleFilter
      key="type"
      source="type"
      alwaysOn
      keys={['type']}
      choices={[
        { id: 'all', label: 'enums.appointmentsTypeFilter.all', values: {} },
        { id: 'past', label: 'enums.appointmentsTypeFilter.past', values: { type: 'past' } },
        {
          id: 'missing_feedbacks',
          label: 'enums.appointmentsTypeFilter.missing_feedbacks',
          values: { type: 'missing_feedbacks' },
        },
        {
          id: 'unassigned',
          label: 'enums.appointmentsTypeFilter.unassigned',
          values: { type: 'unassigned' },
        },
      ]}
      label="app.appointments.typeFilter"
      testIdPrefix="appointments-type-"
    />,
    <ToggleFilter
      key="region"
      source="region"
      alwaysOn
      keys={['region']}
      choices={[
        { id: 'all', label: 'app.appointments.region.all', values: {} },
        { id: 'mine', label: 'app.appointments.region.mine', values: { region: 'mine' } },
      ]}
      label="app.appointments.region.label"
      testIdPrefix="appointments-region-"
    />,
    <ReferencePicker
      key="consultantId"
      source="consultantId"
      reference="users"
      label={label('consultantId')}
    />,
    <StatusFilter key="status" source="status" label={label('status')} />,
    enumFilter('appointmentType'),
    <LocalizedDateInput
      key="dateStart_gte"
      source="dateStart_gte"
      label="app.appointments.filters.from"
      startOfDayTimestamp
      isFilter
    />,
    <LocalizedDateInput
      key="dateStart_lte"
      source="dateStart_lte"
      label="app.appointments.filters.until"
      startOfDayTimestamp
      isFilter
    />,
  ];
}

/** The day and the times, Swiss local: '24.11.2026 09:00–10:00'. */
function WhenField(_props: { source: string; label: string; sortBy?: string }) {
  return (
    <FunctionField<Appointment>
      render={(record) => {
        const times = swissTimesOf(record);
        if (!times) return null;
        return (
          <Typography variant="body2" component="span" sx={{ whiteSpace: 'nowrap' }}>
            {times.date.split('-').reverse().join('.')} {times.start}–{times.end}
          </Typography>
        );
      }}
    />
  );
}

function StatusField(_props: { source: string; label: string }) {
  return <FunctionField<Appointment> render={(record) => <StatusChip status={record.status} />} />;
}

function AppointmentListView({ viewSwitch }: { viewSwitch: ReactElement }) {
  const model = appointmentModel();
  const area = useArea();
  const preferences = withDefaults(getStoredUser()?.preferences);
  const references = [fieldOf('clientId'), fieldOf('consultantId')];
  return (
    <List
      resource="appointments"
      storeKey={`appointments.${area}`}
      filters={filters()}
      filterDefaultValues={preferences.appointmentsFilterByRegion ? { region: 'mine' } : {}}
      sort={{ field: 'dateStart', order: 'DESC' }}
      perPage={pageSizeFor('appointments')}
      queryOptions={{ meta: prefetchMeta(references) }}
      actions={<ListActions viewSwitch={viewSwitch} />}
      title="app.menu.appointments"
    >
      <Datagrid
        rowClick={(id) => resourceHref(area, 'appointments', 'show', id) ?? false}
        bulkActionButtons={false}
        sx={{ '& td.column-city': { whiteSpace: 'nowrap' } }}
      >
        <WhenField
          source="dateStart"
          sortBy="dateStart"
          label={fieldLabelKey('appointments', 'dateStart')}
        />
        <ClientField
          source="clientId"
          sortBy="clientId"
          label={fieldLabelKey('appointments', 'clientId')}
        />
        {fieldFor(model, fieldOf('consultantId'), { inList: true })}
        {fieldFor(model, fieldOf('appointmentType'), { inList: true })}
        <StatusField source="status" label={fieldLabelKey('appointments', 'status')} />
        {fieldFor(model, fieldOf('city'), { inList: true })}
      </Datagrid>
    </List>
  );
}

function CalendarPage({ viewSwitch }: { viewSwitch: ReactElement }) {
  const translate = useTranslate();
  const preferences = withDefaults(getStoredUser()?.preferences);
  return (
    <>
      <Title title={translate('app.menu.appointments')} />
      <Suspense fallback={<Loading />}>
        <AppointmentCalendar
          viewSwitch={viewSwitch}
          actions={<BookButton />}
          filter={preferences.appointmentsFilterByRegion ? { region: 'mine' } : undefined}
        />
      </Suspense>
    </>
  );
}

export default function AppointmentList() {
  const preferred = withDefaults(getStoredUser()?.preferences).appointmentsView;
  const [view, setView] = useState<View>(() => initialView(preferred));
  const choose = (next: View) => {
    setView(next);
    try {
      sessionStorage.setItem(VIEW_KEY, `${preferred}:${next}`);
    } catch {
      // Not kept: the preference next time.
    }
  };
  const viewSwitch = (
    <ViewSwitch
      view={view}
      onChange={choose}
      label="app.appointments.view.label"
      testIdPrefix="appointments-view"
      options={[
        {
          value: 'calendar',
          label: 'app.appointments.view.calendar',
          icon: <CalendarMonthIcon fontSize="small" />,
        },
        {
          value: 'list',
          label: 'app.appointments.view.list',
          icon: <ViewListIcon fontSize="small" />,
        },
      ]}
    />
  );
  return (
    <ResourceContextProvider value="appointments">
      {view === 'calendar' ? (
        <CalendarPage viewSwitch={viewSwitch} />
      ) : (
        <AppointmentListView viewSwitch={viewSwitch} />
      )}
    </ResourceContextProvider>
  );
}
