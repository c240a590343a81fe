/**
 * A contract's page (closure or non-closure): a header (number, product, insurer, status, the
 * "protocol missing" chip, edit in the admin area, cancel contract, history, delete with
 * delete-contracts: ./ContractActions.tsx) and the sections of the schema's
 * `x-group`s — contract, dates, insurance (main insurance, supplementary insurances), coverage
 * (P&C lines; finance amount and rate), commissions, previous insurance, the client at signing —
 * the overview with the figures the server computes (annual premium, production sum, total
 * commission) and the contract's documents (documents with contractId = this contract; a document
 * of the customer can be attached here).
 */
import EditIcon from '@mui/icons-material/Edit';
import UploadIcon from '@mui/icons-material/Upload';
import {
  Alert,
  Box,
  Card,
  CardContent,
  Chip,
  LinearProgress,
  MenuItem,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import dayjs from 'dayjs';
import { type ReactNode, useRef, useState } from 'react';
import {
  Button,
  Labeled,
  ReferenceArrayField,
  ReferenceField,
  RecordContextProvider,
  ShowBase,
  Title,
  useGetList,
  useLocale,
  useNotify,
  useRecordContext,
  useRefresh,
  useTranslate,
  useUpdate,
} from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { api, messageOf } from '../../dataProvider/apiClient.ts';
import {
  formatChf,
  formatDate,
  formatDateTime,
  formatNumber,
  SERVER_DATE_FORMAT,
} from '../../i18n/format.ts';
import { fieldFor } from '../../resources/fields.tsx';
import { HistoryButton } from '../../resources/history/HistoryButton.tsx';
import type { ApiRecord } from '../../resources/records.ts';
import { getModel } from '../../resources/registry.ts';
import { enumKey, fieldLabelKey } from '../../schema/labels.ts';
import { contractHref } from '../../shell/paths.ts';
import { useArea } from '../../shell/area.ts';
import { DocumentDownloadButton } from '../../components/DocumentDownloadButton.tsx';
import {
  DocumentSignatureActions,
  SignatureRequestsPanel,
  SignedVersionNote,
} from '../signatures/SignatureRequestsPanel.tsx';
import { DateFilterField } from '../../components/DateFilterField.tsx';
import { CancelContractButton, DeleteContractButton } from './ContractActions.tsx';
import { CommissionsTable } from './CommissionsTable.tsx';
import { MemberName } from './fields.tsx';
import { type Contract, contractModel, contractTypeOf, fieldOf } from './model.ts';

const GRID = {
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fill, minmax(200px, 1fr))',
  gap: 2,
} as const;

const empty = (value: unknown) =>
  value === null ||
  value === undefined ||
  value === '' ||
  (Array.isArray(value) && value.length === 0);

function Dash() {
  return (
    <Typography variant="body2" color="text.disabled">
      –
    </Typography>
  );
}

function Section({
  title,
  testId,
  children,
}: {
  title: string;
  testId: string;
  children: ReactNode;
}) {
  const translate = useTranslate();
  return (
    <Card sx={{ mb: 2 }} data-testid={`contract-section-${testId}`}>
      <CardContent>
        <Typography variant="subtitle2" color="text.secondary" sx={{ mb: 1 }}>
          {translate(title)}
        </Typography>
        {children}
      </CardContent>
    </Card>
  );
}

/** Top-level fields of the contract, each labelled, a dash when empty. */
function Fields({ names }: { names: string[] }) {
  const record = useRecordContext<Contract>();
  const translate = useTranslate();
  const model = contractModel();
  return (
    <Box sx={GRID}>
      {names.map((name) => {
        const value = (record as Record<string, unknown> | undefined)?.[name];
        if (name === 'householdMemberId') {
          // The insured person: a household member, else the customer.
          return (
            <Labeled key={name} label="app.contracts.fields.insuredPerson">
              {value ? (
                <MemberName />
              ) : (
                <Typography variant="body2">
                  {translate('app.contracts.insuredIsCustomer')}
                </Typography>
              )}
            </Labeled>
          );
        }
        const element = fieldFor(model, fieldOf(name));
        if (!element) return null;
        return (
          <Labeled key={name} label={fieldLabelKey('contracts', name)}>
            {empty(value) ? <Dash /> : element}
          </Labeled>
        );
      })}
    </Box>
  );
}

