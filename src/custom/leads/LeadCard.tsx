/**
 * A card of the lead board: the lead's name (a link to its page), its source, its age, the call
 * attempts and the assignee. The whole card can be dragged with the mouse or a finger; the grip
 * button is what the keyboard picks up (Space or Enter), so the name's link still opens with
 * Enter and no button holds another control.
 */
import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import DragIndicatorIcon from '@mui/icons-material/DragIndicator';
import PersonOutlineIcon from '@mui/icons-material/PersonOutline';
import PhoneInTalkOutlinedIcon from '@mui/icons-material/PhoneInTalkOutlined';
import ScheduleIcon from '@mui/icons-material/Schedule';
import { Box, Card, CircularProgress, Link, Stack, Tooltip, Typography } from '@mui/material';
import { memo, type ReactNode } from 'react';
import { useLocale, useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { formatDateTime } from '../../i18n/format.ts';
import { enumKey } from '../../schema/labels.ts';
import type { LeadStatus } from '../../schema/leads.ts';
import { type Lead, leadAge } from './board.ts';

/** The close reasons that stand out on a card in Done. */
const CLOSE_COLORS: Partial<Record<string, string>> = {
  appointment_set: 'success.main',
  blacklist: 'error.main',
};

/** What a card shows besides the lead: names of the records it refers to, resolved by the board. */
export interface CardNames {
  name: string;
  source: string;
  assignee: string;
}

export interface CardDragData {
  type: 'card';
  id: number;
  status: LeadStatus;
}

function Meta({ icon, children, title }: { icon: ReactNode; children: ReactNode; title?: string }) {
  const content = (
    <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', minWidth: 0 }}>
      {icon}
      <Typography variant="caption" color="text.secondary" noWrap component="span">
        {children}
      </Typography>
    </Stack>
  );
  return title ? <Tooltip title={title}>{content}</Tooltip> : content;
}

export function LeadCardView({
  lead,
  names,
  href,
  now,
  pending = false,
  placeholder = false,
  overlay = false,
  grip,
}: {
  lead: Lead;
  names: CardNames;
  href?: string;
  now: Date;
  pending?: boolean;
  /** The card's place while its copy is dragged. */
  placeholder?: boolean;
  /** The copy under the pointer. */
  overlay?: boolean;
  grip?: ReactNode;
}) {
  const translate = useTranslate();
  const locale = useLocale();
  const age = leadAge(lead.createdAt, now);
  const attempts = lead.attemptCount ?? 0;
  const name = names.name || `#${lead.id}`;
  return (
    <Card
      variant="outlined"
      sx={{
        px: 1,
        py: 0.75,
        bgcolor: 'background.paper',
        opacity: placeholder ? 0.35 : pending ? 0.7 : 1,
        boxShadow: overlay ? 6 : 0,
        cursor: overlay ? 'grabbing' : 'grab',
        userSelect: 'none',
        touchAction: 'manipulation',
        // Smaller than the card under it: the drop line beside it stays in sight.
        transform: overlay ? 'rotate(1.5deg) scale(0.9)' : undefined,
        borderLeft: 3,
        borderLeftColor:
          lead.status === 'closed' && lead.closeStatus === 'blacklist'
            ? 'error.main'
            : 'transparent',
      }}
      data-testid="lead-card"
      data-lead-id={lead.id}
      data-status={lead.status}
    >
      <Stack direction="row" spacing={0.5} sx={{ alignItems: 'flex-start' }}>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography
            variant="body2"
            sx={{ fontWeight: 600, lineHeight: 1.3 }}
            noWrap
            component="div"
            title={name}
          >
            {href && !overlay ? (
              <Link
                component={RouterLink}
                to={href}
                underline="hover"
                color="inherit"
                draggable={false}
                data-testid="lead-card-link"
              >
                {name}
              </Link>
            ) : (
              name
            )}
          </Typography>
          <Typography variant="caption" color="text.secondary" noWrap component="div">
            {names.source || '–'}
          </Typography>
          {lead.status === 'closed' && lead.closeStatus ? (
            <Typography
              variant="caption"
              noWrap
              component="div"
              sx={{ fontWeight: 500, color: CLOSE_COLORS[lead.closeStatus] ?? 'text.secondary' }}
              data-testid="lead-card-close-status"
            >
              {translate(enumKey('leadCloseStatus', lead.closeStatus))}
            </Typography>
          ) : null}
        </Box>
        {grip ?? (pending ? <CircularProgress size={14} sx={{ mt: 0.5 }} /> : null)}
      </Stack>
      <Stack direction="row" spacing={1.5} sx={{ mt: 0.5, alignItems: 'center', minWidth: 0 }}>
        <Meta
          icon={<ScheduleIcon sx={{ fontSize: 14 }} color="action" />}
          title={`${translate('resources.leads.fields.createdAt')}: ${formatDateTime(lead.createdAt, locale)}`}
        >
          <span data-testid="lead-card-age">
            {age ? translate(`app.leads.age.${age.unit}`, { count: age.count }) : '–'}
          </span>
        </Meta>
        <Meta
          icon={<PhoneInTalkOutlinedIcon sx={{ fontSize: 14 }} color="action" />}
          title={translate('app.leads.card.attempts', { count: attempts })}
        >
          <span data-testid="lead-card-attempts">{attempts}</span>
        </Meta>
        <Box sx={{ flex: 1, minWidth: 0, display: 'flex', justifyContent: 'flex-end' }}>
          <Meta icon={<PersonOutlineIcon sx={{ fontSize: 14 }} color="action" />}>
            <span data-testid="lead-card-assignee">
              {names.assignee || translate('app.leads.card.unassigned')}
            </span>
          </Meta>
        </Box>
      </Stack>
    </Card>
  );
}

/** A card on the board: sortable within its column, draggable to the others. */
export const SortableLeadCard = memo(function SortableLeadCard({
  lead,
  name: shownName,
  source,
  assignee,
  href,
  now,
  pending,
  dragging,
}: {
  lead: Lead;
  name: string;
  source: string;
  assignee: string;
  href?: string;
  now: Date;
  pending: boolean;
  /** Its copy is under the pointer (DragOverlay). */
  dragging: boolean;
}) {
  const translate = useTranslate();
  const data: CardDragData = { type: 'card', id: lead.id, status: lead.status };
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition } =
    useSortable({ id: lead.id, data, disabled: pending });
  const names = { name: shownName, source, assignee };
  const name = shownName || `#${lead.id}`;
  return (
    <Box
      ref={setNodeRef}
      {...listeners}
      // The gap under the card is part of it: a drop between two cards lands on one of them.
      sx={{ transform: CSS.Translate.toString(transform), transition, pb: '8px' }}
    >
      <LeadCardView
        lead={lead}
        names={names}
        href={href}
        now={now}
        pending={pending}
        placeholder={dragging}
        grip={
          <Box
            ref={setActivatorNodeRef}
            {...attributes}
            aria-label={translate('app.leads.board.move', { name })}
            data-testid="lead-card-grip"
            sx={{
              display: 'flex',
              color: 'text.secondary',
              borderRadius: 1,
              cursor: 'grab',
              '&:focus-visible': { outline: 2, outlineColor: 'primary.main', outlineOffset: 1 },
            }}
          >
            {/* The grip stays while the move is sent (it keeps the keyboard's focus). */}
            {pending ? (
              <CircularProgress size={14} sx={{ m: '3px' }} />
            ) : (
              <DragIndicatorIcon fontSize="small" />
            )}
          </Box>
        }
      />
    </Box>
  );
});
