/**
 * An appointment's page (both areas): a header (day and times, customer, status chip, edit,
 * "Give feedback" for a planned appointment that has begun, history), then the appointment
 * (customer, consultant, type, who asked, the appointment whose follow-up it is), the address
 * with its map link, the comment and note, the cancellation when cancelled, and the feedback when
 * given (took place, reached by phone, the status it set, note, comment, address, who gave it, the
 * reminder and the follow-up it created, as links, and its image — a thumbnail that opens full size,
 * replaced or removed by whoever may change the feedback: ./FeedbackImage.tsx).
 */
import EditIcon from '@mui/icons-material/Edit';
import { Box, Card, CardContent, Link, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import {
  Button,
  Labeled,
  RecordContextProvider,
  ReferenceField,
  ShowBase,
  Title,
  useCanAccess,
  useGetOne,
  useLocale,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { getStoredUser } from '../../auth/session.ts';
import { formatDateTime } from '../../i18n/format.ts';
import { fieldFor } from '../../resources/fields.tsx';
import { HistoryButton } from '../../resources/history/HistoryButton.tsx';
import { appointmentStatusKey } from '../../schema/appointments.ts';
import { enumKey, fieldLabelKey } from '../../schema/labels.ts';
import { resourceHref } from '../../shell/paths.ts';
import { useArea } from '../../shell/area.ts';
import { ClientField, MapLink, StatusChip } from './components.tsx';
import { FeedbackButton } from './FeedbackDialog.tsx';
import { FeedbackImage } from './FeedbackImage.tsx';
import {
  addressText,
  type Appointment,
  appointmentModel,
  canGiveFeedback,
  type Feedback,
  fieldOf,
  isCancelled,
  swissTimesOf,
} from './model.ts';

const GRID = {
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fill, minmax(200px, 1fr))',
  gap: 2,
} as const;

const empty = (value: unknown) => value === null || value === undefined || value === '';

function Dash() {
  return (
    <Typography variant="body2" color="text.disabled">
      –
    </Typography>
  );
}

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
    <Card sx={{ mb: 2 }} data-testid={`appointment-section-${testId}`}>
      <CardContent>
        <Typography variant="subtitle2" color="text.secondary" sx={{ mb: 1 }}>
          {translate(title)}
        </Typography>
        {children}
      </CardContent>
    </Card>
  );
}

/** A labelled value, a dash when empty. */
function Value({
  label,
  children,
  testId,
  wide,
}: {
  label: string;
  children: ReactNode;
  testId?: string;
  wide?: boolean;
}) {
  const translate = useTranslate();
  return (
    <Box data-testid={testId} sx={wide ? { gridColumn: '1 / -1' } : undefined}>
      <Typography variant="caption" color="text.secondary" component="div">
        {translate(label)}
      </Typography>
      <Box sx={{ typography: 'body2', whiteSpace: 'pre-wrap' }}>
        {empty(children) || children === false ? <Dash /> : children}
      </Box>
    </Box>
  );
}

/** A schema field of the appointment (references link within the area), labelled. */
function Field({ name }: { name: string }) {
  const record = useRecordContext<Appointment>();
  const value = (record as Record<string, unknown> | undefined)?.[name];
  const element = fieldFor(appointmentModel(), fieldOf(name));
  return (
    <Labeled label={fieldLabelKey('appointments', name)}>
      {empty(value) || !element ? <Dash /> : element}
    </Labeled>
  );
}

const when = (record: Appointment | undefined): string => {
  const times = record ? swissTimesOf(record) : undefined;
  return times ? `${times.date.split('-').reverse().join('.')} ${times.start}–${times.end}` : '';
};

/** A link to another appointment, named by its day and times. */
function AppointmentLink({ id, testId }: { id: number; testId?: string }) {
  const area = useArea();
  const { data } = useGetOne<Appointment>('appointments', { id });
  const href = resourceHref(area, 'appointments', 'show', id);
  const text = data ? when(data) : `#${id}`;
  return href ? (
    <Link component={RouterLink} to={href} data-testid={testId}>
      {text}
    </Link>
  ) : (
    <span>{text}</span>
  );
}

