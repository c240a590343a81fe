/**
 * /admin/tasks (spec §2 tasks): the signed-in user's worklist from GET /api/tasks — one card per
 * section the user's role has (reminders due, appointments missing feedback, unassigned
 * appointments, appointments to rebook), each with its total, its first ten items with their
 * action in one click, and a link to the whole list. Nothing to do: one card saying so. Leads to
 * call arrive with the leads (issue 16).
 */
import TaskAltIcon from '@mui/icons-material/TaskAlt';
import {
  Alert,
  Box,
  Card,
  CardContent,
  Chip,
  Grid,
  LinearProgress,
  Link,
  List,
  Stack,
  Typography,
} from '@mui/material';
import { Title, useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { messageOf } from '../../dataProvider/apiClient.ts';
import type { ApiRecord } from '../../resources/records.ts';
import { resourceHref } from '../../shell/paths.ts';
import { useArea } from '../../shell/area.ts';
import type { Area } from '../../shell/paths.ts';
import type { Reminder } from '../reminders/model.ts';
import { AppointmentTask, LeadTask, ReminderTask } from './TaskItems.tsx';
import { type TaskSection, type TaskSectionKey, useTasks } from './useTasks.ts';

/** Where a section's whole list is: the reminders list or the appointments list, filtered. */
export function sectionListHref(area: Area, key: TaskSectionKey): string | undefined {
  const filter = (value: Record<string, unknown>) =>
    `?filter=${encodeURIComponent(JSON.stringify(value))}`;
  if (key === 'reminders_due') return resourceHref(area, 'reminders', 'list');
  if (key === 'leads_to_call') return resourceHref(area, 'leads', 'list');
  const list = resourceHref(area, 'appointments', 'list');
  if (!list) return undefined;
  if (key === 'missing_feedbacks') return `${list}${filter({ type: 'missing_feedbacks' })}`;
  if (key === 'unassigned_appointments') return `${list}${filter({ type: 'unassigned' })}`;
  return `${list}${filter({ cancelStatus: 'to_rebook' })}`;
}

export function SectionItems({
  section,
  showConsultant = true,
}: {
  section: TaskSection;
  showConsultant?: boolean;
}) {
  return (
    <List dense disablePadding>
      {section.items.map((item) =>
        section.key === 'reminders_due' ? (
          <ReminderTask key={item.id} record={item as Reminder} />
        ) : section.key === 'leads_to_call' ? (
          <LeadTask key={item.id} record={item as ApiRecord<'leads'>} />
        ) : (
          <AppointmentTask
            key={item.id}
            record={item as ApiRecord<'appointments'>}
            section={section.key}
            showConsultant={showConsultant}
          />
        ),
      )}
    </List>
  );
}

function SectionCard({ section }: { section: TaskSection }) {
  const translate = useTranslate();
  const area = useArea();
  const all = sectionListHref(area, section.key);
  return (
    <Card sx={{ height: '100%' }} data-testid={`task-section-${section.key}`}>
      <CardContent>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }}>
          <Typography variant="h6" component="h2" sx={{ flex: 1 }}>
            {translate(`app.tasks.sections.${section.key}`)}
          </Typography>
          <Chip
            size="small"
            color={section.total > 0 ? 'primary' : 'default'}
            label={section.total}
            data-testid={`task-total-${section.key}`}
          />
        </Stack>
        {section.items.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            {translate('app.tasks.sectionEmpty')}
          </Typography>
        ) : (
          <SectionItems section={section} />
        )}
        {all && section.total > section.items.length ? (
          <Box sx={{ mt: 1 }}>
            <Link component={RouterLink} to={all}>
              {translate('app.tasks.showAll', { count: section.total })}
            </Link>
          </Box>
        ) : null}
      </CardContent>
    </Card>
  );
}

export default function TasksPage() {
  const translate = useTranslate();
  const { data, isPending, error } = useTasks(10);
  const nothing = data !== undefined && data.every((section) => section.total === 0);
  return (
    <Box sx={{ mt: 2 }} data-testid="tasks-page">
      <Title title={translate('app.tasks.title')} />
      {isPending ? <LinearProgress /> : null}
      {error ? <Alert severity="error">{messageOf(error)}</Alert> : null}
      {nothing ? (
        <Card data-testid="tasks-empty">
          <CardContent>
            <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
              <TaskAltIcon color="success" fontSize="large" />
              <div>
                <Typography variant="h6" component="h2">
                  {translate('app.tasks.emptyTitle')}
                </Typography>
                <Typography color="text.secondary">{translate('app.tasks.emptyText')}</Typography>
              </div>
            </Stack>
          </CardContent>
        </Card>
      ) : (
        <Grid container spacing={2}>
          {(data ?? []).map((section) => (
            <Grid key={section.key} size={{ xs: 12, lg: 6 }}>
              <SectionCard section={section} />
            </Grid>
          ))}
        </Grid>
      )}
    </Box>
  );
}
