/**
 * A list of history entries (GET /api/audit): when, who, what happened and, for changes, each
 * field's label in the user's language with its old → new value. Used by the record history
 * drawer, the customer's notes-and-history tab and the admin audit log.
 */
import {
  Alert,
  Box,
  Chip,
  CircularProgress,
  List,
  ListItem,
  Pagination,
  Stack,
  Typography,
} from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useLocale, useTranslate } from 'react-admin';
import { messageOf } from '../../dataProvider/apiClient.ts';
import { formatDate, formatDateTime } from '../../i18n/format.ts';
import { enumKey, fieldLabelKey } from '../../schema/labels.ts';
import { getModel, hasModel } from '../registry.ts';
import { type AuditEntry, type AuditFilter, fetchAudit } from './auditCalls.ts';

const REDACTED = '[redacted]';

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** How a field shows its values: its enum's labels, or as a date (else as stored). */
function fieldDisplay(resource: string | null, field: string) {
  const model = resource && hasModel(resource) ? getModel(resource) : undefined;
  const found = model?.fields.find((candidate) => candidate.name === field);
  return { enumName: found?.enumName, date: found?.schema.format === 'date' };
}

/** A stored value as text: empty as a dash, enum values by label, structures as compact JSON. */
function valueText(
  value: unknown,
  translate: Translate,
  display: ReturnType<typeof fieldDisplay>,
  language: string,
): string {
  if (value === null || value === undefined || value === '') return '—';
  if (value === REDACTED) return translate('app.history.redacted');
  if (typeof value === 'boolean') return translate(value ? 'ra.boolean.true' : 'ra.boolean.false');
  if (display.enumName && typeof value === 'string')
    return translate(enumKey(display.enumName, value), { _: value });
  if (display.enumName && Array.isArray(value))
    return value.map((item) => translate(enumKey(display.enumName!, item), { _: item })).join(', ');
  if (display.date && typeof value === 'string') return formatDate(value, language);
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function Changes({ entry }: { entry: AuditEntry }) {
  const translate = useTranslate();
  const language = useLocale();
  const changes = Object.entries(entry.changes ?? {});
  if (changes.length === 0) return null;
  return (
    <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: 'auto 1fr', gap: 0.5 }}>
      {changes.map(([field, change]) => {
        const display = fieldDisplay(entry.resource, field);
        const text = (value: unknown) => valueText(value, translate, display, language);
        return (
          <Box key={field} sx={{ display: 'contents' }} data-testid={`history-change-${field}`}>
            <Typography component="dt" variant="body2" color="text.secondary" sx={{ pr: 2 }}>
              {translate(fieldLabelKey(entry.resource ?? '', field), { _: field })}
            </Typography>
            <Typography component="dd" variant="body2" sx={{ m: 0, wordBreak: 'break-word' }}>
              {entry.action === 'update'
                ? `${text(change.old)} → ${text(change.new)}`
                : text(entry.action === 'delete' ? change.old : change.new)}
            </Typography>
          </Box>
        );
      })}
    </Box>
  );
}

function EntryItem({ entry, subject }: { entry: AuditEntry; subject?: string }) {
  const translate = useTranslate();
  const language = useLocale();
  const who =
    entry.userName ??
    (entry.actor
      ? translate('app.history.system', { _: entry.actor })
      : translate('app.history.unknown'));
  const what = entry.action
    ? translate(`app.history.actions.${entry.action}`)
    : translate(`app.history.events.${entry.event}`, { _: entry.event });
  const resourceLabel =
    entry.resource && entry.resource !== subject
      ? translate(`resources.${entry.resource}.name`, { smart_count: 1, _: entry.resource })
      : null;
  return (
    <ListItem divider alignItems="flex-start" data-testid="history-entry" sx={{ px: 0 }}>
      <Stack spacing={0.5} sx={{ width: '100%' }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
          <Typography variant="body2" color="text.secondary">
            {formatDateTime(entry.at, language)}
          </Typography>
          <Typography variant="body2" sx={{ fontWeight: 500 }}>
            {who}
          </Typography>
          <Chip size="small" label={what} data-testid="history-action" />
          {resourceLabel ? (
            <Chip
              size="small"
              variant="outlined"
              label={`${resourceLabel} #${entry.recordId ?? ''}`}
            />
          ) : null}
          {entry.ip ? (
            <Typography variant="caption" color="text.secondary">
              {entry.ip}
            </Typography>
          ) : null}
        </Stack>
        <Changes entry={entry} />
      </Stack>
    </ListItem>
  );
}

/**
 * The entries of `filter`, newest first, a page at a time. `subject`: the resource the list is
 * about, whose entries need no resource chip (a customer's own changes beside its documents').
 */
export function HistoryList({ filter, subject }: { filter: AuditFilter; subject?: string }) {
  const translate = useTranslate();
  const [page, setPage] = useState(1);
  const query = useQuery({
    queryKey: ['audit', filter, page],
    queryFn: ({ signal }) => fetchAudit({ ...filter, page, perPage: 25 }, signal),
    placeholderData: keepPreviousData,
  });
  if (query.isPending) return <CircularProgress size={24} />;
  if (query.isError) return <Alert severity="error">{translate(messageOf(query.error))}</Alert>;
  const { data, meta } = query.data;
  if (data.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary" data-testid="history-empty">
        {translate('app.history.empty')}
      </Typography>
    );
  }
  return (
    <Box data-testid="history-list">
      <List dense disablePadding>
        {data.map((entry) => (
          <EntryItem key={entry.id} entry={entry} subject={subject} />
        ))}
      </List>
      {meta.lastPage > 1 ? (
        <Pagination
          sx={{ mt: 1 }}
          count={meta.lastPage}
          page={page}
          onChange={(_event, value: number) => setPage(value)}
        />
      ) : null}
    </Box>
  );
}
