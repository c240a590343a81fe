/**
 * /admin/jobs (manage-users): the background jobs (server/jobs/) — queued, running, failed and
 * completed, newest first, filtered by state and name, with the error of a failed job and a Retry
 * action that puts it back in the queue.
 */
import {
  Alert,
  Box,
  Button,
  Card,
  Chip,
  MenuItem,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { useCallback, useEffect, useState } from 'react';
import { Title, useLocale, useNotify, useTranslate } from 'react-admin';
import { TablePager } from '../../components/Pagers.tsx';
import { api } from '../../dataProvider/apiClient.ts';
import { formatDateTime } from '../../i18n/format.ts';

/** The job states of pg-boss, as the API answers them. */
export const JOB_STATES = [
  'created',
  'retry',
  'active',
  'completed',
  'cancelled',
  'failed',
] as const;
type JobState = (typeof JOB_STATES)[number];

interface Job {
  id: string;
  name: string;
  state: JobState;
  retryCount: number;
  retryLimit: number;
  startAfter: string;
  startedOn: string | null;
  createdOn: string;
  completedOn: string | null;
  error: string | null;
}
interface Answer {
  data: Job[];
  meta: { total: number };
}

const STATE_COLOURS: Record<JobState, 'default' | 'info' | 'warning' | 'success' | 'error'> = {
  created: 'default',
  retry: 'warning',
  active: 'info',
  completed: 'success',
  cancelled: 'default',
  failed: 'error',
};

const PER_PAGE = 25;

export default function JobsPage() {
  const translate = useTranslate();
  const language = useLocale();
  const notify = useNotify();
  const [state, setState] = useState<JobState | ''>('');
  const [name, setName] = useState('');
  const [page, setPage] = useState(0);
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [failed, setFailed] = useState(false);
  const [reload, setReload] = useState(0);

  useEffect(() => {
    const query = new URLSearchParams({ page: String(page + 1), per_page: String(PER_PAGE) });
    if (state) query.set('state', state);
    if (name.trim()) query.set('name', name.trim());
    const timer = setTimeout(() => {
      api.json<Answer>('GET', `jobs?${query}`).then(
        (result) => {
          setAnswer(result);
          setFailed(false);
        },
        () => setFailed(true),
      );
    }, 250);
    return () => clearTimeout(timer);
  }, [state, name, page, reload]);

  const retry = useCallback(
    (job: Job) => {
      api.json('POST', `jobs/${job.id}/retry`).then(
        () => {
          notify('app.jobs.retried', { type: 'info' });
          setReload((count) => count + 1);
        },
        () => notify('app.jobs.retryFailed', { type: 'error' }),
      );
    },
    [notify],
  );

  const time = (value: string | null) => (value ? formatDateTime(value, language) : '—');

  return (
    <Box sx={{ my: 2 }}>
      <Title title="app.jobs.title" />
      <Alert severity="info" sx={{ mb: 2 }}>
        {translate('app.jobs.help')}
      </Alert>
      {failed && <Alert severity="error">{translate('app.login.unavailable')}</Alert>}
      <Card>
        <Box sx={{ p: 2, display: 'flex', gap: 2, flexWrap: 'wrap' }}>
          <TextField
            select
            size="small"
            sx={{ minWidth: 180 }}
            label={translate('app.jobs.state')}
            value={state}
            onChange={(event) => {
              setState(event.target.value as JobState | '');
              setPage(0);
            }}
          >
            <MenuItem value="">{translate('app.jobs.allStates')}</MenuItem>
            {JOB_STATES.map((value) => (
              <MenuItem key={value} value={value}>
                {translate(`app.jobs.states.${value}`)}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            size="small"
            label={translate('app.jobs.name')}
            value={name}
            onChange={(event) => {
              setName(event.target.value);
              setPage(0);
            }}
          />
        </Box>
        <Table size="small" aria-label={translate('app.jobs.title')}>
          <TableHead>
            <TableRow>
              <TableCell>{translate('app.jobs.created')}</TableCell>
              <TableCell>{translate('app.jobs.name')}</TableCell>
              <TableCell>{translate('app.jobs.state')}</TableCell>
              <TableCell>{translate('app.jobs.attempts')}</TableCell>
              <TableCell>{translate('app.jobs.error')}</TableCell>
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            {answer?.data.length === 0 ? (
              <TableRow>
                <TableCell colSpan={6}>{translate('app.jobs.empty')}</TableCell>
              </TableRow>
            ) : null}
            {answer?.data.map((job) => (
              <TableRow key={job.id} data-testid="job-row">
                <TableCell title={`${translate('app.jobs.startAfter')}: ${time(job.startAfter)}`}>
                  {time(job.createdOn)}
                </TableCell>
                <TableCell sx={{ overflowWrap: 'anywhere' }}>{job.name}</TableCell>
                <TableCell>
                  <Chip
                    size="small"
                    color={STATE_COLOURS[job.state]}
                    label={translate(`app.jobs.states.${job.state}`)}
                  />
                </TableCell>
                <TableCell>
                  {job.retryCount + (job.startedOn ? 1 : 0)} / {job.retryLimit + 1}
                </TableCell>
                <TableCell>
                  {job.error ? (
                    <Typography variant="body2" color="error" sx={{ wordBreak: 'break-word' }}>
                      {job.error}
                    </Typography>
                  ) : null}
                </TableCell>
                <TableCell align="right">
                  {job.state === 'failed' ? (
                    <Button size="small" onClick={() => retry(job)}>
                      {translate('app.jobs.retry')}
                    </Button>
                  ) : null}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        <TablePager
          count={answer?.meta.total ?? 0}
          page={page}
          rowsPerPage={PER_PAGE}
          rowsPerPageOptions={[PER_PAGE]}
          onPageChange={(_event, next) => setPage(next)}
        />
      </Card>
    </Box>
  );
}
