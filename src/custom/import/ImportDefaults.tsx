/**
 * The values a CSV import sets on every row: the lead source (the spec's importLeadSource; for
 * leads required unless a column holds it, and only the sources the user's role may see), the
 * recommender (importRecommendedBy), and the assignee of rows without one.
 */
import { MenuItem, Stack, TextField } from '@mui/material';
import { useGetList, useLocaleState, useTranslate } from 'react-admin';
import { getStoredUser } from '../../auth/session.ts';
import { sortByLabel } from '../../resources/labels.ts';
import type { ApiRecord } from '../../resources/records.ts';
import { getModel } from '../../resources/registry.ts';
import { leadSourceVisible } from '../../schema/leads.ts';
import { fieldByName } from '../../schema/model.ts';
import { leadSourceName } from '../customers/model.ts';
import type { ImportConfig } from './config.ts';

/** Values set on every imported row ('' = none: taken from the file, or unassigned). */
export interface RowDefaults {
  leadSource: number | '';
  recommendedBy: string;
  assignedTo: number | '';
}

export function ImportDefaults({
  config,
  defaults,
  onDefaults,
}: {
  config: ImportConfig;
  defaults: RowDefaults;
  onDefaults: (defaults: RowDefaults) => void;
}) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const viewer = getStoredUser() ?? { role: '', permissions: [] };
  const { data: sources = [] } = useGetList<ApiRecord<'lead-sources'>>('lead-sources', {
    pagination: { page: 1, perPage: 200 },
    sort: { field: 'id', order: 'ASC' },
  });
  // The users the resource's form offers as assignee (the schema's x-reference-filter).
  const { data: users = [] } = useGetList<ApiRecord<'users'>>('users', {
    filter: fieldByName(getModel(config.resource), 'assignedTo')?.referenceFilter,
    pagination: { page: 1, perPage: 200 },
    sort: { field: 'lastName', order: 'ASC' },
  });
  const userName = (user: ApiRecord<'users'>) => `${user.firstName} ${user.lastName}`;
  // Both by their names in the user's language, as every picker.
  const leadSources = sortByLabel(
    config.visibleSourcesOnly
      ? sources.filter((source) => leadSourceVisible(viewer, source.visibleRoles))
      : sources,
    (source) => leadSourceName(source, locale),
    locale,
  );
  const assignees = sortByLabel(users, userName, locale);

  return (
    <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
      <TextField
        select
        size="small"
        required={config.leadSourceRequired}
        label={translate('app.customers.import.importLeadSource')}
        value={defaults.leadSource}
        onChange={(event) =>
          onDefaults({
            ...defaults,
            leadSource: event.target.value === '' ? '' : Number(event.target.value),
          })
        }
        sx={{ minWidth: 240 }}
        helperText={translate(
          config.leadSourceRequired
            ? 'app.customers.importLeads.leadSourceHint'
            : 'app.customers.import.allRows',
        )}
        slotProps={{ htmlInput: { 'data-testid': 'import-lead-source' } }}
      >
        <MenuItem value="">
          <em>{translate('app.customers.import.fromFile')}</em>
        </MenuItem>
        {leadSources.map((source) => (
          <MenuItem key={source.id} value={Number(source.id)}>
            {leadSourceName(source, locale)}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        size="small"
        label={translate('app.customers.import.importRecommendedBy')}
        value={defaults.recommendedBy}
        onChange={(event) => onDefaults({ ...defaults, recommendedBy: event.target.value })}
        slotProps={{ htmlInput: { maxLength: 200, 'data-testid': 'import-recommended-by' } }}
        helperText={translate('app.customers.import.allRows')}
      />
      <TextField
        select
        size="small"
        label={translate(config.texts.assignedTo)}
        value={defaults.assignedTo}
        onChange={(event) =>
          onDefaults({
            ...defaults,
            assignedTo: event.target.value === '' ? '' : Number(event.target.value),
          })
        }
        sx={{ minWidth: 240 }}
        helperText={translate(config.texts.assignedToHint)}
      >
        <MenuItem value="">
          <em>{translate('app.customers.assignment.unassigned')}</em>
        </MenuItem>
        {assignees.map((user) => (
          <MenuItem key={user.id} value={Number(user.id)}>
            {userName(user)}
          </MenuItem>
        ))}
      </TextField>
    </Stack>
  );
}
