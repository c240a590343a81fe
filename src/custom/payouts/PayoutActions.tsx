/**
 * What may be done with one payout (./model.ts actionsOf): approve a new one, mark an approved one
 * paid, delete a new one (its lines go back to ready) — each after a confirmation naming the
 * person, the month and the amount — and download its statement (PDF, with the bearer token). A
 * refusal (409: the payout moved on meanwhile) shows the server's reason in the user's language;
 * afterwards the lists and the page are fetched again.
 */
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import DeleteIcon from '@mui/icons-material/Delete';
import PaidIcon from '@mui/icons-material/Paid';
import PictureAsPdfIcon from '@mui/icons-material/PictureAsPdf';
import { Box, IconButton, Stack, Tooltip } from '@mui/material';
import { type MouseEvent, useState } from 'react';
import {
  Button,
  Confirm,
  useGetOne,
  useLocale,
  useNotify,
  useRefresh,
  useTranslate,
} from 'react-admin';
import { api, messageOf } from '../../dataProvider/apiClient.ts';
import { formatCentimes, formatMonth } from '../commissions/model.ts';
import {
  actionsOf,
  type Payout,
  type PayoutAction,
  statementFileName,
  statementPath,
  userName,
} from './model.ts';

const ICONS: Record<PayoutAction, typeof CheckCircleIcon> = {
  approve: CheckCircleIcon,
  pay: PaidIcon,
  delete: DeleteIcon,
};

const COLORS = { approve: 'primary', pay: 'success', delete: 'error' } as const;

/** Sends one action; true when the server took it. */
export function usePayoutAction() {
  const notify = useNotify();
  const refresh = useRefresh();
  const [pending, setPending] = useState<PayoutAction | undefined>();
  const run = async (payout: Payout, action: PayoutAction): Promise<boolean> => {
    setPending(action);
    try {
      if (action === 'delete') {
        await api.json('DELETE', `payouts/${payout.id}`, {
          body: { version: payout.version ?? undefined },
        });
      } else {
        await api.json('POST', `payouts/${payout.id}/${action}`, {
          body: { version: payout.version ?? undefined },
        });
      }
      notify(`app.payouts.page.done.${action}`, { type: 'success' });
      refresh();
      return true;
    } catch (error) {
      notify(messageOf(error), { type: 'error' });
      refresh();
      return false;
    } finally {
      setPending(undefined);
    }
  };
  return { run, pending };
}

/** Downloads a payout's statement; the server's refusal as a message. */
export function useStatementDownload() {
  const notify = useNotify();
  const locale = useLocale();
  const [busy, setBusy] = useState(false);
  const download = async (payout: Payout) => {
    setBusy(true);
    try {
      await api.download(statementPath(payout.id, locale), statementFileName(payout));
    } catch (error) {
      notify(messageOf(error), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return { download, busy };
}

export function PayoutActions({
  payout,
  compact = false,
  onDeleted,
}: {
  payout: Payout;
  /** Icon buttons (list rows) instead of labelled ones (the payout's page). */
  compact?: boolean;
  onDeleted?: () => void;
}) {
  const translate = useTranslate();
  const locale = useLocale();
  const { run, pending } = usePayoutAction();
  const statement = useStatementDownload();
  const [asked, setAsked] = useState<PayoutAction | undefined>();
  const { data: user } = useGetOne(
    'users',
    { id: payout.userId },
    { enabled: asked !== undefined },
  );
  const actions = actionsOf(payout.status);
  const busy = pending !== undefined || statement.busy;

  const ask = (action: PayoutAction) => (event: MouseEvent) => {
    // Inside a clickable row: the row must not open.
    event.stopPropagation();
    setAsked(action);
  };
  const confirm = async () => {
    if (!asked) return;
    const action = asked;
    const done = await run(payout, action);
    setAsked(undefined);
    if (done && action === 'delete') onDeleted?.();
  };
  const downloadStatement = (event: MouseEvent) => {
    event.stopPropagation();
    void statement.download(payout);
  };

  const buttons = [
    ...actions.map((action) => ({
      id: action,
      label: translate(`app.payouts.page.actions.${action}`),
      Icon: ICONS[action],
      color: COLORS[action],
      onClick: ask(action),
    })),
    {
      id: 'statement',
      label: translate('app.payouts.page.actions.statement'),
      Icon: PictureAsPdfIcon,
      color: 'default' as const,
      onClick: downloadStatement,
    },
  ];

  return (
    // Clicks inside (the confirmation too: React events bubble out of portals) never open the row.
    <Box component="span" onClick={(event) => event.stopPropagation()}>
      <Stack
        direction="row"
        spacing={compact ? 0 : 1}
        sx={{ whiteSpace: 'nowrap', justifyContent: compact ? 'flex-end' : undefined }}
      >
        {buttons.map(({ id, label, Icon, color, onClick }) =>
          compact ? (
            <Tooltip key={id} title={label}>
              <span>
                <IconButton
                  size="small"
                  aria-label={label}
                  color={color}
                  disabled={busy}
                  onClick={onClick}
                  data-testid={`payout-${id}-${payout.id}`}
                >
                  <Icon fontSize="small" />
                </IconButton>
              </span>
            </Tooltip>
          ) : (
            <Button
              key={id}
              label={label}
              variant={id === 'statement' ? 'outlined' : 'contained'}
              color={color === 'default' ? 'primary' : color}
              disabled={busy}
              onClick={onClick}
              data-testid={`payout-${id}`}
            >
              <Icon />
            </Button>
          ),
        )}
      </Stack>
      <Confirm
        isOpen={asked !== undefined}
        loading={pending !== undefined}
        title={`app.payouts.page.confirm.${asked ?? 'approve'}Title`}
        content={translate(`app.payouts.page.confirm.${asked ?? 'approve'}`, {
          name: user ? userName(user) : '…',
          period: formatMonth(payout.period, locale),
          total: formatCentimes(payout.total ?? 0),
        })}
        confirm={`app.payouts.page.actions.${asked ?? 'approve'}`}
        confirmColor={asked === 'delete' ? 'warning' : 'primary'}
        onConfirm={() => void confirm()}
        onClose={() => setAsked(undefined)}
      />
    </Box>
  );
}
