/**
 * CSV import of customers (back office): choose the file, map its columns to customer fields
 * (suggested by the server from the column names), check — the preview shows every row error with
 * row, line, column and field before anything is written — set the lead source and recommender for
 * all rows, choose all-or-nothing or skip-invalid, import with progress, read the summary.
 */
import UploadFileIcon from '@mui/icons-material/UploadFile';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  FormControl,
  FormControlLabel,
  FormLabel,
  LinearProgress,
  MenuItem,
  Radio,
  RadioGroup,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { useMemo, useState } from 'react';
import { Title, useGetList, useLocaleState, useTranslate } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { toCamelDeep } from '../../schema/case.ts';
import { fieldLabelKey } from '../../schema/labels.ts';
import { resourceRoute } from '../../shell/paths.ts';
import { useArea } from '../../shell/area.ts';
import { ApiCallError, type RowError, sendForm } from './api.ts';
import { customerModel } from './model.ts';

interface Preview {
  columns: string[];
  delimiter: string;
  encoding: string;
  mapping: Record<string, string | null>;
  totalRows: number;
  validRows: number;
  invalidRows: number;
  rowErrors: RowError[];
  preview: Array<{ row: number; line: number; values: Record<string, unknown>; valid: boolean }>;
}
interface Summary {
  totalRows: number;
  imported: number;
  skipped: number;
  rowErrors: RowError[];
}
type Mode = 'all_or_nothing' | 'skip_invalid';

const MAX_SHOWN_ERRORS = 200;

