/**
 * The CSV import's result of the check and its start: the counts, every row error, the choice
 * between all-or-nothing and skipping invalid rows, and the import button (counting the rows it
 * writes: likely duplicates only when chosen to be imported or merged).
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
import type { ImportConfig } from './config.ts';
import type { DuplicateChoices } from './ImportDuplicates.tsx';
import type { ImportMode, Preview } from './importCalls.ts';
import { ImportRowErrors } from './ImportRowErrors.tsx';

/** Rows the run writes (new or merged): valid rows, less flagged ones not chosen to go in. */
export function rowsToWrite(preview: Preview, choices: DuplicateChoices): number {
  const chosenIn = preview.duplicates.filter((row) => {
    const action = choices[row.row]?.action;
    return action === 'import' || action === 'merge';
  }).length;
  return preview.validRows - preview.duplicateRows + chosenIn;
}

export function ImportRunCard({
  config,
  preview,
  choices,
  mode,
  onMode,
  disabled,
  onRun,
}: {
  config: ImportConfig;
  preview: Preview;
  choices: DuplicateChoices;
  mode: ImportMode;
  onMode: (mode: ImportMode) => void;
  disabled: boolean;
  onRun: () => void;
}) {
  const translate = useTranslate();
  const count = rowsToWrite(preview, choices);
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
        {preview.duplicateRows > 0 ? (
          <Typography variant="body2" data-testid="import-duplicate-count">
            {translate('app.customers.import.duplicates.count', { count: preview.duplicateRows })}
          </Typography>
        ) : null}
        <ImportRowErrors resource={config.resource} errors={preview.rowErrors} />
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
              disabled || (mode === 'all_or_nothing' && preview.invalidRows > 0) || count === 0
            }
            onClick={onRun}
            data-testid="import-run"
          >
            {translate(config.texts.run, { count })}
          </Button>
        </Box>
      </CardContent>
    </Card>
  );
}
