/**
 * The comparison wizard: a stepper over vehicle, use, drivers, cover, history and the results.
 * "Next" checks the step in the browser (stepProblems of src/schema/comparison.ts, the server's own
 * rules) and only then saves it as done (the first "Next" of a new comparison creates the draft and
 * moves to its address); "save and continue later" saves what is typed without the step's checks.
 * The server's field errors show on their inputs, translated, and what was typed stays.
 */
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import ArrowForwardIcon from '@mui/icons-material/ArrowForward';
import SaveIcon from '@mui/icons-material/SaveOutlined';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  CircularProgress,
  Step,
  StepButton,
  StepLabel,
  Stepper,
  Typography,
} from '@mui/material';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import {
  type ApiClient,
  fieldErrorsOf,
  messageOf,
  statusOf,
} from '../../dataProvider/apiClient.ts';
import {
  COMPARISON_STEPS,
  type ComparisonDraftFields,
  type ComparisonStep,
  STEP_FIELDS,
} from '../../schema/comparison.ts';
import { swissToday } from '../../schema/swiss-time.ts';
import { FormContext, type FormState } from './inputs.tsx';
import {
  type ComparisonInfo,
  type Draft,
  type FieldMessages,
  fieldsOf,
  RESULTS_INDEX,
  resumeIndex,
  setAt,
  staleDraftOf,
  stepBody,
  stepMessages,
  WIZARD_STEPS,
  withPrefill,
} from './model.ts';
import { Results } from './Results.tsx';
import { StepFields } from './StepFields.tsx';

