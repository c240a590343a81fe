/**
 * The audit log (/admin/audit-log, manage-users): every change and account event, filtered by
 * user, resource, action and dates; each entry with its fields' old → new values.
 */
import { Card, CardContent, MenuItem, Stack, TextField } from '@mui/material';
import { useState } from 'react';
import { Title, useGetList, useTranslate } from 'react-admin';
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
  const field = { size: 'small', sx: { minWidth: 180 } } as const;
  return (
    <Card>
      <Title title="app.history.admin_title" />
      <CardContent>
        <Stack direction="row" spacing={2} sx={{ mb: 2, flexWrap: 'wrap', rowGap: 2 }}>
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
          <TextField
            {...field}
            type="date"
            label={translate('app.history.filters.from')}
            value={filter.from ?? ''}
            onChange={set('from')}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <TextField
            {...field}
            type="date"
            label={translate('app.history.filters.until')}
            value={filter.until ?? ''}
            onChange={set('until')}
            slotProps={{ inputLabel: { shrink: true } }}
          />
        </Stack>
        <HistoryList key={JSON.stringify(filter)} filter={filter} />
      </CardContent>
    </Card>
  );
}
