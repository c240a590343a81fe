/**
 * The wizard's last step: compare (the service through the server's adapter; never a price made up
 * here), the answer per insurer — annual premium, its split by cover, deductibles, add-ons included
 * or priced —, the stand-in's sample tariffs clearly marked, and for staff the choice of quotes
 * that become offers (links to their pages). A customer with a link is told their consultant will
 * be in touch.
 */
import CheckIcon from '@mui/icons-material/Check';
import CompareIcon from '@mui/icons-material/CompareArrows';
import {
  Alert,
  AlertTitle,
  Box,
  Button,
  Card,
  CardContent,
  Checkbox,
  Chip,
  CircularProgress,
  FormControlLabel,
  Link,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableRow,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { getStoredUser } from '../../auth/session.ts';
import { DateFilterField } from '../../components/DateFilterField.tsx';
import { type ApiClient, messageOf } from '../../dataProvider/apiClient.ts';
import { formatChf } from '../../i18n/format.ts';
import type { ComparisonQuote } from '../../schema/comparison.ts';
import { resourceHref } from '../../shell/paths.ts';
import type { ComparisonInfo, Draft } from './model.ts';

interface MadeOffer {
  id: number;
  companyId?: number | null;
  annualPremium?: number | null;
  comparisonQuote?: { insurer?: string } | null;
}

const chf = (value: number | null | undefined) =>
  value === null || value === undefined ? '–' : formatChf(value);

function QuoteCard({
  quote,
  cheapest,
  pickable,
  picked,
  onPick,
}: {
  quote: ComparisonQuote;
  cheapest: boolean;
  pickable: boolean;
  picked: boolean;
  onPick: (picked: boolean) => void;
}) {
  const translate = useTranslate();
  const row = (label: string, value: string) => (
    <TableRow>
      <TableCell sx={{ pl: 0, color: 'text.secondary', border: 0, py: 0.25 }}>
        {translate(label)}
      </TableCell>
      <TableCell align="right" sx={{ pr: 0, border: 0, py: 0.25, whiteSpace: 'nowrap' }}>
        {value}
      </TableCell>
    </TableRow>
  );
  return (
    <Card
      variant="outlined"
      data-testid={`fs24-quote-${quote.id}`}
      sx={{ borderColor: picked ? 'primary.main' : undefined, borderWidth: picked ? 2 : 1 }}
    >
      <CardContent>
        <Stack direction="row" sx={{ alignItems: 'flex-start', gap: 2, flexWrap: 'wrap' }}>
          <Box sx={{ flex: 1, minWidth: 180 }}>
            <Typography variant="h6" component="h3" sx={{ overflowWrap: 'anywhere' }}>
              {quote.insurer}
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
              {quote.product}
            </Typography>
            {cheapest ? (
              <Chip
                size="small"
                color="success"
                label={translate('app.fs24.results.cheapest')}
                sx={{ mt: 0.5 }}
              />
            ) : null}
          </Box>
          <Box sx={{ textAlign: 'right' }}>
            <Typography variant="h5" component="p" data-testid="fs24-quote-premium">
              {chf(quote.annualPremium)}
            </Typography>
            <Typography variant="caption" color="text.secondary">
              {translate('app.fs24.results.perYear')}
            </Typography>
          </Box>
        </Stack>
        <Box
          sx={{
            display: 'grid',
            gridTemplateColumns: { xs: '1fr', md: '1fr 1fr 1fr' },
            gap: 2,
            mt: 1.5,
          }}
        >
          <Box>
            <Typography variant="subtitle2">{translate('app.fs24.results.premiums')}</Typography>
            <Table size="small">
              <TableBody>
                {row('app.fs24.results.liability', chf(quote.premiums?.liability))}
                {row('app.fs24.results.partialCasco', chf(quote.premiums?.partialCasco))}
                {row('app.fs24.results.fullCasco', chf(quote.premiums?.fullCasco))}
                {row('app.fs24.results.addOns', chf(quote.premiums?.addOns))}
              </TableBody>
            </Table>
          </Box>
          <Box>
            <Typography variant="subtitle2">{translate('app.fs24.results.deductibles')}</Typography>
            <Table size="small">
              <TableBody>
                {row('app.fs24.results.partialCasco', chf(quote.deductibles?.partialCasco))}
                {row('app.fs24.results.fullCasco', chf(quote.deductibles?.fullCasco))}
                {row('app.fs24.results.youngDriver', chf(quote.deductibles?.youngDriver))}
              </TableBody>
            </Table>
          </Box>
          <Box>
            <Typography variant="subtitle2">{translate('app.fs24.results.addOnList')}</Typography>
            {(quote.addOns ?? []).length === 0 ? (
              <Typography variant="body2" color="text.secondary">
                –
              </Typography>
            ) : (
              <Stack spacing={0.25} sx={{ mt: 0.5 }}>
                {(quote.addOns ?? []).map((addOn) => (
                  <Stack
                    key={addOn.code}
                    direction="row"
                    sx={{ justifyContent: 'space-between', gap: 1 }}
                  >
                    <Typography variant="body2">
                      {translate(`app.fs24.addOn.${addOn.code}`, { _: addOn.code })}
                    </Typography>
                    <Typography
                      variant="body2"
                      color={addOn.included ? 'success.main' : 'text.primary'}
                      sx={{ whiteSpace: 'nowrap' }}
                    >
                      {addOn.included
                        ? translate('app.fs24.results.included')
                        : `+ ${chf(addOn.premium)}`}
                    </Typography>
                  </Stack>
                ))}
              </Stack>
            )}
          </Box>
        </Box>
        {pickable ? (
          <Box sx={{ mt: 1 }}>
            {quote.companyId ? (
              <FormControlLabel
                control={
                  <Checkbox
                    checked={picked}
                    onChange={(event) => onPick(event.target.checked)}
                    slotProps={{ input: { 'aria-label': quote.insurer } }}
                    data-testid={`fs24-pick-${quote.id}`}
                  />
                }
                label={translate('app.fs24.results.pick')}
              />
            ) : (
              <Typography variant="caption" color="text.secondary">
                {translate('app.fs24.results.noCompany')}
              </Typography>
            )}
          </Box>
        ) : null}
      </CardContent>
    </Card>
  );
}

export function Results({
  info,
  draft,
  client,
  onDraft,
}: {
  info: ComparisonInfo;
  draft: Draft;
  client: ApiClient;
  onDraft: (draft: Draft) => void;
}) {
  const translate = useTranslate();
  const [busy, setBusy] = useState<'compare' | 'offers' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [picked, setPicked] = useState<string[]>([]);
  const [validUntil, setValidUntil] = useState('');
  const [offers, setOffers] = useState<MadeOffer[]>([]);
  const base = `fs24/${info.customer.id}/drafts/${draft.id}`;
  const results = draft.results && Array.isArray(draft.results.quotes) ? draft.results : null;
  const quotes = [...(results?.quotes ?? [])].sort((a, b) => a.annualPremium - b.annualPremium);
  const configured = info.comparison.configured;
  const staff = info.canMakeOffers;
  const area = getStoredUser()?.routeSet ?? 'admin';

  const compare = async () => {
    setBusy('compare');
    setError(null);
    try {
      const answer = await client.json<{ data: Draft }>('POST', `${base}/compare`, { body: {} });
      setPicked([]);
      onDraft(answer.data);
    } catch (caught) {
      setError(messageOf(caught));
    } finally {
      setBusy(null);
    }
  };

  const makeOffers = async () => {
    setBusy('offers');
    setError(null);
    try {
      const body: { quoteIds: string[]; validUntil?: string } = { quoteIds: picked };
      if (validUntil) body.validUntil = validUntil;
      const answer = await client.json<{ data: Draft; offers: MadeOffer[] }>(
        'POST',
        `${base}/offers`,
        { body },
      );
      setOffers(answer.offers ?? []);
      setPicked([]);
      onDraft(answer.data);
    } catch (caught) {
      setError(messageOf(caught));
    } finally {
      setBusy(null);
    }
  };

  const insurerOf = (offer: MadeOffer) =>
    offer.comparisonQuote?.insurer ??
    quotes.find((quote) => quote.companyId === offer.companyId)?.insurer ??
    '';

  return (
    <Stack spacing={2} data-testid="fs24-results">
      {!configured ? (
        <Alert severity="info" data-testid="fs24-not-configured">
          {translate('app.fs24.results.notConfigured')}
        </Alert>
      ) : null}
      <Stack direction="row" useFlexGap spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <Button
          variant="contained"
          size="large"
          startIcon={
            busy === 'compare' ? <CircularProgress size={18} color="inherit" /> : <CompareIcon />
          }
          onClick={compare}
          disabled={!configured || busy !== null || draft.stepsDone < 5}
          data-testid="fs24-compare"
        >
          {translate(results ? 'app.fs24.results.compareAgain' : 'app.fs24.results.compare')}
        </Button>
        <Typography variant="body2" color="text.secondary" sx={{ flex: 1, minWidth: 200 }}>
          {translate(
            !configured
              ? 'app.fs24.results.compareDisabled'
              : draft.stepsDone < 5
                ? 'app.fs24.results.stepsMissing'
                : busy === 'compare'
                  ? 'app.fs24.results.comparing'
                  : 'app.fs24.results.compareHint',
          )}
        </Typography>
      </Stack>
      {error ? (
        <Alert severity="error" role="alert" data-testid="fs24-results-error">
          {translate(error, { _: error })}
        </Alert>
      ) : null}
      {results?.sample ? (
        <Alert severity="warning" data-testid="fs24-sample">
          <AlertTitle>{translate('app.fs24.results.sampleTitle')}</AlertTitle>
          {results.label ?? ''}
        </Alert>
      ) : null}
      {results && quotes.length === 0 ? (
        <Alert severity="info">{translate('app.fs24.results.none')}</Alert>
      ) : null}
      {quotes.map((quote, index) => (
        <QuoteCard
          key={quote.id}
          quote={quote}
          cheapest={index === 0 && quotes.length > 1}
          pickable={staff}
          picked={picked.includes(quote.id)}
          onPick={(on) =>
            setPicked((current) =>
              on ? [...current, quote.id] : current.filter((id) => id !== quote.id),
            )
          }
        />
      ))}
      {results && quotes.length > 0 && staff ? (
        <Card variant="outlined" sx={{ bgcolor: 'grey.50' }}>
          <CardContent>
            <Stack
              direction="row"
              useFlexGap
              spacing={2}
              sx={{ alignItems: 'center', flexWrap: 'wrap' }}
            >
              <Typography variant="body2" sx={{ flex: 1, minWidth: 200 }}>
                {translate('app.fs24.offers.intro', { number: picked.length })}
              </Typography>
              <DateFilterField
                label={translate('resources.offers.fields.validUntil')}
                value={validUntil}
                onChange={setValidUntil}
                testId="fs24-valid-until"
                sx={{ width: 200 }}
              />
              <Button
                variant="contained"
                onClick={makeOffers}
                disabled={picked.length === 0 || busy !== null}
                data-testid="fs24-make-offers"
              >
                {translate('app.fs24.offers.make', { number: picked.length })}
              </Button>
            </Stack>
          </CardContent>
        </Card>
      ) : null}
      {results && quotes.length > 0 && !staff ? (
        <Alert severity="success" icon={<CheckIcon />} data-testid="fs24-consultant-note">
          {translate('app.fs24.results.consultantWillCall')}
        </Alert>
      ) : null}
      {draft.status === 'offered' && offers.length === 0 && staff ? (
        <Alert severity="info">{translate('app.fs24.offers.alreadyMade')}</Alert>
      ) : null}
      {offers.length > 0 ? (
        <Alert severity="success" data-testid="fs24-offers-made">
          <AlertTitle>{translate('app.fs24.offers.made', { number: offers.length })}</AlertTitle>
          <Stack component="ul" sx={{ m: 0, pl: 2 }}>
            {offers.map((offer) => (
              <li key={offer.id}>
                <Link
                  component={RouterLink}
                  to={resourceHref(area, 'offers', 'show', offer.id) ?? '#'}
                  data-testid={`fs24-offer-${offer.id}`}
                >
                  {translate('app.fs24.offers.link', { id: offer.id, insurer: insurerOf(offer) })}
                </Link>
                {offer.annualPremium !== null && offer.annualPremium !== undefined
                  ? ` · ${chf(offer.annualPremium)}`
                  : ''}
              </li>
            ))}
          </Stack>
        </Alert>
      ) : null}
    </Stack>
  );
}
