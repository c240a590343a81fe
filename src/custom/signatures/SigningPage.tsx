/**
 * /attach-signatures/{id}?lang={lang}&token={token} (spec §2, issue 19): a person signs a document
 * without an account. The page follows `lang` (French dates in the English form, spec §1), shows
 * who asks and until when the link is valid, the document itself (every page drawn in the page,
 * ../../components/PdfView.tsx), then the signature: name (the signer's, editable), place, today's
 * date, the pad (finger, pen or mouse), "I have read and sign", "Sign". The browser checks what it
 * can; the server's refusals appear on their fields. A link that cannot be used (not valid,
 * already used, withdrawn, expired, its document gone or changed) shows why — and nothing of the
 * document. After signing: thanks, and nothing more (the link is spent).
 */
import DrawIcon from '@mui/icons-material/Draw';
import TaskAltIcon from '@mui/icons-material/TaskAlt';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Checkbox,
  CircularProgress,
  FormControlLabel,
  FormHelperText,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import dayjs from 'dayjs';
import { useEffect, useMemo, useState } from 'react';
import { useLocale, useLocaleState, useTranslate } from 'react-admin';
import { useParams, useSearchParams } from 'react-router-dom';
import { LinkProblem, PublicFrame } from '../../components/PublicFrame.tsx';
import { PdfView } from '../../components/PdfView.tsx';
import { fieldErrorsOf, messageOf, statusOf } from '../../dataProvider/apiClient.ts';
import { formatDate } from '../../i18n/format.ts';
import { isLanguage } from '../../i18n/index.ts';
import { encodeKeyed, errorKey } from '../../schema/errors.ts';
import {
  type DrawnSignature,
  fetchSigningDocument,
  inkLength,
  MIN_INK,
  type SigningInfo,
  signingApi,
} from './model.ts';
import { SignaturePadField } from './SignaturePadField.tsx';

type State =
  | { status: 'loading' }
  | { status: 'problem'; message: string }
  | { status: 'ready'; info: SigningInfo }
  | { status: 'signed'; info: SigningInfo; signedAt: string };

const positiveId = (value: string | undefined): number | undefined =>
  value && /^[1-9]\d{0,15}$/.test(value) ? Number(value) : undefined;

const keyed = (code: Parameters<typeof errorKey>[0]) => encodeKeyed({ message: errorKey(code) });

