/**
 * A customer's Global check (issue 19) at `customers/{id}/global-check` in both areas (not a spec
 * route; the customer's "globalCheck" tab links here): left the inputs, prefilled from the latest
 * saved check or, for a new one, from GET customers/{id}/global-check-defaults; right the five
 * result tabs. Every change asks POST global-checks/preview (after PREVIEW_DELAY) and shows its
 * results, or the server's field errors on their inputs. "Save check" creates a check (a dated
 * snapshot); saved checks can be opened, compared with an earlier one, exported as a PDF report
 * (stored on the customer's documents and downloaded) and their gaps turned into a reminder or a
 * lead. The address keeps what is shown: `?check=` the opened check (none: the latest; `?new=1` a
 * new one from the customer's data), `?compare=` the earlier check, `?scenario=` the result tab.
 */
import AddIcon from '@mui/icons-material/Add';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import PictureAsPdfIcon from '@mui/icons-material/PictureAsPdf';
import SaveIcon from '@mui/icons-material/Save';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  LinearProgress,
  MenuItem,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  Loading,
  Title,
  useDataProvider,
  useGetOne,
  useLocale,
  useNotify,
  useTranslate,
} from 'react-admin';
import { Link as RouterLink, useParams } from 'react-router-dom';
import { useParamsChange } from '../../components/useParamsChange.ts';
import { api, fieldErrorsOf, messageOf, statusOf } from '../../dataProvider/apiClient.ts';
import { isLanguage, type Language, LANGUAGES } from '../../i18n/index.ts';
import type { ApiRecord } from '../../resources/records.ts';
import { resourceHref } from '../../shell/paths.ts';
import { useArea } from '../../shell/area.ts';
import { customerName } from '../customers/model.ts';
import { CheckForm } from './CheckForm.tsx';
import { Comparison } from './Comparison.tsx';
import { FormContext, type FormState } from './inputs.tsx';
import {
  type CheckInputs,
  checkWhen,
  inputsOf,
  PREVIEW_DELAY,
  type Preview,
  RESOURCE,
  reportPdfName,
  reportPdfPath,
  type SavedCheck,
  type ScenarioKind,
  SCENARIOS,
  valuesOf,
  withValue,
} from './model.ts';
import { useSavedChecks } from './hooks.ts';
import { Results } from './Results.tsx';

const ui = (key: string) => `app.globalCheck.ui.${key}`;

/** The live results of inputs not saved: a preview after each pause in typing. */
function usePreview(customerId: number, values: CheckInputs | null, enabled: boolean) {
  const [preview, setPreview] = useState<Preview | null>(null);
  const [messages, setMessages] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!enabled || !values) return undefined;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      setBusy(true);
      api
        .json<{ data: Preview }>('POST', `${RESOURCE}/preview`, {
          body: { customerId, ...inputsOf(values) },
          signal: controller.signal,
        })
        .then(
          (answer) => {
            setPreview(answer.data);
            setMessages({});
            setError(null);
            setBusy(false);
          },
          (caught: unknown) => {
            if (controller.signal.aborted) return;
            setMessages(fieldErrorsOf(caught));
            setError(statusOf(caught) === 422 ? null : messageOf(caught));
            setBusy(false);
          },
        );
    }, PREVIEW_DELAY);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [customerId, values, enabled]);
  return { preview, messages, error, busy, setMessages };
}

