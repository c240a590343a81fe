/**
 * A card of the lead board: the lead's name (a link to its page), its source, the close reason in
 * Done, its age, the call attempts and the assignee. The whole card can be dragged with the mouse
 * or a finger; the grip is what the keyboard picks up (Space or Enter), so the name's link still
 * opens with Enter and no button holds another control.
 *
 * Cheap to render, since a board shows some fifty of them and re-renders them while a card
 * moves: plain elements whose classes are styled once for the whole board (`BoardStyles`, no
 * per-card style objects), inline SVG icons, native `title`s instead of tooltip components, the
 * texts from the board (`CardTexts`, cached per value), a fixed height per kind of card (the
 * virtualiser needs no measuring), and the card's content memoised apart from the drag wrapper
 * (dnd-kit re-renders every sortable item when a drag starts, moves or ends).
 */
import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { keyframes, styled } from '@mui/material/styles';
import { memo, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import type { LeadStatus } from '../../schema/leads.ts';
import type { Lead } from './board.ts';

/** The texts a card shows, made once for the board in the user's language. */
export interface CardTexts {
  unassigned: string;
  /** '3 d', '5 h', '12 min'. */
  age: (createdAt: string | null | undefined) => string;
  /** The attempts' title: 'Call attempts: 2'. */
  attempts: (count: number) => string;
  /** The grip's label: 'Move lead Anna Meier'. */
  move: (name: string) => string;
  /** The age's title: 'Created: Nov 28, 2026 10:15' (asked when the pointer comes). */
  created: (createdAt: string | null | undefined) => string;
  closeReason: (closeStatus: string) => string;
  /** The spinner's name while a move is sent. */
  saving: string;
}

export interface CardDragData {
  type: 'card';
  id: number;
  status: LeadStatus;
}

/** What a card shows besides the lead: names of the records it refers to, resolved by the board. */
export interface CardNames {
  name: string;
  source: string;
  assignee: string;
}

/** A card's height: four lines, five in Done with a close reason (plus the gap under it). */
const CARD_HEIGHT = 72;
const CLOSE_LINE = 17;
export const CARD_GAP = 8;
export const cardHeight = (lead: Pick<Lead, 'status' | 'closeStatus'>): number =>
  CARD_HEIGHT + (lead.status === 'closed' && lead.closeStatus ? CLOSE_LINE : 0);

const PATHS = {
  age: 'M11.99 2C6.47 2 2 6.48 2 12s4.47 10 9.99 10C17.52 22 22 17.52 22 12S17.52 2 11.99 2M12 20c-4.42 0-8-3.58-8-8s3.58-8 8-8 8 3.58 8 8-3.58 8-8 8m.5-13H11v6l5.25 3.15.75-1.23-4.5-2.67z',
  phone:
    'M15 12h2c0-2.76-2.24-5-5-5v2c1.66 0 3 1.34 3 3zm4 0h2c0-4.97-4.03-9-9-9v2c3.87 0 7 3.13 7 7zm1 3.5c-1.25 0-2.45-.2-3.57-.57-.1-.03-.21-.05-.31-.05-.26 0-.51.1-.71.29l-2.2 2.2c-2.83-1.44-5.15-3.75-6.59-6.59l2.2-2.21c.28-.26.36-.65.25-1C8.7 6.45 8.5 5.25 8.5 4c0-.55-.45-1-1-1H4c-.55 0-1 .45-1 1 0 9.39 7.61 17 17 17 .55 0 1-.45 1-1v-3.5c0-.55-.45-1-1-1zM5.03 5h1.5c.07.88.22 1.75.45 2.58l-1.2 1.21c-.4-1.21-.66-2.47-.75-3.79zM19 18.97c-1.32-.09-2.6-.35-3.8-.76l1.2-1.2c.85.24 1.72.39 2.6.45v1.51z',
  person:
    'M12 5.9c1.16 0 2.1.94 2.1 2.1s-.94 2.1-2.1 2.1S9.9 9.16 9.9 8s.94-2.1 2.1-2.1m0 9c2.97 0 6.1 1.46 6.1 2.1v1.1H5.9V17c0-.64 3.13-2.1 6.1-2.1M12 4C9.79 4 8 5.79 8 8s1.79 4 4 4 4-1.79 4-4-1.79-4-4-4m0 9c-2.67 0-8 1.34-8 4v3h16v-3c0-2.66-5.33-4-8-4',
  grip: 'M11 18c0 1.1-.9 2-2 2s-2-.9-2-2 .9-2 2-2 2 .9 2 2m-2-8c-1.1 0-2 .9-2 2s.9 2 2 2 2-.9 2-2-.9-2-2-2m0-6c-1.1 0-2 .9-2 2s.9 2 2 2 2-.9 2-2-.9-2-2-2m6 4c1.1 0 2-.9 2-2s-.9-2-2-2-2 .9-2 2 .9 2 2 2m0 2c-1.1 0-2 .9-2 2s.9 2 2 2 2-.9 2-2-.9-2-2-2m0 6c-1.1 0-2 .9-2 2s.9 2 2 2 2-.9 2-2-.9-2-2-2',
} as const;

function Icon({ path }: { path: string }) {
  return (
    <svg className="lead-card__icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d={path} />
    </svg>
  );
}

const AGE_ICON = <Icon path={PATHS.age} />;
const PHONE_ICON = <Icon path={PATHS.phone} />;
const PERSON_ICON = <Icon path={PATHS.person} />;
const GRIP_ICON = (
  <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
    <path d={PATHS.grip} />
  </svg>
);

/** Cards make room for a dragged one briskly (dnd-kit's default is 250 ms). */
const SORT_TRANSITION = { duration: 150, easing: 'ease' } as const;

const spin = keyframes`to { transform: rotate(360deg); }`;

/** The styles of every card of a board (and of the dragged copy), set once on the board. */
export const BoardStyles = styled('div')(({ theme }) => ({
  '& .lead-card': {
    position: 'relative',
    boxSizing: 'border-box',
    padding: '6px 8px',
    border: `1px solid ${theme.palette.divider}`,
    borderLeft: '3px solid transparent',
    borderRadius: theme.shape.borderRadius,
    backgroundColor: theme.palette.background.paper,
    color: theme.palette.text.primary,
    cursor: 'grab',
    userSelect: 'none',
    touchAction: 'manipulation',
    overflow: 'hidden',
  },
  '& .lead-card.is-blacklist': { borderLeftColor: theme.palette.error.main },
  '& .lead-card.is-placeholder': { opacity: 0.35 },
  '& .lead-card.is-pending': { opacity: 0.7 },
  '& .lead-card.is-overlay': {
    boxShadow: theme.shadows[6],
    cursor: 'grabbing',
    // Smaller than the card under it: the drop line beside it stays in sight.
    transform: 'rotate(1.5deg) scale(0.9)',
  },
  '& .lead-card__name': {
    ...theme.typography.body2,
    fontWeight: 600,
    lineHeight: '18px',
    paddingRight: 22,
    whiteSpace: 'nowrap',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    '& a': { color: 'inherit', textDecoration: 'none' },
    '& a:hover, & a:focus-visible': { textDecoration: 'underline' },
  },
  '& .lead-card__line': {
    ...theme.typography.caption,
    lineHeight: `${CLOSE_LINE}px`,
    color: theme.palette.text.secondary,
    paddingRight: 22,
    whiteSpace: 'nowrap',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
  },
  '& .lead-card__close': { fontWeight: 500 },
  '& .lead-card__close--appointment_set': { color: theme.palette.success.main },
  '& .lead-card__close--blacklist': { color: theme.palette.error.main },
  '& .lead-card__meta': {
    ...theme.typography.caption,
    display: 'flex',
    alignItems: 'center',
    gap: 12,
    marginTop: 4,
    lineHeight: '18px',
    color: theme.palette.text.secondary,
    '& > span': {
      display: 'inline-flex',
      alignItems: 'center',
      gap: 4,
      whiteSpace: 'nowrap',
      minWidth: 0,
    },
  },
  '& .lead-card__assignee': {
    marginLeft: 'auto',
    overflow: 'hidden',
    '& > span': { overflow: 'hidden', textOverflow: 'ellipsis' },
  },
  '& .lead-card__icon': {
    width: 14,
    height: 14,
    flex: 'none',
    fill: 'currentColor',
    color: theme.palette.action.active,
  },
  '& .lead-card__grip': {
    position: 'absolute',
    top: 5,
    right: 4,
    display: 'flex',
    borderRadius: theme.shape.borderRadius,
    color: theme.palette.text.secondary,
    cursor: 'grab',
    '& svg': { width: 20, height: 20, fill: 'currentColor' },
    '&:focus-visible': { outline: `2px solid ${theme.palette.primary.main}`, outlineOffset: 1 },
  },
  '& .lead-card__spinner': {
    boxSizing: 'border-box',
    width: 14,
    height: 14,
    margin: 3,
    borderRadius: '50%',
    border: `2px solid ${theme.palette.primary.main}`,
    borderRightColor: 'transparent',
    animation: `${spin} 0.8s linear infinite`,
  },
}));

/** The card's content (without the grip), rendered again only when what it shows changes. */
const CardContent = memo(function CardContent({
  lead,
  name,
  source,
  assignee,
  href,
  texts,
}: {
  lead: Lead;
  name: string;
  source: string;
  assignee: string;
  href?: string;
  texts: CardTexts;
}) {
  const shown = name || `#${lead.id}`;
  const attempts = lead.attemptCount ?? 0;
  const closeStatus = lead.status === 'closed' ? lead.closeStatus : null;
  return (
    <>
      <div className="lead-card__name" title={shown}>
        {href ? (
          <RouterLink to={href} draggable={false} data-testid="lead-card-link">
            {shown}
          </RouterLink>
        ) : (
          shown
        )}
      </div>
      <div className="lead-card__line">{source || '–'}</div>
      {closeStatus ? (
        <div
          className={`lead-card__line lead-card__close lead-card__close--${closeStatus}`}
          data-testid="lead-card-close-status"
        >
          {texts.closeReason(closeStatus)}
        </div>
      ) : null}
      <div className="lead-card__meta">
        <span
          onPointerEnter={(event) => {
            event.currentTarget.title = texts.created(lead.createdAt);
          }}
        >
          {AGE_ICON}
          <span data-testid="lead-card-age">{texts.age(lead.createdAt)}</span>
        </span>
        <span title={texts.attempts(attempts)}>
          {PHONE_ICON}
          <span data-testid="lead-card-attempts">{attempts}</span>
        </span>
        <span className="lead-card__assignee">
          {PERSON_ICON}
          <span data-testid="lead-card-assignee">{assignee || texts.unassigned}</span>
        </span>
      </div>
    </>
  );
});

function cardClass(
  lead: Lead,
  state: { pending?: boolean; placeholder?: boolean; overlay?: boolean },
): string {
  let name = 'lead-card';
  if (lead.status === 'closed' && lead.closeStatus === 'blacklist') name += ' is-blacklist';
  if (state.placeholder) name += ' is-placeholder';
  else if (state.pending) name += ' is-pending';
  if (state.overlay) name += ' is-overlay';
  return name;
}

function CardFrame({
  lead,
  className,
  children,
}: {
  lead: Lead;
  className: string;
  children: ReactNode;
}) {
  return (
    <div
      className={className}
      style={{ height: cardHeight(lead) }}
      data-testid="lead-card"
      data-lead-id={lead.id}
      data-status={lead.status}
    >
      {children}
    </div>
  );
}

/** A card as it is shown, not draggable itself (the copy under the pointer while dragging). */
export function LeadCardView({
  lead,
  names,
  texts,
  overlay = false,
}: {
  lead: Lead;
  names: CardNames;
  texts: CardTexts;
  overlay?: boolean;
}) {
  return (
    <CardFrame lead={lead} className={cardClass(lead, { overlay })}>
      <CardContent
        lead={lead}
        name={names.name}
        source={names.source}
        assignee={names.assignee}
        texts={texts}
      />
      <div className="lead-card__grip" aria-hidden="true">
        {GRIP_ICON}
      </div>
    </CardFrame>
  );
}

/** A card on the board: sortable within its column, draggable to the others. */
export const SortableLeadCard = memo(function SortableLeadCard({
  lead,
  name,
  source,
  assignee,
  href,
  texts,
  pending,
  dragging,
}: {
  lead: Lead;
  name: string;
  source: string;
  assignee: string;
  href?: string;
  texts: CardTexts;
  pending: boolean;
  /** Its copy is under the pointer (DragOverlay). */
  dragging: boolean;
}) {
  const data: CardDragData = { type: 'card', id: lead.id, status: lead.status };
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition } =
    useSortable({ id: lead.id, data, disabled: pending, transition: SORT_TRANSITION });
  return (
    // The gap under the card is part of it: a drop between two cards lands on one of them.
    <div
      ref={setNodeRef}
      {...listeners}
      style={{ transform: CSS.Translate.toString(transform), transition, paddingBottom: CARD_GAP }}
    >
      <CardFrame lead={lead} className={cardClass(lead, { pending, placeholder: dragging })}>
        <CardContent
          lead={lead}
          name={name}
          source={source}
          assignee={assignee}
          href={href}
          texts={texts}
        />
        {/* The grip stays while the move is sent (it keeps the keyboard's focus). */}
        <div
          ref={setActivatorNodeRef}
          {...attributes}
          className="lead-card__grip"
          aria-label={texts.move(name || `#${lead.id}`)}
          data-testid="lead-card-grip"
          data-pending={pending || undefined}
        >
          {pending ? (
            <span className="lead-card__spinner" role="progressbar" aria-label={texts.saving} />
          ) : (
            GRIP_ICON
          )}
        </div>
      </CardFrame>
    </div>
  );
});
