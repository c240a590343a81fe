/**
 * An offer's page (offers/{id}, both areas; not a spec route): the customer, insurer and product in
 * the header with the status, the actions the status allows (send, accept, decline, revise), the
 * PDF, edit and history; then the premium per payment and a year, the cover's start, validity,
 * consultant, source, when it was sent and decided, the contract its decision made, the cover
 * summary and the note.
 */
import EditIcon from '@mui/icons-material/Edit';
import { Box, Card, CardContent, Chip, Link, Stack, Typography } from '@mui/material';
import { Button, Labeled, ShowBase, Title, useRecordContext, useTranslate } from 'react-admin';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { fieldFor } from '../../resources/fields.tsx';
import { HistoryButton } from '../../resources/history/HistoryButton.tsx';
import { getModel } from '../../resources/registry.ts';
import { enumKey, fieldLabelKey } from '../../schema/labels.ts';
import { isDecided } from '../../schema/offers.ts';
import { resourceHref } from '../../shell/paths.ts';
import { useArea } from '../../shell/area.ts';
import type { Offer } from './model.ts';
import { OfferActions } from './OfferActions.tsx';

const GRID = {
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))',
  gap: 2,
} as const;

const HEAD = ['customerId', 'companyId', 'productId'];
const DETAILS = [
  'premium',
  'paymentCycle',
  'annualPremium',
  'startDate',
  'validUntil',
  'consultantId',
  'source',
  'sentAt',
  'decidedAt',
  'declineReason',
  'contractId',
  'createdAt',
];

const STATUS_COLORS = {
  draft: 'default',
  sent: 'info',
  accepted: 'success',
  declined: 'error',
  expired: 'warning',
} as const;

export function OfferStatusChip({ status }: { status: Offer['status'] }) {
  const translate = useTranslate();
  return (
    <Chip
      size="small"
      color={STATUS_COLORS[status] ?? 'default'}
      label={translate(enumKey('offerStatus', status))}
      data-testid="offer-status"
      data-status={status}
    />
  );
}

function Field({ name }: { name: string }) {
  const record = useRecordContext<Offer>();
  const model = getModel('offers');
  const field = model.fields.find((candidate) => candidate.name === name);
  if (!field || !record) return null;
  const value = (record as unknown as Record<string, unknown>)[name];
  return (
    <Labeled label={fieldLabelKey('offers', name)}>
      {value === null || value === undefined || value === '' ? (
        <Typography variant="body2" color="text.disabled">
          –
        </Typography>
      ) : (
        <Box component="span" data-testid={`offer-${name}`}>
          {fieldFor(model, field) ?? <span />}
        </Box>
      )}
    </Labeled>
  );
}

function Page() {
  const record = useRecordContext<Offer>();
  const translate = useTranslate();
  const area = useArea();
  const navigate = useNavigate();
  if (!record) return null;
  const editPath = isDecided(record.status)
    ? undefined
    : resourceHref(area, 'offers', 'edit', record.id);
  return (
    <Box sx={{ mt: 2 }} data-testid="offer-show">
      <Title title={`${translate('resources.offers.name', { smart_count: 1 })} #${record.id}`} />
      <Card sx={{ mb: 2 }}>
        <CardContent>
          <Stack
            direction="row"
            useFlexGap
            spacing={1}
            sx={{ alignItems: 'center', flexWrap: 'wrap' }}
          >
            <Typography variant="h5" component="h1" sx={{ mr: 1 }} data-testid="offer-title">
              {translate('resources.offers.name', { smart_count: 1 })} #{record.id}
            </Typography>
            <OfferStatusChip status={record.status} />
          </Stack>
          <Box sx={{ ...GRID, mt: 1 }}>
            {HEAD.map((name) => (
              <Field key={name} name={name} />
            ))}
          </Box>
          <Stack direction="row" useFlexGap spacing={1} sx={{ mt: 1, flexWrap: 'wrap' }}>
            <OfferActions offer={record} />
            {editPath ? (
              <Button
                label="ra.action.edit"
                onClick={() => navigate(editPath)}
                data-testid="offer-edit"
              >
                <EditIcon />
              </Button>
            ) : null}
            <HistoryButton resource="offers" />
          </Stack>
        </CardContent>
      </Card>
      <Card>
        <CardContent>
          <Box sx={GRID}>
            {DETAILS.map((name) => (
              <Field key={name} name={name} />
            ))}
          </Box>
          {record.comparisonDraftId ? (
            <Box sx={{ mt: 2 }}>
              <Labeled label={fieldLabelKey('offers', 'comparisonDraftId')}>
                <Link
                  component={RouterLink}
                  to={`/financescout24/${record.customerId}/${record.comparisonDraftId}`}
                  data-testid="offer-comparison"
                >
                  {translate('app.fs24.openComparison')}
                </Link>
              </Labeled>
            </Box>
          ) : null}
          {(['coverSummary', 'note'] as const).map((name) => (
            <Box sx={{ mt: 2 }} key={name}>
              <Labeled label={fieldLabelKey('offers', name)}>
                <Typography
                  variant="body2"
                  sx={{ whiteSpace: 'pre-wrap' }}
                  data-testid={`offer-${name}`}
                >
                  {record[name] || '–'}
                </Typography>
              </Labeled>
            </Box>
          ))}
        </CardContent>
      </Card>
    </Box>
  );
}

export default function OfferShow() {
  return (
    <ShowBase resource="offers">
      <Page />
    </ShowBase>
  );
}
