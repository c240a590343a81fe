/**
 * The CSV import's mapping card: which customer field each column fills (or none), the lead source,
 * recommender and consultant set on every row, and the button that checks again with these choices.
 */
import {
  Button,
  Card,
  CardContent,
  MenuItem,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { useMemo } from 'react';
import { useGetList, useLocaleState, useTranslate } from 'react-admin';
import { fieldLabelKey } from '../../schema/labels.ts';
import { fieldByName } from '../../schema/model.ts';
import { sortByLabel } from '../../resources/labels.ts';
import type { ApiRecord } from '../../resources/records.ts';
import type { Preview } from './importCalls.ts';
import { customerModel, leadSourceName } from './model.ts';

/** Values set on every imported row ('' = none: taken from the file, or unassigned). */
export interface RowDefaults {
  leadSource: number | '';
  recommendedBy: string;
  assignedTo: number | '';
}

export function ImportMappingCard({
  preview,
  mapping,
  onMapping,
  defaults,
  onDefaults,
  disabled,
  onCheckAgain,
}: {
  preview: Preview;
  mapping: Record<string, string | null>;
  onMapping: (mapping: Record<string, string | null>) => void;
  defaults: RowDefaults;
  onDefaults: (defaults: RowDefaults) => void;
  disabled: boolean;
  onCheckAgain: () => void;
}) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const model = customerModel();
  const fields = useMemo(() => model.fields.filter((field) => !field.readOnly), [model]);
  const { data: sources = [] } = useGetList<ApiRecord<'lead-sources'>>('lead-sources', {
    pagination: { page: 1, perPage: 200 },
    sort: { field: 'id', order: 'ASC' },
  });
  // The users the customer form offers as consultant (the schema's x-reference-filter).
  const { data: users = [] } = useGetList<ApiRecord<'users'>>('users', {
    filter: fieldByName(model, 'assignedTo')?.referenceFilter,
    pagination: { page: 1, perPage: 200 },
    sort: { field: 'lastName', order: 'ASC' },
  });
  const consultantName = (user: ApiRecord<'users'>) => `${user.firstName} ${user.lastName}`;
  // Both by their names in the user's language, as every picker.
  const leadSources = sortByLabel(sources, (source) => leadSourceName(source, locale), locale);
  const consultants = sortByLabel(users, consultantName, locale);

  return (
    <Card>
      <CardContent>
        <Typography variant="subtitle1" gutterBottom>
          {translate('app.customers.import.mapping')}
        </Typography>
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>{translate('app.customers.import.column')}</TableCell>
              <TableCell>{translate('app.customers.import.field')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {preview.columns.map((column) => (
              <TableRow key={column}>
                <TableCell>{column}</TableCell>
                <TableCell>
                  <TextField
                    select
                    size="small"
                    value={mapping[column] ?? ''}
                    onChange={(event) =>
                      onMapping({ ...mapping, [column]: event.target.value || null })
                    }
                    sx={{ minWidth: 260 }}
                    slotProps={{ htmlInput: { 'data-testid': `mapping-${column}` } }}
                  >
                    <MenuItem value="">
                      <em>{translate('app.customers.import.ignore')}</em>
                    </MenuItem>
                    {fields.map((field) => (
                      <MenuItem key={field.name} value={field.name}>
                        {translate(fieldLabelKey('customers', field.name))}
                      </MenuItem>
                    ))}
                  </TextField>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>

        <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ mt: 2 }}>
          <TextField
            select
            size="small"
            label={translate('app.customers.import.importLeadSource')}
            value={defaults.leadSource}
            onChange={(event) =>
              onDefaults({
                ...defaults,
                leadSource: event.target.value === '' ? '' : Number(event.target.value),
              })
            }
            sx={{ minWidth: 240 }}
            helperText={translate('app.customers.import.allRows')}
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
            inputProps={{ maxLength: 200 }}
            helperText={translate('app.customers.import.allRows')}
          />
          <TextField
            select
            size="small"
            label={translate('app.customers.import.assignedTo')}
            value={defaults.assignedTo}
            onChange={(event) =>
              onDefaults({
                ...defaults,
                assignedTo: event.target.value === '' ? '' : Number(event.target.value),
              })
            }
            sx={{ minWidth: 240 }}
            helperText={translate('app.customers.import.assignedToHint')}
          >
            <MenuItem value="">
              <em>{translate('app.customers.assignment.unassigned')}</em>
            </MenuItem>
            {consultants.map((user) => (
              <MenuItem key={user.id} value={Number(user.id)}>
                {consultantName(user)}
              </MenuItem>
            ))}
          </TextField>
        </Stack>
        <Button
          sx={{ mt: 2 }}
          variant="outlined"
          disabled={disabled}
          onClick={onCheckAgain}
          data-testid="import-recheck"
        >
          {translate('app.customers.import.checkAgain')}
        </Button>
      </CardContent>
    </Card>
  );
}