/** A link to a reminder, named by its subject. */
function ReminderLink({ id }: { id: number }) {
  const area = useArea();
  const { data } = useGetOne('reminders', { id });
  const href =
    resourceHref(area, 'reminders', 'show', id) ?? resourceHref(area, 'reminders', 'edit', id);
  const text = typeof data?.subject === 'string' ? data.subject : `#${id}`;
  return href ? (
    <Link component={RouterLink} to={href} data-testid="feedback-reminder-link">
      {text}
    </Link>
  ) : (
    <span>{text}</span>
  );
}

function UserName({ id }: { id: number }) {
  return (
    <RecordContextProvider value={{ id: 0, userId: id }}>
      <ReferenceField source="userId" reference="users" link={false} />
    </RecordContextProvider>
  );
}

function FeedbackSection({ id }: { id: number }) {
  const translate = useTranslate();
  const locale = useLocale();
  const { data: feedback } = useGetOne<Feedback>('feedbacks', { id });
  // Whoever may change the feedback's texts may change its image (the image routes are not
  // open to external users).
  const { canAccess: mayEdit } = useCanAccess({ resource: 'feedbacks', action: 'edit' });
  const editable = mayEdit === true && !getStoredUser()?.subBrokerId;
  const label = (name: string) => fieldLabelKey('feedbacks', name);
  const yesNo = (value: boolean | null | undefined) =>
    value === null || value === undefined
      ? null
      : translate(value ? 'ra.boolean.true' : 'ra.boolean.false');
  return (
    <Section title="app.appointments.sections.feedback" testId="feedback">
      {feedback ? (
        <Box sx={GRID}>
          <Value label={label('hasTakenPlace')} testId="feedback-has-taken-place">
            {yesNo(feedback.hasTakenPlace)}
          </Value>
          {feedback.hasTakenPlace ? null : (
            <Value label={label('isReachedByPhone')}>{yesNo(feedback.isReachedByPhone)}</Value>
          )}
          <Value label={label('status')}>{translate(appointmentStatusKey(feedback.status))}</Value>
          <Value label={label('userId')}>
            {feedback.userId ? <UserName id={feedback.userId} /> : null}
          </Value>
          <Value label={label('createdAt')}>{formatDateTime(feedback.createdAt, locale)}</Value>
          <Value label={label('address')}>{feedback.address}</Value>
          <Value label={label('reminderId')}>
            {feedback.reminderId ? <ReminderLink id={feedback.reminderId} /> : null}
          </Value>
          <Value label={label('followUpAppointmentId')}>
            {feedback.followUpAppointmentId ? (
              <AppointmentLink
                id={feedback.followUpAppointmentId}
                testId="feedback-follow-up-link"
              />
            ) : null}
          </Value>
          <Value label={label('note')} wide testId="feedback-note">
            {feedback.note}
          </Value>
          <Value label={label('comment')} wide>
            {feedback.comment}
          </Value>
          <Box sx={{ gridColumn: '1 / -1' }} data-testid="feedback-image-value">
            <Typography variant="caption" color="text.secondary" component="div" sx={{ mb: 0.5 }}>
              {translate(label('image'))}
            </Typography>
            <FeedbackImage feedback={feedback} editable={editable} />
          </Box>
        </Box>
      ) : null}
    </Section>
  );
}

function Header() {
  const record = useRecordContext<Appointment>();
  const area = useArea();
  const navigate = useNavigate();
  if (!record) return null;
  const editPath = resourceHref(area, 'appointments', 'edit', record.id);
  return (
    <Card sx={{ mb: 2 }}>
      <CardContent>
        <Stack
          direction="row"
          useFlexGap
          spacing={1}
          sx={{ alignItems: 'center', flexWrap: 'wrap' }}
        >
          <Typography variant="h5" component="h1" data-testid="appointment-title">
            {when(record)}
            {record.clientName ? ` · ${record.clientName}` : ''}
          </Typography>
          <StatusChip status={record.status} testId="appointment-status-chip" />
        </Stack>
        <Stack
          direction="row"
          useFlexGap
          spacing={1}
          sx={{ mt: 1, flexWrap: 'wrap', alignItems: 'center' }}
        >
          {canGiveFeedback(record) ? <FeedbackButton appointment={record} /> : null}
          {editPath ? (
            <Button
              label="ra.action.edit"
              onClick={() => navigate(editPath)}
              data-testid="appointment-edit"
            >
              <EditIcon />
            </Button>
          ) : null}
          <HistoryButton resource="appointments" />
        </Stack>
      </CardContent>
    </Card>
  );
}

