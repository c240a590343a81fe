/**
 * The rows of the worklist (tasks page, dashboard): a reminder with "resolve" and "open", an
 * appointment with the one action its section calls for — give the missing feedback (its page,
 * where the feedback dialog is), assign the unassigned one (its edit page), rebook the cancelled
 * one (its page).
 */
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import EditCalendarIcon from '@mui/icons-material/EditCalendar';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import PhoneIcon from '@mui/icons-material/Phone';
import RateReviewIcon from '@mui/icons-material/RateReview';
import { Box, Button, Link, ListItem, ListItemText, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { RecordContextProvider, ReferenceField, useLocale, useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { formatDate } from '../../i18n/format.ts';
import { enumKey } from '../../schema/labels.ts';
import { formatPhone, phoneHref } from '../../schema/phone.ts';
import type { ApiRecord } from '../../resources/records.ts';
import { resourceHref } from '../../shell/paths.ts';
import { useArea } from '../../shell/area.ts';
import { DueCell } from '../reminders/parts.tsx';
import { useMoveReminder } from '../reminders/ReminderActions.tsx';
import type { Reminder } from '../reminders/model.ts';
import type { TaskSectionKey } from './useTasks.ts';

type Appointment = ApiRecord<'appointments'>;

const short = (time: string | null | undefined) => (time ? time.slice(0, 5) : '');

/** "12.05.2026 09:00–10:30" of an appointment (Swiss local date and times). */
export function AppointmentWhen({ record }: { record: Appointment }) {
  const locale = useLocale();
  const day = record.date ?? record.dateStart?.slice(0, 10);
  return (
    <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
      {formatDate(day, locale)} {short(record.startTime)}
      {record.endTime ? `–${short(record.endTime)}` : ''}
    </Box>
  );
}

function Row({
  primary,
  secondary,
  actions,
  testId,
}: {
  primary: ReactNode;
  secondary: ReactNode;
  actions: ReactNode;
  testId: string;
}) {
  return (
    <ListItem
      divider
      disableGutters
      data-testid={testId}
      secondaryAction={
        <Stack direction="row" spacing={0.5}>
          {actions}
        </Stack>
      }
      sx={{ pr: 24 }}
    >
      <ListItemText
        primary={primary}
        secondary={secondary}
        slotProps={{ secondary: { component: 'div' } }}
      />
    </ListItem>
  );
}

export function ReminderTask({ record }: { record: Reminder }) {
  const translate = useTranslate();
  const area = useArea();
  const { move, isPending } = useMoveReminder();
  const href = resourceHref(area, 'reminders', 'show', record.id) ?? '#';
  return (
    <RecordContextProvider value={record}>
      <Row
        testId={`task-reminder-${record.id}`}
        primary={
          <Link component={RouterLink} to={href} underline="hover">
            {record.subject}
          </Link>
        }
        secondary={
          <Stack
            direction="row"
            useFlexGap
            columnGap={1}
            component="span"
            sx={{ flexWrap: 'wrap' }}
          >
            <DueCell record={record} />
            {record.clientId ? (
              <ReferenceField source="clientId" reference="customers" link={false} />
            ) : null}
          </Stack>
        }
        actions={
          <>
            <Button
              size="small"
              color="success"
              startIcon={<CheckCircleIcon />}
              disabled={isPending}
              onClick={() => void move(record, 'resolved')}
              data-testid={`task-resolve-${record.id}`}
            >
              {translate('app.reminders.actions.resolved')}
            </Button>
            <Button size="small" component={RouterLink} to={href} startIcon={<OpenInNewIcon />}>
              {translate('app.tasks.open')}
            </Button>
          </>
        }
      />
    </RecordContextProvider>
  );
}

/** A lead to call: its name (to its page), source, column and attempts, phone as a link. */
export function LeadTask({ record }: { record: ApiRecord<'leads'> }) {
  const translate = useTranslate();
  const area = useArea();
  const href = resourceHref(area, 'leads', 'show', record.id) ?? '#';
  const name = record.organization || [record.firstName, record.lastName].filter(Boolean).join(' ');
  return (
    <RecordContextProvider value={record}>
      <Row
        testId={`task-lead-${record.id}`}
        primary={
          <Link component={RouterLink} to={href} underline="hover">
            {name || `#${record.id}`}
          </Link>
        }
        secondary={
          <Stack
            direction="row"
            useFlexGap
            columnGap={1}
            component="span"
            sx={{ flexWrap: 'wrap' }}
          >
            <span>{translate(enumKey('leadStatus', record.status))}</span>
            <Typography variant="body2" component="span" color="text.secondary">
              <ReferenceField source="leadSource" reference="lead-sources" link={false} />
            </Typography>
            {record.attemptCount ? (
              <span>{translate('app.tasks.attempts', { count: record.attemptCount })}</span>
            ) : null}
            {record.phoneNumber ? (
              <Link href={phoneHref(record.phoneNumber)} underline="hover">
                {formatPhone(record.phoneNumber)}
              </Link>
            ) : null}
          </Stack>
        }
        actions={
          <Button
            size="small"
            component={RouterLink}
            to={href}
            startIcon={<PhoneIcon />}
            data-testid={`task-action-call-${record.id}`}
          >
            {translate('app.tasks.actions.call')}
          </Button>
        }
      />
    </RecordContextProvider>
  );
}

const APPOINTMENT_ACTION: Record<
  Exclude<TaskSectionKey, 'reminders_due' | 'leads_to_call'>,
  { view: 'show' | 'edit'; label: string; icon: ReactNode }
> = {
  missing_feedbacks: {
    view: 'show',
    label: 'app.tasks.actions.feedback',
    icon: <RateReviewIcon />,
  },
  unassigned_appointments: {
    view: 'edit',
    label: 'app.tasks.actions.assign',
    icon: <PersonAddIcon />,
  },
  to_rebook: { view: 'show', label: 'app.tasks.actions.rebook', icon: <EditCalendarIcon /> },
};

export function AppointmentTask({
  record,
  section,
  showConsultant = true,
}: {
  record: Appointment;
  /** Its worklist section (its action); none: just "open". */
  section?: Exclude<TaskSectionKey, 'reminders_due' | 'leads_to_call'>;
  showConsultant?: boolean;
}) {
  const translate = useTranslate();
  const area = useArea();
  const action = section
    ? APPOINTMENT_ACTION[section]
    : { view: 'show' as const, label: 'app.tasks.open', icon: <OpenInNewIcon /> };
  const href = resourceHref(area, 'appointments', action.view, record.id) ?? '#';
  const showHref = resourceHref(area, 'appointments', 'show', record.id) ?? '#';
  return (
    <RecordContextProvider value={record}>
      <Row
        testId={`task-appointment-${record.id}`}
        primary={
          <Link component={RouterLink} to={showHref} underline="hover">
            {record.clientName ?? `#${record.id}`}
          </Link>
        }
        secondary={
          <Stack
            direction="row"
            useFlexGap
            columnGap={1}
            component="span"
            sx={{ flexWrap: 'wrap' }}
          >
            <AppointmentWhen record={record} />
            {record.city ? <span>{record.city}</span> : null}
            {showConsultant && record.consultantId ? (
              <Typography variant="body2" component="span" color="text.secondary">
                <ReferenceField source="consultantId" reference="users" link={false} />
              </Typography>
            ) : null}
          </Stack>
        }
        actions={
          <Button
            size="small"
            component={RouterLink}
            to={href}
            startIcon={action.icon}
            data-testid={`task-action-${section ?? 'open'}-${record.id}`}
          >
            {translate(action.label)}
          </Button>
        }
      />
    </RecordContextProvider>
  );
}
