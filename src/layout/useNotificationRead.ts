/**
 * Marking a notification read (or unread) and following its link. Afterwards every notifications
 * query is fetched again (react-admin's update patches the cached rows but not a list's total, which
 * the bell shows).
 */
import { useQueryClient } from '@tanstack/react-query';
import { useNotify, useUpdate } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import type { ApiRecord } from '../resources/records.ts';

type NotificationRecord = ApiRecord<'notifications'>;

/** Where a notification's link leads inside the app (`/admin/…`), or an outside address as is. */
export function linkTarget(link: string | null | undefined): { path?: string; url?: string } {
  if (!link) return {};
  if (/^https?:\/\//i.test(link)) return { url: link };
  return { path: link.startsWith('/') ? link : `/${link}` };
}

export function useNotificationRead() {
  const [update] = useUpdate<NotificationRecord>();
  const queryClient = useQueryClient();
  const notify = useNotify();
  const navigate = useNavigate();
  const setRead = (record: NotificationRecord, read: boolean) =>
    update(
      'notifications',
      {
        id: record.id,
        data: { readAt: read ? new Date().toISOString() : null, version: record.version },
        previousData: record,
      },
      {
        mutationMode: 'pessimistic',
        returnPromise: true,
        onSettled: () => void queryClient.invalidateQueries({ queryKey: ['notifications'] }),
      },
    ).catch(() => notify('ra.notification.http_error', { type: 'error' }));
  const markRead = (record: NotificationRecord) => setRead(record, true);
  /** Marks it read (when unread) and follows its link. */
  const open = async (record: NotificationRecord) => {
    if (!record.readAt) await markRead(record);
    const target = linkTarget(record.link);
    if (target.path) navigate(target.path);
    else if (target.url) window.location.assign(target.url);
  };
  return { setRead, markRead, open };
}
