/**
 * The one-click status moves of a reminder (resolve, cancel, reopen): only those the signed-in user
 * may make (./model.ts movesOf). Each is one PATCH of the status with the record's version, sent at
 * once (no undo delay); afterwards every list and the tasks are fetched again.
 */
import CancelIcon from '@mui/icons-material/Cancel';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import ReplayIcon from '@mui/icons-material/Replay';
import { IconButton, Stack, Tooltip } from '@mui/material';
import { type MouseEvent, useState } from 'react';
import { Button, useNotify, useRefresh, useTranslate } from 'react-admin';
import { getStoredUser } from '../../auth/session.ts';
import { api, messageOf } from '../../dataProvider/apiClient.ts';
import type { ReminderStatus } from '../../schema/appointments.ts';
import { movesOf, type Reminder } from './model.ts';

const ICONS: Record<ReminderStatus, typeof CheckCircleIcon> = {
  resolved: CheckCircleIcon,
  cancelled: CancelIcon,
  open: ReplayIcon,
};

const COLORS = { resolved: 'success', cancelled: 'default', open: 'primary' } as const;

/** Sends a status move: one PATCH with the record's version; then everything is fetched again. */
export function useMoveReminder() {
  const [isPending, setPending] = useState(false);
  const notify = useNotify();
  const refresh = useRefresh();
  const move = async (record: Reminder, to: ReminderStatus) => {
    setPending(true);
    try {
      await api.json('PATCH', `reminders/${record.id}`, {
        body: { status: to, version: record.version },
      });
      notify(`app.reminders.moved.${to}`, { type: 'success' });
      refresh();
    } catch (error) {
      notify(messageOf(error), { type: 'error' });
    } finally {
      setPending(false);
    }
  };
  return { move, isPending };
}

export function ReminderActions({
  record,
  compact = false,
}: {
  record: Reminder;
  /** Icon buttons (lists) instead of labelled ones (show page). */
  compact?: boolean;
}) {
  const translate = useTranslate();
  const user = getStoredUser();
  const { move, isPending } = useMoveReminder();
  const moves = movesOf(record, user?.id, user?.routeSet === 'admin');
  if (moves.length === 0) return null;
  const click = (to: ReminderStatus) => (event: MouseEvent) => {
    // Inside a clickable row: the row must not open.
    event.stopPropagation();
    void move(record, to);
  };
  return (
    <Stack direction="row" spacing={compact ? 0 : 1} sx={{ whiteSpace: 'nowrap' }}>
      {moves.map((to) => {
        const Icon = ICONS[to];
        const label = translate(`app.reminders.actions.${to}`);
        return compact ? (
          <Tooltip key={to} title={label}>
            <span>
              <IconButton
                size="small"
                aria-label={label}
                color={COLORS[to]}
                disabled={isPending}
                onClick={click(to)}
                data-testid={`reminder-${to}-${record.id}`}
              >
                <Icon fontSize="small" />
              </IconButton>
            </span>
          </Tooltip>
        ) : (
          <Button
            key={to}
            label={label}
            disabled={isPending}
            onClick={click(to)}
            data-testid={`reminder-${to}`}
          >
            <Icon />
          </Button>
        );
      })}
    </Stack>
  );
}