function Page() {
  const record = useRecordContext<Appointment>();
  const translate = useTranslate();
  if (!record) return null;
  const times = swissTimesOf(record);
  const address = addressText(record);
  return (
    <Box sx={{ mt: 2 }} data-testid="appointment-show">
      <Title title={`${translate('resources.appointments.name_one')} ${when(record)}`} />
      <Header />
      <Section title="app.appointments.sections.appointment" testId="appointment">
        <Box sx={GRID}>
          <Value label={fieldLabelKey('appointments', 'date')} testId="appointment-date">
            {times ? times.date.split('-').reverse().join('.') : null}
          </Value>
          <Value label={fieldLabelKey('appointments', 'startTime')} testId="appointment-start">
            {times?.start}
          </Value>
          <Value label={fieldLabelKey('appointments', 'endTime')} testId="appointment-end">
            {times?.end}
          </Value>
          <Labeled label={fieldLabelKey('appointments', 'clientId')}>
            <ClientField source="clientId" label={fieldLabelKey('appointments', 'clientId')} />
          </Labeled>
          <Field name="consultantId" />
          <Value label={fieldLabelKey('appointments', 'appointmentType')}>
            {record.appointmentType
              ? translate(enumKey('appointmentType', record.appointmentType))
              : null}
          </Value>
          <Value label={fieldLabelKey('appointments', 'whoRequested')}>
            {record.whoRequested ? translate(enumKey('whoRequested', record.whoRequested)) : null}
          </Value>
          <Value label={fieldLabelKey('appointments', 'status')} testId="appointment-status">
            {record.status ? translate(appointmentStatusKey(record.status)) : null}
          </Value>
          <Value label={fieldLabelKey('appointments', 'previousAppointmentId')}>
            {record.previousAppointmentId ? (
              <AppointmentLink id={record.previousAppointmentId} testId="appointment-previous" />
            ) : null}
          </Value>
        </Box>
      </Section>
      {record.feedbackId ? <FeedbackSection id={record.feedbackId} /> : null}
      <Section title="app.appointments.sections.address" testId="address">
        <Box sx={GRID}>
          <Value label="app.appointments.address" testId="appointment-address">
            {address ? (
              <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
                <span>{address}</span>
                <MapLink address={record} testId="appointment-map-link" />
              </Stack>
            ) : null}
          </Value>
          <Value label={fieldLabelKey('appointments', 'canton')}>
            {record.canton ? translate(enumKey('canton', record.canton)) : null}
          </Value>
        </Box>
      </Section>
      <Section title="app.appointments.sections.notes" testId="notes">
        <Box sx={GRID}>
          <Value label={fieldLabelKey('appointments', 'comment')} wide testId="appointment-comment">
            {record.comment}
          </Value>
          <Value label={fieldLabelKey('appointments', 'note')} wide>
            {record.note}
          </Value>
        </Box>
      </Section>
      {isCancelled(record.status) ? (
        <Section title="app.appointments.sections.cancellation" testId="cancellation">
          <Box sx={GRID}>
            <Value label={fieldLabelKey('appointments', 'cancelReason')}>
              {record.cancelReason}
            </Value>
            <Value label={fieldLabelKey('appointments', 'cancelStatus')}>
              {record.cancelStatus ? translate(enumKey('cancelStatus', record.cancelStatus)) : null}
            </Value>
          </Box>
        </Section>
      ) : null}
    </Box>
  );
}

export default function AppointmentShow() {
  return (
    <ShowBase resource="appointments">
      <Page />
    </ShowBase>
  );
}
