/**
 * One column of the lead board: its name and count, then its cards, virtualised
 * (@tanstack/react-virtual: only the cards in view and a few around them are in the page, however
 * many the column holds) and loaded a page at a time as the list is scrolled to its end. The
 * column is a drop target of its own (an empty column, the space under the last card); a card
 * dragged over it from another column shows where it will land.
 */
import { useDroppable } from '@dnd-kit/core';
import { SortableContext, verticalListSortingStrategy } from '@dnd-kit/sortable';
import {
  Alert,
  Box,
  Button as MuiButton,
  Chip,
  CircularProgress,
  Paper,
  Skeleton,
  Stack,
  Typography,
} from '@mui/material';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef } from 'react';
import { useTranslate } from 'react-admin';
import { enumKey } from '../../schema/labels.ts';
import type { LeadStatus } from '../../schema/leads.ts';
import type { ColumnState, Lead } from './board.ts';
import { statusColor } from './components.tsx';
import { SortableLeadCard } from './LeadCard.tsx';

/** A card's height with the gap under it, before it is measured. */
const ESTIMATED_ROW = 84;
const GAP = 8;
/** Load the next page when the last rendered card is this close to the end of the loaded ones. */
const LOAD_AHEAD = 5;

export interface ColumnDragData {
  type: 'column';
  status: LeadStatus;
}

/** Where a card dragged from another column would land here: before or after a card, or at the end. */
export interface DropIndicator {
  overId: number | null;
  below: boolean;
}

export const columnTestId = (status: LeadStatus) => `lead-column-${status.replace(' ', '-')}`;

export interface ColumnNames {
  name: (lead: Lead) => string;
  source: (lead: Lead) => string;
  assignee: (lead: Lead) => string;
  href: (lead: Lead) => string | undefined;
}

function IndicatorLine({ placement }: { placement: 'top' | 'bottom' }) {
  return (
    <Box
      aria-hidden
      data-testid="lead-drop-indicator"
      sx={{
        position: 'absolute',
        left: 4,
        right: 4,
        height: 4,
        borderRadius: 2,
        bgcolor: 'primary.main',
        zIndex: 1,
        // A dot at its start, as drop lines go.
        '&::before': {
          content: '""',
          position: 'absolute',
          left: -4,
          top: -3,
          width: 10,
          height: 10,
          borderRadius: '50%',
          border: 2,
          borderColor: 'primary.main',
          bgcolor: 'background.paper',
        },
        ...(placement === 'top' ? { top: -6 } : { bottom: GAP / 2 - 2 }),
      }}
    />
  );
}

