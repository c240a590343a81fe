/**
 * What the CSV import's merges did: per row, the existing customer it was merged into, the fields
 * it filled, and the fields the customer already had with another value (kept, the file's value
 * shown so the user can correct it by hand).
 */
import { Box, Link, Table, TableBody, TableCell, TableHead, TableRow } from '@mui/material';
import { useTranslate } from 'react-admin';
import { snakeToCamel } from '../../schema/case.ts';
import { fieldLabelKey } from '../../schema/labels.ts';
import { useArea } from '../../shell/area.ts';
import { resourceHref } from '../../shell/paths.ts';
import type { MergeReport } from './importCalls.ts';

const MAX_SHOWN = 200;

const shown = (value: unknown): string =>
  value === null || value === undefined
    ? ''
    : typeof value === 'string'
      ? value
      : Array.isArray(value)
        ? value.join(', ')
        : JSON.stringify(value);

export function ImportMergeReport({ merges }: { merges: MergeReport[] }) {
  const translate = useTranslate();
  const area = useArea();
  if (merges.length === 0) return null;
  const label = (column: string) => translate(fieldLabelKey('customers', snakeToCamel(column)));
  return (
    <Box sx={{ maxHeight: 300, overflow: 'auto', mt: 1 }}>
      <Table size="small" stickyHeader data-testid="import-merges">
        <TableHead>
          <TableRow>
            <TableCell>{translate('app.customers.import.row')}</TableCell>
            <TableCell>{translate('app.customers.import.merges.customer')}</TableCell>
            <TableCell>{translate('app.customers.import.merges.filled')}</TableCell>
            <TableCell>{translate('app.customers.import.merges.kept')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {merges.slice(0, MAX_SHOWN).map((merge) => (
            <TableRow key={merge.row}>
              <TableCell>{merge.row}</TableCell>
              <TableCell>
                <Link href={resourceHref(area, 'customers', 'show', merge.customerId)}>
                  #{merge.customerId}
                </Link>
              </TableCell>
              <TableCell>{merge.filled.map(label).join(', ')}</TableCell>
              <TableCell sx={{ overflowWrap: 'anywhere' }}>
                {merge.conflicts
                  .map((conflict) =>
                    translate('app.customers.import.merges.conflict', {
                      field: label(conflict.field),
                      kept: shown(conflict.kept),
                      file: shown(conflict.file),
                    }),
                  )
                  .join('; ')}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}
