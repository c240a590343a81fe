/**
 * The CSV import's mapping card: which field each column fills (or none; the fields the server's
 * check offers), the values set on every row where they are not chosen with the file (./config.ts
 * `leadSourceRequired`), and the button that checks again with these choices.
 */
import {
  Box,
  Button,
  Card,
  CardContent,
  MenuItem,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { useTranslate } from 'react-admin';
import { fieldLabelKey } from '../../schema/labels.ts';
import type { ImportConfig } from './config.ts';
import { ImportDefaults, type RowDefaults } from './ImportDefaults.tsx';
import type { Preview } from './importCalls.ts';

export function ImportMappingCard({
  config,
  preview,
  mapping,
  onMapping,
  defaults,
  onDefaults,
  disabled,
  onCheckAgain,
}: {
  config: ImportConfig;
  preview: Preview;
  mapping: Record<string, string | null>;
  onMapping: (mapping: Record<string, string | null>) => void;
  defaults: RowDefaults;
  onDefaults: (defaults: RowDefaults) => void;
  disabled: boolean;
  onCheckAgain: () => void;
}) {
  const translate = useTranslate();
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
                    {preview.fields.map((field) => (
                      <MenuItem key={field} value={field}>
                        {translate(fieldLabelKey(config.resource, field))}
                      </MenuItem>
                    ))}
                  </TextField>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>

        {config.leadSourceRequired ? null : (
          <Box sx={{ mt: 2 }}>
            <ImportDefaults config={config} defaults={defaults} onDefaults={onDefaults} />
          </Box>
        )}
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