export function Wizard({
  info,
  draftId,
  client,
  hrefOf,
}: {
  info: ComparisonInfo;
  /** The draft of the address; undefined for a new comparison. */
  draftId?: number;
  client: ApiClient;
  /** The page's address of a draft (the link token and language kept). */
  hrefOf: (draftId?: number) => string;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const navigate = useNavigate();
  const customerId = info.customer.id;
  const [draft, setDraft] = useState<Draft | null>(null);
  const [fields, setFields] = useState<ComparisonDraftFields>(() => fieldsOf(info.prefill ?? {}));
  const [index, setIndex] = useState(0);
  const [messages, setMessages] = useState<FieldMessages>({});
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState<'next' | 'later' | null>(null);
  const [failure, setFailure] = useState<{ id: number; message: string } | null>(null);

  // Opens the draft of the address (not again after this page created it).
  useEffect(() => {
    if (draftId === undefined || draft?.id === draftId) return;
    let live = true;
    client.json<{ data: Draft }>('GET', `fs24/${customerId}/drafts/${draftId}`).then(
      ({ data }) => {
        if (!live) return;
        setDraft(data);
        setFields(withPrefill(fieldsOf(data), fieldsOf(info.prefill ?? {})));
        setIndex(resumeIndex(data));
        setMessages({});
        setFailure(null);
      },
      (caught: unknown) => {
        if (!live) return;
        setFailure({
          id: draftId,
          message: statusOf(caught) === 404 ? 'app.fs24.draftNotFound' : messageOf(caught),
        });
      },
    );
    return () => {
      live = false;
    };
    // The prefill is the page's, read once with it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [client, customerId, draftId, draft?.id]);

  const form: FormState = useMemo(
    () => ({
      fields,
      messages,
      disabled: busy !== null,
      set: (path: string, value: unknown) => {
        setFields((current) => setAt(current, path, value));
        setNotice(null);
        // The message of what was just changed goes; the others stay until the next check.
        setMessages((current) => {
          const next = Object.fromEntries(
            Object.entries(current).filter(([key]) => key !== path && !key.startsWith(`${path}.`)),
          );
          return Object.keys(next).length === Object.keys(current).length ? current : next;
        });
      },
    }),
    [fields, messages, busy],
  );

  const goTo = useCallback((next: number) => {
    setIndex(next);
    setError(null);
    setNotice(null);
    setMessages({});
    window.scrollTo?.({ top: 0 });
  }, []);

  const save = async (step: ComparisonStep, complete: boolean) => {
    setError(null);
    setNotice(null);
    if (complete) {
      const problems = stepMessages(step, fields, swissToday());
      if (Object.keys(problems).length > 0) {
        setMessages(problems);
        setError('app.fs24.fixFields');
        return;
      }
    }
    setBusy(complete ? 'next' : 'later');
    const body = { step, complete, ...stepBody(step, fields) };
    try {
      const saved = draft
        ? (
            await client.json<{ data: Draft }>('PATCH', `fs24/${customerId}/drafts/${draft.id}`, {
              body: { version: draft.version, ...body },
            })
          ).data
        : (await client.json<{ data: Draft }>('POST', `fs24/${customerId}/drafts`, { body })).data;
      setDraft(saved);
      setMessages({});
      // The server's reading of this step's fields (the others stay as typed).
      const savedFields = fieldsOf(saved);
      setFields((current) => {
        const next: Record<string, unknown> = { ...current };
        for (const key of STEP_FIELDS[step]) next[key] = savedFields[key];
        return next as ComparisonDraftFields;
      });
      if (complete) {
        notify('app.fs24.saved', { type: 'success' });
        goTo(COMPARISON_STEPS.indexOf(step) + 1);
      } else {
        setNotice('app.fs24.savedLater');
      }
      if (!draft) navigate(hrefOf(saved.id));
    } catch (caught) {
      const stale = staleDraftOf(caught);
      if (stale) {
        // Someone saved this draft meanwhile: take its version, keep what was typed here.
        setDraft(stale);
        setError('app.fs24.stale');
      } else {
        const fieldErrors = fieldErrorsOf(caught);
        setMessages(fieldErrors);
        setError(
          Object.keys(fieldErrors).length > 0 && statusOf(caught) === 422
            ? 'app.fs24.fixFields'
            : messageOf(caught),
        );
      }
    } finally {
      setBusy(null);
    }
  };

  const waiting = draftId !== undefined && draft?.id !== draftId;
  if (waiting && failure?.id === draftId) {
    return (
      <Alert severity="error" role="alert">
        {translate(failure.message, { _: failure.message })}
      </Alert>
    );
  }
  if (waiting) {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
        <CircularProgress />
      </Box>
    );
  }
  const stepsDone = draft?.stepsDone ?? 0;
  const compared = draft?.status === 'compared' || draft?.status === 'offered';
  const reachable = (at: number) =>
    at <= Math.max(stepsDone, index) || (at === RESULTS_INDEX && compared);
  const step = index < RESULTS_INDEX ? COMPARISON_STEPS[index] : undefined;

  return (
    <Card>
      <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 3 }}>
        <Box sx={{ overflowX: 'auto', pb: 1 }}>
          <Stepper nonLinear activeStep={index} alternativeLabel sx={{ minWidth: 560 }}>
            {WIZARD_STEPS.map((name, at) => (
              <Step
                key={name}
                completed={at < RESULTS_INDEX ? at < stepsDone : compared}
                disabled={!reachable(at)}
              >
                <StepButton
                  onClick={() => goTo(at)}
                  disabled={!reachable(at) || busy !== null}
                  data-testid={`fs24-step-${name}`}
                >
                  <StepLabel>{translate(`app.fs24.steps.${name}`)}</StepLabel>
                </StepButton>
              </Step>
            ))}
          </Stepper>
        </Box>
        <Box>
          <Typography variant="h5" component="h2" data-testid="fs24-step-title">
            {translate(`app.fs24.steps.${WIZARD_STEPS[index]}`)}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {translate(`app.fs24.intro.${WIZARD_STEPS[index]}`)}
          </Typography>
        </Box>
        {step ? (
          <FormContext.Provider value={form}>
            <Box
              component="form"
              noValidate
              onSubmit={(event) => {
                event.preventDefault();
                void save(step, true);
              }}
              sx={{ display: 'flex', flexDirection: 'column', gap: 3 }}
              data-testid={`fs24-form-${step}`}
            >
              <StepFields step={step} household={info.household ?? []} />
              {error ? (
                <Alert severity="error" role="alert" data-testid="fs24-error">
                  {translate(error, { _: error })}
                </Alert>
              ) : null}
              {notice ? (
                <Alert severity="success" data-testid="fs24-notice">
                  {translate(notice)}
                </Alert>
              ) : null}
              <Box
                sx={{
                  display: 'flex',
                  flexWrap: 'wrap',
                  gap: 1.5,
                  alignItems: 'center',
                  borderTop: 1,
                  borderColor: 'divider',
                  pt: 2,
                }}
              >
                <Button
                  startIcon={<ArrowBackIcon />}
                  onClick={() => goTo(index - 1)}
                  disabled={index === 0 || busy !== null}
                  data-testid="fs24-back"
                >
                  {translate('app.fs24.back')}
                </Button>
                <Box sx={{ flex: 1 }} />
                <Button
                  variant="outlined"
                  startIcon={busy === 'later' ? <CircularProgress size={16} /> : <SaveIcon />}
                  onClick={() => void save(step, false)}
                  disabled={busy !== null}
                  data-testid="fs24-save-later"
                >
                  {translate('app.fs24.saveLater')}
                </Button>
                <Button
                  type="submit"
                  variant="contained"
                  endIcon={
                    busy === 'next' ? (
                      <CircularProgress size={16} color="inherit" />
                    ) : (
                      <ArrowForwardIcon />
                    )
                  }
                  disabled={busy !== null}
                  data-testid="fs24-next"
                >
                  {translate(step === 'history' ? 'app.fs24.toResults' : 'app.fs24.next')}
                </Button>
              </Box>
            </Box>
          </FormContext.Provider>
        ) : draft ? (
          <>
            <Results info={info} draft={draft} client={client} onDraft={setDraft} />
            <Box sx={{ borderTop: 1, borderColor: 'divider', pt: 2 }}>
              <Button startIcon={<ArrowBackIcon />} onClick={() => goTo(index - 1)}>
                {translate('app.fs24.back')}
              </Button>
            </Box>
          </>
        ) : null}
      </CardContent>
    </Card>
  );
}
