/**
 * The audit log (/admin/audit-log, manage-users): every change and account event, filtered by
 * user, resource, action and dates; each entry with its fields' old → new values.
 */
import { Box, Card, CardContent, MenuItem, TextField } from '@mui/material';
import { useState } from 'react';
import { Title, useGetList, useTranslate } from 'react-admin';
import { DateFilterField } from '../../components/DateFilterField.tsx';
import type { AuditFilter } from '../../resources/history/auditCalls.ts';
import { HistoryList } from '../../resources/history/HistoryList.tsx';
import { MODELS } from '../../resources/registry.ts';

const ACTIONS = ['create', 'update', 'delete'] as const;

export default function AuditLogPage() {
  const translate = useTranslate();
  const [filter, setFilter] = useState<AuditFilter>({});
  const users = useGetList('users', {
    pagination: { page: 1, perPage: 100 },
    sort: { field: 'lastName', order: 'ASC' },
  });
  const set = (key: keyof AuditFilter) => (event: { target: { value: string } }) =>
    setFilter((current) => ({ ...current, [key]: event.target.value || undefined }));
  const field = { size: 'small', sx: { flex: '1 1 180px', minWidth: 180, maxWidth: 260 } } as const;
  return (
    <Card>
      <Title title="app.history.admin_title" />
      <CardContent>
        {/* Filters side by side, wrapping on narrow screens (gap, not margins, so rows align). */}
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, mb: 2 }}>
          <TextField
            {...field}
            select
            label={translate('app.history.filters.user')}
            value={filter.userId ?? ''}
            onChange={set('userId')}
            slotProps={{ htmlInput: { 'data-testid': 'audit-filter-user' } }}
          >
            <MenuItem value="">{translate('app.history.filters.all')}</MenuItem>
            {(users.data ?? []).map((user) => (
              <MenuItem key={user.id} value={String(user.id)}>
                {`${String(user.firstName ?? '')} ${String(user.lastName ?? '')}`.trim()}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            {...field}
            select
            label={translate('app.history.filters.resource')}
            value={filter.resource ?? ''}
            onChange={set('resource')}
          >
            <MenuItem value="">{translate('app.history.filters.all')}</MenuItem>
            {MODELS.map((model) => (
              <MenuItem key={model.name} value={model.name}>
                {translate(`resources.${model.name}.name`, { smart_count: 2, _: model.name })}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            {...field}
            select
            label={translate('app.history.filters.action')}
            value={filter.action ?? ''}
            onChange={set('action')}
          >
            <MenuItem value="">{translate('app.history.filters.all')}</MenuItem>
            {ACTIONS.map((action) => (
              <MenuItem key={action} value={action}>
                {translate(`app.history.actions.${action}`)}
              </MenuItem>
            ))}
          </TextField>
          <DateFilterField
            label={translate('app.history.filters.from')}
            value={filter.from ?? ''}
            onChange={(value) => setFilter((current) => ({ ...current, from: value || undefined }))}
            testId="audit-filter-from"
            sx={field.sx}
          />
          <DateFilterField
            label={translate('app.history.filters.until')}
            value={filter.until ?? ''}
            onChange={(value) =>
              setFilter((current) => ({ ...current, until: value || undefined }))
            }
            testId="audit-filter-until"
            sx={field.sx}
          />
        </Box>
        <HistoryList key={JSON.stringify(filter)} filter={filter} />
      </CardContent>
    </Card>
  );
}