export default function SigningPage() {
  const translate = useTranslate();
  const { id: idText } = useParams();
  const [params] = useSearchParams();
  const [locale, setLocale] = useLocaleState();
  const id = positiveId(idText);
  const token = params.get('token');
  const lang = params.get('lang');
  const client = useMemo(() => signingApi(token), [token]);
  const [state, setState] = useState<State>({ status: 'loading' });

  useEffect(() => {
    if (isLanguage(lang) && lang !== locale) setLocale(lang);
    // Only when the address changes: the header's switch sets both.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [lang]);

  const unusable = id === undefined || !token;
  useEffect(() => {
    if (id === undefined || !token) return;
    let live = true;
    client.json<{ data: SigningInfo }>('GET', `public/signatures/${id}`).then(
      ({ data: info }) => {
        if (!live) return;
        setState({ status: 'ready', info });
        if (!isLanguage(lang) && isLanguage(info.language) && info.language !== locale)
          setLocale(info.language);
      },
      (caught: unknown) => {
        if (!live) return;
        const status = statusOf(caught);
        setState({
          status: 'problem',
          message:
            status === 404 || status === 410
              ? messageOf(caught)
              : messageOf(caught, 'ra.notification.http_error'),
        });
      },
    );
    return () => {
      live = false;
    };
    // The language is applied once, from the answer.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [client, id, token]);

  const shown: State = unusable
    ? { status: 'problem', message: keyed('signatureLinkInvalid') }
    : state;
  const subtitle =
    shown.status === 'ready' || shown.status === 'signed'
      ? translate('app.signatures.page.for', { name: shown.info.signerName })
      : undefined;

  return (
    <PublicFrame
      icon={<DrawIcon color="primary" fontSize="large" />}
      title="app.signatures.page.title"
      subtitle={subtitle}
      subtitleTestId="signing-signer"
      languageTestId="signing-language"
    >
      {shown.status === 'loading' ? (
        <Box sx={{ display: 'flex', justifyContent: 'center', p: 6 }}>
          <CircularProgress />
        </Box>
      ) : shown.status === 'problem' ? (
        <LinkProblem
          title="app.signatures.page.unavailable"
          text={shown.message}
          testId="signing-problem"
        />
      ) : shown.status === 'signed' ? (
        <Signed info={shown.info} signedAt={shown.signedAt} />
      ) : (
        <SignDocument
          info={shown.info}
          token={token ?? ''}
          client={client}
          onSigned={(signedAt) => {
            setState({ status: 'signed', info: shown.info, signedAt });
            window.scrollTo({ top: 0 });
          }}
          onProblem={(message) => setState({ status: 'problem', message })}
        />
      )}
    </PublicFrame>
  );
}

function Signed({ info, signedAt }: { info: SigningInfo; signedAt: string }) {
  const translate = useTranslate();
  const locale = useLocale();
  return (
    <Card data-testid="signing-done">
      <CardContent sx={{ textAlign: 'center', py: 5 }}>
        <TaskAltIcon color="success" sx={{ fontSize: 64 }} />
        <Typography variant="h5" component="h2" sx={{ mt: 1 }}>
          {translate('app.signatures.page.doneTitle')}
        </Typography>
        <Typography color="text.secondary" sx={{ mt: 1, maxWidth: 520, mx: 'auto' }}>
          {translate('app.signatures.page.doneText', {
            document: info.documentName,
            date: formatDate(signedAt, locale),
          })}
        </Typography>
      </CardContent>
    </Card>
  );
}

type Errors = Partial<Record<'name' | 'place' | 'signature' | 'consent' | 'form', string>>;

function SignDocument({
  info,
  token,
  client,
  onSigned,
  onProblem,
}: {
  info: SigningInfo;
  token: string;
  client: ReturnType<typeof signingApi>;
  onSigned: (signedAt: string) => void;
  onProblem: (message: string) => void;
}) {
  const translate = useTranslate();
  const locale = useLocale();
  const [pdf, setPdf] = useState<ArrayBuffer | null>(null);
  const [pdfFailed, setPdfFailed] = useState(false);
  const [name, setName] = useState(info.signerName);
  const [place, setPlace] = useState('');
  const [signature, setSignature] = useState<DrawnSignature | null>(null);
  const [consent, setConsent] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    fetchSigningDocument(info.id, token).then(
      (bytes) => live && setPdf(bytes),
      () => live && setPdfFailed(true),
    );
    return () => {
      live = false;
    };
  }, [info.id, token]);

  const sender = info.senderName || translate('app.signatures.page.yourConsultant');

  const submit = async () => {
    const found: Errors = {};
    if (!name.trim()) found.name = encodeKeyed({ message: errorKey('required') });
    if (!place.trim()) found.place = encodeKeyed({ message: errorKey('required') });
    if (!signature || inkLength(signature) < MIN_INK) found.signature = keyed('signatureEmpty');
    if (!consent) found.consent = keyed('signatureConsent');
    setErrors(found);
    if (Object.keys(found).length > 0 || !signature) return;
    setBusy(true);
    try {
      const answer = await client.json<{ data: { signedAt: string } }>(
        'POST',
        `public/signatures/${info.id}/sign`,
        { body: { name: name.trim(), place: place.trim(), consent, signature } },
      );
      onSigned(answer.data.signedAt);
    } catch (caught) {
      const status = statusOf(caught);
      if (status === 404 || status === 410) {
        onProblem(messageOf(caught));
        return;
      }
      const fields = fieldErrorsOf(caught);
      setErrors(
        Object.keys(fields).length > 0
          ? {
              name: fields.name,
              place: fields.place,
              signature: fields.signature ?? fields['signature.strokes'],
              consent: fields.consent,
            }
          : { form: messageOf(caught) },
      );
    } finally {
      setBusy(false);
    }
  };

  const shown = (text: string | undefined) => (text ? translate(text, { _: text }) : undefined);

  return (
    <Stack spacing={2}>
      <Card>
        <CardContent>
          <Typography data-testid="signing-intro">
            {translate('app.signatures.page.intro', { sender, document: info.documentName })}
          </Typography>
          <Typography
            variant="body2"
            color="text.secondary"
            sx={{ mt: 1 }}
            data-testid="signing-valid"
          >
            {translate('app.signatures.page.validUntil', {
              date: formatDate(info.expiresAt, locale),
            })}
          </Typography>
        </CardContent>
      </Card>
      {pdfFailed ? (
        <Alert severity="warning">{translate('app.signatures.documentFailed')}</Alert>
      ) : (
        <PdfView data={pdf} testId="signing-document" label={info.documentName} />
      )}
      <Card
        component="form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <CardContent>
          <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
            {translate('app.signatures.page.signHeading')}
          </Typography>
          <Stack spacing={2}>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <TextField
                label={translate('app.signatures.page.name')}
                value={name}
                onChange={(event) => setName(event.target.value)}
                error={Boolean(errors.name)}
                helperText={shown(errors.name)}
                required
                fullWidth
                autoComplete="name"
                slotProps={{ htmlInput: { maxLength: 200, 'data-testid': 'signing-name' } }}
              />
              <TextField
                label={translate('app.signatures.page.place')}
                value={place}
                onChange={(event) => setPlace(event.target.value)}
                error={Boolean(errors.place)}
                helperText={shown(errors.place)}
                required
                fullWidth
                autoComplete="address-level2"
                slotProps={{ htmlInput: { maxLength: 100, 'data-testid': 'signing-place' } }}
              />
              <TextField
                label={translate('app.signatures.page.date')}
                value={formatDate(dayjs().format('YYYY-MM-DD'), locale)}
                fullWidth
                slotProps={{ htmlInput: { readOnly: true, 'data-testid': 'signing-date' } }}
              />
            </Stack>
            <SignaturePadField
              error={shown(errors.signature)}
              onChange={(drawn) => {
                setSignature(drawn);
                if (drawn) setErrors(({ signature: _done, ...rest }) => rest);
              }}
            />
            <Box>
              <FormControlLabel
                control={
                  <Checkbox
                    checked={consent}
                    onChange={(event) => setConsent(event.target.checked)}
                    slotProps={{ input: { 'data-testid': 'signing-consent' } as object }}
                  />
                }
                label={translate('app.signatures.page.consent')}
              />
              {errors.consent ? (
                <FormHelperText error>{shown(errors.consent)}</FormHelperText>
              ) : null}
            </Box>
            {errors.form ? (
              <Alert severity="error" role="alert">
                {shown(errors.form)}
              </Alert>
            ) : null}
            <Button
              type="submit"
              variant="contained"
              size="large"
              disabled={busy}
              startIcon={busy ? <CircularProgress size={18} color="inherit" /> : <DrawIcon />}
              data-testid="signing-submit"
              sx={{ alignSelf: { xs: 'stretch', sm: 'flex-start' }, minWidth: 200 }}
            >
              {translate('app.signatures.page.sign')}
            </Button>
            <Typography variant="body2" color="text.secondary">
              {translate('app.signatures.page.questions', {
                sender: info.senderEmail ? `${sender} (${info.senderEmail})` : sender,
              })}
            </Typography>
          </Stack>
        </CardContent>
      </Card>
    </Stack>
  );
}
