/**
 * The row errors of the CSV import's check and summary: row, line, column, field and problem — the
 * problem by its translation key (the server's English sentence only where a key is missing).
 */
import { Box, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { snakeToCamel } from '../../schema/case.ts';
import { fieldLabelKey } from '../../schema/labels.ts';
import type { ImportResource } from './config.ts';
import type { RowError } from './importCalls.ts';

const MAX_SHOWN_ERRORS = 200;

/** The row errors of a check or import (at most the first 200), fields by their label. */
export function ImportRowErrors({
  resource,
  errors,
}: {
  resource: ImportResource;
  errors: RowError[];
}) {
  const translate = useTranslate();
  if (errors.length === 0) return null;
  return (
    <Box sx={{ maxHeight: 360, overflow: 'auto', mt: 1 }}>
      <Table size="small" stickyHeader data-testid="import-row-errors">
        <TableHead>
          <TableRow>
            <TableCell>{translate('app.customers.import.row')}</TableCell>
            <TableCell>{translate('app.customers.import.line')}</TableCell>
            <TableCell>{translate('app.customers.import.column')}</TableCell>
            <TableCell>{translate('app.customers.import.field')}</TableCell>
            <TableCell>{translate('app.customers.import.problem')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {errors.slice(0, MAX_SHOWN_ERRORS).map((error, index) => (
            <TableRow key={`${error.row}-${error.field}-${index}`}>
              <TableCell>{error.row}</TableCell>
              <TableCell>{error.line}</TableCell>
              <TableCell>{error.column ?? ''}</TableCell>
              <TableCell>
                {error.field ? translate(fieldLabelKey(resource, snakeToCamel(error.field))) : ''}
              </TableCell>
              <TableCell>
                {error.key
                  ? translate(error.key, { ...error.args, _: error.message })
                  : error.message}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {errors.length > MAX_SHOWN_ERRORS ? (
        <Typography variant="caption">
          {translate('app.customers.import.moreErrors', {
            count: errors.length - MAX_SHOWN_ERRORS,
          })}
        </Typography>
      ) : null}
    </Box>
  );
}
