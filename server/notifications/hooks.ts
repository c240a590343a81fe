/**
 * Notifications: each user sees and marks their own; user managers (manage-users) see all and may
 * create them. A recipient can only change `read_at` (mark read or unread), nothing else.
 */
import type { ResourceHooks } from '../hooks.ts';

export const notificationHooks: ResourceHooks = {
  scope({ principal }) {
    if (!principal || principal.permissions.includes('manage-users')) return undefined;
    return (eb) => eb('user_id', '=', principal.id);
  },
  prepare(values, { mode, principal }) {
    if (mode === 'create' || principal?.permissions.includes('manage-users')) return values;
    return 'read_at' in values ? { read_at: values.read_at } : {};
  },
};
