/**
 * The CSV import's result of the check and its start: the counts, every row error, the choice
 * between all-or-nothing and skipping invalid rows, and the import button.
 */
import {
  Box,
  Button,
  Card,
  CardContent,
  FormControl,
  FormControlLabel,
  FormLabel,
  Radio,
  RadioGroup,
  Typography,
} from '@mui/material';
import { useTranslate } from 'react-admin';
import type { ImportMode, Preview } from './importCalls.ts';
import { ImportRowErrors } from './ImportRowErrors.tsx';

export function ImportRunCard({
  preview,
  mode,
  onMode,
  disabled,
  onRun,
}: {
  preview: Preview;
  mode: ImportMode;
  onMode: (mode: ImportMode) => void;
  disabled: boolean;
  onRun: () => void;
}) {
  const translate = useTranslate();
  return (
    <Card>
      <CardContent>
        <Typography variant="subtitle1" data-testid="import-counts">
          {translate('app.customers.import.counts', {
            total: preview.totalRows,
            valid: preview.validRows,
            invalid: preview.invalidRows,
          })}
        </Typography>
        <ImportRowErrors errors={preview.rowErrors} />
        <FormControl sx={{ mt: 2 }}>
          <FormLabel>{translate('app.customers.import.mode')}</FormLabel>
          <RadioGroup value={mode} onChange={(event) => onMode(event.target.value as ImportMode)}>
            <FormControlLabel
              value="all_or_nothing"
              control={<Radio />}
              label={translate('app.customers.import.allOrNothing')}
            />
            <FormControlLabel
              value="skip_invalid"
              control={<Radio />}
              label={translate('app.customers.import.skipInvalid')}
              data-testid="import-skip-invalid"
            />
          </RadioGroup>
        </FormControl>
        <Box>
          <Button
            variant="contained"
            disabled={
              disabled ||
              (mode === 'all_or_nothing' && preview.invalidRows > 0) ||
              preview.validRows === 0
            }
            onClick={onRun}
            data-testid="import-run"
          >
            {translate('app.customers.import.run', {
              count: mode === 'skip_invalid' ? preview.validRows : preview.totalRows,
            })}
          </Button>
        </Box>
      </CardContent>
    </Card>
  );
}
