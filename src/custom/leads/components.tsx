/**
 * Pieces the lead screens share: the status and close-reason chips, the lead sources the user's
 * role may see (and their names), the assignable users, the view switch, and the filter bar both
 * views use (lead source, assignee, status and close reason in the list, creation date range,
 * search).
 */
import CalendarTodayIcon from '@mui/icons-material/CalendarToday';
import FilterAltOffIcon from '@mui/icons-material/FilterAltOff';
import SearchIcon from '@mui/icons-material/Search';
import ViewKanbanIcon from '@mui/icons-material/ViewKanban';
import ViewListIcon from '@mui/icons-material/ViewList';
import {
  Box,
  Checkbox,
  Chip,
  Divider,
  IconButton,
  InputAdornment,
  ListItemText,
  MenuItem,
  TextField,
  Tooltip,
} from '@mui/material';
import { useEffect, useMemo, useState } from 'react';
import { useGetList, useLocale, useTranslate } from 'react-admin';
import { getStoredUser } from '../../auth/session.ts';
import { DateFilterField } from '../../components/DateFilterField.tsx';
import { Deferred } from '../../shell/Deferred.tsx';
import type { ApiRecord } from '../../resources/records.ts';
import { enumKey, fieldLabelKey } from '../../schema/labels.ts';
import {
  LEAD_CLOSE_STATUSES,
  LEAD_STATUSES,
  type LeadCloseStatus,
  type LeadStatus,
} from '../../schema/leads.ts';
import type { LEADS_VIEWS } from '../../schema/preferences.ts';
import {
  activeFilterCount,
  type AssigneeFilter,
  fieldOf,
  type LeadFilters,
  type LeadSource,
  storedViewerKey,
  viewerOfKey,
  visibleSources,
} from './model.ts';
import { ViewSwitch } from '../../components/ViewSwitch.tsx';

export type LeadsView = (typeof LEADS_VIEWS)[number];
type User = ApiRecord<'users'>;

/** Chip colours of the columns (MUI palette names). */
const STATUS_COLORS: Record<LeadStatus, 'info' | 'warning' | 'primary' | 'success'> = {
  new: 'info',
  'not reached': 'warning',
  'to do': 'primary',
  closed: 'success',
};

export const statusColor = (status: LeadStatus) => STATUS_COLORS[status];

export function LeadStatusChip({ status }: { status: LeadStatus | null | undefined }) {
  const translate = useTranslate();
  if (!status) return null;
  return (
    <Chip
      size="small"
      color={STATUS_COLORS[status]}
      label={translate(enumKey('leadStatus', status))}
      data-testid="lead-status-chip"
      data-status={status}
    />
  );
}

export function CloseStatusChip({
  closeStatus,
}: {
  closeStatus: LeadCloseStatus | null | undefined;
}) {
  const translate = useTranslate();
  if (!closeStatus) return null;
  return (
    <Chip
      size="small"
      variant="outlined"
      color={
        closeStatus === 'appointment_set'
          ? 'success'
          : closeStatus === 'blacklist'
            ? 'error'
            : 'default'
      }
      label={translate(enumKey('leadCloseStatus', closeStatus))}
      data-testid="lead-close-status-chip"
      data-close-status={closeStatus}
    />
  );
}

/** A lead source's name in the language (`name<Lang>`), else the German or English one. */
export function sourceNameIn(source: LeadSource | undefined, locale: string): string {
  if (!source) return '';
  const key = `name${locale.charAt(0).toUpperCase()}${locale.slice(1)}` as keyof LeadSource;
  const value = source[key] || source.nameDe || source.nameEn;
  return typeof value === 'string' ? value : `#${source.id}`;
}

/** Every lead source (a short reference table) and its name in the user's language. */
export function useLeadSources(): {
  sources: LeadSource[];
  byId: Map<number, LeadSource>;
  nameOf: (source: LeadSource | undefined) => string;
} {
  const locale = useLocale();
  const { data } = useGetList<LeadSource>('lead-sources', {
    pagination: { page: 1, perPage: 500 },
    sort: { field: 'id', order: 'ASC' },
  });
  return useMemo(() => {
    const sources = data ?? [];
    return {
      sources,
      byId: new Map(sources.map((source) => [source.id, source])),
      nameOf: (source) => sourceNameIn(source, locale),
    };
  }, [data, locale]);
}

