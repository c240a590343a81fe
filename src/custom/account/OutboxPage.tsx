/**
 * /admin/outbox (manage-users): the mails the server wrote. In demo mode and tests nothing leaves
 * the server, so this is where a reset or invitation link is read; with SMTP configured it shows
 * the delivery queue (bodies are dropped once sent).
 */
import {
  Alert,
  Box,
  Card,
  Chip,
  Dialog,
  DialogContent,
  DialogTitle,
  Link,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { Fragment, useEffect, useState } from 'react';
import { Title, useLocale, useTranslate } from 'react-admin';
import { TablePager } from '../../components/Pagers.tsx';
import { formatDateTime } from '../../i18n/format.ts';
import { api } from '../../dataProvider/apiClient.ts';

interface Mail {
  id: number;
  createdAt: string;
  kind: string;
  toAddress: string;
  subject: string;
  body: string | null;
  status: string;
  sentAt: string | null;
  error: string | null;
}
interface Answer {
  data: Mail[];
  meta: { total: number; transport: string };
}

/** The body as text, with its links clickable. */
function Body({ text }: { text: string }) {
  const parts = text.split(/(https?:\/\/[^\s]+)/g);
  return (
    <Typography
      component="pre"
      sx={{ whiteSpace: 'pre-wrap', fontFamily: 'inherit', m: 0 }}
      data-testid="mail-body"
    >
      {parts.map((part, index) =>
        /^https?:\/\//.test(part) ? (
          <Link key={index} href={part}>
            {part}
          </Link>
        ) : (
          <Fragment key={index}>{part}</Fragment>
        ),
      )}
    </Typography>
  );
}

export default function OutboxPage() {
  const translate = useTranslate();
  const language = useLocale();
  const [to, setTo] = useState('');
  const [page, setPage] = useState(0);
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [failed, setFailed] = useState(false);
  const [open, setOpen] = useState<Mail | null>(null);
  useEffect(() => {
    const query = new URLSearchParams({ page: String(page + 1), per_page: '25' });
    if (to.trim()) query.set('to', to.trim());
    const timer = setTimeout(() => {
      api.json<Answer>('GET', `mail/outbox?${query}`).then(
        (result) => {
          setAnswer(result);
          setFailed(false);
        },
        () => setFailed(true),
      );
    }, 250);
    return () => clearTimeout(timer);
  }, [to, page]);

  return (
    <Box sx={{ my: 2 }}>
      <Title title="app.outbox.title" />
      <Alert severity="info" sx={{ mb: 2 }}>
        {translate(answer?.meta.transport === 'smtp' ? 'app.outbox.smtp' : 'app.outbox.demo')}
      </Alert>
      {failed && <Alert severity="error">{translate('app.login.unavailable')}</Alert>}
      <Card>
        <Box sx={{ p: 2 }}>
          <TextField
            size="small"
            label={translate('app.outbox.to')}
            value={to}
            onChange={(event) => {
              setTo(event.target.value);
              setPage(0);
            }}
          />
        </Box>
        <Table size="small" aria-label={translate('app.outbox.title')}>
          <TableHead>
            <TableRow>
              <TableCell>{translate('app.outbox.date')}</TableCell>
              <TableCell>{translate('app.outbox.to')}</TableCell>
              <TableCell>{translate('app.outbox.subject')}</TableCell>
              <TableCell>{translate('app.outbox.status')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {answer?.data.length === 0 ? (
              <TableRow>
                <TableCell colSpan={4}>{translate('app.outbox.empty')}</TableCell>
              </TableRow>
            ) : null}
            {answer?.data.map((mail) => (
              <TableRow
                key={mail.id}
                hover
                sx={{ cursor: 'pointer' }}
                onClick={() => setOpen(mail)}
              >
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  {formatDateTime(mail.createdAt, language)}
                </TableCell>
                <TableCell sx={{ overflowWrap: 'anywhere' }}>{mail.toAddress}</TableCell>
                <TableCell sx={{ overflowWrap: 'anywhere' }}>{mail.subject}</TableCell>
                <TableCell>
                  <Chip size="small" label={translate(`app.outbox.state.${mail.status}`)} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        <TablePager
          count={answer?.meta.total ?? 0}
          page={page}
          rowsPerPage={25}
          rowsPerPageOptions={[25]}
          onPageChange={(_event, next) => setPage(next)}
        />
      </Card>
      <Dialog open={Boolean(open)} onClose={() => setOpen(null)} maxWidth="md" fullWidth>
        {open ? (
          <>
            <DialogTitle>{open.subject}</DialogTitle>
            <DialogContent>
              <Typography variant="body2" color="text.secondary" gutterBottom>
                {translate('app.outbox.to')}: {open.toAddress} ·{' '}
                {formatDateTime(open.createdAt, language)}
              </Typography>
              {open.body ? (
                <Body text={open.body} />
              ) : (
                <Typography color="text.secondary">{translate('app.outbox.noBody')}</Typography>
              )}
              {open.error ? <Alert severity="error">{open.error}</Alert> : null}
            </DialogContent>
          </>
        ) : null}
      </Dialog>
    </Box>
  );
}
