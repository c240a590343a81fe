/**
 * The appointments as a calendar (FullCalendar 6: month, week, day; Monday first; the app's
 * language), loaded with the list only when the calendar is shown. The visible range is asked
 * from the list API (`date_start_gte`/`date_start_lte`, one page of the largest size), for one
 * consultant or all: a consultant sees their own by default, the admin area everyone's. Colours
 * follow the status. Planned appointments (1, 3) can be dragged to another time or resized: one
 * update with the record's version (a stale one: the event goes back and the calendar reloads),
 * then the double-booking check warns when the consultant is booked elsewhere then. A click opens
 * the appointment; a click on a free time books one there.
 *
 * The calendar runs in UTC as a stand-in for Swiss local time (./model.ts wallOf): every browser
 * shows the Swiss hours, whatever its own zone.
 */
import type { DatesSetArg, EventClickArg, EventDropArg } from '@fullcalendar/core';
import deLocale from '@fullcalendar/core/locales/de';
import enGbLocale from '@fullcalendar/core/locales/en-gb';
import frLocale from '@fullcalendar/core/locales/fr';
import itLocale from '@fullcalendar/core/locales/it';
import dayGridPlugin from '@fullcalendar/daygrid';
import interactionPlugin, {
  type DateClickArg,
  type EventResizeDoneArg,
} from '@fullcalendar/interaction';
import FullCalendar from '@fullcalendar/react';
import timeGridPlugin from '@fullcalendar/timegrid';
import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import {
  Alert,
  Autocomplete,
  Box,
  Button as MuiButton,
  Card,
  IconButton,
  LinearProgress,
  TextField,
  ToggleButton,
  ToggleButtonGroup,
  Tooltip,
  Typography,
} from '@mui/material';
import { alpha, useTheme } from '@mui/material/styles';
import { keepPreviousData } from '@tanstack/react-query';
import { type ReactNode, useCallback, useMemo, useRef, useState } from 'react';
import {
  useDataProvider,
  useGetList,
  useGetRecordRepresentation,
  useLocale,
  useNotify,
  useTranslate,
} from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { getStoredUser } from '../../auth/session.ts';
import { conflictOf, messageOf } from '../../dataProvider/apiClient.ts';
import type { ApiRecord } from '../../resources/records.ts';
import { resourceHref } from '../../shell/paths.ts';
import { useArea } from '../../shell/area.ts';
import { fetchOverlaps, useOverlapText } from './components.tsx';
import {
  type Appointment,
  CALENDAR_LOCALES,
  CALENDAR_PAGE,
  calendarEventOf,
  isoToSwiss,
  rangeFilter,
  swissNow,
  wallToIso,
} from './model.ts';

const FC_LOCALES = [deLocale, enGbLocale, frLocale, itLocale];

export const CALENDAR_VIEWS = ['dayGridMonth', 'timeGridWeek', 'timeGridDay'] as const;
type CalendarView = (typeof CALENDAR_VIEWS)[number];

const VIEW_LABELS: Record<CalendarView, string> = {
  dayGridMonth: 'app.appointments.calendar.month',
  timeGridWeek: 'app.appointments.calendar.week',
  timeGridDay: 'app.appointments.calendar.day',
};

/** Where the calendar was (view, date, consultant), kept for the tab's session. */
const SESSION_KEY = 'appointments.calendar';

interface CalendarPlace {
  view: CalendarView;
  date?: string;
  /** The consultant shown, null: everyone. */
  consultantId?: number | null;
  area?: string;
}

function readPlace(): CalendarPlace | undefined {
  try {
    const value = JSON.parse(sessionStorage.getItem(SESSION_KEY) ?? 'null') as CalendarPlace | null;
    return value && CALENDAR_VIEWS.includes(value.view) ? value : undefined;
  } catch {
    return undefined;
  }
}

function writePlace(place: CalendarPlace) {
  try {
    sessionStorage.setItem(SESSION_KEY, JSON.stringify(place));
  } catch {
    // No session storage: the calendar starts at today next time.
  }
}