function ReportButton({
  checkId,
  customer,
}: {
  checkId: number | null;
  customer: ApiRecord<'customers'> | undefined;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const locale = useLocale();
  const area = useArea();
  const preferred = (customer?.correspondenceLanguages ?? [])[0];
  const [language, setLanguage] = useState<Language>(
    isLanguage(preferred) ? preferred : isLanguage(locale) ? locale : 'de',
  );
  const [busy, setBusy] = useState(false);
  const [stored, setStored] = useState(false);
  const report = async () => {
    if (checkId === null) return;
    setBusy(true);
    setStored(false);
    try {
      await api.json('POST', `${RESOURCE}/${checkId}/report`, { body: { language } });
      setStored(true);
      notify(ui('report.stored'), { type: 'success' });
      await api.download(reportPdfPath(checkId, language), reportPdfName(checkId));
    } catch (caught) {
      notify(messageOf(caught), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  const documents = customer
    ? `${resourceHref(area, 'customers', 'show', customer.id) ?? ''}?tab=documents`
    : '';
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
      <TextField
        select
        size="small"
        label={translate(ui('report.language'))}
        value={language}
        onChange={(event) => setLanguage(event.target.value as Language)}
        fullWidth={false}
        sx={{ width: 160 }}
        slotProps={{ htmlInput: { 'data-testid': 'gc-report-language' } }}
      >
        {LANGUAGES.map((code) => (
          <MenuItem key={code} value={code}>
            {translate(`app.languageNames.${code}`)}
          </MenuItem>
        ))}
      </TextField>
      <Button
        variant="outlined"
        startIcon={<PictureAsPdfIcon />}
        disabled={busy || checkId === null}
        onClick={() => void report()}
        data-testid="gc-report"
        sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
        title={checkId === null ? translate(ui('followUp.saveFirst')) : undefined}
      >
        {translate(ui('report.button'))}
      </Button>
      {stored && documents ? (
        <Button
          size="small"
          component={RouterLink}
          to={documents}
          data-testid="gc-report-documents"
        >
          {translate(ui('report.documents'))}
        </Button>
      ) : null}
    </Stack>
  );
}

export function GlobalCheckWorkspace({ customerId }: { customerId: number }) {
  const translate = useTranslate();
  const locale = useLocale();
  const notify = useNotify();
  const dataProvider = useDataProvider();
  const [params, change] = useParamsChange();
  const checkParam = Number(params.get('check')) || null;
  const compareParam = Number(params.get('compare')) || null;
  const isNew = params.get('new') === '1';
  const scenarioParam = params.get('scenario') as ScenarioKind | null;
  const scenario: ScenarioKind =
    scenarioParam && SCENARIOS.includes(scenarioParam) ? scenarioParam : 'retirement';

  const { data: customer } = useGetOne<ApiRecord<'customers'>>('customers', { id: customerId });
  const checks = useSavedChecks(customerId);
  const saved = useMemo(() => checks.data ?? [], [checks.data]);
  const openedId = checkParam ?? (isNew ? null : (saved[0]?.id ?? null));
  const fromList = saved.find((check) => check.id === openedId);
  const one = useGetOne<SavedCheck>(
    RESOURCE,
    { id: openedId ?? 0 },
    { enabled: openedId !== null && !fromList && !checks.isPending, retry: false },
  );
  const opened = openedId === null ? undefined : (fromList ?? one.data);
  const compared = useGetOne<SavedCheck>(
    RESOURCE,
    { id: compareParam ?? 0 },
    { enabled: compareParam !== null },
  );
  const wantsDefaults = !checks.isPending && openedId === null;
  const defaults = useQuery({
    queryKey: ['global-check-defaults', customerId],
    enabled: wantsDefaults,
    queryFn: async () =>
      (
        await api.json<{ data: Partial<SavedCheck> }>(
          'GET',
          `customers/${customerId}/global-check-defaults`,
        )
      ).data,
  });

  // The inputs: those of the check opened, or the customer's data for a new one; edits make
  // them the user's own (dirty) until saved or another check is opened.
  const source = openedId !== null ? opened : wantsDefaults ? defaults.data : undefined;
  const sourceKey = openedId !== null ? `check-${openedId}` : 'new';
  const [values, setValues] = useState<CheckInputs | null>(null);
  const [dirty, setDirty] = useState(false);
  const loadedKey = useRef<string | null>(null);
  useEffect(() => {
    if (!source || loadedKey.current === sourceKey) return;
    loadedKey.current = sourceKey;
    setValues(valuesOf(source));
    setDirty(false);
  }, [source, sourceKey]);

  const showsSaved = opened !== undefined && !dirty && Boolean(opened.results);
  const live = usePreview(customerId, values, values !== null && !showsSaved);
  const [saveMessages, setSaveMessages] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const messages = useMemo(
    () => (showsSaved ? saveMessages : { ...live.messages, ...saveMessages }),
    [showsSaved, live.messages, saveMessages],
  );

  const set = useCallback((path: string, value: unknown) => {
    setValues((current) => withValue(current ?? {}, path, value));
    setDirty(true);
    setSaveMessages((current) => {
      if (!(path in current)) return current;
      const { [path]: _removed, ...rest } = current;
      return rest;
    });
  }, []);
  const form: FormState = useMemo(
    () => ({ values: values ?? {}, messages, set }),
    [values, messages, set],
  );

  const save = async () => {
    if (!values) return;
    setSaving(true);
    setSaveMessages({});
    try {
      const { data } = await dataProvider.create<SavedCheck>(RESOURCE, {
        data: { customerId, ...inputsOf(values) },
      });
      notify(ui('saved'), { type: 'success' });
      loadedKey.current = null;
      await checks.refetch();
      change({ check: String(data.id), new: null });
    } catch (caught) {
      const fields = fieldErrorsOf(caught);
      setSaveMessages(fields);
      notify(Object.keys(fields).length ? ui('fixInputs') : messageOf(caught), { type: 'error' });
    } finally {
      setSaving(false);
    }
  };

  const results = showsSaved ? (opened?.results ?? null) : (live.preview?.results ?? null);
  const checkId = showsSaved && opened ? opened.id : null;
  const comparable = saved.filter((check) => check.id !== checkId);
  const failed = checks.error ?? (one.isError ? one.error : null);
  const loading = checks.isPending || (values === null && !defaults.isError && !failed);

  if (loading) return <Loading />;
  if (failed && values === null)
    return (
      <Alert severity="error" data-testid="gc-load-error">
        {translate(messageOf(failed))}
      </Alert>
    );
  return (
    <FormContext.Provider value={form}>
      <Stack spacing={2} data-testid="global-check">
        <Card>
          <CardContent>
            <Stack
              direction="row"
              useFlexGap
              spacing={1.5}
              sx={{ alignItems: 'center', flexWrap: 'wrap' }}
            >
              <TextField
                select
                size="small"
                label={translate(ui('savedChecks'))}
                value={openedId === null ? '' : String(openedId)}
                onChange={(event) => {
                  loadedKey.current = null;
                  change({ check: event.target.value || null, new: null });
                }}
                fullWidth={false}
                sx={{ width: 270 }}
                slotProps={{ htmlInput: { 'data-testid': 'gc-saved' } }}
                disabled={saved.length === 0}
                helperText={saved.length === 0 ? translate(ui('noneSaved')) : undefined}
              >
                {saved.map((check) => (
                  <MenuItem key={check.id} value={String(check.id)}>
                    {translate(ui('checkOf'), { date: checkWhen(check, saved, locale) })}
                  </MenuItem>
                ))}
              </TextField>
              <Button
                startIcon={<AddIcon />}
                onClick={() => {
                  loadedKey.current = null;
                  change({ check: null, new: '1', compare: null });
                }}
                data-testid="gc-new"
              >
                {translate(ui('newCheck'))}
              </Button>
              <Button
                variant="contained"
                startIcon={<SaveIcon />}
                disabled={saving || values === null}
                onClick={() => void save()}
                data-testid="gc-save"
              >
                {translate(ui('save'))}
              </Button>
              <ReportButton checkId={checkId} customer={customer} />
              <TextField
                select
                size="small"
                label={translate(ui('compareWith'))}
                value={compareParam === null ? '' : String(compareParam)}
                onChange={(event) => change({ compare: event.target.value || null })}
                fullWidth={false}
                sx={{ width: 270 }}
                disabled={comparable.length === 0}
                slotProps={{ htmlInput: { 'data-testid': 'gc-compare' } }}
              >
                <MenuItem value="">{translate(ui('compareNone'))}</MenuItem>
                {comparable.map((check) => (
                  <MenuItem key={check.id} value={String(check.id)}>
                    {translate(ui('checkOf'), { date: checkWhen(check, saved, locale) })}
                  </MenuItem>
                ))}
              </TextField>
              {dirty ? (
                <Chip
                  size="small"
                  color="warning"
                  variant="outlined"
                  label={translate(ui('unsaved'))}
                  data-testid="gc-unsaved"
                />
              ) : opened ? (
                <Chip
                  size="small"
                  variant="outlined"
                  label={translate(ui('checkOf'), { date: checkWhen(opened, saved, locale) })}
                  data-testid="gc-opened"
                />
              ) : null}
            </Stack>
          </CardContent>
        </Card>
        {compareParam !== null && compared.data?.results && results ? (
          <Card>
            <CardContent>
              <Comparison
                now={results}
                before={compared.data.results}
                beforeWhen={checkWhen(compared.data, saved, locale)}
                nowWhen={checkId !== null && opened ? checkWhen(opened, saved, locale) : null}
                onClose={() => change({ compare: null })}
              />
            </CardContent>
          </Card>
        ) : null}
        <Box
          sx={{
            display: 'grid',
            gridTemplateColumns: { xs: '1fr', lg: 'minmax(360px, 5fr) 7fr' },
            gap: 2,
            alignItems: 'start',
          }}
        >
          <Card>
            <CardContent>
              <Typography variant="subtitle1" sx={{ mb: 1 }}>
                {translate(ui('inputs'))}
              </Typography>
              {values ? <CheckForm /> : null}
              {defaults.isError ? (
                <Alert severity="error">{translate(messageOf(defaults.error))}</Alert>
              ) : null}
            </CardContent>
          </Card>
          <Card sx={{ minWidth: 0 }}>
            <Box sx={{ height: 4 }}>{live.busy ? <LinearProgress /> : null}</Box>
            <CardContent>
              <Typography variant="subtitle1" sx={{ mb: 1 }}>
                {translate(ui('results'))}
              </Typography>
              {live.error && !showsSaved ? (
                <Alert severity="error" sx={{ mb: 1 }}>
                  {translate(live.error)}
                </Alert>
              ) : null}
              {Object.keys(live.messages).length > 0 && !showsSaved ? (
                <Alert severity="warning" sx={{ mb: 1 }} data-testid="gc-fix-inputs">
                  {translate(ui('fixInputs'))}
                </Alert>
              ) : null}
              {results ? (
                <Box sx={{ opacity: Object.keys(live.messages).length && !showsSaved ? 0.5 : 1 }}>
                  <Results
                    results={results}
                    checkId={checkId}
                    childrenOf={values?.children ?? []}
                    tab={scenario}
                    onTab={(next) => change({ scenario: next })}
                  />
                </Box>
              ) : (
                <Typography color="text.secondary">{translate(ui('noResults'))}</Typography>
              )}
            </CardContent>
          </Card>
        </Box>
      </Stack>
    </FormContext.Provider>
  );
}

export default function GlobalCheckPage() {
  const { id } = useParams();
  const translate = useTranslate();
  const area = useArea();
  const customerId = Number(id);
  const { data: customer } = useGetOne<ApiRecord<'customers'>>(
    'customers',
    { id: customerId },
    { enabled: Number.isInteger(customerId) && customerId > 0 },
  );
  const back = resourceHref(area, 'customers', 'show', customerId);
  return (
    <Box sx={{ mt: 2 }}>
      <Title title={translate(ui('title'), { name: customer ? customerName(customer) : '' })} />
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }}>
        {back ? (
          <Button
            size="small"
            startIcon={<ArrowBackIcon />}
            component={RouterLink}
            to={`${back}?tab=globalCheck`}
            data-testid="gc-back"
          >
            {customer ? customerName(customer) : translate(ui('backToCustomer'))}
          </Button>
        ) : null}
      </Stack>
      <GlobalCheckWorkspace customerId={customerId} />
    </Box>
  );
}
