/**
 * /admin/notifications: the signed-in user's in-app notifications, unread first; mark read/unread.
 * Clicking one with a link marks it read and opens the link. The bell in the app bar follows.
 */
import MarkEmailReadIcon from '@mui/icons-material/MarkEmailRead';
import MarkEmailUnreadIcon from '@mui/icons-material/MarkEmailUnread';
import { Alert, Box, Button, Card, CardContent, Link, Stack, Typography } from '@mui/material';
import {
  ListBase,
  Title,
  useGetIdentity,
  useListContext,
  useLocale,
  useTranslate,
} from 'react-admin';
import { formatDateTime } from '../i18n/format.ts';
import { useNotificationRead } from '../layout/useNotificationRead.ts';
import type { ApiRecord } from '../resources/records.ts';

type NotificationRecord = ApiRecord<'notifications'>;

function NotificationItems() {
  const translate = useTranslate();
  const { data, isPending } = useListContext<NotificationRecord>();
  const { setRead, open } = useNotificationRead();
  const locale = useLocale();
  if (isPending) return null;
  if (!data || data.length === 0) {
    return <Typography color="text.secondary">{translate('app.notifications.empty')}</Typography>;
  }
  const toggle = (record: NotificationRecord) => setRead(record, !record.readAt);
  return (
    <Stack spacing={1.5}>
      {data.map((record) => (
        <Alert
          key={record.id}
          severity={record.level ?? undefined}
          variant={record.readAt ? 'outlined' : 'standard'}
          data-testid="notification-item"
          data-read={record.readAt ? 'true' : 'false'}
          action={
            <Button
              size="small"
              startIcon={record.readAt ? <MarkEmailUnreadIcon /> : <MarkEmailReadIcon />}
              onClick={() => toggle(record)}
            >
              {translate(
                record.readAt ? 'app.notifications.markUnread' : 'app.notifications.markRead',
              )}
            </Button>
          }
        >
          {record.link ? (
            <Link
              component="button"
              type="button"
              color="inherit"
              underline="hover"
              onClick={() => void open(record)}
              sx={{ textAlign: 'left', fontWeight: record.readAt ? 400 : 600 }}
              data-testid="notification-link"
            >
              {record.title}
            </Link>
          ) : (
            <Typography fontWeight={record.readAt ? 400 : 600}>{record.title}</Typography>
          )}
          {record.body ? <Typography variant="body2">{record.body}</Typography> : null}
          <Box sx={{ typography: 'caption', color: 'text.secondary' }}>
            {formatDateTime(record.createdAt, locale)}
          </Box>
        </Alert>
      ))}
    </Stack>
  );
}

export default function NotificationsPage() {
  const translate = useTranslate();
  const { identity } = useGetIdentity();
  if (!identity) return null;
  return (
    <Card sx={{ mt: 2 }}>
      <Title title={translate('app.notifications.title')} />
      <CardContent>
        <ListBase
          resource="notifications"
          filter={{ userId: identity.id }}
          sort={{ field: 'readAt', order: 'DESC' }}
          perPage={100}
          disableSyncWithLocation
        >
          <NotificationItems />
        </ListBase>
      </CardContent>
    </Card>
  );
}
