/**
 * The notifications feature: its records are schema CRUD; this plugin adds their rules. Each user
 * sees and marks their own; user managers (manage-users) see all and may create them. A recipient
 * can only change `read_at` (mark read or unread), nothing else. The list takes `unread=true`
 * (the app bar's bell counts those).
 */
import type { FastifyInstance } from 'fastify';
import type { ResourceHooks } from '../crud/hooks.ts';

export const notificationHooks: ResourceHooks = {
  scope({ principal }) {
    if (!principal || principal.permissions.includes('manage-users')) return undefined;
    return (eb) => eb('user_id', '=', principal.id);
  },
  listParameters: {
    unread: {
      type: 'boolean',
      description:
        'true: only unread notifications (read_at empty; the bell counts them); false: only read ones.',
    },
  },
  listConditions(query) {
    if (query.unread === true) return [(eb) => eb('read_at', 'is', null)];
    if (query.unread === false) return [(eb) => eb('read_at', 'is not', null)];
    return [];
  },
  prepare(values, { mode, principal }) {
    if (mode === 'create' || principal?.permissions.includes('manage-users')) return values;
    return 'read_at' in values ? { read_at: values.read_at } : {};
  },
};

export default async function notifications(app: FastifyInstance): Promise<void> {
  app.resourceHooks.add('notifications', notificationHooks);
}
