/**
 * The lead board (spec §4, issue 16): New Leads, Not Reached, To Do and Done, each with its
 * count, loaded BOARD_PAGE_SIZE cards at a time in board order (`sort=position`) and virtualised
 * (./BoardColumn.tsx). Cards move with @dnd-kit — the mouse (after a few pixels, so a click still
 * opens the lead), a finger (after a short press, so the page still scrolls) and the keyboard
 * (the card's grip: Space or Enter picks it up, the arrows move it within and across columns,
 * Space drops it, Escape cancels) — with what happens read out in the user's language.
 *
 * One drop is one POST /api/leads/{id}/move with the card it now follows (`after_id`) and the
 * version it showed; the card moves at once (./board.ts) and goes back with the server's reason
 * when the move is refused (422 naming the field, 409 for a stale neighbour or a changed lead),
 * and the columns involved are loaded again. A card dropped into Done asks why first
 * (./CloseDialog.tsx); "appointment set" opens the appointment form instead (after making a
 * customer of a prospect), and the card stays where it was until the appointment is saved.
 */
import {
  type Active,
  type Announcements,
  type CollisionDetection,
  closestCorners,
  DndContext,
  type DragEndEvent,
  type DragOverEvent,
  DragOverlay,
  type DragStartEvent,
  KeyboardSensor,
  MeasuringStrategy,
  type Over,
  PointerSensor,
  pointerWithin,
  rectIntersection,
  type ScreenReaderInstructions,
  TouchSensor,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import { sortableKeyboardCoordinates } from '@dnd-kit/sortable';
import {
  type PointerEvent as ReactPointerEvent,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useReducer,
  useRef,
  useState,
} from 'react';
import { useDataProvider, useLocale, useNotify, useTranslate } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import {
  api,
  conflictOf,
  fieldErrorsOf,
  messageOf,
  statusOf,
} from '../../dataProvider/apiClient.ts';
import { formatDateTime } from '../../i18n/format.ts';
import type { ApiRecord } from '../../resources/records.ts';
import { getModel } from '../../resources/registry.ts';
import { representRecord } from '../../resources/labels.ts';
import { enumKey, fieldLabelKey } from '../../schema/labels.ts';
import {
  APPOINTMENT_SET,
  BOARD_PAGE_SIZE,
  LEAD_STATUSES,
  type LeadCloseStatus,
  type LeadStatus,
} from '../../schema/leads.ts';
import { resourceHref } from '../../shell/paths.ts';
import { useArea } from '../../shell/area.ts';
import {
  boardReducer,
  dropPlacement,
  initialBoard,
  type Lead,
  leadAge,
  leadName,
  locate,
  nextPage,
  shownTotal,
} from './board.ts';
import {
  BoardColumn,
  type ColumnDragData,
  type ColumnNames,
  type DropIndicator,
} from './BoardColumn.tsx';
import { CloseDialog, ConvertDialog } from './CloseDialog.tsx';
import { useLeadSources, userName } from './components.tsx';
import { columnPageParams } from './boardQuery.ts';
import { BoardStyles, type CardDragData, type CardTexts, LeadCardView } from './LeadCard.tsx';
import { appointmentHref } from './model.ts';

type User = ApiRecord<'users'>;
type Customer = ApiRecord<'customers'>;
type DragData = CardDragData | ColumnDragData;

/**
 * No drop animation: the card is in its new place the moment it is released. dnd-kit's default
 * (the copy gliding into place for 250 ms) kept the main thread compositing frames and delayed
 * applying the server's answer: drop → confirmed p95 136–147 ms with it, 70 ms without
 * (bench/README.md, the lead board).
 */
const DROP_ANIMATION = null;

const dragData = (value: unknown): DragData | undefined =>
  value && typeof value === 'object' && 'type' in value ? (value as DragData) : undefined;

/** The height of a column's head: a card dropped there goes on top. */
const COLUMN_HEAD = 56;

/**
 * Whether the dragged card lands below what it is over: the lower half of a card, or a column
 * anywhere under its head (the space under its last card). Measured at the pointer when there is
 * one (where one points is where the card goes), else (the keyboard) at the card's middle.
 */
function isBelow(active: Active, over: Over | null, pointerY?: number): boolean {
  const dragged = active.rect.current.translated;
  if (!over || (!dragged && pointerY === undefined)) return false;
  const y = pointerY ?? (dragged ? dragged.top + dragged.height / 2 : 0);
  if (dragData(over.data.current)?.type === 'column') return y > over.rect.top + COLUMN_HEAD;
  return y > over.rect.top + over.rect.height / 2;
}

/** Where the pointer or finger is now (none for the keyboard). */
function pointerYOf(event: DragOverEvent | DragEndEvent): number | undefined {
  const start = event.activatorEvent;
  let y: number | undefined;
  if (typeof TouchEvent !== 'undefined' && start instanceof TouchEvent) {
    y = (start.touches[0] ?? start.changedTouches[0])?.clientY;
  } else if (start instanceof MouseEvent) {
    y = start.clientY;
  }
  return y === undefined ? undefined : y + event.delta.y;
}

/**
 * What the dragged card is over: with a pointer, the card under it (else its column); with the
 * keyboard (which puts the card on the top-left corner of the next card or column), what the card
 * covers, a card first. Otherwise (between columns), the nearest corners.
 */
const collisionDetection: CollisionDetection = (args) => {
  const hits = args.pointerCoordinates ? pointerWithin(args) : rectIntersection(args);
  if (hits.length > 0) {
    const cards = hits.filter(
      (collision) =>
        dragData(args.droppableContainers.find((c) => c.id === collision.id)?.data.current)
          ?.type === 'card',
    );
    return cards.length > 0 ? cards : hits;
  }
  return closestCorners(args);
};

/**
 * The pointer sensor for the mouse and pens only: a finger is the touch sensor's (a short press
 * first), so a swipe scrolls the column instead of taking the card along.
 */
class MouseAndPenSensor extends PointerSensor {
  static override activators = [
    {
      eventName: 'onPointerDown' as const,
      handler: ({ nativeEvent: event }: ReactPointerEvent) =>
        event.isPrimary && event.button === 0 && event.pointerType !== 'touch',
    },
  ];
}

const MOUSE_OPTIONS = { activationConstraint: { distance: 6 } };
const TOUCH_OPTIONS = { activationConstraint: { delay: 220, tolerance: 8 } };
const KEYBOARD_OPTIONS = { coordinateGetter: sortableKeyboardCoordinates };
const MEASURING = { droppable: { strategy: MeasuringStrategy.Always } };

/** The cards' texts in the user's language, each value translated once (until the minute turns). */
function useCardTexts(now: Date): CardTexts {
  const translate = useTranslate();
  const locale = useLocale();
  return useMemo(() => {
    const cached = <K,>(make: (key: K) => string) => {
      const cache = new Map<K, string>();
      return (key: K) => {
        let text = cache.get(key);
        if (text === undefined) {
          text = make(key);
          cache.set(key, text);
        }
        return text;
      };
    };
    const created = (createdAt: string | null | undefined) =>
      `${translate('resources.leads.fields.createdAt')}: ${formatDateTime(createdAt, locale)}`;
    const age = cached((createdAt: string) => {
      const value = leadAge(createdAt, now);
      return value ? translate(`app.leads.age.${value.unit}`, { count: value.count }) : '–';
    });
    return {
      unassigned: translate('app.leads.card.unassigned'),
      saving: translate('app.leads.board.saving'),
      age: (createdAt) => age(createdAt ?? ''),
      attempts: cached((count: number) => translate('app.leads.card.attempts', { count })),
      move: cached((name: string) => translate('app.leads.board.move', { name })),
      created,
      closeReason: cached((closeStatus: string) =>
        translate(enumKey('leadCloseStatus', closeStatus)),
      ),
    };
  }, [translate, locale, now]);
}

/** The refusal of a move in words: the fields the server named, else its message. */
function useRefusalText() {
  const translate = useTranslate();
  return useCallback(
    (error: unknown): string => {
      const model = getModel('leads');
      const fields = Object.entries(fieldErrorsOf(error));
      if (statusOf(error) === 422 && fields.length > 0) {
        return fields
          .map(([field, message]) => {
            const text = translate(message, { _: message });
            return model.fields.some((candidate) => candidate.name === field)
              ? `${translate(fieldLabelKey('leads', field))}: ${text}`
              : text;
          })
          .join(' ');
      }
      if (conflictOf(error)) return translate('app.leads.board.conflict');
      return translate(messageOf(error));
    },
    [translate],
  );
}

export function LeadBoard({ filter }: { filter: Record<string, unknown> }) {
  const translate = useTranslate();
  const notify = useNotify();
  const navigate = useNavigate();
  const area = useArea();
  const dataProvider = useDataProvider();
  const refusalText = useRefusalText();
  const [state, dispatch] = useReducer(boardReducer, undefined, initialBoard);
  const stateRef = useRef(state);
  useLayoutEffect(() => {
    stateRef.current = state;
  });
  const generations = useRef<Record<string, number>>({});
  const inFlight = useRef<Set<LeadStatus>>(new Set());

  // Names of what the cards refer to.
  const { byId: sources, nameOf: sourceName } = useLeadSources();
  const [users, setUsers] = useState<Map<number, User>>(() => new Map());
  const [customers, setCustomers] = useState<Map<number, Customer>>(() => new Map());
  const asked = useRef<Set<string>>(new Set());
  const remember = useCallback((prefetched: unknown) => {
    const lists = (prefetched ?? {}) as { users?: User[]; customers?: Customer[] };
    // The same map when nothing is new: the names (and the cards) stay as they are.
    const merge =
      <T extends { id: number }>(records: T[] | undefined) =>
      (known: Map<number, T>) =>
        records?.some((record) => !known.has(record.id))
          ? new Map([...known, ...records.map((record) => [record.id, record] as const)])
          : known;
    setUsers(merge(lists.users));
    setCustomers(merge(lists.customers));
  }, []);

  // A minute's clock for the cards' ages.
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 60_000);
    return () => clearInterval(timer);
  }, []);
  const texts = useCardTexts(now);

  const filterKey = JSON.stringify(filter);
  const fetchPage = useCallback(
    async (status: LeadStatus, generation: number, first: number): Promise<void> => {
      inFlight.current.add(status);
      try {
        // Up to four pages: when every card of a page was shown already (moves shifted the
        // server's pages), the next one.
        for (let page = first; page < first + 4; page += 1) {
          const result = await dataProvider.getList<Lead>(
            'leads',
            columnPageParams(JSON.parse(filterKey) as Record<string, unknown>, status, page),
          );
          if (generations.current[status] !== generation) return;
          const meta = result.meta as { total?: number; prefetched?: unknown } | undefined;
          remember(meta?.prefetched);
          const total = result.total ?? meta?.total;
          const more = result.pageInfo?.hasNextPage ?? page * BOARD_PAGE_SIZE < (total ?? 0);
          const shown = new Set<number>();
          for (const column of Object.values(stateRef.current.columns)) {
            for (const card of column.cards) shown.add(card.id);
          }
          const fresh = result.data.filter((lead) => !shown.has(lead.id)).length;
          dispatch({
            type: 'loaded',
            status,
            generation,
            records: result.data,
            total,
            hasMore: more,
          });
          if (fresh > 0 || !more || result.data.length === 0) return;
          dispatch({ type: 'loading', status });
        }
      } catch {
        if (generations.current[status] === generation) {
          dispatch({ type: 'failed', status, generation });
        }
      } finally {
        if (generations.current[status] === generation) inFlight.current.delete(status);
      }
    },
    [dataProvider, filterKey, remember],
  );

  const reload = useCallback(
    (status: LeadStatus) => {
      const generation = (generations.current[status] ?? 0) + 1;
      generations.current[status] = generation;
      dispatch({ type: 'reload', status, generation });
      void fetchPage(status, generation, 1);
    },
    [fetchPage],
  );

  useEffect(() => {
    for (const status of LEAD_STATUSES) reload(status);
  }, [reload]);

  const loadMore = useCallback(
    (status: LeadStatus) => {
      const column = stateRef.current.columns[status];
      if (column.loading || column.exhausted || column.failed || inFlight.current.has(status))
        return;
      dispatch({ type: 'loading', status });
      void fetchPage(status, generations.current[status] ?? 0, nextPage(column, BOARD_PAGE_SIZE));
    },
    [fetchPage],
  );

  // Names the prefetch did not bring (a server without it, a user or customer seen later).
  useEffect(() => {
    const missingUsers = new Set<number>();
    const missingCustomers = new Set<number>();
    for (const column of Object.values(state.columns)) {
      for (const card of column.cards) {
        if (card.assignedTo && !users.has(card.assignedTo)) missingUsers.add(card.assignedTo);
        if (card.customerId && !leadName(card) && !customers.has(card.customerId))
          missingCustomers.add(card.customerId);
      }
    }
    const ask = (resource: 'users' | 'customers', ids: Set<number>) => {
      const fresh = [...ids].filter((id) => !asked.current.has(`${resource}:${id}`));
      if (fresh.length === 0) return;
      for (const id of fresh) asked.current.add(`${resource}:${id}`);
      dataProvider
        .getMany(resource, { ids: fresh })
        .then(({ data }) => remember({ [resource]: data }))
        .catch(() => undefined);
    };
    ask('users', missingUsers);
    ask('customers', missingCustomers);
  }, [state.columns, users, customers, dataProvider, remember]);

  const customerModel = useMemo(() => getModel('customers'), []);
  const names: ColumnNames = useMemo(
    () => ({
      name: (lead) =>
        leadName(lead) ||
        (lead.customerId ? representRecord(customerModel, customers.get(lead.customerId)) : ''),
      source: (lead) => sourceName(sources.get(lead.leadSource)),
      assignee: (lead) => (lead.assignedTo ? userName(users.get(lead.assignedTo)) : ''),
      href: (lead) => resourceHref(area, 'leads', 'show', lead.id),
    }),
    [customerModel, customers, sourceName, sources, users, area],
  );

  // ---- Moves

  const send = useCallback(
    async (lead: Lead, to: LeadStatus, afterId: number | null, closeStatus?: LeadCloseStatus) => {
      try {
        const answer = await api.json<{ data: Lead }>('POST', `leads/${lead.id}/move`, {
          body: { status: to, afterId, version: lead.version, closeStatus },
        });
        dispatch({ type: 'confirm', id: lead.id, lead: answer.data });
      } catch (error) {
        dispatch({ type: 'rollback', id: lead.id });
        notify('app.leads.board.refused', {
          type: 'error',
          multiLine: true,
          autoHideDuration: 8_000,
          messageArgs: { reason: refusalText(error) },
        });
        reload(to);
        if (lead.status !== to && statusOf(error) === 409) reload(lead.status);
      }
    },
    [notify, refusalText, reload],
  );

  const [activeId, setActiveId] = useState<number | null>(null);
  const [over, setOver] = useState<{ status: LeadStatus; indicator: DropIndicator } | null>(null);
  /** A card dropped into Done, waiting for its close reason. */
  const [closing, setClosing] = useState<{ lead: Lead; afterId: number | null } | null>(null);
  /** A prospect to make a customer of before booking its appointment. */
  const [converting, setConverting] = useState<Lead | null>(null);

  const leadOf = (id: number): Lead | undefined => {
    const where = locate(stateRef.current, id);
    return where ? stateRef.current.columns[where.status].cards[where.index] : undefined;
  };

  const bookAppointment = (lead: Lead, customerId: number) => {
    const assignee = lead.assignedTo ? users.get(lead.assignedTo) : undefined;
    const href = appointmentHref(
      area,
      lead,
      customerId,
      assignee?.role === 'CONSULTANT' ? assignee.id : undefined,
    );
    if (href) navigate(href);
  };

  const onDragStart = ({ active }: DragStartEvent) => {
    setActiveId(Number(active.id));
  };

  const targetOf = (
    over: Over | null,
  ): { status: LeadStatus; overId: number | null } | undefined => {
    const data = dragData(over?.data.current);
    if (!data) return undefined;
    return data.type === 'card'
      ? { status: data.status, overId: data.id }
      : { status: data.status, overId: null };
  };

  const onDragOver = (event: DragOverEvent) => {
    const target = targetOf(event.over);
    const from = dragData(event.active.data.current);
    if (!target || !from || from.status === target.status) {
      setOver(null);
      return;
    }
    const below = isBelow(event.active, event.over, pointerYOf(event));
    // The same object while nothing changes: the column under the card does not render again.
    setOver((current) =>
      current?.status === target.status &&
      current.indicator.overId === target.overId &&
      current.indicator.below === below
        ? current
        : { status: target.status, indicator: { overId: target.overId, below } },
    );
  };

  /**
   * After a keyboard drop the card is a new element in its new column: the focus goes to its grip
   * (dnd-kit's own return of the focus finds only the element that was picked up).
   */
  const boardRef = useRef<HTMLDivElement | null>(null);
  const focusGrip = (id: number) => {
    requestAnimationFrame(() =>
      requestAnimationFrame(() => {
        const grip = boardRef.current?.querySelector<HTMLElement>(
          `[data-lead-id="${id}"] [data-testid="lead-card-grip"]`,
        );
        grip?.focus();
      }),
    );
  };

  const onDragEnd = (event: DragEndEvent) => {
    setActiveId(null);
    setOver(null);
    const id = Number(event.active.id);
    const lead = leadOf(id);
    const target = targetOf(event.over);
    if (!lead || !target) return;
    const ids = stateRef.current.columns[target.status].cards.map((card) => card.id);
    const placement = dropPlacement(
      ids,
      id,
      target.overId,
      isBelow(event.active, event.over, pointerYOf(event)),
    );
    if (!placement) return;
    dispatch({ type: 'move', id, to: target.status, afterId: placement.afterId });
    if (event.activatorEvent instanceof KeyboardEvent) focusGrip(id);
    if (target.status === 'closed' && lead.status !== 'closed') {
      setClosing({ lead, afterId: placement.afterId });
      return;
    }
    void send(
      lead,
      target.status,
      placement.afterId,
      target.status === 'closed' ? (lead.closeStatus ?? undefined) : undefined,
    );
  };

  const onDragCancel = () => {
    setActiveId(null);
    setOver(null);
  };

  const closeWith = (reason: LeadCloseStatus) => {
    if (!closing) return;
    const { lead, afterId } = closing;
    setClosing(null);
    if (reason === APPOINTMENT_SET) {
      // The appointment closes the lead when it is saved; until then the card stays.
      dispatch({ type: 'rollback', id: lead.id });
      if (lead.customerId) bookAppointment(lead, lead.customerId);
      else setConverting(lead);
      return;
    }
    void send(lead, 'closed', afterId, reason);
  };

  const cancelClose = () => {
    if (closing) dispatch({ type: 'rollback', id: closing.lead.id });
    setClosing(null);
  };

  // ---- Keyboard, touch, mouse; what a screen reader hears

  const sensors = useSensors(
    useSensor(MouseAndPenSensor, MOUSE_OPTIONS),
    useSensor(TouchSensor, TOUCH_OPTIONS),
    useSensor(KeyboardSensor, KEYBOARD_OPTIONS),
  );

  /** The column and the 1-based place a card would take there (where it is, when it stays). */
  const describe = useCallback(
    (active: Active, over: Over | null) => {
      const id = Number(active.id);
      const target = over
        ? targetOf(over)
        : (() => {
            const where = locate(stateRef.current, id);
            return where ? { status: where.status, overId: id } : undefined;
          })();
      if (!target) return { column: '', position: 0 };
      const cards = stateRef.current.columns[target.status].cards.map((card) => card.id);
      const placement = over
        ? dropPlacement(cards, id, target.overId, isBelow(active, over))
        : undefined;
      const position = placement ? placement.index + 1 : cards.indexOf(id) + 1;
      return { column: translate(enumKey('leadStatus', target.status)), position };
    },
    [translate],
  );
  const nameFor = useCallback(
    (id: number | string) => {
      const lead = leadOf(Number(id));
      return (lead && names.name(lead)) || `#${String(id)}`;
    },
    [names],
  );
  const announcements: Announcements = useMemo(
    () => ({
      onDragStart: ({ active }) =>
        translate('app.leads.board.announce.start', {
          name: nameFor(active.id),
          ...describe(active, null),
        }),
      onDragOver: ({ active, over: target }) =>
        target
          ? translate('app.leads.board.announce.over', {
              name: nameFor(active.id),
              ...describe(active, target),
            })
          : translate('app.leads.board.announce.outside', { name: nameFor(active.id) }),
      onDragEnd: ({ active, over: target }) =>
        target
          ? translate('app.leads.board.announce.dropped', {
              name: nameFor(active.id),
              ...describe(active, target),
            })
          : translate('app.leads.board.announce.cancelled', { name: nameFor(active.id) }),
      onDragCancel: ({ active }) =>
        translate('app.leads.board.announce.cancelled', { name: nameFor(active.id) }),
    }),
    [describe, nameFor, translate],
  );
  const screenReaderInstructions: ScreenReaderInstructions = useMemo(
    () => ({ draggable: translate('app.leads.board.instructions') }),
    [translate],
  );

  const activeWhere = activeId === null ? undefined : locate(state, activeId);
  const activeLead = activeWhere
    ? state.columns[activeWhere.status].cards[activeWhere.index]
    : undefined;
  const closingName = closing ? names.name(closing.lead) : '';
  const accessibility = useMemo(
    () => ({ announcements, screenReaderInstructions }),
    [announcements, screenReaderInstructions],
  );
  // The pending moves of each column as a value ('12,15'): a column renders again only for its own.
  const pendingIds = useMemo(() => {
    const byColumn: Record<string, number[]> = {};
    for (const move of Object.values(state.pending)) (byColumn[move.to] ??= []).push(move.id);
    return byColumn;
  }, [state.pending]);
  // Stable handlers for DndContext (its consumers, every card, render again when they change).
  const handlers = useRef({ onDragStart, onDragOver, onDragEnd, onDragCancel });
  useLayoutEffect(() => {
    handlers.current = { onDragStart, onDragOver, onDragEnd, onDragCancel };
  });
  const stable = useMemo(
    () => ({
      onDragStart: (event: DragStartEvent) => handlers.current.onDragStart(event),
      onDragOver: (event: DragOverEvent) => handlers.current.onDragOver(event),
      onDragEnd: (event: DragEndEvent) => handlers.current.onDragEnd(event),
      onDragCancel: () => handlers.current.onDragCancel(),
    }),
    [],
  );

  return (
    <BoardStyles
      sx={{
        display: 'flex',
        gap: 1.5,
        flex: 1,
        minHeight: 0,
        overflowX: 'auto',
        pb: 1,
      }}
      data-testid="lead-board"
      ref={boardRef}
    >
      <DndContext
        sensors={sensors}
        collisionDetection={collisionDetection}
        measuring={MEASURING}
        accessibility={accessibility}
        onDragStart={stable.onDragStart}
        onDragOver={stable.onDragOver}
        onDragEnd={stable.onDragEnd}
        onDragCancel={stable.onDragCancel}
      >
        {LEAD_STATUSES.map((status) => (
          <BoardColumn
            key={status}
            status={status}
            column={state.columns[status]}
            total={shownTotal(state, status)}
            pendingIds={(pendingIds[status] ?? []).join(',')}
            activeId={activeId}
            indicator={over?.status === status ? over.indicator : null}
            names={names}
            texts={texts}
            onLoadMore={loadMore}
            onRetry={reload}
          />
        ))}
        <DragOverlay dropAnimation={DROP_ANIMATION}>
          {activeLead ? (
            <LeadCardView
              lead={activeLead}
              names={{
                name: names.name(activeLead),
                source: names.source(activeLead),
                assignee: names.assignee(activeLead),
              }}
              texts={texts}
              overlay
            />
          ) : null}
        </DragOverlay>
      </DndContext>
      <CloseDialog
        open={closing !== null}
        name={closingName}
        onCancel={cancelClose}
        onConfirm={closeWith}
      />
      <ConvertDialog
        lead={converting}
        name={converting ? names.name(converting) : ''}
        onCancel={() => setConverting(null)}
        onConverted={(customerId, lead) => {
          setConverting(null);
          bookAppointment(lead, customerId);
        }}
      />
    </BoardStyles>
  );
}
