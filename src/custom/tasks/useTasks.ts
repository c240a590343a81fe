/**
 * The signed-in user's worklist, GET /api/tasks (docs: issue 15 contract item 7): one section per
 * kind of work the user's role has, each with its total and its first items. Kept in react-admin's
 * query client under `['tasks', limit]`, so a refresh after a reminder moved fetches it again.
 */
import { useQuery } from '@tanstack/react-query';
import { api } from '../../dataProvider/apiClient.ts';
import type { ApiRecord } from '../../resources/records.ts';

export const TASK_SECTIONS = [
  'reminders_due',
  'missing_feedbacks',
  'unassigned_appointments',
  'to_rebook',
  'leads_to_call',
] as const;
export type TaskSectionKey = (typeof TASK_SECTIONS)[number];

export type TaskItem = ApiRecord<'reminders'> | ApiRecord<'appointments'> | ApiRecord<'leads'>;

export interface TaskSection {
  key: TaskSectionKey;
  total: number;
  items: TaskItem[];
}

/** The sections in the order the page shows them, unknown keys left out. */
export function orderSections(sections: readonly TaskSection[]): TaskSection[] {
  return TASK_SECTIONS.flatMap((key) => sections.filter((section) => section.key === key));
}

export function useTasks(limit = 10) {
  return useQuery({
    queryKey: ['tasks', limit],
    queryFn: async ({ signal }) => {
      const answer = await api.json<{ data: { sections: TaskSection[] } }>(
        'GET',
        `tasks?limit=${limit}`,
        { signal },
      );
      return orderSections(answer.data.sections ?? []);
    },
  });
}
