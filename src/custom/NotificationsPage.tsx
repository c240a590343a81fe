/** /admin/notifications: the signed-in user's in-app notifications, unread first; mark read/unread. */
import MarkEmailReadIcon from '@mui/icons-material/MarkEmailRead';
import MarkEmailUnreadIcon from '@mui/icons-material/MarkEmailUnread';
import { Alert, Box, Button, Card, CardContent, Stack, Typography } from '@mui/material';
import {
  ListBase,
  Title,
  useGetIdentity,
  useListContext,
  useLocale,
  useNotify,
  useTranslate,
  useUpdate,
} from 'react-admin';
import { formatDateTime } from '../i18n/format.ts';
import type { ApiRecord } from '../resources/records.ts';

type NotificationRecord = ApiRecord<'notifications'>;

function NotificationItems() {
  const translate = useTranslate();
  const notify = useNotify();
  const { data, isPending } = useListContext<NotificationRecord>();
  const [update] = useUpdate<NotificationRecord>();
  const locale = useLocale();
  if (isPending) return null;
  if (!data || data.length === 0) {
    return <Typography color="text.secondary">{translate('app.notifications.empty')}</Typography>;
  }
  const toggle = (record: NotificationRecord) =>
    update(
      'notifications',
      {
        id: record.id,
        data: { readAt: record.readAt ? null : new Date().toISOString() },
        previousData: record,
      },
      {
        mutationMode: 'pessimistic',
        onError: () => notify('ra.notification.http_error', { type: 'error' }),
      },
    );
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
          <Typography fontWeight={record.readAt ? 400 : 600}>{record.title}</Typography>
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