function RowErrors({ errors }: { errors: RowError[] }) {
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
                {error.field
                  ? translate(fieldLabelKey('customers', snakeToCamel(error.field)))
                  : ''}
              </TableCell>
              <TableCell>{error.message}</TableCell>
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

const snakeToCamel = (text: string) =>
  text.replace(/_([a-z0-9])/g, (_m, char: string) => char.toUpperCase());

export default function CustomerImport() {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const area = useArea();
  const navigate = useNavigate();
  const model = customerModel();
  const fields = useMemo(() => model.fields.filter((field) => !field.readOnly), [model]);
  const [file, setFile] = useState<File | null>(null);
  const [encoding, setEncoding] = useState<'utf-8' | 'windows-1252'>('utf-8');
  const [preview, setPreview] = useState<Preview | null>(null);
  const [mapping, setMapping] = useState<Record<string, string | null>>({});
  const [leadSource, setLeadSource] = useState<number | ''>('');
  const [recommendedBy, setRecommendedBy] = useState('');
  const [assignedTo, setAssignedTo] = useState<number | ''>('');
  const [mode, setMode] = useState<Mode>('all_or_nothing');
  const [busy, setBusy] = useState<null | 'checking' | 'importing'>(null);
  const [progress, setProgress] = useState<{ label: string; value?: number } | null>(null);
  const [error, setError] = useState<{
    message: string;
    details: string[];
    rowErrors: RowError[];
  } | null>(null);
  const [summary, setSummary] = useState<Summary | null>(null);
  const { data: leadSources = [] } = useGetList('lead-sources', {
    pagination: { page: 1, perPage: 200 },
    sort: { field: 'id', order: 'ASC' },
  });
  const { data: consultants = [] } = useGetList('users', {
    filter: { role: 'CONSULTANT', isActive: true },
    pagination: { page: 1, perPage: 200 },
    sort: { field: 'lastName', order: 'ASC' },
  });

  const options = (withMapping: boolean) => ({
    encoding,
    ...(withMapping ? { mapping } : {}),
    mode,
    import_lead_source: leadSource === '' ? null : leadSource,
    import_recommended_by: recommendedBy.trim() || null,
    assigned_to: assignedTo === '' ? null : assignedTo,
  });
  const formOf = (withMapping: boolean) => {
    const form = new FormData();
    form.append('options', JSON.stringify(options(withMapping)));
    if (file) form.append('file', file);
    return form;
  };
  const failed = (status: number, text: string) => {
    let body: { message?: string; errors?: Record<string, string[]>; row_errors?: RowError[] } = {};
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: the status says enough
    }
    setError({
      message: body.message ?? `HTTP ${status}`,
      details: Object.entries(body.errors ?? {}).map(
        ([key, messages]) => `${key}: ${messages.join(', ')}`,
      ),
      rowErrors: body.row_errors ?? [],
    });
  };

  const check = async (withMapping: boolean) => {
    if (!file) return;
    setBusy('checking');
    setError(null);
    setSummary(null);
    setProgress({ label: translate('app.customers.import.uploading'), value: 0 });
    try {
      const { status, text } = await sendForm('customers/import/preview', formOf(withMapping), {
        onUpload: (fraction) =>
          setProgress({
            label: translate('app.customers.import.uploading'),
            value: fraction * 100,
          }),
      });
      if (status !== 200) {
        failed(status, text);
        if (!withMapping) setPreview(null);
        return;
      }
      const answer = toCamelDeep(JSON.parse(text)) as Preview;
      // Column names are data: keep them as sent (toCamelDeep changed the mapping's keys).
      const raw = JSON.parse(text) as { mapping: Record<string, string | null> };
      answer.mapping = raw.mapping;
      setPreview(answer);
      setMapping(raw.mapping);
    } catch (failure) {
      setError({
        message: failure instanceof ApiCallError ? failure.failure.message : String(failure),
        details: [],
        rowErrors: [],
      });
    } finally {
      setBusy(null);
      setProgress(null);
    }
  };

  const runImport = async () => {
    if (!file) return;
    setBusy('importing');
    setError(null);
    setSummary(null);
    setProgress({ label: translate('app.customers.import.uploading'), value: 0 });
    let seen = 0;
    let last: Record<string, unknown> | undefined;
    const onText = (text: string) => {
      const lines = text.split('\n');
      for (; seen < lines.length - 1; seen++) {
        const line = JSON.parse(lines[seen]) as Record<string, unknown>;
        last = line;
        if (line.type === 'progress') {
          const done = Number(line.done);
          const total = Number(line.total) || 1;
          setProgress({
            label: translate(`app.customers.import.phase.${String(line.phase)}`, { done, total }),
            value: (done / total) * 100,
          });
        }
      }
    };
    try {
      const { status, text } = await sendForm('customers/import', formOf(true), {
        accept: 'application/x-ndjson',
        onUpload: (fraction) =>
          setProgress({
            label: translate('app.customers.import.uploading'),
            value: fraction * 100,
          }),
        onText,
      });
      if (status !== 200) {
        failed(status, text);
        return;
      }
      onText(text.endsWith('\n') ? text : `${text}\n`);
      if (last?.type === 'summary') setSummary(toCamelDeep(last) as Summary);
      else if (last?.type === 'error') {
        setError({
          message: String(last.message),
          details: Object.entries((last.errors as Record<string, string[]>) ?? {}).map(
            ([key, messages]) => `${key}: ${messages.join(', ')}`,
          ),
          rowErrors: (last.row_errors as RowError[]) ?? [],
        });
      }
    } catch (failure) {
      setError({
        message: failure instanceof ApiCallError ? failure.failure.message : String(failure),
        details: [],
        rowErrors: [],
      });
    } finally {
      setBusy(null);
      setProgress(null);
    }
  };

  const localizedName = (record: Record<string, unknown>) =>
    String(
      record[`name${locale.charAt(0).toUpperCase()}${locale.slice(1)}`] ||
        record.nameDe ||
        `#${record.id}`,
    );

  return (
    <Box sx={{ mt: 2 }}>
      <Title title={translate('app.customers.import.title')} />
      <Stack spacing={2}>
        <Card>
          <CardContent>
            <Typography variant="h6" component="h1" gutterBottom>
              {translate('app.customers.import.title')}
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
              {translate('app.customers.import.intro')}
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
                onChange={(event) => setEncoding(event.target.value as 'utf-8' | 'windows-1252')}
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
            <Typography variant="body2">{error.message}</Typography>
            {error.details.map((detail) => (
              <Typography key={detail} variant="body2">
                {detail}
              </Typography>
            ))}
            <RowErrors errors={error.rowErrors} />
          </Alert>
        ) : null}

        {preview ? (
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
                            setMapping({ ...mapping, [column]: event.target.value || null })
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
                  value={leadSource}
                  onChange={(event) =>
                    setLeadSource(event.target.value === '' ? '' : Number(event.target.value))
                  }
                  sx={{ minWidth: 240 }}
                  helperText={translate('app.customers.import.allRows')}
                >
                  <MenuItem value="">
                    <em>{translate('app.customers.import.fromFile')}</em>
                  </MenuItem>
                  {leadSources.map((source) => (
                    <MenuItem key={source.id} value={Number(source.id)}>
                      {localizedName(source)}
                    </MenuItem>
                  ))}
                </TextField>
                <TextField
                  size="small"
                  label={translate('app.customers.import.importRecommendedBy')}
                  value={recommendedBy}
                  onChange={(event) => setRecommendedBy(event.target.value)}
                  inputProps={{ maxLength: 200 }}
                  helperText={translate('app.customers.import.allRows')}
                />
                <TextField
                  select
                  size="small"
                  label={translate('app.customers.import.assignedTo')}
                  value={assignedTo}
                  onChange={(event) =>
                    setAssignedTo(event.target.value === '' ? '' : Number(event.target.value))
                  }
                  sx={{ minWidth: 240 }}
                  helperText={translate('app.customers.import.assignedToHint')}
                >
                  <MenuItem value="">
                    <em>{translate('app.customers.assignment.unassigned')}</em>
                  </MenuItem>
                  {consultants.map((user) => (
                    <MenuItem key={user.id} value={Number(user.id)}>
                      {`${user.firstName} ${user.lastName}`}
                    </MenuItem>
                  ))}
                </TextField>
              </Stack>
              <Button
                sx={{ mt: 2 }}
                variant="outlined"
                disabled={busy !== null}
                onClick={() => check(true)}
                data-testid="import-recheck"
              >
                {translate('app.customers.import.checkAgain')}
              </Button>
            </CardContent>
          </Card>
        ) : null}

        {preview ? (
          <Card>
            <CardContent>
              <Typography variant="subtitle1" data-testid="import-counts">
                {translate('app.customers.import.counts', {
                  total: preview.totalRows,
                  valid: preview.validRows,
                  invalid: preview.invalidRows,
                })}
              </Typography>
              <RowErrors errors={preview.rowErrors} />
              <FormControl sx={{ mt: 2 }}>
                <FormLabel>{translate('app.customers.import.mode')}</FormLabel>
                <RadioGroup value={mode} onChange={(event) => setMode(event.target.value as Mode)}>
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
                    busy !== null ||
                    (mode === 'all_or_nothing' && preview.invalidRows > 0) ||
                    preview.validRows === 0
                  }
                  onClick={runImport}
                  data-testid="import-run"
                >
                  {translate('app.customers.import.run', {
                    count: mode === 'skip_invalid' ? preview.validRows : preview.totalRows,
                  })}
                </Button>
              </Box>
            </CardContent>
          </Card>
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
            <RowErrors errors={summary.rowErrors} />
            <Button
              sx={{ mt: 1 }}
              onClick={() =>
                navigate(`/${area}/${resourceRoute(area, 'customers', 'list') ?? 'customers'}`)
              }
            >
              {translate('app.customers.import.toList')}
            </Button>
          </Alert>
        ) : null}
      </Stack>
    </Box>
  );
}