/** The consultant whose appointments are shown: everyone, or one active user. */
function ConsultantPicker({
  value,
  onChange,
}: {
  value: number | null;
  onChange: (id: number | null) => void;
}) {
  const translate = useTranslate();
  const representation = useGetRecordRepresentation('users');
  const { data = [], isPending } = useGetList<ApiRecord<'users'>>('users', {
    filter: { isActive: true },
    pagination: { page: 1, perPage: CALENDAR_PAGE },
    sort: { field: '_label', order: 'ASC' },
  });
  const options = useMemo(
    () => data.map((user) => ({ id: user.id, label: String(representation(user)) })),
    [data, representation],
  );
  const selected = options.find((option) => option.id === value) ?? null;
  return (
    <Autocomplete
      size="small"
      options={options}
      value={selected}
      loading={isPending}
      onChange={(_event, option) => onChange(option?.id ?? null)}
      isOptionEqualToValue={(option, chosen) => option.id === chosen.id}
      sx={{ width: 220 }}
      renderInput={(params) => (
        <TextField
          {...params}
          variant="outlined"
          label={translate('app.appointments.calendar.consultant')}
          placeholder={translate('app.appointments.calendar.everyone')}
          inputProps={{ ...params.inputProps, 'data-testid': 'calendar-consultant' }}
        />
      )}
    />
  );
}

/** FullCalendar in the theme's fonts and colours. */
function CalendarFrame({ children }: { children: ReactNode }) {
  const theme = useTheme();
  const { palette } = theme;
  return (
    <Box
      sx={{
        height: 'calc(100vh - 200px)',
        minHeight: 460,
        '& .fc': {
          '--fc-border-color': palette.divider,
          '--fc-page-bg-color': palette.background.paper,
          '--fc-neutral-bg-color': palette.grey[100],
          '--fc-today-bg-color': alpha(palette.primary.main, 0.06),
          '--fc-now-indicator-color': palette.error.main,
          '--fc-highlight-color': alpha(palette.primary.main, 0.12),
          '--fc-event-border-color': 'transparent',
          fontFamily: theme.typography.fontFamily,
          fontSize: theme.typography.body2.fontSize,
          color: palette.text.primary,
        },
        '& .fc a': { color: 'inherit', textDecoration: 'none' },
        '& .fc .fc-col-header-cell': {
          py: 0.5,
          fontWeight: 500,
          color: palette.text.secondary,
          textTransform: 'capitalize',
        },
        '& .fc .fc-timegrid-slot': { height: '1.6em' },
        '& .fc .fc-timegrid-slot-label, & .fc .fc-timegrid-axis': {
          color: palette.text.secondary,
          fontSize: '0.75rem',
        },
        '& .fc .fc-daygrid-day-number': { fontSize: '0.8rem', p: 0.5 },
        '& .fc .fc-day-today .fc-daygrid-day-number': {
          color: palette.primary.main,
          fontWeight: 700,
        },
        '& .fc .fc-event': {
          borderRadius: '4px',
          boxShadow: theme.shadows[1],
          cursor: 'pointer',
          fontSize: '0.75rem',
        },
        '& .fc .fc-event.fc-event-draggable': { cursor: 'grab' },
        '& .fc .fc-event-main': { px: 0.5 },
        '& .fc .fc-event-time': { fontWeight: 600 },
        // One line per text in short events, cut with an ellipsis rather than in half.
        '& .fc .fc-timegrid-event .fc-event-title, & .fc .fc-daygrid-event .fc-event-title': {
          whiteSpace: 'nowrap',
          overflow: 'hidden',
          textOverflow: 'ellipsis',
        },
        '& .fc .fc-daygrid-event': { whiteSpace: 'nowrap', mx: 0.25 },
        '& .fc .fc-daygrid-more-link': { color: palette.primary.main, fontWeight: 500 },
        '& .fc .fc-popover': { boxShadow: theme.shadows[4], borderRadius: 1 },
        '& .fc .fc-scrollgrid': { borderRadius: 1 },
      }}
    >
      {children}
    </Box>
  );
}

export interface AppointmentCalendarProps {
  /** The view switch (calendar | list), placed in the calendar's toolbar. */
  viewSwitch: ReactNode;
  /** Actions on the right (book). */
  actions?: ReactNode;
  /** Extra filters every request carries (region). */
  filter?: Record<string, unknown>;
}

