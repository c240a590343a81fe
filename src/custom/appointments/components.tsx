/**
 * Pieces the appointment screens share: the status chip, the map link, the double-booking check
 * (GET /api/appointments/overlaps) and its warning.
 */
import MapIcon from '@mui/icons-material/Map';
import { Alert, Chip, IconButton, Tooltip } from '@mui/material';
import {
  cloneElement,
  isValidElement,
  type ReactElement,
  type ReactNode,
  useEffect,
  useState,
} from 'react';
import { FunctionField, useLocale, useTranslate } from 'react-admin';
import { fieldFor } from '../../resources/fields.tsx';
import { api } from '../../dataProvider/apiClient.ts';
import { appointmentStatusKey } from '../../schema/appointments.ts';
import {
  type AddressParts,
  type Appointment,
  appointmentModel,
  fieldOf,
  isoToSwiss,
  mapLink,
  statusColor,
} from './model.ts';

export function StatusChip({
  status,
  testId,
}: {
  status: number | null | undefined;
  testId?: string;
}) {
  const translate = useTranslate();
  if (status === null || status === undefined) return null;
  return (
    <Chip
      size="small"
      label={translate(appointmentStatusKey(status))}
      data-testid={testId}
      data-status={status}
      sx={{ bgcolor: statusColor(status), color: '#fff', fontWeight: 500 }}
    />
  );
}

/** An icon linking to the address on OpenStreetMap, in a new tab (nothing is fetched here). */
export function MapLink({ address, testId }: { address: AddressParts; testId?: string }) {
  const translate = useTranslate();
  const href = mapLink(address);
  if (!href) return null;
  const label = translate('app.appointments.map');
  return (
    <Tooltip title={label}>
      <IconButton
        component="a"
        href={href}
        target="_blank"
        rel="noopener noreferrer"
        aria-label={label}
        size="small"
        data-testid={testId}
      >
        <MapIcon fontSize="small" />
      </IconButton>
    </Tooltip>
  );
}

export interface Overlap {
  id: number;
  dateStart: string;
  dateEnd: string;
  clientName?: string | null;
  status?: number;
}

/** The consultant's planned appointments overlapping the range (other than `excludeId`). */
export async function fetchOverlaps(params: {
  consultantId: number;
  dateStart: string;
  dateEnd: string;
  excludeId?: number;
  signal?: AbortSignal;
}): Promise<Overlap[]> {
  const query = new URLSearchParams({
    consultant_id: String(params.consultantId),
    date_start: params.dateStart,
    date_end: params.dateEnd,
  });
  if (params.excludeId !== undefined) query.set('exclude_id', String(params.excludeId));
  const answer = await api.json<{ data?: Overlap[] }>('GET', `appointments/overlaps?${query}`, {
    signal: params.signal,
  });
  return Array.isArray(answer?.data) ? answer.data : [];
}

/** The overlaps of a range, asked a moment after it stops changing; [] while incomplete. */
export function useOverlaps(
  consultantId: number | null | undefined,
  dateStart: string | undefined,
  dateEnd: string | undefined,
  excludeId?: number,
  delay = 400,
): Overlap[] {
  const complete = Boolean(consultantId && dateStart && dateEnd && dateEnd > dateStart);
  const key = complete ? `${consultantId} ${dateStart} ${dateEnd} ${excludeId ?? ''}` : '';
  // The answer with the range it is for: a changed range shows nothing until its own answer.
  const [answer, setAnswer] = useState<{ key: string; overlaps: Overlap[] }>({
    key: '',
    overlaps: [],
  });
  useEffect(() => {
    if (!consultantId || !dateStart || !dateEnd || !key) return undefined;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      fetchOverlaps({ consultantId, dateStart, dateEnd, excludeId, signal: controller.signal })
        .then((overlaps) => setAnswer({ key, overlaps }))
        // A failed check warns of nothing; the save itself reports its own errors.
        .catch(() => setAnswer({ key, overlaps: [] }));
    }, delay);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [key, consultantId, dateStart, dateEnd, excludeId, delay]);
  return key !== '' && answer.key === key ? answer.overlaps : [];
}

/** One overlap as '14:00–15:00 Vera Muster'. */
export function useOverlapText(): (overlap: Overlap) => string {
  useLocale();
  return (overlap) => {
    const start = isoToSwiss(overlap.dateStart);
    const end = isoToSwiss(overlap.dateEnd);
    const day = start ? start.date.split('-').reverse().join('.') : '';
    const times = start && end ? `${day} ${start.time}–${end.time}` : '';
    return [times, overlap.clientName].filter(Boolean).join(' ');
  };
}

/** The warning under the times: the consultant is booked elsewhere then. */
export function OverlapWarning({ overlaps }: { overlaps: Overlap[] }) {
  const translate = useTranslate();
  const text = useOverlapText();
  if (overlaps.length === 0) return null;
  return (
    <Alert severity="warning" sx={{ my: 1, width: '100%' }} data-testid="appointment-overlaps">
      {translate('app.appointments.overlaps', { count: overlaps.length })}{' '}
      {overlaps.map(text).join('; ')}
    </Alert>
  );
}

/**
 * The customer, linked in the area; its name copied on the appointment when the customer itself
 * cannot be read (a consultant's own appointment at someone else's customer).
 */
export function ClientField(_props: { source: string; label: string; sortBy?: string }) {
  const element = fieldFor(appointmentModel(), fieldOf('clientId'), { inList: true });
  return (
    <FunctionField<Appointment>
      render={(record) =>
        element && isValidElement(element)
          ? cloneElement(element as ReactElement<{ empty?: ReactNode }>, {
              empty: record.clientName ?? null,
            })
          : record.clientName
      }
    />
  );
}
