/**
 * A reminder's page (spec §2 reminders/{id}): subject, status and "overdue" in the header with the
 * moves the user may make (resolve, cancel, reopen), edit and history; then the due date and time,
 * category, who has to do it and who set it, the customer, contract and appointment it is about
 * (linked), the description, and when it was set, closed and notified.
 */
import EditIcon from '@mui/icons-material/Edit';
import { Box, Card, CardContent, Chip, Stack, Typography } from '@mui/material';
import { Button, Labeled, ShowBase, Title, useRecordContext, useTranslate } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { fieldFor } from '../../resources/fields.tsx';
import { HistoryButton } from '../../resources/history/HistoryButton.tsx';
import { getModel } from '../../resources/registry.ts';
import { fieldLabelKey } from '../../schema/labels.ts';
import { resourceHref } from '../../shell/paths.ts';
import { useArea } from '../../shell/area.ts';
import { ReminderActions } from './ReminderActions.tsx';
import { DueCell, StatusChip } from './parts.tsx';
import { isOverdue, type Reminder } from './model.ts';

const GRID = {
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))',
  gap: 2,
} as const;

const DETAILS = [
  'category',
  'userId',
  'assignerId',
  'clientId',
  'contractId',
  'appointmentId',
  'date',
  'deadline',
  'resolvedAt',
  'notifiedAt',
];

function Field({ name }: { name: string }) {
  const record = useRecordContext<Reminder>();
  const model = getModel('reminders');
  const field = model.fields.find((candidate) => candidate.name === name);
  if (!field || !record) return null;
  const value = (record as Record<string, unknown>)[name];
  return (
    <Labeled label={fieldLabelKey('reminders', name)}>
      {value === null || value === undefined || value === '' ? (
        <Typography variant="body2" color="text.disabled">
          –
        </Typography>
      ) : (
        (fieldFor(model, field) ?? <span />)
      )}
    </Labeled>
  );
}

function Page() {
  const record = useRecordContext<Reminder>();
  const translate = useTranslate();
  const area = useArea();
  const navigate = useNavigate();
  if (!record) return null;
  const editPath = resourceHref(area, 'reminders', 'edit', record.id);
  return (
    <Box sx={{ mt: 2 }} data-testid="reminder-show">
      <Title title={record.subject} />
      <Card sx={{ mb: 2 }}>
        <CardContent>
          <Stack
            direction="row"
            useFlexGap
            spacing={1}
            sx={{ alignItems: 'center', flexWrap: 'wrap' }}
          >
            <Typography variant="h5" component="h1" sx={{ mr: 1 }} data-testid="reminder-title">
              {record.subject}
            </Typography>
            <StatusChip status={record.status} />
            {isOverdue(record) ? (
              <Chip size="small" color="error" label={translate('app.reminders.overdue')} />
            ) : null}
          </Stack>
          <Box sx={{ mt: 1 }}>
            <Labeled label={fieldLabelKey('reminders', 'dueDate')}>
              <DueCell record={record} />
            </Labeled>
          </Box>
          <Stack direction="row" useFlexGap spacing={1} sx={{ mt: 1, flexWrap: 'wrap' }}>
            <ReminderActions record={record} />
            {editPath ? (
              <Button
                label="ra.action.edit"
                onClick={() => navigate(editPath)}
                data-testid="reminder-edit"
              >
                <EditIcon />
              </Button>
            ) : null}
            <HistoryButton resource="reminders" />
          </Stack>
        </CardContent>
      </Card>
      <Card>
        <CardContent>
          <Box sx={GRID}>
            {DETAILS.map((name) => (
              <Field key={name} name={name} />
            ))}
          </Box>
          <Box sx={{ mt: 2 }}>
            <Labeled label={fieldLabelKey('reminders', 'description')}>
              <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap' }}>
                {record.description || '–'}
              </Typography>
            </Labeled>
          </Box>
        </CardContent>
      </Card>
    </Box>
  );
}

export default function ReminderShow() {
  return (
    <ShowBase resource="reminders">
      <Page />
    </ShowBase>
  );
}
