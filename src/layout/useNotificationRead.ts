/**
 * Marking a notification read (or unread) — one PATCH of `read_at` (a PUT is a complete record) —
 * and following its link. Afterwards every notifications query is fetched again, the bell's count
 * among them.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useNotify } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { api } from '../dataProvider/apiClient.ts';
import type { ApiRecord } from '../resources/records.ts';

type NotificationRecord = ApiRecord<'notifications'>;

/** Where a notification's link leads inside the app (`/admin/…`), or an outside address as is. */
export function linkTarget(link: string | null | undefined): { path?: string; url?: string } {
  if (!link) return {};
  if (/^https?:\/\//i.test(link)) return { url: link };
  return { path: link.startsWith('/') ? link : `/${link}` };
}

export function useNotificationRead() {
  const queryClient = useQueryClient();
  const notify = useNotify();
  const navigate = useNavigate();
  /** One PATCH of `read_at` with the version it is based on. */
  const setRead = async (record: NotificationRecord, read: boolean) => {
    try {
      await api.json('PATCH', `notifications/${record.id}`, {
        body: { readAt: read ? new Date().toISOString() : null, version: record.version },
      });
    } catch {
      notify('ra.notification.http_error', { type: 'error' });
    } finally {
      await queryClient.invalidateQueries({ queryKey: ['notifications'] });
    }
  };
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