/** A labelled value of a nested object (insurance, coverage, …). */
function Value({
  label,
  children,
  testId,
}: {
  label: string;
  children: ReactNode;
  testId?: string;
}) {
  const translate = useTranslate();
  return (
    <Box data-testid={testId}>
      <Typography variant="caption" color="text.secondary" component="div">
        {translate(label)}
      </Typography>
      <Box sx={{ typography: 'body2' }}>{empty(children) ? <Dash /> : children}</Box>
    </Box>
  );
}

const chf = (value: unknown) => (typeof value === 'number' ? formatChf(value) : null);

function SubProductName({ id }: { id: number | undefined }) {
  if (!id) return null;
  return (
    <RecordContextProvider value={{ id: 0, subProductId: id }}>
      <ReferenceField source="subProductId" reference="sub-products" link={false} />
    </RecordContextProvider>
  );
}

function VariantName({ id }: { id: number | undefined }) {
  if (!id) return null;
  return (
    <RecordContextProvider value={{ id: 0, variantId: id }}>
      <ReferenceField source="variantId" reference="sub-product-variants" link={false} />
    </RecordContextProvider>
  );
}

function InsuranceSection() {
  const record = useRecordContext<Contract>();
  const translate = useTranslate();
  if (!record) return null;
  const insurance = record.insurance ?? {};
  const supplementary = record.supplementaryInsurances ?? [];
  return (
    <Section title="app.contracts.sections.insurance" testId="insurance">
      <Box sx={GRID}>
        <Value label={fieldLabelKey('contracts', 'insurance.subProductId')}>
          {insurance.subProductId ? <SubProductName id={insurance.subProductId} /> : null}
        </Value>
        <Value label={fieldLabelKey('contracts', 'insurance.subProductVariantId')}>
          {insurance.subProductVariantId ? (
            <VariantName id={insurance.subProductVariantId} />
          ) : null}
        </Value>
        <Value label={fieldLabelKey('contracts', 'insurance.deductible')} testId="show-deductible">
          {chf(insurance.deductible)}
        </Value>
        <Value label={fieldLabelKey('contracts', 'insurance.premium')} testId="show-premium">
          {chf(insurance.premium)}
        </Value>
        <Value label={fieldLabelKey('contracts', 'insurance.termYears')}>
          {insurance.termYears ?? null}
        </Value>
      </Box>
      <Typography variant="subtitle2" color="text.secondary" sx={{ mt: 2, mb: 1 }}>
        {translate('app.contracts.sections.supplementary')}
      </Typography>
      {supplementary.length === 0 ? (
        <Dash />
      ) : (
        <Table size="small" data-testid="show-supplementary">
          <TableHead>
            <TableRow>
              <TableCell>{translate('app.contracts.fields.subProduct')}</TableCell>
              <TableCell>{translate('app.contracts.fields.variant')}</TableCell>
              <TableCell align="right">{translate('app.contracts.fields.premiumMonth')}</TableCell>
              <TableCell>{translate('app.contracts.fields.note')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {supplementary.map((line, index) => (
              <TableRow key={index}>
                <TableCell>
                  <SubProductName id={line.subProductId} />
                </TableCell>
                <TableCell>
                  <VariantName id={line.subProductVariantId} />
                </TableCell>
                <TableCell align="right">{chf(line.premiumMonth)}</TableCell>
                <TableCell>{line.note}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Section>
  );
}

function CoverageSection() {
  const record = useRecordContext<Contract>();
  const translate = useTranslate();
  if (!record) return null;
  const coverage = record.coverage ?? {};
  const lines = coverage.lines ?? [];
  return (
    <Section title="app.contracts.sections.coverage" testId="coverage">
      <Box sx={GRID}>
        <Value label={fieldLabelKey('contracts', 'coverage.closureType')}>
          {coverage.closureType ? translate(enumKey('closureType', coverage.closureType)) : null}
        </Value>
        <Value label={fieldLabelKey('contracts', 'coverage.insuranceGroupType')}>
          {coverage.insuranceGroupType
            ? translate(enumKey('insuranceGroupType', coverage.insuranceGroupType))
            : null}
        </Value>
        <Value label={fieldLabelKey('contracts', 'coverage.totalBasicPremium')}>
          {chf(coverage.totalBasicPremium)}
        </Value>
        <Value label={fieldLabelKey('contracts', 'coverage.amount')} testId="show-amount">
          {chf(coverage.amount)}
        </Value>
        <Value label={fieldLabelKey('contracts', 'coverage.interestRate')}>
          {typeof coverage.interestRate === 'number'
            ? `${formatNumber(coverage.interestRate, { decimals: 2 })} %`
            : null}
        </Value>
      </Box>
      <Typography variant="subtitle2" color="text.secondary" sx={{ mt: 2, mb: 1 }}>
        {translate('resources.contracts.fields.coverage.lines')}
      </Typography>
      {lines.length === 0 ? (
        <Dash />
      ) : (
        <Table size="small" data-testid="show-coverage-lines">
          <TableHead>
            <TableRow>
              <TableCell>{translate('app.contracts.fields.coverage')}</TableCell>
              <TableCell align="right">{translate('app.contracts.fields.sum')}</TableCell>
              <TableCell align="right">{translate('app.contracts.fields.deductible')}</TableCell>
              <TableCell align="right">{translate('app.contracts.fields.premium')}</TableCell>
              <TableCell>{translate('app.contracts.fields.note')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {lines.map((line, index) => (
              <TableRow key={index}>
                <TableCell>{line.coverage}</TableCell>
                <TableCell align="right">{chf(line.sum)}</TableCell>
                <TableCell align="right">{chf(line.deductible)}</TableCell>
                <TableCell align="right">{chf(line.premium)}</TableCell>
                <TableCell>{line.note}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Section>
  );
}

function CommissionsSection() {
  const record = useRecordContext<Contract>();
  if (!record) return null;
  return (
    <Section title="app.contracts.sections.commissions" testId="commissions">
      <CommissionsTable lines={record.commissions} />
    </Section>
  );
}

function PreviousSection() {
  const record = useRecordContext<Contract>();
  const translate = useTranslate();
  const locale = useLocale();
  if (!record) return null;
  const previous = record.previousInsurance ?? {};
  const key = (name: string) => fieldLabelKey('contracts', `previousInsurance.${name}`);
  return (
    <Section title="app.contracts.sections.previous" testId="previous">
      <Box sx={GRID}>
        <Value label={key('previousCompanies')}>
          {previous.previousCompanies?.length ? (
            <RecordContextProvider value={{ id: 0, companies: previous.previousCompanies }}>
              <ReferenceArrayField source="companies" reference="companies" />
            </RecordContextProvider>
          ) : null}
        </Value>
        <Value label={key('terminationResponsible')}>
          {previous.terminationResponsible
            ? translate(enumKey('terminationResponsible', previous.terminationResponsible))
            : null}
        </Value>
        <Value label={key('terminationDate')}>
          {previous.terminationDate ? formatDate(previous.terminationDate, locale) : null}
        </Value>
        <Value label={key('reason')}>{previous.reason}</Value>
        <Value label={key('terminationNote')}>{previous.terminationNote}</Value>
        <Value label={key('terminationConsultantNote')}>{previous.terminationConsultantNote}</Value>
      </Box>
    </Section>
  );
}

function ClientSection() {
  const record = useRecordContext<Contract>();
  const translate = useTranslate();
  if (!record) return null;
  const client = record.client ?? {};
  const key = (name: string) => fieldLabelKey('contracts', `client.${name}`);
  return (
    <Section title="app.contracts.sections.client" testId="client">
      <Box sx={GRID}>
        <Value label={key('nationality')}>
          {client.nationality ? translate(enumKey('country', client.nationality)) : null}
        </Value>
        <Value label={key('occupation')}>{client.occupation}</Value>
        <Value label={key('permitType')}>
          {client.permitType ? translate(enumKey('permitType', client.permitType)) : null}
        </Value>
      </Box>
    </Section>
  );
}

function OverviewSection() {
  const record = useRecordContext<Contract>();
  if (!record) return null;
  return (
    <Section title="app.contracts.sections.overview" testId="overview">
      <Box sx={GRID}>
        <Value label={fieldLabelKey('contracts', 'contractNumber')}>{record.contractNumber}</Value>
        <Value label={fieldLabelKey('contracts', 'annualPremium')} testId="show-annual-premium">
          {chf(record.annualPremium)}
        </Value>
        <Value label={fieldLabelKey('contracts', 'productionSum')} testId="show-production-sum">
          {chf(record.productionSum)}
        </Value>
        <Value label={fieldLabelKey('contracts', 'totalCommission')} testId="show-total-commission">
          {chf(record.totalCommission)}
        </Value>
      </Box>
      <Box sx={{ mt: 2 }}>
        <Value label={fieldLabelKey('contracts', 'note')} testId="show-note">
          {record.note ? <Box sx={{ whiteSpace: 'pre-wrap' }}>{record.note}</Box> : null}
        </Value>
      </Box>
    </Section>
  );
}

type DocumentRecord = ApiRecord<'documents'>;

/** The document type a health closure needs, signed (server/contracts/hooks.ts). */
const ADVICE_PROTOCOL = 'advice_protocol';

/** Uploads a file as a document of the contract (the customer's documents route, contract_id). */
function UploadToContract({ contract, onDone }: { contract: Contract; onDone: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const input = useRef<HTMLInputElement>(null);
  const types = (getModel('documents').fields.find((field) => field.name === 'documentType')
    ?.enumValues ?? []) as string[];
  const [type, setType] = useState(contract.productGroup === 'health' ? ADVICE_PROTOCOL : 'policy');
  // An advice protocol counts only when signed: its signing day, today by default.
  const [signedOn, setSignedOn] = useState(() => dayjs().format(SERVER_DATE_FORMAT));
  const [progress, setProgress] = useState<number | null>(null);
  const upload = async (file: File) => {
    const form = new FormData();
    form.append('document_type', type);
    if (type === ADVICE_PROTOCOL && signedOn) form.append('signed_on', signedOn);
    form.append('document_related_to', 'contract');
    form.append('contract_id', String(contract.id));
    form.append('file', file);
    setProgress(0);
    try {
      await api.upload(`customers/${contract.customerId}/documents`, form, {
        onUpload: setProgress,
      });
      onDone();
    } catch (failure) {
      notify(messageOf(failure), { type: 'error' });
    } finally {
      setProgress(null);
      if (input.current) input.current.value = '';
    }
  };
  return (
    <Stack
      direction="row"
      useFlexGap
      spacing={2}
      sx={{ mt: 2, alignItems: 'center', flexWrap: 'wrap' }}
    >
      <TextField
        select
        size="small"
        label={translate('resources.documents.fields.documentType')}
        value={type}
        onChange={(event) => setType(event.target.value)}
        sx={{ minWidth: 220 }}
        slotProps={{ htmlInput: { name: 'uploadDocumentType' } }}
      >
        {types.map((value) => (
          <MenuItem key={value} value={value}>
            {translate(enumKey('documentType', value))}
          </MenuItem>
        ))}
      </TextField>
      {type === ADVICE_PROTOCOL ? (
        <DateFilterField
          label={translate(fieldLabelKey('documents', 'signedOn'))}
          value={signedOn}
          onChange={setSignedOn}
          testId="contract-document-signed-on"
          sx={{ width: 170 }}
        />
      ) : null}
      <input
        ref={input}
        type="file"
        hidden
        data-testid="contract-document-file"
        onChange={(event) => {
          const file = event.target.files?.[0];
          if (file) void upload(file);
        }}
      />
      <Button
        label="app.contracts.documents.upload"
        onClick={() => input.current?.click()}
        disabled={progress !== null}
        data-testid="contract-document-upload"
      >
        <UploadIcon />
      </Button>
      {progress !== null ? (
        <LinearProgress variant="determinate" value={progress * 100} sx={{ width: 160 }} />
      ) : null}
    </Stack>
  );
}

/** The contract's documents; a document of the customer not yet on a contract can be attached. */
function DocumentsSection() {
  const record = useRecordContext<Contract>();
  const translate = useTranslate();
  const locale = useLocale();
  const notify = useNotify();
  const area = useArea();
  const [update] = useUpdate();
  const refresh = useRefresh();
  const [choice, setChoice] = useState('');
  // Bumped when a signature request was made: the requests below are read again.
  const [requests, setRequests] = useState(0);
  const { data: documents = [], refetch } = useGetList<DocumentRecord>(
    'documents',
    {
      filter: { contractId: record?.id },
      pagination: { page: 1, perPage: 100 },
      sort: { field: 'createdAt', order: 'DESC' },
    },
    { enabled: Boolean(record?.id) },
  );
  const { data: customerDocuments = [], refetch: refetchCustomer } = useGetList<DocumentRecord>(
    'documents',
    {
      filter: { customerId: record?.customerId },
      pagination: { page: 1, perPage: 200 },
      sort: { field: 'createdAt', order: 'DESC' },
    },
    { enabled: Boolean(record?.customerId) && area === 'admin' },
  );
  if (!record) return null;
  const attachable = customerDocuments.filter((document) => !document.contractId);
  const attach = (id: string) => {
    const document = attachable.find((candidate) => String(candidate.id) === id);
    if (!document) return;
    void update(
      'documents',
      {
        id: document.id,
        data: { contractId: record.id, documentRelatedTo: 'contract' },
        previousData: document,
      },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          setChoice('');
          void refetch();
          void refetchCustomer();
          refresh();
        },
        onError: (error) => notify(messageOf(error), { type: 'error' }),
      },
    );
  };
  return (
    <Section title="app.contracts.sections.documents" testId="documents">
      {documents.length === 0 ? (
        <Typography variant="body2" color="text.secondary" data-testid="contract-documents-empty">
          {translate('app.contracts.documents.none')}
        </Typography>
      ) : (
        <Table size="small" data-testid="contract-documents">
          <TableHead>
            <TableRow>
              <TableCell>{translate('resources.documents.fields.documentName')}</TableCell>
              <TableCell>{translate('resources.documents.fields.documentType')}</TableCell>
              <TableCell>{translate('resources.documents.fields.createdAt')}</TableCell>
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            {documents.map((document) => (
              <TableRow key={document.id}>
                <TableCell sx={{ overflowWrap: 'anywhere' }}>
                  {document.documentName}
                  <SignedVersionNote document={document} documents={documents} />
                </TableCell>
                <TableCell>
                  {document.documentType
                    ? translate(enumKey('documentType', document.documentType))
                    : null}
                  {document.signedOn ? (
                    <Typography variant="body2" color="text.secondary" data-testid="signed-on">
                      {translate('app.customers.documents.signedOn', {
                        date: formatDate(document.signedOn, locale),
                      })}
                    </Typography>
                  ) : null}
                </TableCell>
                <TableCell>{formatDateTime(document.createdAt, locale)}</TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  <DocumentSignatureActions
                    document={document}
                    onChanged={() => setRequests((count) => count + 1)}
                  />
                  <DocumentDownloadButton document={document} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      <SignatureRequestsPanel
        filter={{ contractId: Number(record.id) }}
        refreshKey={requests}
        onChanged={refresh}
      />
      <UploadToContract
        contract={record}
        onDone={() => {
          void refetch();
          refresh();
        }}
      />
      {area === 'admin' && attachable.length > 0 ? (
        <TextField
          select
          size="small"
          label={translate('app.contracts.documents.attach')}
          value={choice}
          onChange={(event) => {
            setChoice(event.target.value);
            attach(event.target.value);
          }}
          sx={{ mt: 2, minWidth: 320 }}
          slotProps={{ htmlInput: { name: 'attachDocument' } }}
        >
          {attachable.map((document) => (
            <MenuItem key={document.id} value={String(document.id)}>
              {document.documentName}
            </MenuItem>
          ))}
        </TextField>
      ) : null}
    </Section>
  );
}

function Header() {
  const record = useRecordContext<Contract>();
  const translate = useTranslate();
  const area = useArea();
  const navigate = useNavigate();
  if (!record) return null;
  const type = contractTypeOf(record);
  const editPath = contractHref(area, type, 'edit', record.id);
  return (
    <Card sx={{ mb: 2 }}>
      <CardContent>
        <Stack
          direction="row"
          useFlexGap
          spacing={1}
          sx={{ alignItems: 'center', flexWrap: 'wrap' }}
        >
          <Typography variant="h5" component="h1" data-testid="contract-title">
            {record.contractNumber ?? translate(`enums.contractType.${type}`)}
          </Typography>
          <Chip size="small" label={translate(`enums.contractType.${type}`)} />
          {record.status && type === 'closure' ? (
            <Chip
              size="small"
              variant="outlined"
              label={translate(enumKey('contractStatus', record.status))}
            />
          ) : null}
          {record.protocolMissing ? (
            <Chip
              size="small"
              color="warning"
              label={translate('app.contracts.protocolMissing')}
              title={translate('app.contracts.protocolMissingHint')}
              data-testid="protocol-missing"
            />
          ) : null}
        </Stack>
        <Stack direction="row" useFlexGap spacing={1} sx={{ mt: 1, flexWrap: 'wrap' }}>
          {editPath ? (
            <Button
              label="ra.action.edit"
              onClick={() => navigate(editPath)}
              data-testid="contract-edit"
            >
              <EditIcon />
            </Button>
          ) : null}
          <CancelContractButton />
          <HistoryButton resource="contracts" />
          <Box sx={{ flex: 1 }} />
          <DeleteContractButton />
        </Stack>
      </CardContent>
    </Card>
  );
}

function Page() {
  const record = useRecordContext<Contract>();
  const translate = useTranslate();
  if (!record) return null;
  const type = contractTypeOf(record);
  const closure = type === 'closure';
  return (
    <Box sx={{ mt: 2 }} data-testid="contract-show">
      <Title title={record.contractNumber ?? translate(`enums.contractType.${type}`)} />
      <Header />
      {!closure && !record.reason ? (
        <Alert severity="warning" sx={{ mb: 2 }}>
          {translate('app.contracts.reasonMissing')}
        </Alert>
      ) : null}
      <Section title="app.contracts.sections.contract" testId="contract">
        <Fields
          names={[
            'customerId',
            'householdMemberId',
            'category',
            'businessName',
            'productGroup',
            'productId',
            'companyId',
            'contractNumber',
            'altContractNumber',
            ...(closure ? ['status', 'brokerMandate', 'isPrecrmClosure'] : ['reason']),
            'consultantId',
            'finmaConsultant',
          ]}
        />
      </Section>
      <OverviewSection />
      <Section title="app.contracts.sections.dates" testId="dates">
        <Fields names={['signingDate', 'startDate', 'endDate', 'paymentCycle']} />
      </Section>
      <InsuranceSection />
      <CoverageSection />
      <CommissionsSection />
      <PreviousSection />
      <ClientSection />
      <DocumentsSection />
    </Box>
  );
}

export default function ContractShow() {
  return (
    <ShowBase resource="contracts">
      <Page />
    </ShowBase>
  );
}
