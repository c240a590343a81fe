/**
 * A lead's page (both areas): a header with its name, column and close reason and what can be
 * done — record a call, book the appointment (prospects become customers first), make a
 * customer of a prospect, edit, history —, then the person, the contact details (or why they are
 * hidden: the source's `hideContact`, src/schema/leads.ts seesLeadContact), the source with who
 * recommended the lead and who works it, the board's facts (column, close reason, attempts,
 * closing, the appointment booked from it), the calls made, newest first, and the notes.
 */
import EditIcon from '@mui/icons-material/Edit';
import EventIcon from '@mui/icons-material/Event';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import VisibilityOffOutlinedIcon from '@mui/icons-material/VisibilityOffOutlined';
import {
  Alert,
  Box,
  Button as MuiButton,
  Card,
  CardContent,
  Link,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { type ReactNode, useState } from 'react';
import {
  RecordContextProvider,
  ReferenceField,
  ShowBase,
  Title,
  useGetOne,
  useLocale,
  useRecordContext,
  useRefresh,
  useTranslate,
} from 'react-admin';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { getStoredUser } from '../../auth/session.ts';
import { formatDateTime } from '../../i18n/format.ts';
import { fieldFor } from '../../resources/fields.tsx';
import { HistoryButton } from '../../resources/history/HistoryButton.tsx';
import { PhoneLink } from '../../resources/PhoneField.tsx';
import type { ApiRecord } from '../../resources/records.ts';
import { enumKey, fieldLabelKey } from '../../schema/labels.ts';
import { seesLeadContact } from '../../schema/leads.ts';
import { resourceHref } from '../../shell/paths.ts';
import { useArea } from '../../shell/area.ts';
import { type Lead, leadName } from './board.ts';
import { CallAttemptButton } from './CallAttemptDialog.tsx';
import { ConvertDialog } from './CloseDialog.tsx';
import { CloseStatusChip, LeadStatusChip, useLeadSources } from './components.tsx';
import { appointmentHref, fieldOf, leadModel } from './model.ts';

const GRID = {
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fill, minmax(200px, 1fr))',
  gap: 2,
} as const;
/** The narrower right-hand column: two values a row. */
const SIDE_GRID = { ...GRID, gridTemplateColumns: 'repeat(auto-fill, minmax(150px, 1fr))' };

const label = (name: string) => fieldLabelKey('leads', name);
const empty = (value: unknown) => value === null || value === undefined || value === '';

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
    <Card sx={{ mb: 2 }} data-testid={`lead-section-${testId}`}>
      <CardContent>
        <Typography variant="subtitle2" component="h2" color="text.secondary" sx={{ mb: 1 }}>
          {translate(title)}
        </Typography>
        {children}
      </CardContent>
    </Card>
  );
}

