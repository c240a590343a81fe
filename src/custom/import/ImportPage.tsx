/**
 * CSV import of customers or leads (back office; what differs: ./config.ts): choose the file, map
 * its columns to fields (suggested by the server from the column names), check — the preview shows
 * every row error with row, line, column and field, people on the blacklist among them, before
 * anything is written — set the lead source and recommender for all rows (for leads with the file:
 * a lead needs its source), decide for each likely duplicate (skip, import anyway, for customers
 * merge into the existing one), choose all-or-nothing or skip-invalid, import with progress, read
 * the summary. The calls are in ./importCalls.ts, the cards in ./ImportMappingCard.tsx,
 * ./ImportDefaults.tsx, ./ImportDuplicates.tsx and ./ImportRunCard.tsx. The pages:
 * src/custom/customers/CustomerImport.tsx, ./LeadImport.tsx.
 */
import UploadFileIcon from '@mui/icons-material/UploadFile';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  LinearProgress,
  MenuItem,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { Title, useTranslate } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { statusOf } from '../../dataProvider/apiClient.ts';
import { useArea } from '../../shell/area.ts';
import { resourceRoute } from '../../shell/paths.ts';
import type { ImportConfig } from './config.ts';
import { ImportDefaults, type RowDefaults } from './ImportDefaults.tsx';
import {
  type Encoding,
  type ImportFailure,
  type ImportMode,
  type ImportOptions,
  importFailure,
  type Preview,
  previewImport,
  runImport,
  type Summary,
} from './importCalls.ts';
import { type DuplicateChoices, ImportDuplicates } from './ImportDuplicates.tsx';
import { ImportMappingCard } from './ImportMappingCard.tsx';
import { ImportMergeReport } from './ImportMergeReport.tsx';
import { ImportRowErrors } from './ImportRowErrors.tsx';
import { ImportRunCard } from './ImportRunCard.tsx';

