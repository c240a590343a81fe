/**
 * The bell in the app bar: the signed-in user's unread notifications (a list of one, its total),
 * asked again every minute and when the window regains focus, in react-admin's query client so a
 * notification marked read anywhere (./useNotificationRead.ts) updates it at once.
 *
 * Admin area: it opens /admin/notifications. The consultant area has no notifications page (spec
 * §2), so there it opens a small list of the newest unread ones: clicking one marks it read and
 * follows its link; each can be marked read on its own.
 */
import MarkEmailReadIcon from '@mui/icons-material/MarkEmailRead';
import NotificationsIcon from '@mui/icons-material/Notifications';
import {
  Badge,
  Box,
  IconButton,
  List,
  ListItem,
  ListItemButton,
  ListItemText,
  Popover,
  Tooltip,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { useGetList, useLocale, useTranslate } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { getStoredUser } from '../auth/session.ts';
import { formatDateTime } from '../i18n/format.ts';
import type { ApiRecord } from '../resources/records.ts';
import { useArea } from '../shell/area.ts';
import { BACKGROUND_QUERY } from '../shell/Chrome.tsx';
import { useNotificationRead } from './useNotificationRead.ts';

type NotificationRecord = ApiRecord<'notifications'>;

const POLL_MS = 60_000;

/** The user's own unread notifications (the back office may list everyone's). */
export const unreadFilter = (userId: number | undefined) => ({
  unread: true,
  ...(userId ? { userId } : {}),
});

function NewestUnread({ onDone }: { onDone: () => void }) {
  const translate = useTranslate();
  const locale = useLocale();
  const { markRead, open } = useNotificationRead();
  const { data = [], isPending } = useGetList<NotificationRecord>('notifications', {
    filter: unreadFilter(getStoredUser()?.id),
    sort: { field: 'createdAt', order: 'DESC' },
    pagination: { page: 1, perPage: 8 },
  });
  if (!isPending && data.length === 0) {
    return (
      <Typography sx={{ p: 2 }} color="text.secondary">
        {translate('app.notifications.noUnread')}
      </Typography>
    );
  }
  return (
    <List dense sx={{ width: 360, maxWidth: '90vw' }} data-testid="bell-list">
      {data.map((record) => (
        <ListItem
          key={record.id}
          disablePadding
          secondaryAction={
            <Tooltip title={translate('app.notifications.markRead')}>
              <IconButton
                edge="end"
                size="small"
                aria-label={translate('app.notifications.markRead')}
                onClick={() => void markRead(record)}
              >
                <MarkEmailReadIcon fontSize="small" />
              </IconButton>
            </Tooltip>
          }
        >
          <ListItemButton
            onClick={() => {
              onDone();
              void open(record);
            }}
          >
            <ListItemText
              primary={record.title}
              secondary={formatDateTime(record.createdAt, locale)}
              slotProps={{ primary: { fontWeight: 600 } }}
            />
          </ListItemButton>
        </ListItem>
      ))}
    </List>
  );
}

export function NotificationsBell() {
  const translate = useTranslate();
  const area = useArea();
  const navigate = useNavigate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const user = getStoredUser();
  const { total, meta } = useGetList(
    'notifications',
    { filter: unreadFilter(user?.id), pagination: { page: 1, perPage: 1 } },
    {
      enabled: Boolean(user),
      refetchInterval: POLL_MS,
      refetchOnWindowFocus: true,
      // Asked every minute: no progress bar for that.
      meta: BACKGROUND_QUERY,
    },
  );
  const count = total ?? (typeof meta?.total === 'number' ? (meta.total as number) : 0);
  const label = translate('app.notifications.bell', { count, smart_count: count });
  return (
    <>
      <Tooltip title={label}>
        <IconButton
          color="inherit"
          aria-label={label}
          data-testid="notifications-bell"
          data-count={count}
          onClick={(event) =>
            area === 'admin' ? navigate('/admin/notifications') : setAnchor(event.currentTarget)
          }
        >
          <Badge badgeContent={count} color="error" max={99} data-testid="notifications-count">
            <NotificationsIcon />
          </Badge>
        </IconButton>
      </Tooltip>
      {area === 'admin' ? null : (
        <Popover
          open={anchor !== null}
          anchorEl={anchor}
          onClose={() => setAnchor(null)}
          anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
          transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        >
          <Box>
            <Typography variant="subtitle2" sx={{ px: 2, pt: 1.5 }}>
              {translate('app.notifications.title')}
            </Typography>
            {anchor ? <NewestUnread onDone={() => setAnchor(null)} /> : null}
          </Box>
        </Popover>
      )}
    </>
  );
}
