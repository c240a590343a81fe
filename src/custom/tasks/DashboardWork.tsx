/**
 * The dashboard's work cards (issue 15): today's appointments (a consultant's own; in the admin
 * area everyone's, with the consultant), the user's reminders due and the appointments missing
 * feedback (GET /api/tasks). Each row links through; the headings lead to the whole list.
 */
import { Card, CardContent, Chip, Grid, Link, List, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useGetList, useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { getStoredUser } from '../../auth/session.ts';
import type { ApiRecord } from '../../resources/records.ts';
import { resourceHref } from '../../shell/paths.ts';
import { useArea } from '../../shell/area.ts';
import { swissTodayRange } from '../reminders/model.ts';
import { AppointmentTask } from './TaskItems.tsx';
import { sectionListHref, SectionItems } from './TasksPage.tsx';
import { type TaskSectionKey, useTasks } from './useTasks.ts';

function WorkCard({
  title,
  total,
  href,
  testId,
  empty,
  children,
}: {
  title: string;
  total: number | undefined;
  href?: string;
  testId: string;
  empty: boolean;
  children: ReactNode;
}) {
  const translate = useTranslate();
  return (
    <Card sx={{ height: '100%' }} data-testid={testId}>
      <CardContent>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }}>
          <Typography variant="h6" component="h2" sx={{ flex: 1 }}>
            {href ? (
              <Link component={RouterLink} to={href} color="inherit" underline="hover">
                {translate(title)}
              </Link>
            ) : (
              translate(title)
            )}
          </Typography>
          {total !== undefined ? (
            <Chip
              size="small"
              color={total > 0 ? 'primary' : 'default'}
              label={total}
              data-testid={`${testId}-total`}
            />
          ) : null}
        </Stack>
        {empty ? (
          <Typography variant="body2" color="text.secondary">
            {translate('app.dashboard.nothing')}
          </Typography>
        ) : (
          children
        )}
      </CardContent>
    </Card>
  );
}

function TodayAppointments() {
  const area = useArea();
  const user = getStoredUser();
  const { from, to } = swissTodayRange();
  const {
    data = [],
    total,
    isPending,
  } = useGetList<ApiRecord<'appointments'>>('appointments', {
    filter: {
      dateStart_gte: from,
      dateStart_lte: to,
      ...(area === 'consultant' && user ? { consultantId: user.id } : {}),
    },
    pagination: { page: 1, perPage: 10 },
    sort: { field: 'dateStart', order: 'ASC' },
  });
  return (
    <WorkCard
      title="app.dashboard.todayAppointments"
      total={total}
      href={resourceHref(area, 'appointments', 'list')}
      testId="dashboard-today-appointments"
      empty={!isPending && data.length === 0}
    >
      <List dense disablePadding>
        {data.map((appointment) => (
          <AppointmentTask
            key={appointment.id}
            record={appointment}
            showConsultant={area === 'admin'}
          />
        ))}
      </List>
    </WorkCard>
  );
}

const DASHBOARD_SECTIONS: TaskSectionKey[] = [
  'reminders_due',
  'missing_feedbacks',
  'leads_to_call',
];

function TaskCards() {
  const area = useArea();
  const { data } = useTasks(5);
  const sections = (data ?? []).filter((section) => DASHBOARD_SECTIONS.includes(section.key));
  return (
    <>
      {sections.map((section) => (
        <Grid key={section.key} size={{ xs: 12, md: 6 }}>
          <WorkCard
            title={`app.tasks.sections.${section.key}`}
            total={section.total}
            href={
              area === 'admin' ? `/admin/tasks` : (sectionListHref(area, section.key) ?? undefined)
            }
            testId={`dashboard-${section.key}`}
            empty={section.items.length === 0}
          >
            <SectionItems section={section} showConsultant={area === 'admin'} />
          </WorkCard>
        </Grid>
      ))}
    </>
  );
}

/** The cards, as items of the dashboard's grid. */
export function DashboardWork() {
  return (
    <>
      <Grid size={{ xs: 12, md: 6 }}>
        <TodayAppointments />
      </Grid>
      <TaskCards />
    </>
  );
}