export default function AppointmentCalendar({
  viewSwitch,
  actions,
  filter,
}: AppointmentCalendarProps) {
  const translate = useTranslate();
  const language = useLocale();
  const notify = useNotify();
  const navigate = useNavigate();
  const dataProvider = useDataProvider();
  const overlapText = useOverlapText();
  const area = useArea();
  const user = getStoredUser();
  const calendarRef = useRef<FullCalendar>(null);

  const stored = useMemo(() => readPlace(), []);
  const initialView: CalendarView = stored?.view ?? 'timeGridWeek';
  const [view, setView] = useState<CalendarView>(initialView);
  const [title, setTitle] = useState('');
  const [range, setRange] = useState<{ dateStart_gte: string; dateStart_lte: string }>();
  // A consultant sees their own appointments first; the admin area everyone's.
  const [consultantId, setConsultantId] = useState<number | null>(() =>
    stored && stored.area === area && stored.consultantId !== undefined
      ? stored.consultantId
      : area === 'consultant'
        ? (user?.id ?? null)
        : null,
  );
  const currentDate = useRef<string | undefined>(stored?.date);

  const remember = useCallback(
    (changes: Partial<CalendarPlace>) =>
      writePlace({
        view,
        date: currentDate.current,
        consultantId,
        area,
        ...changes,
      }),
    [view, consultantId, area],
  );

  const {
    data = [],
    total,
    isFetching,
    refetch,
  } = useGetList<Appointment>(
    'appointments',
    {
      filter: { ...filter, ...range, ...(consultantId ? { consultantId } : {}) },
      pagination: { page: 1, perPage: CALENDAR_PAGE },
      sort: { field: 'dateStart', order: 'ASC' },
    },
    { enabled: range !== undefined, placeholderData: keepPreviousData },
  );
  const events = useMemo(() => data.flatMap((record) => calendarEventOf(record) ?? []), [data]);

  const onDatesSet = (info: DatesSetArg) => {
    setTitle(info.view.title);
    setRange(rangeFilter(info.start, info.end));
    const viewType = info.view.type as CalendarView;
    setView(viewType);
    // The first day the view shows (its current start): where it opens next time.
    currentDate.current = info.view.currentStart.toISOString().slice(0, 10);
    writePlace({ view: viewType, date: currentDate.current, consultantId, area });
  };

  const openRecord = (info: EventClickArg) => {
    info.jsEvent.preventDefault();
    const path = resourceHref(area, 'appointments', 'show', info.event.id);
    if (path) navigate(path);
  };

  const book = (info: DateClickArg) => {
    const path = resourceHref(area, 'appointments', 'create');
    if (!path) return;
    const params = new URLSearchParams({ date: info.dateStr.slice(0, 10) });
    if (!info.allDay) params.set('startTime', info.dateStr.slice(11, 16));
    if (consultantId) params.set('consultantId', String(consultantId));
    navigate(`${path}?${params}`);
  };

  /** One update with the record's version; then the double-booking check. */
  const move = async (info: EventDropArg | EventResizeDoneArg) => {
    const record = info.event.extendedProps.record as Appointment;
    const { start, end } = info.event;
    if (!start || !end) {
      info.revert();
      return;
    }
    const dateStart = wallToIso(start);
    const dateEnd = wallToIso(end);
    const from = isoToSwiss(dateStart);
    const until = isoToSwiss(dateEnd);
    if (!from || !until || from.date !== until.date) {
      info.revert();
      notify('app.errors.notSameDay', { type: 'warning' });
      return;
    }
    try {
      await dataProvider.update<Appointment>('appointments', {
        id: record.id,
        // A PUT: the schema's required fields (the customer and the times) and the version.
        data: {
          clientId: record.clientId,
          dateStart,
          dateEnd,
          date: from.date,
          startTime: from.time,
          endTime: until.time,
          version: record.version,
        },
        previousData: record,
      });
    } catch (error) {
      info.revert();
      if (conflictOf(error)) notify('app.appointments.calendar.conflict', { type: 'error' });
      else notify(messageOf(error), { type: 'error' });
      void refetch();
      return;
    }
    notify('app.appointments.calendar.moved', {
      type: 'info',
      messageArgs: { when: `${from.date.split('-').reverse().join('.')} ${from.time}` },
    });
    void refetch();
    if (!record.consultantId) return;
    try {
      const overlaps = await fetchOverlaps({
        consultantId: record.consultantId,
        dateStart,
        dateEnd,
        excludeId: record.id,
      });
      if (overlaps.length > 0) {
        notify('app.appointments.calendar.doubleBooked', {
          type: 'warning',
          messageArgs: { count: overlaps.length, list: overlaps.map(overlapText).join('; ') },
        });
      }
    } catch {
      // The move is saved; a failed check only means no warning.
    }
  };

  const api = () => calendarRef.current?.getApi();
  const changeView = (next: CalendarView | null) => {
    if (!next) return;
    api()?.changeView(next);
  };
  const changeConsultant = (id: number | null) => {
    setConsultantId(id);
    remember({ consultantId: id });
  };

  return (
    <Card sx={{ mt: 1, p: 1.5 }} data-testid="appointments-calendar">
      <Box
        sx={{
          display: 'flex',
          flexWrap: 'wrap',
          alignItems: 'center',
          gap: 1,
          mb: 1,
        }}
      >
        <Tooltip title={translate('app.appointments.calendar.previous')}>
          <IconButton
            size="small"
            onClick={() => api()?.prev()}
            aria-label={translate('app.appointments.calendar.previous')}
            data-testid="calendar-prev"
          >
            <ChevronLeftIcon />
          </IconButton>
        </Tooltip>
        <Tooltip title={translate('app.appointments.calendar.next')}>
          <IconButton
            size="small"
            onClick={() => api()?.next()}
            aria-label={translate('app.appointments.calendar.next')}
            data-testid="calendar-next"
          >
            <ChevronRightIcon />
          </IconButton>
        </Tooltip>
        <MuiButton
          size="small"
          variant="outlined"
          onClick={() => api()?.today()}
          data-testid="calendar-today"
        >
          {translate('app.appointments.calendar.today')}
        </MuiButton>
        <Typography
          variant="h6"
          component="h2"
          sx={{ mx: 1, minWidth: 150, fontSize: '1.1rem', whiteSpace: 'nowrap' }}
          data-testid="calendar-title"
        >
          {title}
        </Typography>
        <ToggleButtonGroup
          size="small"
          exclusive
          value={view}
          onChange={(_event, next: CalendarView | null) => changeView(next)}
          aria-label={translate('app.appointments.calendar.range')}
        >
          {CALENDAR_VIEWS.map((name) => (
            <ToggleButton key={name} value={name} data-testid={`calendar-view-${name}`}>
              {translate(VIEW_LABELS[name])}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
        <ConsultantPicker value={consultantId} onChange={changeConsultant} />
        <Box sx={{ flexGrow: 1 }} />
        {viewSwitch}
        {actions}
      </Box>
      <Box sx={{ height: 4 }}>{isFetching ? <LinearProgress /> : null}</Box>
      {total !== undefined && total > data.length ? (
        <Alert severity="info" sx={{ mb: 1 }} data-testid="calendar-truncated">
          {translate('app.appointments.calendar.truncated', {
            shown: data.length,
            total,
          })}
        </Alert>
      ) : null}
      <CalendarFrame>
        <FullCalendar
          ref={calendarRef}
          plugins={[dayGridPlugin, timeGridPlugin, interactionPlugin]}
          initialView={initialView}
          initialDate={stored?.date}
          headerToolbar={false}
          locales={FC_LOCALES}
          locale={CALENDAR_LOCALES[language] ?? 'de'}
          firstDay={1}
          timeZone="UTC"
          now={() => swissNow()}
          height="100%"
          slotMinTime="07:00:00"
          slotMaxTime="21:00:00"
          scrollTime="08:00:00"
          slotDuration="00:30:00"
          snapDuration="00:15:00"
          allDaySlot={false}
          nowIndicator
          weekNumbers={view !== 'timeGridDay'}
          dayMaxEvents
          eventDisplay="block"
          displayEventEnd
          eventTimeFormat={{ hour: '2-digit', minute: '2-digit', hour12: false }}
          slotLabelFormat={{ hour: '2-digit', minute: '2-digit', hour12: false }}
          editable
          eventStartEditable
          views={{ dayGridMonth: { eventDurationEditable: false, displayEventEnd: false } }}
          events={events}
          datesSet={onDatesSet}
          eventClick={openRecord}
          dateClick={book}
          eventDrop={(info) => void move(info)}
          eventResize={(info) => void move(info)}
        />
      </CalendarFrame>
    </Card>
  );
}
