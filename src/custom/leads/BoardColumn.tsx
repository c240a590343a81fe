/**
 * One column of the lead board: its name and count, then its cards, virtualised
 * (@tanstack/react-virtual: only the cards in view and a few around them are in the page, however
 * many the column holds) and loaded a page at a time as the list is scrolled to its end. The
 * column is a drop target of its own (its head: the top; the space under its last card: the end);
 * a card dragged over it from another column shows where it will land.
 *
 * Memoised: a column renders again only when its own cards, count, pending moves or drop line
 * change (the board renders on every drag-over and every column's answer). Cards have a fixed
 * height per kind (./LeadCard.tsx `cardHeight`), so the virtualiser positions them without
 * measuring the page.
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
import { memo, useCallback, useEffect, useMemo, useRef } from 'react';
import { useTranslate } from 'react-admin';
import { enumKey } from '../../schema/labels.ts';
import type { LeadStatus } from '../../schema/leads.ts';
import type { ColumnState, Lead } from './board.ts';
import { statusColor } from './components.tsx';
import { CARD_GAP, type CardTexts, cardHeight, SortableLeadCard } from './LeadCard.tsx';

/** The row that says more cards are coming. */
const MORE_ROW = 40;
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

/** The line where a dragged card would land, with a dot at its start. */
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
        ...(placement === 'top' ? { top: -6 } : { bottom: CARD_GAP / 2 - 2 }),
      }}
    />
  );
}

export const BoardColumn = memo(function BoardColumn({
  status,
  column,
  total,
  pendingIds,
  activeId,
  indicator,
  names,
  texts,
  onLoadMore,
  onRetry,
}: {
  status: LeadStatus;
  column: ColumnState;
  total: number | undefined;
  /** The cards of this column whose move is being sent, as 'id,id' (a value, for the memo). */
  pendingIds: string;
  activeId: number | null;
  /** Set while a card of another column is over this one. */
  indicator: DropIndicator | null;
  names: ColumnNames;
  texts: CardTexts;
  onLoadMore: (status: LeadStatus) => void;
  onRetry: (status: LeadStatus) => void;
}) {
  const translate = useTranslate();
  const data = useMemo<ColumnDragData>(() => ({ type: 'column', status }), [status]);
  const { setNodeRef, isOver } = useDroppable({ id: `column:${status}`, data });
  const scrollRef = useRef<HTMLDivElement | null>(null);
  const { cards } = column;
  const ids = useMemo(() => cards.map((card) => card.id), [cards]);
  const pending = useMemo(
    () => new Set(pendingIds ? pendingIds.split(',').map(Number) : []),
    [pendingIds],
  );
  const more = !column.exhausted && !column.failed && column.serverTotal !== undefined;
  const estimateSize = useCallback(
    (index: number) => (index < cards.length ? cardHeight(cards[index]) + CARD_GAP : MORE_ROW),
    [cards],
  );
  // The virtualiser's functions change without their identity: nothing here memoises them.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: cards.length + (more ? 1 : 0),
    getScrollElement: () => scrollRef.current,
    estimateSize,
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
              <Skeleton key={index} variant="rounded" height={72} />
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
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {items.map((item) => {
              const lead = item.index < cards.length ? cards[item.index] : undefined;
              return (
                <div
                  key={item.key}
                  data-index={item.index}
                  style={{
                    position: 'absolute',
                    top: 0,
                    left: 0,
                    width: '100%',
                    transform: `translateY(${item.start}px)`,
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
                        texts={texts}
                        pending={pending.has(lead.id)}
                        dragging={activeId === lead.id}
                      />
                      {(indicator?.overId === lead.id && indicator.below) ||
                      (endLine && item.index === cards.length - 1) ? (
                        <IndicatorLine placement="bottom" />
                      ) : null}
                    </>
                  ) : (
                    <Stack
                      direction="row"
                      spacing={1}
                      sx={{ alignItems: 'center', justifyContent: 'center', height: MORE_ROW }}
                    >
                      <CircularProgress size={16} />
                      <Typography variant="caption" color="text.secondary">
                        {translate('app.leads.board.loadingMore')}
                      </Typography>
                    </Stack>
                  )}
                </div>
              );
            })}
          </div>
        </SortableContext>
      </Box>
    </Paper>
  );
});