/** The users a lead may be assigned to (the field's x-reference-filter), by name. */
export function useAssignableUsers(enabled: boolean): User[] {
  const { data } = useGetList<User>(
    'users',
    {
      pagination: { page: 1, perPage: 500 },
      sort: { field: '_label', order: 'ASC' },
      filter: fieldOf('assignedTo').referenceFilter ?? {},
    },
    { enabled },
  );
  return data ?? [];
}

export const userName = (user: Pick<User, 'firstName' | 'lastName'> | undefined): string =>
  user ? [user.firstName, user.lastName].filter(Boolean).join(' ') : '';

/** Board or list (the leadsView preference). */
export function LeadsViewSwitch({
  view,
  onChange,
}: {
  view: LeadsView;
  onChange: (view: LeadsView) => void;
}) {
  return (
    <ViewSwitch
      view={view}
      onChange={onChange}
      label="app.leads.view.label"
      testIdPrefix="leads-view"
      options={[
        {
          value: 'kanban',
          label: 'app.leads.view.kanban',
          icon: <ViewKanbanIcon fontSize="small" />,
        },
        { value: 'list', label: 'app.leads.view.list', icon: <ViewListIcon fontSize="small" /> },
      ]}
    />
  );
}

/** Text typed into the search: sent after a short pause. */
function SearchField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const translate = useTranslate();
  const [text, setText] = useState(value);
  const [seen, setSeen] = useState(value);
  if (seen !== value) {
    // Cleared or changed from outside.
    setSeen(value);
    setText(value);
  }
  useEffect(() => {
    if (text === value) return undefined;
    const timer = setTimeout(() => onChange(text), 350);
    return () => clearTimeout(timer);
  }, [text, value, onChange]);
  return (
    <TextField
      size="small"
      label={translate('ra.action.search')}
      value={text}
      onChange={(event) => setText(event.target.value)}
      sx={{ width: 160 }}
      slotProps={{
        htmlInput: { 'data-testid': 'leads-search' },
        input: {
          endAdornment: (
            <InputAdornment position="end">
              <SearchIcon fontSize="small" color="disabled" />
            </InputAdornment>
          ),
        },
      }}
    />
  );
}

const ALL = '';
const DATE_SX = { width: 145 };

/** A date filter's look while the picker is not there yet (a moment after the page). */
function DatePlaceholder({ label }: { label: string }) {
  return (
    <TextField
      size="small"
      label={label}
      disabled
      sx={DATE_SX}
      slotProps={{
        input: {
          endAdornment: (
            <InputAdornment position="end">
              <CalendarTodayIcon fontSize="small" color="disabled" />
            </InputAdornment>
          ),
        },
      }}
    />
  );
}

/**
 * The filter bar of both views: the values live in the page (and the store), each change applies
 * at once (the search after a pause).
 */
