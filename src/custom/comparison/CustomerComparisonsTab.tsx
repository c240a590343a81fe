/**
 * The comparisons tab of a customer (customers/{id}?tab=comparisons, issue 18): the customer's
 * car-insurance comparisons — summary, status, steps done, started by whom, changed and compared —
 * each opening the wizard (/financescout24/{customer}/{draft}) or deleted after a question; "new
 * comparison"; "send link to the customer": a link of some days in a language, its address shown
 * once with a copy button; the customer's links, active, expired or revoked, and "revoke".
 */
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import LinkIcon from '@mui/icons-material/Link';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import {
  Alert,
  Box,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  IconButton,
  Link,
  MenuItem,
  Button as MuiButton,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { useCallback, useEffect, useState } from 'react';
import {
  Button,
  useDelete,
  useGetList,
  useLocale,
  useNotify,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { LinkField } from '../../components/LinkField.tsx';
import { api, fieldErrorsOf, messageOf } from '../../dataProvider/apiClient.ts';
import { formatDate, formatDateTime } from '../../i18n/format.ts';
import { isLanguage, type Language, LANGUAGES } from '../../i18n/index.ts';
import type { ApiRecord } from '../../resources/records.ts';
import { COMPARISON_STEPS, LINK_DAYS } from '../../schema/comparison.ts';
import { enumKey, fieldLabelKey } from '../../schema/labels.ts';
import { type DraftSummary, RESOURCE } from './model.ts';
import { StatusChip } from './StatusChip.tsx';
import { CustomerTabTable } from '../customers/CustomerTabTable.tsx';

interface ComparisonLink {
  id: number;
  createdAt: string;
  expiresAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
  createdBy: number | null;
  language: Language | null;
  active: boolean;
}

interface CreatedLink {
  id: number;
  token: string;
  url: string;
  expiresAt: string;
}

const wizardHref = (customerId: number, draftId?: number) =>
  `/financescout24/${customerId}${draftId ? `/${draftId}` : ''}`;

function linkState(link: ComparisonLink): 'active' | 'expired' | 'revoked' {
  if (link.revokedAt) return 'revoked';
  return link.active ? 'active' : 'expired';
}

function SendLinkDialog({
  customer,
  onClose,
}: {
  customer: ApiRecord<'customers'>;
  onClose: (created: boolean) => void;
}) {
  const translate = useTranslate();
  const locale = useLocale();
  const preferred = (customer.correspondenceLanguages ?? [])[0];
  const [days, setDays] = useState<string>(String(LINK_DAYS.default));
  const [language, setLanguage] = useState<Language>(isLanguage(preferred) ? preferred : 'de');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [created, setCreated] = useState<CreatedLink | null>(null);
  const dayCount = Number(days);
  const daysValid = Number.isInteger(dayCount) && dayCount >= 1 && dayCount <= LINK_DAYS.max;
  const address = created ? `${window.location.origin}${created.url}` : '';

  const create = async () => {
    setBusy(true);
    setError(null);
    setFieldErrors({});
    try {
      setCreated(
        await api.json<CreatedLink>('POST', `customers/${customer.id}/comparison-links`, {
          body: { days: dayCount, language },
        }),
      );
    } catch (caught) {
      setFieldErrors(fieldErrorsOf(caught));
      setError(messageOf(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open onClose={() => onClose(created !== null)} fullWidth maxWidth="sm">
      <DialogTitle>{translate('app.fs24.links.sendTitle')}</DialogTitle>
      <DialogContent
        sx={{ display: 'flex', flexDirection: 'column', gap: 2, pt: '8px !important' }}
      >
        {created ? (
          <>
            <Typography variant="body2">{translate('app.fs24.links.createdText')}</Typography>
            <LinkField
              value={address}
              label="app.fs24.links.address"
              copyLabel="app.fs24.links.copy"
              copiedLabel="app.fs24.links.copied"
              testId="fs24-link-url"
              copyTestId="fs24-link-copy"
            />
            <Typography variant="body2" color="text.secondary">
              {translate('app.fs24.links.validUntil', {
                date: formatDateTime(created.expiresAt, locale),
              })}
            </Typography>
          </>
        ) : (
          <>
            <Typography variant="body2" color="text.secondary">
              {translate('app.fs24.links.sendText')}
            </Typography>
            <TextField
              label={translate('app.fs24.links.days')}
              type="number"
              size="small"
              value={days}
              onChange={(event) => setDays(event.target.value)}
              error={!daysValid || Boolean(fieldErrors.days)}
              helperText={
                fieldErrors.days
                  ? translate(fieldErrors.days)
                  : translate('app.fs24.links.daysHint', { max: LINK_DAYS.max })
              }
              slotProps={{
                htmlInput: { min: 1, max: LINK_DAYS.max, 'data-testid': 'fs24-link-days' },
              }}
            />
            <TextField
              select
              label={translate('app.fs24.links.language')}
              size="small"
              value={language}
              onChange={(event) => setLanguage(event.target.value as Language)}
              slotProps={{ htmlInput: { 'data-testid': 'fs24-link-language' } }}
            >
              {LANGUAGES.map((code) => (
                <MenuItem key={code} value={code}>
                  {translate(`app.languageNames.${code}`)}
                </MenuItem>
              ))}
            </TextField>
            {error ? (
              <Alert severity="error" role="alert">
                {translate(error, { _: error })}
              </Alert>
            ) : null}
          </>
        )}
      </DialogContent>
      <DialogActions>
        <MuiButton onClick={() => onClose(created !== null)}>
          {translate(created ? 'ra.action.close' : 'ra.action.cancel')}
        </MuiButton>
        {created ? null : (
          <MuiButton
            variant="contained"
            onClick={() => void create()}
            disabled={busy || !daysValid}
            data-testid="fs24-link-create"
          >
            {translate('app.fs24.links.create')}
          </MuiButton>
        )}
      </DialogActions>
    </Dialog>
  );
}

function LinksList({ customerId, version }: { customerId: number; version: number }) {
  const translate = useTranslate();
  const locale = useLocale();
  const notify = useNotify();
  const [links, setLinks] = useState<ComparisonLink[] | null>(null);
  const [reload, setReload] = useState(0);

  const refresh = useCallback(() => setReload((n) => n + 1), []);
  useEffect(() => {
    let live = true;
    api.json<{ data: ComparisonLink[] }>('GET', `customers/${customerId}/comparison-links`).then(
      (answer) => {
        if (live) setLinks(answer.data ?? []);
      },
      (caught: unknown) => {
        if (live) {
          setLinks([]);
          notify(messageOf(caught), { type: 'error' });
        }
      },
    );
    return () => {
      live = false;
    };
  }, [customerId, version, reload, notify]);

  const revoke = async (link: ComparisonLink) => {
    try {
      await api.json('DELETE', `comparison-links/${link.id}`);
      notify('app.fs24.links.revoked', { type: 'success' });
      refresh();
    } catch (caught) {
      notify(messageOf(caught), { type: 'error' });
    }
  };

  if (!links || links.length === 0) return null;
  return (
    <Box sx={{ mt: 3 }} data-testid="fs24-links">
      <Typography variant="subtitle2" sx={{ mb: 0.5 }}>
        {translate('app.fs24.links.title')}
      </Typography>
      <Box sx={{ overflowX: 'auto' }}>
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>{translate('app.fs24.links.created')}</TableCell>
              <TableCell>{translate('app.fs24.links.expires')}</TableCell>
              <TableCell>{translate('app.fs24.links.language')}</TableCell>
              <TableCell>{translate('app.fs24.links.lastUsed')}</TableCell>
              <TableCell>{translate('app.fs24.links.state')}</TableCell>
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            {links.map((link) => {
              const state = linkState(link);
              return (
                <TableRow key={link.id} data-testid={`fs24-link-${link.id}`}>
                  <TableCell>{formatDateTime(link.createdAt, locale)}</TableCell>
                  <TableCell>{formatDate(link.expiresAt, locale)}</TableCell>
                  <TableCell>
                    {link.language ? translate(`app.languageNames.${link.language}`) : ''}
                  </TableCell>
                  <TableCell>
                    {link.lastUsedAt ? formatDateTime(link.lastUsedAt, locale) : '–'}
                  </TableCell>
                  <TableCell>
                    <Chip
                      size="small"
                      color={state === 'active' ? 'success' : 'default'}
                      variant={state === 'active' ? 'filled' : 'outlined'}
                      label={translate(`app.fs24.links.states.${state}`)}
                      data-status={state}
                    />
                  </TableCell>
                  <TableCell align="right">
                    {state === 'active' ? (
                      <MuiButton
                        size="small"
                        color="error"
                        onClick={() => void revoke(link)}
                        data-testid={`fs24-link-revoke-${link.id}`}
                      >
                        {translate('app.fs24.links.revoke')}
                      </MuiButton>
                    ) : null}
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </Box>
    </Box>
  );
}

export function CustomerComparisonsTab() {
  const customer = useRecordContext<ApiRecord<'customers'>>();
  const translate = useTranslate();
  const locale = useLocale();
  const notify = useNotify();
  const [remove] = useDelete();
  const [confirm, setConfirm] = useState<DraftSummary | null>(null);
  const [sending, setSending] = useState(false);
  const [linksVersion, setLinksVersion] = useState(0);
  const {
    data = [],
    total,
    isPending,
    refetch,
  } = useGetList<DraftSummary>(
    RESOURCE,
    {
      filter: { customerId: customer?.id },
      pagination: { page: 1, perPage: 100 },
      sort: { field: 'updatedAt', order: 'DESC' },
    },
    { enabled: Boolean(customer) },
  );
  if (!customer) return null;
  const column = (name: string) => translate(fieldLabelKey(RESOURCE, name));
  return (
    <CustomerTabTable
      testId="customer-comparisons"
      title={translate('app.customers.tabs.comparisons')}
      total={total}
      isPending={isPending}
      empty={data.length === 0}
      emptyText={translate('app.fs24.noneForCustomer')}
      actions={
        <>
          <Button
            label="app.fs24.links.send"
            onClick={() => setSending(true)}
            data-testid="customer-comparison-link"
          >
            <LinkIcon />
          </Button>
          <Button
            label="app.fs24.new"
            component={RouterLink}
            to={wizardHref(customer.id) + '?new=1'}
            data-testid="customer-comparison-new"
          >
            <AddIcon />
          </Button>
        </>
      }
      head={
        <>
          <TableCell>{column('summary')}</TableCell>
          <TableCell>{column('status')}</TableCell>
          <TableCell>{column('stepsDone')}</TableCell>
          <TableCell>{column('startedVia')}</TableCell>
          <TableCell>{column('updatedAt')}</TableCell>
          <TableCell>{column('comparedAt')}</TableCell>
          <TableCell />
        </>
      }
      after={
        <>
          <LinksList customerId={customer.id} version={linksVersion} />
          {sending ? (
            <SendLinkDialog
              customer={customer}
              onClose={(created) => {
                setSending(false);
                if (created) setLinksVersion((n) => n + 1);
              }}
            />
          ) : null}
          <Dialog open={confirm !== null} onClose={() => setConfirm(null)}>
            <DialogTitle>{translate('app.fs24.deleteTitle')}</DialogTitle>
            <DialogContent>
              {confirm ? confirm.summary || translate('app.fs24.untitled', { id: confirm.id }) : ''}
            </DialogContent>
            <DialogActions>
              <MuiButton onClick={() => setConfirm(null)}>
                {translate('ra.action.cancel')}
              </MuiButton>
              <MuiButton
                color="error"
                variant="contained"
                data-testid="customer-comparison-delete-confirm"
                onClick={() => {
                  const draft = confirm;
                  setConfirm(null);
                  if (!draft) return;
                  remove(
                    RESOURCE,
                    { id: draft.id, previousData: draft },
                    {
                      mutationMode: 'pessimistic',
                      onSuccess: () => {
                        notify('app.fs24.deleted', { type: 'success' });
                        void refetch();
                      },
                      onError: (caught) => notify(messageOf(caught), { type: 'error' }),
                    },
                  );
                }}
              >
                {translate('ra.action.delete')}
              </MuiButton>
            </DialogActions>
          </Dialog>
        </>
      }
    >
      {data.map((draft) => (
        <TableRow key={draft.id} hover data-testid={`customer-comparison-${draft.id}`}>
          <TableCell sx={{ overflowWrap: 'anywhere' }}>
            <Link component={RouterLink} to={wizardHref(customer.id, draft.id)}>
              {draft.summary || translate('app.fs24.untitled', { id: draft.id })}
            </Link>
          </TableCell>
          <TableCell>
            <StatusChip status={draft.status} />
          </TableCell>
          <TableCell>
            {draft.stepsDone}/{COMPARISON_STEPS.length}
          </TableCell>
          <TableCell>
            {draft.startedVia ? translate(enumKey('comparisonStartedVia', draft.startedVia)) : ''}
          </TableCell>
          <TableCell>{formatDateTime(draft.updatedAt, locale)}</TableCell>
          <TableCell>{draft.comparedAt ? formatDateTime(draft.comparedAt, locale) : '–'}</TableCell>
          <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
            <Tooltip title={translate('app.fs24.open')}>
              <IconButton
                size="small"
                component={RouterLink}
                to={wizardHref(customer.id, draft.id)}
                aria-label={translate('app.fs24.open')}
                data-testid={`customer-comparison-open-${draft.id}`}
              >
                <OpenInNewIcon fontSize="small" />
              </IconButton>
            </Tooltip>
            <Tooltip title={translate('ra.action.delete')}>
              <IconButton
                size="small"
                onClick={() => setConfirm(draft)}
                aria-label={translate('ra.action.delete')}
                data-testid={`customer-comparison-delete-${draft.id}`}
              >
                <DeleteIcon fontSize="small" />
              </IconButton>
            </Tooltip>
          </TableCell>
        </TableRow>
      ))}
    </CustomerTabTable>
  );
}