export function ImportPage({ config }: { config: ImportConfig }) {
  const translate = useTranslate();
  const area = useArea();
  const navigate = useNavigate();
  const [file, setFile] = useState<File | null>(null);
  const [encoding, setEncoding] = useState<Encoding>('utf-8');
  const [preview, setPreview] = useState<Preview | null>(null);
  const [mapping, setMapping] = useState<Record<string, string | null>>({});
  const [defaults, setDefaults] = useState<RowDefaults>({
    leadSource: '',
    recommendedBy: '',
    assignedTo: '',
  });
  const [mode, setMode] = useState<ImportMode>('all_or_nothing');
  const [choices, setChoices] = useState<DuplicateChoices>({});
  const [busy, setBusy] = useState<null | 'checking' | 'importing'>(null);
  const [progress, setProgress] = useState<{ label: string; value?: number } | null>(null);
  const [error, setError] = useState<ImportFailure | null>(null);
  const [summary, setSummary] = useState<Summary | null>(null);

  const options = (withMapping: boolean): ImportOptions => ({
    encoding,
    ...(withMapping ? { mapping } : {}),
    mode,
    import_lead_source: defaults.leadSource === '' ? null : defaults.leadSource,
    import_recommended_by: defaults.recommendedBy.trim() || null,
    assigned_to: defaults.assignedTo === '' ? null : defaults.assignedTo,
    duplicates: { rows: Object.fromEntries(Object.entries(choices)) },
  });
  const uploading = (fraction: number) =>
    setProgress({ label: translate('app.customers.import.uploading'), value: fraction * 100 });
  const start = (phase: 'checking' | 'importing') => {
    setBusy(phase);
    setError(null);
    setSummary(null);
    uploading(0);
  };
  const finish = () => {
    setBusy(null);
    setProgress(null);
  };

  const check = async (withMapping: boolean) => {
    if (!file) return;
    start('checking');
    try {
      const answer = await previewImport(config.resource, file, options(withMapping), uploading);
      setPreview(answer);
      setMapping(answer.mapping);
      // Choices stay for rows still flagged (a new check may flag other rows).
      setChoices((known) =>
        Object.fromEntries(
          answer.duplicates.flatMap((row) => (known[row.row] ? [[row.row, known[row.row]]] : [])),
        ),
      );
    } catch (failure) {
      setError(importFailure(failure, translate));
      // A refused first check leaves no preview; a lost connection keeps what was there.
      if (!withMapping && statusOf(failure) !== 0) setPreview(null);
    } finally {
      finish();
    }
  };

  const importFile = async () => {
    if (!file) return;
    start('importing');
    try {
      const result = await runImport(
        config.resource,
        file,
        options(true),
        uploading,
        ({ phase, done, total }) =>
          setProgress({
            label: translate(
              phase === 'importing'
                ? config.texts.importing
                : `app.customers.import.phase.${phase}`,
              { done, total },
            ),
            value: (done / total) * 100,
          }),
      );
      if (result) setSummary(result);
    } catch (failure) {
      setError(importFailure(failure, translate));
    } finally {
      finish();
    }
  };

  return (
    <Box sx={{ mt: 2 }}>
      <Title title={translate(config.texts.title)} />
      <Stack spacing={2}>
        <Card>
          <CardContent>
            <Typography variant="h6" component="h1" gutterBottom>
              {translate(config.texts.title)}
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
              {translate(config.texts.intro)}
            </Typography>
            <Stack
              direction={{ xs: 'column', md: 'row' }}
              spacing={2}
              alignItems={{ md: 'center' }}
            >
              <Button variant="outlined" component="label" startIcon={<UploadFileIcon />}>
                {file ? file.name : translate('app.customers.import.choose')}
                <input
                  type="file"
                  hidden
                  accept=".csv,text/csv"
                  data-testid="import-file"
                  onChange={(event) => {
                    setFile(event.target.files?.[0] ?? null);
                    setPreview(null);
                    setChoices({});
                    setSummary(null);
                    setError(null);
                  }}
                />
              </Button>
              <TextField
                select
                size="small"
                label={translate('app.customers.import.encoding')}
                value={encoding}
                onChange={(event) => setEncoding(event.target.value as Encoding)}
                sx={{ minWidth: 200 }}
              >
                <MenuItem value="utf-8">
                  {translate('app.customers.import.encodings.utf8')}
                </MenuItem>
                <MenuItem value="windows-1252">
                  {translate('app.customers.import.encodings.windows1252')}
                </MenuItem>
              </TextField>
              <Button
                variant="contained"
                disabled={!file || busy !== null}
                onClick={() => check(false)}
                data-testid="import-check"
              >
                {translate('app.customers.import.check')}
              </Button>
            </Stack>
            {config.leadSourceRequired ? (
              <Box sx={{ mt: 2 }}>
                <ImportDefaults config={config} defaults={defaults} onDefaults={setDefaults} />
              </Box>
            ) : null}
          </CardContent>
        </Card>

        {progress ? (
          <Box data-testid="import-progress">
            <Typography variant="body2">{progress.label}</Typography>
            <LinearProgress
              variant={progress.value === undefined ? 'indeterminate' : 'determinate'}
              value={progress.value}
            />
          </Box>
        ) : null}

        {error ? (
          <Alert severity="error" data-testid="import-error">
            <Typography variant="body2">
              {translate(error.message, { _: error.message })}
            </Typography>
            {error.details.map((detail) => (
              <Typography key={detail} variant="body2">
                {detail}
              </Typography>
            ))}
            <ImportRowErrors resource={config.resource} errors={error.rowErrors} />
          </Alert>
        ) : null}

        {preview ? (
          <ImportMappingCard
            config={config}
            preview={preview}
            mapping={mapping}
            onMapping={setMapping}
            defaults={defaults}
            onDefaults={setDefaults}
            disabled={busy !== null}
            onCheckAgain={() => check(true)}
          />
        ) : null}

        {preview ? (
          <ImportDuplicates
            config={config}
            rows={preview.duplicates}
            total={preview.duplicateRows}
            choices={choices}
            onChoices={setChoices}
            disabled={busy !== null}
          />
        ) : null}

        {preview ? (
          <ImportRunCard
            config={config}
            preview={preview}
            choices={choices}
            mode={mode}
            onMode={setMode}
            disabled={busy !== null}
            onRun={importFile}
          />
        ) : null}

        {summary ? (
          <Alert
            severity={summary.skipped > 0 ? 'warning' : 'success'}
            data-testid="import-summary"
          >
            <Typography variant="body2">
              {translate('app.customers.import.summary', {
                imported: summary.imported,
                skipped: summary.skipped,
                total: summary.totalRows,
              })}
            </Typography>
            {summary.merged > 0 ? (
              <Typography variant="body2">
                {translate('app.customers.import.summaryMerged', { count: summary.merged })}
              </Typography>
            ) : null}
            {summary.skippedDuplicates + summary.unresolvedDuplicates > 0 ? (
              <Typography variant="body2">
                {translate('app.customers.import.summaryDuplicates', {
                  skipped: summary.skippedDuplicates,
                  unresolved: summary.unresolvedDuplicates,
                })}
              </Typography>
            ) : null}
            <ImportMergeReport merges={summary.merges} />
            <ImportRowErrors resource={config.resource} errors={summary.rowErrors} />
            <Button
              sx={{ mt: 1 }}
              onClick={() =>
                navigate(
                  `/${area}/${resourceRoute(area, config.resource, 'list') ?? config.resource}`,
                )
              }
            >
              {translate(config.texts.toList)}
            </Button>
          </Alert>
        ) : null}
      </Stack>
    </Box>
  );
}
