/**
 * The contract export page (contract-export-page; admin `contracts/export`): the contracts list's
 * filters — contract type, product group and product, insurer, status or reason, assignment,
 * search — plus the signing, start and end date ranges, and the format (CSV or Excel). The server
 * (`GET /api/contracts/report`) streams the contracts the user sees; the browser saves the file.
 */
import DownloadIcon from '@mui/icons-material/Download';
import {
  Box,
  Button,
  Card,
  CardContent,
  FormControl,
  FormControlLabel,
  FormLabel,
  MenuItem,
  Radio,
  RadioGroup,
  Stack,
  TextField,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import { lazy, Suspense, useState } from 'react';
import { Title, useGetList, useLocaleState, useNotify, useTranslate } from 'react-admin';
import { api, messageOf } from '../../dataProvider/apiClient.ts';
import { listQuery } from '../../dataProvider/index.ts';
import type { ApiRecord } from '../../resources/records.ts';
import { enumKey, fieldLabelKey } from '../../schema/labels.ts';

const DateFilterField = lazy(() =>
  import('../../components/DateFilterField.tsx').then((module) => ({
    default: module.DateFilterField,
  })),
);

const CONTRACT_TYPES = ['closure', 'non-closure'] as const;
const GROUPS = ['health', 'life', 'property_casualty', 'finance', 'other'] as const;
const STATUSES = ['application', 'active', 'terminated', 'cancelled', 'rejected'] as const;
const REASONS = [
  'price',
  'stayed_with_insurer',
  'health_questions',
  'rejected_by_insurer',
  'no_need',
  'postponed',
  'other',
] as const;
const ASSIGNMENTS = ['all', 'me', 'unassigned'] as const;
const RANGES = ['signingDate', 'startDate', 'endDate'] as const;
type Range = (typeof RANGES)[number];
type Format = 'csv' | 'xlsx';

const companyName = (company: ApiRecord<'companies'>, locale: string): string => {
  const localized = {
    de: company.nameDe,
    fr: company.nameFr,
    it: company.nameIt,
    en: company.nameEn,
  }[locale];
  return localized || company.nameDe;
};

export default function ContractExportPage() {
  const translate = useTranslate();
  const notify = useNotify();
  const [locale] = useLocaleState();
  const [contractType, setContractType] = useState<string>('closure');
  const [productGroup, setProductGroup] = useState('');
  const [productId, setProductId] = useState('');
  const [companyId, setCompanyId] = useState('');
  const [status, setStatus] = useState('');
  const [reason, setReason] = useState('');
  const [assignment, setAssignment] = useState<(typeof ASSIGNMENTS)[number]>('all');
  const [search, setSearch] = useState('');
  const [dates, setDates] = useState<Record<string, string>>({});
  const [format, setFormat] = useState<Format>('xlsx');
  const [busy, setBusy] = useState(false);

  const { data: products = [] } = useGetList<ApiRecord<'products'>>('products', {
    pagination: { page: 1, perPage: 200 },
    sort: { field: 'id', order: 'ASC' },
    filter: productGroup ? { group: productGroup } : {},
  });
  const { data: companies = [] } = useGetList<ApiRecord<'companies'>>('companies', {
    pagination: { page: 1, perPage: 500 },
    sort: { field: 'id', order: 'ASC' },
  });
  const collator = new Intl.Collator(locale);
  const sortedCompanies = [...companies].sort((a, b) =>
    collator.compare(companyName(a, locale), companyName(b, locale)),
  );

  const invalid = (range: Range) => {
    const from = dates[`${range}_gte`];
    const until = dates[`${range}_lte`];
    return Boolean(from && until && from > until);
  };
  const anyInvalid = RANGES.some(invalid);
  const closure = contractType === 'closure';

  const run = async () => {
    const filter: Record<string, unknown> = {
      q: search.trim() || undefined,
      contractType: contractType || undefined,
      productGroup: productGroup || undefined,
      productId: productId ? Number(productId) : undefined,
      companyId: companyId ? Number(companyId) : undefined,
      status: closure && status ? status : undefined,
      reason: !closure && reason ? reason : undefined,
      assignment: assignment === 'all' ? undefined : assignment,
      ...Object.fromEntries(Object.entries(dates).filter(([, value]) => value)),
    };
    const query = listQuery({ filter, sort: { field: 'createdAt', order: 'DESC' } });
    query.set('format', format);
    query.set('language', locale);
    setBusy(true);
    try {
      await api.download(`contracts/report?${query}`, `contracts.${format}`);
    } catch (error) {
      notify(messageOf(error), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };

  const select = (
    label: string,
    value: string,
    onChange: (value: string) => void,
    options: Array<{ value: string; label: string }>,
    testId: string,
  ) => (
    <TextField
      select
      size="small"
      label={label}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      sx={{ flex: '1 1 220px', minWidth: 200 }}
      slotProps={{ htmlInput: { 'data-testid': testId } }}
    >
      <MenuItem value="">
        <em>{translate('app.contractExport.any')}</em>
      </MenuItem>
      {options.map((option) => (
        <MenuItem key={option.value} value={option.value}>
          {option.label}
        </MenuItem>
      ))}
    </TextField>
  );

  return (
    <Box sx={{ mt: 2, maxWidth: 1100 }} data-testid="contract-export-page">
      <Title title={translate('app.contractExport.title')} />
      <Card>
        <CardContent>
          <Typography variant="h6" component="h1" gutterBottom>
            {translate('app.contractExport.title')}
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 3 }}>
            {translate('app.contractExport.text')}
          </Typography>

          <Typography variant="subtitle2" component="h2" sx={{ mb: 1.5 }}>
            {translate('app.contractExport.filters')}
          </Typography>
          <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 2, mb: 2 }}>
            {select(
              translate(fieldLabelKey('contracts', 'contractType')),
              contractType,
              (value) => {
                setContractType(value);
                setStatus('');
                setReason('');
              },
              CONTRACT_TYPES.map((value) => ({
                value,
                label: translate(enumKey('contractType', value)),
              })),
              'export-contract-type',
            )}
            {select(
              translate(fieldLabelKey('contracts', 'productGroup')),
              productGroup,
              (value) => {
                setProductGroup(value);
                setProductId('');
              },
              GROUPS.map((value) => ({ value, label: translate(enumKey('productGroup', value)) })),
              'export-product-group',
            )}
            {select(
              translate(fieldLabelKey('contracts', 'productId')),
              productId,
              setProductId,
              products.map((product) => ({
                value: String(product.id),
                label: translate(`products.${product.key}`),
              })),
              'export-product',
            )}
            {select(
              translate(fieldLabelKey('contracts', 'companyId')),
              companyId,
              setCompanyId,
              sortedCompanies.map((company) => ({
                value: String(company.id),
                label: companyName(company, locale),
              })),
              'export-company',
            )}
            {closure
              ? select(
                  translate(fieldLabelKey('contracts', 'status')),
                  status,
                  setStatus,
                  STATUSES.map((value) => ({
                    value,
                    label: translate(enumKey('contractStatus', value)),
                  })),
                  'export-status',
                )
              : select(
                  translate(fieldLabelKey('contracts', 'reason')),
                  reason,
                  setReason,
                  REASONS.map((value) => ({
                    value,
                    label: translate(enumKey('nonClosureReason', value)),
                  })),
                  'export-reason',
                )}
            <TextField
              size="small"
              label={translate('ra.action.search')}
              value={search}
              onChange={(event) => setSearch(event.target.value)}
              sx={{ flex: '1 1 220px', minWidth: 200 }}
              slotProps={{ htmlInput: { 'data-testid': 'export-search', maxLength: 200 } }}
            />
          </Stack>
          <Stack direction="row" sx={{ alignItems: 'center', gap: 2, mb: 3 }}>
            <Typography variant="body2" id="export-assignment-label">
              {translate('app.contracts.assignment.label')}
            </Typography>
            <ToggleButtonGroup
              size="small"
              exclusive
              value={assignment}
              onChange={(_event, value: (typeof ASSIGNMENTS)[number] | null) =>
                value && setAssignment(value)
              }
              aria-labelledby="export-assignment-label"
            >
              {ASSIGNMENTS.map((value) => (
                <ToggleButton key={value} value={value} data-testid={`export-assignment-${value}`}>
                  {translate(`app.contracts.assignment.${value}`)}
                </ToggleButton>
              ))}
            </ToggleButtonGroup>
          </Stack>

          <Typography variant="subtitle2" component="h2" sx={{ mb: 1.5 }}>
            {translate('app.contractExport.dateRanges')}
          </Typography>
          <Stack spacing={1.5} sx={{ mb: 3 }}>
            <Suspense fallback={null}>
              {RANGES.map((range) => (
                <Stack key={range} direction="row" sx={{ alignItems: 'flex-start', columnGap: 2 }}>
                  <Typography
                    variant="body2"
                    id={`export-${range}-label`}
                    sx={{ width: 180, pt: 1.25, fontWeight: 500 }}
                  >
                    {translate(fieldLabelKey('contracts', range))}
                  </Typography>
                  <DateFilterField
                    label={translate('app.contractExport.from')}
                    value={dates[`${range}_gte`] ?? ''}
                    onChange={(value) => setDates((all) => ({ ...all, [`${range}_gte`]: value }))}
                    testId={`export-${range}-from`}
                    sx={{ width: 210 }}
                  />
                  <DateFilterField
                    label={translate('app.contractExport.until')}
                    value={dates[`${range}_lte`] ?? ''}
                    onChange={(value) => setDates((all) => ({ ...all, [`${range}_lte`]: value }))}
                    error={invalid(range)}
                    helperText={
                      invalid(range) ? translate('app.contractExport.untilBeforeFrom') : undefined
                    }
                    testId={`export-${range}-until`}
                    sx={{ width: 210 }}
                  />
                </Stack>
              ))}
            </Suspense>
          </Stack>

          <Stack
            direction="row"
            sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', gap: 2 }}
          >
            <FormControl>
              <FormLabel id="export-format-label">
                {translate('app.contractExport.format')}
              </FormLabel>
              <RadioGroup
                row
                aria-labelledby="export-format-label"
                value={format}
                onChange={(event) => setFormat(event.target.value as Format)}
              >
                <FormControlLabel
                  value="xlsx"
                  control={<Radio data-testid="export-format-xlsx" />}
                  label={translate('app.contractExport.xlsx')}
                />
                <FormControlLabel
                  value="csv"
                  control={<Radio data-testid="export-format-csv" />}
                  label={translate('app.contractExport.csv')}
                />
              </RadioGroup>
            </FormControl>
            <Button
              variant="contained"
              startIcon={<DownloadIcon />}
              onClick={run}
              disabled={busy || anyInvalid}
              data-testid="export-download"
            >
              {translate('app.contractExport.download')}
            </Button>
          </Stack>
        </CardContent>
      </Card>
    </Box>
  );
}