export function BoardColumn({
  status,
  column,
  total,
  pending,
  activeId,
  indicator,
  names,
  now,
  onLoadMore,
  onRetry,
}: {
  status: LeadStatus;
  column: ColumnState;
  total: number | undefined;
  pending: Record<number, unknown>;
  activeId: number | null;
  /** Set while a card of another column is over this one. */
  indicator: DropIndicator | null;
  names: ColumnNames;
  now: Date;
  onLoadMore: (status: LeadStatus) => void;
  onRetry: (status: LeadStatus) => void;
}) {
  const translate = useTranslate();
  const data: ColumnDragData = { type: 'column', status };
  const { setNodeRef, isOver } = useDroppable({ id: `column:${status}`, data });
  const scrollRef = useRef<HTMLDivElement | null>(null);
  const { cards } = column;
  const ids = useMemo(() => cards.map((card) => card.id), [cards]);
  const more = !column.exhausted && !column.failed && column.serverTotal !== undefined;
  // The virtualiser's functions change without their identity: nothing here memoises them.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: cards.length + (more ? 1 : 0),
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ESTIMATED_ROW,
    overscan: 6,
    getItemKey: (index) => (index < cards.length ? cards[index].id : 'more'),
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.length > 0 ? items[items.length - 1].index : -1;
  useEffect(() => {
    if (more && !column.loading && lastIndex >= cards.length - LOAD_AHEAD) onLoadMore(status);
  }, [more, column.loading, lastIndex, cards.length, onLoadMore, status]);
  const title = translate(enumKey('leadStatus', status));
  const headingId = `${columnTestId(status)}-title`;
  const highlighted = indicator !== null || (isOver && activeId !== null);
  // Where the line goes when the card would land after the last loaded card (or in an empty column).
  const onColumn = indicator !== null && indicator.overId === null;
  const endLine = onColumn && indicator.below;
  const topLine = onColumn && !indicator.below;
  return (
    <Paper
      ref={setNodeRef}
      variant="outlined"
      component="section"
      aria-labelledby={headingId}
      data-testid={columnTestId(status)}
      sx={{
        flex: '1 1 0',
        minWidth: 240,
        display: 'flex',
        flexDirection: 'column',
        minHeight: 0,
        bgcolor: highlighted ? 'action.hover' : 'grey.50',
        borderColor: highlighted ? 'primary.light' : 'divider',
        transition: 'background-color 120ms, border-color 120ms',
      }}
    >
      <Stack
        direction="row"
        spacing={1}
        sx={{
          alignItems: 'center',
          px: 1.5,
          py: 1,
          borderTop: 3,
          borderTopColor: `${statusColor(status)}.main`,
          borderTopLeftRadius: 4,
          borderTopRightRadius: 4,
        }}
      >
        <Typography variant="subtitle2" component="h2" id={headingId} sx={{ flex: 1 }} noWrap>
          {title}
        </Typography>
        <Chip
          size="small"
          label={total ?? '…'}
          data-testid={`${columnTestId(status)}-count`}
          aria-label={translate('app.leads.board.count', { count: total ?? 0 })}
        />
      </Stack>
      <Box
        ref={scrollRef}
        sx={{ flex: 1, minHeight: 0, overflowY: 'auto', px: 1, pt: 0.5 }}
        data-testid={`${columnTestId(status)}-scroll`}
      >
        {column.failed ? (
          <Alert
            severity="error"
            action={
              <MuiButton color="inherit" size="small" onClick={() => onRetry(status)}>
                {translate('app.leads.board.retry')}
              </MuiButton>
            }
            sx={{ mb: 1 }}
          >
            {translate('app.leads.board.loadFailed')}
          </Alert>
        ) : null}
        {column.loading && cards.length === 0 ? (
          <Stack spacing={1} aria-busy="true">
            {[0, 1, 2].map((index) => (
              <Skeleton key={index} variant="rounded" height={ESTIMATED_ROW - GAP} />
            ))}
          </Stack>
        ) : null}
        {!column.loading && !column.failed && cards.length === 0 ? (
          <Box
            sx={{
              border: 1,
              borderStyle: 'dashed',
              borderColor: onColumn ? 'primary.main' : 'divider',
              borderRadius: 1,
              p: 2,
              textAlign: 'center',
            }}
          >
            <Typography variant="caption" color="text.secondary">
              {translate('app.leads.board.empty')}
            </Typography>
          </Box>
        ) : null}
        <SortableContext id={status} items={ids} strategy={verticalListSortingStrategy}>
          <Box sx={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {items.map((item) => {
              const lead = item.index < cards.length ? cards[item.index] : undefined;
              const isLast = item.index === cards.length - 1;
              return (
                <Box
                  key={item.key}
                  data-index={item.index}
                  ref={virtualizer.measureElement}
                  sx={{
                    position: 'absolute',
                    top: 0,
                    left: 0,
                    width: '100%',
                    transform: `translateY(${item.start}px)`,
                    // The gap under a card is the card's (LeadCard.tsx): no gap is the column's.
                    pb: lead ? 0 : `${GAP}px`,
                  }}
                >
                  {lead ? (
                    <>
                      {(indicator?.overId === lead.id && !indicator.below) ||
                      (topLine && item.index === 0) ? (
                        <IndicatorLine placement="top" />
                      ) : null}
                      <SortableLeadCard
                        lead={lead}
                        name={names.name(lead)}
                        source={names.source(lead)}
                        assignee={names.assignee(lead)}
                        href={names.href(lead)}
                        now={now}
                        pending={Boolean(pending[lead.id])}
                        dragging={activeId === lead.id}
                      />
                      {(indicator?.overId === lead.id && indicator.below) || (endLine && isLast) ? (
                        <IndicatorLine placement="bottom" />
                      ) : null}
                    </>
                  ) : (
                    <Stack
                      direction="row"
                      spacing={1}
                      sx={{ alignItems: 'center', justifyContent: 'center', py: 1 }}
                    >
                      <CircularProgress size={16} />
                      <Typography variant="caption" color="text.secondary">
                        {translate('app.leads.board.loadingMore')}
                      </Typography>
                    </Stack>
                  )}
                </Box>
              );
            })}
          </Box>
        </SortableContext>
      </Box>
    </Paper>
  );
}