function Value({
  label: key,
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
        {translate(key)}
      </Typography>
      <Box sx={{ typography: 'body2', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {empty(children) || children === false ? (
          <Typography variant="body2" color="text.disabled" component="span">
            –
          </Typography>
        ) : (
          children
        )}
      </Box>
    </Box>
  );
}

/** A reference of the lead (customer, user, appointment) as the generic field shows it. */
function Reference({ name }: { name: string }) {
  const record = useRecordContext<Lead>();
  const value = (record as Record<string, unknown> | undefined)?.[name];
  return (
    <Value label={label(name)} testId={`lead-${name}`}>
      {empty(value) ? null : fieldFor(leadModel(), fieldOf(name))}
    </Value>
  );
}

function UserName({ id }: { id: number }) {
  return (
    <RecordContextProvider value={{ id: 0, userId: id }}>
      <ReferenceField source="userId" reference="users" link={false} />
    </RecordContextProvider>
  );
}

/** The appointment booked from the lead, named by its Swiss day and time ('29.11.2026 14:00'). */
function AppointmentLink({ id }: { id: number }) {
  const area = useArea();
  const { data } = useGetOne<ApiRecord<'appointments'>>('appointments', { id });
  const href = resourceHref(area, 'appointments', 'show', id);
  const text =
    data?.date && data.startTime
      ? `${data.date.split('-').reverse().join('.')} ${data.startTime.slice(0, 5)}`
      : `#${id}`;
  return href ? (
    <Link component={RouterLink} to={href} data-testid="lead-appointment-link">
      {text}
    </Link>
  ) : (
    <span>{text}</span>
  );
}

function CallHistory({ lead }: { lead: Lead }) {
  const translate = useTranslate();
  const locale = useLocale();
  const calls = [...(lead.callAttempts ?? [])].reverse();
  return (
    <Section title="app.leads.sections.calls" testId="calls">
      {calls.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {translate('app.leads.call.none')}
        </Typography>
      ) : (
        <Table size="small" data-testid="lead-calls">
          <TableHead>
            <TableRow>
              <TableCell>{translate('app.leads.call.when')}</TableCell>
              <TableCell>{translate('app.leads.call.outcome')}</TableCell>
              <TableCell>{translate('app.leads.call.note')}</TableCell>
              <TableCell>{translate('app.leads.call.by')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {calls.map((call, index) => (
              <TableRow key={`${call.at}-${index}`}>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  {formatDateTime(call.at, locale)}
                </TableCell>
                <TableCell>{translate(enumKey('leadCallOutcome', call.outcome))}</TableCell>
                <TableCell sx={{ whiteSpace: 'pre-wrap' }}>{call.note}</TableCell>
                <TableCell>{call.userId ? <UserName id={call.userId} /> : null}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Section>
  );
}

function Header({ onBook, onConvert }: { onBook: () => void; onConvert: () => void }) {
  const record = useRecordContext<Lead>();
  const area = useArea();
  const navigate = useNavigate();
  const translate = useTranslate();
  if (!record) return null;
  const editPath = resourceHref(area, 'leads', 'edit', record.id);
  const open = record.status !== 'closed';
  return (
    <Card sx={{ mb: 2 }}>
      <CardContent>
        <Stack
          direction="row"
          useFlexGap
          spacing={1}
          sx={{ alignItems: 'center', flexWrap: 'wrap' }}
        >
          <Typography variant="h5" component="h1" data-testid="lead-title">
            {leadName(record) || `${translate('resources.leads.name_one')} #${record.id}`}
          </Typography>
          <LeadStatusChip status={record.status} />
          <CloseStatusChip closeStatus={record.closeStatus} />
        </Stack>
        <Stack
          direction="row"
          useFlexGap
          spacing={1}
          sx={{ mt: 1.5, flexWrap: 'wrap', alignItems: 'center' }}
        >
          {open ? <CallAttemptButton lead={record} /> : null}
          {open ? (
            <MuiButton
              size="small"
              variant="outlined"
              startIcon={<EventIcon />}
              onClick={onBook}
              data-testid="lead-book"
            >
              {translate('app.leads.book')}
            </MuiButton>
          ) : null}
          {record.customerId || !open ? null : (
            <MuiButton
              size="small"
              variant="outlined"
              startIcon={<PersonAddIcon />}
              onClick={onConvert}
              data-testid="lead-convert"
            >
              {translate('app.leads.convert.action')}
            </MuiButton>
          )}
          {editPath ? (
            <MuiButton
              size="small"
              startIcon={<EditIcon />}
              onClick={() => navigate(editPath)}
              data-testid="lead-edit"
            >
              {translate('ra.action.edit')}
            </MuiButton>
          ) : null}
          <HistoryButton resource="leads" />
        </Stack>
      </CardContent>
    </Card>
  );
}

function Page() {
  const record = useRecordContext<Lead>();
  const translate = useTranslate();
  const locale = useLocale();
  const area = useArea();
  const navigate = useNavigate();
  const refresh = useRefresh();
  const { byId, nameOf } = useLeadSources();
  /** Converting: only a customer (booking: then the appointment form). */
  const [converting, setConverting] = useState<'convert' | 'book' | null>(null);
  if (!record) return null;
  const source = byId.get(record.leadSource);
  const role = getStoredUser()?.role ?? '';
  const seesContact = seesLeadContact(role, source?.hideContact, record);
  const book = (customerId: number) => {
    const href = appointmentHref(area, record, customerId);
    if (href) navigate(href);
  };
  const address = [record.street, [record.zip, record.city].filter(Boolean).join(' ')]
    .filter(Boolean)
    .join(', ');
  return (
    <Box sx={{ mt: 2 }} data-testid="lead-show">
      <Title title={`${translate('resources.leads.name_one')} ${leadName(record)}`} />
      <Header
        onBook={() => (record.customerId ? book(record.customerId) : setConverting('book'))}
        onConvert={() => setConverting('convert')}
      />
      <Box
        sx={{
          display: 'grid',
          gridTemplateColumns: { xs: '1fr', lg: 'minmax(0, 3fr) minmax(0, 2fr)' },
          columnGap: 2,
          alignItems: 'start',
        }}
      >
        <Box>
          <Section title="app.leads.sections.person" testId="person">
            <Box sx={GRID}>
              {record.isCompany || record.organization ? (
                <Value label={label('organization')}>{record.organization}</Value>
              ) : null}
              <Value label={label('firstName')}>{record.firstName}</Value>
              <Value label={label('lastName')}>{record.lastName}</Value>
              <Value label={label('language')}>
                {record.language ? translate(enumKey('language', record.language)) : null}
              </Value>
              <Reference name="customerId" />
            </Box>
          </Section>
          <Section title="app.leads.sections.contact" testId="contact">
            {seesContact ? (
              <Box sx={GRID}>
                <Value label={label('phoneNumber')} testId="lead-phone">
                  {record.phoneNumber ? <PhoneLink value={record.phoneNumber} /> : null}
                </Value>
                <Value label={label('email')} testId="lead-email">
                  {record.email ? (
                    <Link href={`mailto:${record.email}`}>{record.email}</Link>
                  ) : null}
                </Value>
                <Value label="app.leads.address" testId="lead-address">
                  {address}
                </Value>
              </Box>
            ) : (
              <Alert
                severity="info"
                icon={<VisibilityOffOutlinedIcon />}
                data-testid="lead-contact-hidden"
              >
                {translate('app.leads.contactHidden', { source: nameOf(source) })}
              </Alert>
            )}
          </Section>
          <CallHistory lead={record} />
          <Section title="app.leads.sections.notes" testId="notes">
            <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap' }} data-testid="lead-notes">
              {record.notes || (
                <Typography variant="body2" color="text.disabled" component="span">
                  –
                </Typography>
              )}
            </Typography>
          </Section>
        </Box>
        <Box>
          <Section title="app.leads.sections.source" testId="source">
            <Box sx={SIDE_GRID}>
              <Value label={label('leadSource')} testId="lead-source">
                {nameOf(source)}
              </Value>
              <Reference name="assignedTo" />
              <Value label={label('recommendedBy')}>{record.recommendedBy}</Value>
              <Reference name="recommendedByCustomerId" />
            </Box>
          </Section>
          <Section title="app.leads.sections.board" testId="board">
            <Box sx={SIDE_GRID}>
              <Value label={label('status')} testId="lead-status">
                {translate(enumKey('leadStatus', record.status))}
              </Value>
              <Value label={label('closeStatus')} testId="lead-close-status">
                {record.closeStatus
                  ? translate(enumKey('leadCloseStatus', record.closeStatus))
                  : null}
              </Value>
              <Value label={label('attemptCount')} testId="lead-attempts">
                {String(record.attemptCount ?? 0)}
              </Value>
              <Value label={label('lastAttemptAt')}>
                {formatDateTime(record.lastAttemptAt, locale)}
              </Value>
              <Value label={label('createdAt')}>{formatDateTime(record.createdAt, locale)}</Value>
              <Value label={label('closedAt')}>{formatDateTime(record.closedAt, locale)}</Value>
              <Value label={label('appointmentId')}>
                {record.appointmentId ? <AppointmentLink id={record.appointmentId} /> : null}
              </Value>
            </Box>
          </Section>
        </Box>
      </Box>
      <ConvertDialog
        lead={converting ? record : null}
        name={leadName(record)}
        mode={converting ?? 'book'}
        onCancel={() => setConverting(null)}
        onConverted={(customerId) => {
          const then = converting;
          setConverting(null);
          if (then === 'book') book(customerId);
          else refresh();
        }}
      />
    </Box>
  );
}

export default function LeadShow() {
  return (
    <ShowBase resource="leads">
      <Page />
    </ShowBase>
  );
}
