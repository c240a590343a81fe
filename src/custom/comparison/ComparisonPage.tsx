/**
 * /financescout24/{clientID}[/{draftID}] (spec §2, issue 18): the car-insurance comparison as a
 * public page, for a signed-in consultant and for a customer without an account who opens the link
 * their consultant sent (`?token=`, kept across the wizard's own addresses and sent as
 * `x-comparison-token`). One friendly column with the brokerage's name and a language switch; the
 * language is `?lang=` when given, else — for the customer with a link — their correspondence
 * language. Without access (no or an expired link, another customer's link) the API answers 404 and
 * the page says the link is not valid. Without a draft in the address: the customer's comparisons
 * to resume and "start a new comparison" (`?new=1`).
 */
import AddIcon from '@mui/icons-material/Add';
import DirectionsCarIcon from '@mui/icons-material/DirectionsCar';
import {
  Alert,
  Box,
  Button,
  Card,
  CardActionArea,
  CardContent,
  Chip,
  CircularProgress,
  Link,
  Stack,
  Typography,
} from '@mui/material';
import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useLocale, useLocaleState, useTranslate } from 'react-admin';
import { Link as RouterLink, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { getStoredUser } from '../../auth/session.ts';
import { messageOf, statusOf } from '../../dataProvider/apiClient.ts';
import { formatDateTime } from '../../i18n/format.ts';
import { LinkProblem, PublicFrame } from '../../components/PublicFrame.tsx';
import { isLanguage } from '../../i18n/index.ts';
import { COMPARISON_STEPS } from '../../schema/comparison.ts';
import { resourceHref } from '../../shell/paths.ts';
import { type ComparisonInfo, comparisonApi, customerLabel, type DraftSummary } from './model.ts';
import { StatusChip } from './StatusChip.tsx';
import { Wizard } from './Wizard.tsx';

const positiveId = (value: string | undefined): number | undefined =>
  value && /^[1-9]\d{0,15}$/.test(value) ? Number(value) : undefined;

function Frame({
  children,
  subtitle,
  action,
}: {
  children: ReactNode;
  subtitle?: string;
  action?: ReactNode;
}) {
  return (
    <PublicFrame
      icon={<DirectionsCarIcon color="primary" fontSize="large" />}
      title="app.fs24.title"
      subtitle={subtitle}
      subtitleTestId="fs24-customer"
      action={action}
      languageTestId="fs24-language"
    >
      {children}
    </PublicFrame>
  );
}

function InvalidLink() {
  return (
    <LinkProblem
      title="app.fs24.invalid.title"
      text="app.fs24.invalid.text"
      testId="fs24-invalid"
    />
  );
}

function DraftList({
  info,
  hrefOf,
  newHref,
}: {
  info: ComparisonInfo;
  hrefOf: (draftId?: number) => string;
  newHref: string;
}) {
  const translate = useTranslate();
  const locale = useLocale();
  const navigate = useNavigate();
  const drafts: DraftSummary[] = info.drafts ?? [];
  return (
    <Stack spacing={2} data-testid="fs24-drafts">
      <Card>
        <CardContent>
          <Typography variant="h5" component="h2">
            {translate('app.fs24.welcome.title')}
          </Typography>
          <Typography color="text.secondary" sx={{ mt: 1 }}>
            {translate('app.fs24.welcome.text')}
          </Typography>
          <Button
            variant="contained"
            size="large"
            startIcon={<AddIcon />}
            sx={{ mt: 2 }}
            onClick={() => navigate(newHref)}
            data-testid="fs24-start"
          >
            {translate('app.fs24.start')}
          </Button>
        </CardContent>
      </Card>
      {drafts.length > 0 ? (
        <Typography variant="subtitle1" component="h3" sx={{ pt: 1 }}>
          {translate('app.fs24.resumeTitle')}
        </Typography>
      ) : null}
      {drafts.map((draft) => (
        <Card key={draft.id} data-testid={`fs24-draft-${draft.id}`}>
          <CardActionArea onClick={() => navigate(hrefOf(draft.id))}>
            <CardContent sx={{ display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap' }}>
              <Box sx={{ flex: 1, minWidth: 200 }}>
                <Typography sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}>
                  {draft.summary || translate('app.fs24.untitled', { id: draft.id })}
                </Typography>
                <Typography variant="body2" color="text.secondary">
                  {translate('app.fs24.stepsDone', {
                    done: draft.stepsDone,
                    steps: COMPARISON_STEPS.length,
                  })}
                  {' · '}
                  {translate('app.fs24.updated', { date: formatDateTime(draft.updatedAt, locale) })}
                </Typography>
              </Box>
              <StatusChip status={draft.status} />
              <Chip
                size="small"
                variant="outlined"
                label={translate(
                  draft.status === 'compared' || draft.status === 'offered'
                    ? 'app.fs24.showResults'
                    : 'app.fs24.resume',
                )}
              />
            </CardContent>
          </CardActionArea>
        </Card>
      ))}
    </Stack>
  );
}

type PageState =
  | { status: 'loading' }
  | { status: 'denied' }
  | { status: 'failed'; message: string }
  | { status: 'ready'; info: ComparisonInfo };

export default function ComparisonPage() {
  const translate = useTranslate();
  const { clientID, draftID } = useParams();
  const [params] = useSearchParams();
  const [locale, setLocale] = useLocaleState();
  const customerId = positiveId(clientID);
  const draftId = positiveId(draftID);
  const token = params.get('token');
  const lang = params.get('lang');
  const client = useMemo(() => comparisonApi(token), [token]);
  const [answer, setAnswer] = useState<{ key: string; state: PageState } | null>(null);
  const [attempt, setAttempt] = useState(0);
  const languageApplied = useRef(false);
  const starting = params.get('new') === '1';
  const listShown = draftID === undefined && !starting;

  // The address's language first (a link names the customer's).
  useEffect(() => {
    if (isLanguage(lang) && lang !== locale) setLocale(lang);
    // Only when the address changes: a later switch in the header sets both.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [lang]);

  const invalidAddress =
    customerId === undefined || (draftID !== undefined && draftId === undefined);
  // A new request for another customer, link, retry, or on the way back to the list.
  const requestKey = `${customerId ?? ''}|${token ?? ''}|${listShown ? 'list' : 'draft'}|${attempt}`;

  useEffect(() => {
    if (invalidAddress) return;
    let live = true;
    const settle = (state: PageState) => {
      if (live) setAnswer({ key: requestKey, state });
    };
    client.json<ComparisonInfo>('GET', `fs24/${customerId}`).then(
      (info) => {
        if (!live) return;
        settle({ status: 'ready', info });
        // The customer with a link reads their correspondence language unless the address names one.
        const language = info.customer?.language;
        if (
          !languageApplied.current &&
          info.access === 'link' &&
          !isLanguage(lang) &&
          isLanguage(language) &&
          language !== locale
        ) {
          setLocale(language);
        }
        languageApplied.current = true;
      },
      (caught: unknown) => {
        const status = statusOf(caught);
        settle(
          status === 404 || status === 401 || status === 403
            ? { status: 'denied' }
            : { status: 'failed', message: messageOf(caught) },
        );
      },
    );
    return () => {
      live = false;
    };
    // Only a new request key asks again (the language is applied once).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [requestKey, invalidAddress]);

  // While the list is read again, the last answer stays (no spinner).
  const state: PageState = invalidAddress
    ? { status: 'denied' }
    : answer &&
        (answer.key === requestKey ||
          (answer.state.status === 'ready' && answer.state.info.customer.id === customerId))
      ? answer.state
      : { status: 'loading' };

  /** The page's address (draft, or the list; `extra` added), keeping the token and language. */
  const hrefOf = useCallback(
    (id?: number, extra?: Record<string, string>) => {
      const query = new URLSearchParams();
      if (token) query.set('token', token);
      const language = params.get('lang');
      if (language) query.set('lang', language);
      for (const [key, value] of Object.entries(extra ?? {})) query.set(key, value);
      const search = query.toString();
      return `/financescout24/${customerId ?? ''}${id ? `/${id}` : ''}${search ? `?${search}` : ''}`;
    },
    [token, params, customerId],
  );

  if (state.status === 'denied') {
    return (
      <Frame>
        <InvalidLink />
      </Frame>
    );
  }
  if (state.status === 'failed') {
    return (
      <Frame>
        <Alert
          severity="error"
          role="alert"
          action={
            <Button color="inherit" onClick={() => setAttempt((n) => n + 1)}>
              {translate('ra.action.refresh')}
            </Button>
          }
        >
          {translate(state.message, { _: state.message })}
        </Alert>
      </Frame>
    );
  }
  if (state.status === 'loading') {
    return (
      <Frame>
        <Box sx={{ display: 'flex', justifyContent: 'center', p: 6 }}>
          <CircularProgress />
        </Box>
      </Frame>
    );
  }
  const { info } = state;
  const staff = info.access === 'staff';
  const area = getStoredUser()?.routeSet ?? 'admin';
  const customerHref = staff
    ? resourceHref(area, 'customers', 'show', info.customer.id)
    : undefined;
  return (
    <Frame
      subtitle={translate('app.fs24.for', { name: customerLabel(info.customer) })}
      action={
        <Stack spacing={0.5} sx={{ alignItems: 'flex-end' }}>
          {draftId || starting ? (
            <Link component={RouterLink} to={hrefOf()} variant="body2" data-testid="fs24-all">
              {translate('app.fs24.allComparisons')}
            </Link>
          ) : null}
          {customerHref ? (
            <Link
              component={RouterLink}
              to={`${customerHref}?tab=comparisons`}
              variant="body2"
              data-testid="fs24-back-to-customer"
            >
              {translate('app.fs24.backToCustomer')}
            </Link>
          ) : null}
        </Stack>
      }
    >
      {info.comparison?.sample && info.comparison.configured ? (
        <Alert severity="info" sx={{ mb: 2 }} data-testid="fs24-sample-service">
          {translate('app.fs24.sampleService')}
        </Alert>
      ) : null}
      {draftId || starting ? (
        <Wizard info={info} draftId={draftId} client={client} hrefOf={(id) => hrefOf(id)} />
      ) : (
        <DraftList
          info={info}
          hrefOf={(id) => hrefOf(id)}
          newHref={hrefOf(undefined, { new: '1' })}
        />
      )}
    </Frame>
  );
}
