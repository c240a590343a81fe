/**
 * The leads as a list (the `leadsView` preference "list"): the same leads and filters as the
 * board (the filter bar above it is the page's), sortable columns — name, phone, city, source,
 * assignee, status, close reason, attempts, created — and a row opens the lead.
 */
import { Stack, Typography } from '@mui/material';
import { useEffect, useRef } from 'react';
import {
  Datagrid,
  FunctionField,
  List,
  TextField,
  useListContext,
  useLocale,
  useTranslate,
} from 'react-admin';
import { formatDate } from '../../i18n/format.ts';
import { fieldFor, prefetchMeta } from '../../resources/fields.tsx';
import { PhoneField } from '../../resources/PhoneField.tsx';
import { fieldLabelKey } from '../../schema/labels.ts';
import { resourceHref } from '../../shell/paths.ts';
import { useArea } from '../../shell/area.ts';
import { type Lead, leadAge, leadName } from './board.ts';
import { CloseStatusChip, LeadStatusChip } from './components.tsx';
import { fieldOf, leadModel } from './model.ts';

const label = (name: string) => fieldLabelKey('leads', name);

/** Back to the first page when the filters change (they come from the page, not the list). */
function FirstPageOnFilterChange({ filterKey }: { filterKey: string }) {
  const { setPage, page } = useListContext();
  const seen = useRef(filterKey);
  useEffect(() => {
    if (seen.current === filterKey) return;
    seen.current = filterKey;
    if (page !== 1) setPage(1);
  }, [filterKey, page, setPage]);
  return null;
}

function NameField(_props: { label: string; sortBy: string }) {
  return (
    <FunctionField<Lead>
      render={(record) => (
        <Typography variant="body2" component="span" sx={{ fontWeight: 500 }}>
          {leadName(record) || `#${record.id}`}
        </Typography>
      )}
    />
  );
}

function CreatedField(_props: { label: string; sortBy: string }) {
  const translate = useTranslate();
  const locale = useLocale();
  return (
    <FunctionField<Lead>
      render={(record) => {
        const age = leadAge(record.createdAt, new Date());
        return (
          <Stack component="span" sx={{ whiteSpace: 'nowrap' }}>
            <Typography variant="body2" component="span">
              {formatDate(record.createdAt, locale)}
            </Typography>
            {age ? (
              <Typography variant="caption" color="text.secondary" component="span">
                {translate(`app.leads.age.${age.unit}`, { count: age.count })}
              </Typography>
            ) : null}
          </Stack>
        );
      }}
    />
  );
}

export function LeadListView({ filter }: { filter: Record<string, unknown> }) {
  const area = useArea();
  const model = leadModel();
  const references = [fieldOf('leadSource'), fieldOf('assignedTo')];
  return (
    <List
      resource="leads"
      storeKey={`leads.list.${area}`}
      filter={filter}
      sort={{ field: 'createdAt', order: 'DESC' }}
      perPage={25}
      queryOptions={{ meta: prefetchMeta(references) }}
      actions={false}
      empty={false}
      title="app.menu.leads"
      sx={{ '& .RaList-main': { mt: 0 } }}
    >
      <FirstPageOnFilterChange filterKey={JSON.stringify(filter)} />
      <Datagrid
        rowClick={(id) => resourceHref(area, 'leads', 'show', id) ?? false}
        bulkActionButtons={false}
        data-testid="leads-list"
        sx={{
          '& td': { py: 0.75 },
          // A person's name is read in one piece; long source names may wrap instead.
          '& td.column-assignedTo, & td.column-phoneNumber': { whiteSpace: 'nowrap' },
        }}
      >
        <NameField label="app.leads.name" sortBy="lastName" />
        <PhoneField source="phoneNumber" label={label('phoneNumber')} sortable={false} />
        <TextField source="city" label={label('city')} />
        {fieldFor(model, fieldOf('leadSource'), { inList: true })}
        {fieldFor(model, fieldOf('assignedTo'), { inList: true })}
        <FunctionField<Lead>
          source="status"
          label={label('status')}
          render={(record) => <LeadStatusChip status={record.status} />}
        />
        <FunctionField<Lead>
          source="closeStatus"
          label={label('closeStatus')}
          render={(record) => <CloseStatusChip closeStatus={record.closeStatus} />}
        />
        <FunctionField<Lead>
          source="attemptCount"
          label={label('attemptCount')}
          textAlign="right"
          render={(record) => record.attemptCount ?? 0}
        />
        <CreatedField label={label('createdAt')} sortBy="createdAt" />
      </Datagrid>
    </List>
  );
}