export function LeadFilterBar({
  filters,
  onChange,
  view,
}: {
  filters: LeadFilters;
  onChange: (filters: LeadFilters) => void;
  view: LeadsView;
}) {
  const translate = useTranslate();
  const locale = useLocale();
  const user = getStoredUser();
  const role = user?.role ?? '';
  // A consultant sees only their own leads: no assignee to choose.
  const assignable = role !== 'CONSULTANT';
  const { sources, nameOf } = useLeadSources();
  const users = useAssignableUsers(assignable);
  const viewer = storedViewerKey();
  const shownSources = useMemo(
    () => visibleSources(sources, viewerOfKey(viewer), nameOf, locale),
    [sources, viewer, nameOf, locale],
  );
  const set = (change: Partial<LeadFilters>) => onChange({ ...filters, ...change });
  const label = (name: string) => translate(fieldLabelKey('leads', name));
  const assignee = filters.assignedTo === undefined ? ALL : String(filters.assignedTo);
  const chosenSources = filters.leadSource ?? [];
  const count = activeFilterCount(filters, view);
  const onSearch = useMemo(
    () => (q: string) => onChange({ ...filters, q: q || undefined }),
    [filters, onChange],
  );
  const fieldSx = { width: 150 };
  return (
    <Box
      sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, alignItems: 'center' }}
      data-testid="leads-filters"
    >
      <SearchField value={filters.q ?? ''} onChange={onSearch} />
      <TextField
        select
        size="small"
        label={label('leadSource')}
        value={chosenSources.map(String)}
        onChange={(event) => {
          const value = event.target.value as unknown as string[] | string;
          const list = (Array.isArray(value) ? value : value.split(',')).map(Number);
          set({ leadSource: list.length > 0 ? list : undefined });
        }}
        sx={fieldSx}
        slotProps={{
          select: {
            multiple: true,
            renderValue: (selected) =>
              (selected as string[])
                .map((id) => nameOf(sources.find((source) => String(source.id) === id)))
                .join(', '),
          },
          htmlInput: { 'data-testid': 'leads-filter-source' },
        }}
      >
        {shownSources.map((source) => (
          <MenuItem key={source.id} value={String(source.id)} dense>
            <Checkbox size="small" checked={chosenSources.includes(source.id)} sx={{ p: 0.5 }} />
            <ListItemText primary={nameOf(source)} />
          </MenuItem>
        ))}
      </TextField>
      {assignable ? (
        <TextField
          select
          size="small"
          label={label('assignedTo')}
          value={assignee}
          onChange={(event) => {
            const value = event.target.value;
            const next: AssigneeFilter | undefined =
              value === ALL
                ? undefined
                : value === 'me' || value === 'none'
                  ? value
                  : Number(value);
            set({ assignedTo: next });
          }}
          sx={fieldSx}
          slotProps={{
            select: { displayEmpty: true },
            inputLabel: { shrink: true },
            htmlInput: { 'data-testid': 'leads-filter-assignee' },
          }}
        >
          <MenuItem value={ALL}>{translate('app.leads.filters.everyone')}</MenuItem>
          <MenuItem value="me">{translate('app.leads.filters.me')}</MenuItem>
          <MenuItem value="none">{translate('app.leads.filters.unassigned')}</MenuItem>
          {users.length > 0 ? <Divider /> : null}
          {users.map((candidate) => (
            <MenuItem key={candidate.id} value={String(candidate.id)}>
              {userName(candidate)}
            </MenuItem>
          ))}
        </TextField>
      ) : null}
      {view === 'list' ? (
        <>
          <TextField
            select
            size="small"
            label={label('status')}
            value={filters.status ?? ALL}
            onChange={(event) => {
              const value = event.target.value as LeadStatus | '';
              set({
                status: value || undefined,
                closeStatus: value === 'closed' ? filters.closeStatus : undefined,
              });
            }}
            sx={fieldSx}
            slotProps={{
              select: { displayEmpty: true },
              inputLabel: { shrink: true },
              htmlInput: { 'data-testid': 'leads-filter-status' },
            }}
          >
            <MenuItem value={ALL}>{translate('app.leads.filters.all')}</MenuItem>
            {LEAD_STATUSES.map((status) => (
              <MenuItem key={status} value={status}>
                {translate(enumKey('leadStatus', status))}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            size="small"
            label={label('closeStatus')}
            value={filters.closeStatus ?? ALL}
            onChange={(event) => {
              const value = event.target.value as LeadCloseStatus | '';
              set({
                closeStatus: value || undefined,
                status: value ? 'closed' : filters.status,
              });
            }}
            sx={fieldSx}
            slotProps={{
              select: { displayEmpty: true },
              inputLabel: { shrink: true },
              htmlInput: { 'data-testid': 'leads-filter-close-status' },
            }}
          >
            <MenuItem value={ALL}>{translate('app.leads.filters.all')}</MenuItem>
            {LEAD_CLOSE_STATUSES.map((closeStatus) => (
              <MenuItem key={closeStatus} value={closeStatus}>
                {translate(enumKey('leadCloseStatus', closeStatus))}
              </MenuItem>
            ))}
          </TextField>
        </>
      ) : null}
      {/* The date pickers are heavy: the board comes first, they follow in the background. */}
      <Deferred
        fallback={
          <>
            <DatePlaceholder label={translate('app.leads.filters.createdFrom')} />
            <DatePlaceholder label={translate('app.leads.filters.createdUntil')} />
          </>
        }
      >
        <DateFilterField
          label={translate('app.leads.filters.createdFrom')}
          value={filters.createdFrom ?? ''}
          onChange={(value) => set({ createdFrom: value || undefined })}
          testId="leads-filter-from"
          sx={DATE_SX}
        />
        <DateFilterField
          label={translate('app.leads.filters.createdUntil')}
          value={filters.createdUntil ?? ''}
          onChange={(value) => set({ createdUntil: value || undefined })}
          testId="leads-filter-until"
          sx={DATE_SX}
        />
      </Deferred>
      {count > 0 ? (
        <Tooltip title={translate('app.leads.filters.clear')}>
          <IconButton
            size="small"
            onClick={() => onChange({})}
            aria-label={translate('app.leads.filters.clear')}
            data-testid="leads-filters-clear"
          >
            <FilterAltOffIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      ) : null}
    </Box>
  );
}
