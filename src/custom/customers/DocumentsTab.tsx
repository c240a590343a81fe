/**
 * The documents tab: upload a file to the customer (name, type, what it relates to; progress while
 * it uploads), list the customer's documents, download (as an attachment, with the user's token)
 * and delete them. The server checks the type by content and the size. A PDF can be viewed in the
 * page, and a broker mandate, advice protocol or application sent for signing online; the requests
 * and their signed versions are listed below (../signatures/).
 */
import DeleteIcon from '@mui/icons-material/Delete';
import UploadIcon from '@mui/icons-material/Upload';
import {
  Alert,
  Box,
  Button,
  IconButton,
  LinearProgress,
  MenuItem,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { useRef, useState } from 'react';
import {
  DocumentSignatureActions,
  SignatureRequestsPanel,
  SignedVersionNote,
} from '../signatures/SignatureRequestsPanel.tsx';
import {
  useDelete,
  useGetList,
  useLocale,
  useNotify,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import {
  formatDate,
  formatDateTime,
  formatFileSize,
  formatNumber,
  SERVER_DATE_FORMAT,
} from '../../i18n/format.ts';
import type { ApiRecord } from '../../resources/records.ts';
import { enumKey, fieldLabelKey } from '../../schema/labels.ts';
import { api, messageOf } from '../../dataProvider/apiClient.ts';
import { DocumentDownloadButton } from '../../components/DocumentDownloadButton.tsx';
import { DateFilterField } from '../../components/DateFilterField.tsx';
import dayjs from 'dayjs';
import { documentModel } from './model.ts';

type DocumentRecord = ApiRecord<'documents'>;

function UploadForm({ customerId, onDone }: { customerId: number; onDone: () => void }) {
  const translate = useTranslate();
  const model = documentModel();
  const types = (model.fields.find((field) => field.name === 'documentType')?.enumValues ??
    []) as string[];
  const relations = (model.fields.find((field) => field.name === 'documentRelatedTo')?.enumValues ??
    []) as string[];
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [name, setName] = useState('');
  const [type, setType] = useState('other');
  const [relatedTo, setRelatedTo] = useState('customer');
  // An advice protocol counts for its contract only when signed: its signing day, today by default.
  const [signedOn, setSignedOn] = useState(() => dayjs().format(SERVER_DATE_FORMAT));
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

  const submit = async () => {
    if (!file) return;
    const form = new FormData();
    if (name.trim()) form.append('document_name', name.trim());
    form.append('document_type', type);
    form.append('document_related_to', relatedTo);
    if (type === 'advice_protocol' && signedOn) form.append('signed_on', signedOn);
    form.append('file', file);
    setError(null);
    setProgress(0);
    try {
      await api.upload(`customers/${customerId}/documents`, form, { onUpload: setProgress });
      setFile(null);
      setName('');
      if (input.current) input.current.value = '';
      onDone();
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setProgress(null);
    }
  };

  return (
    <Box
      component="form"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
      sx={{ mb: 2 }}
    >
      {/* Wraps onto more lines on narrow screens; no control is ever squeezed below its text. */}
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'flex-start' }}>
        <Button
          variant="outlined"
          component="label"
          startIcon={<UploadIcon />}
          title={file?.name}
          sx={{ flexShrink: 0, maxWidth: 280, whiteSpace: 'nowrap', mt: 0.25 }}
        >
          <Box
            component="span"
            sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
          >
            {file ? file.name : translate('app.customers.documents.choose')}
          </Box>
          <input
            ref={input}
            type="file"
            hidden
            data-testid="document-file"
            accept=".pdf,.jpg,.jpeg,.png,.gif,.webp,.heic,.heif,.tif,.tiff,.docx,.xlsx,.pptx,.odt,.ods"
            onChange={(event) => setFile(event.target.files?.[0] ?? null)}
          />
        </Button>
        <TextField
          size="small"
          label={translate(fieldLabelKey('documents', 'documentName'))}
          value={name}
          onChange={(event) => setName(event.target.value)}
          inputProps={{ maxLength: 200, 'data-testid': 'document-name' }}
          helperText={translate('app.customers.documents.nameHint')}
          sx={{ flex: '1 1 200px', minWidth: 200 }}
        />
        <TextField
          select
          size="small"
          label={translate(fieldLabelKey('documents', 'documentType'))}
          value={type}
          onChange={(event) => setType(event.target.value)}
          sx={{ flex: '0 1 200px', minWidth: 180 }}
        >
          {types.map((value) => (
            <MenuItem key={value} value={value}>
              {translate(enumKey('documentType', value))}
            </MenuItem>
          ))}
        </TextField>
        {type === 'advice_protocol' ? (
          <DateFilterField
            label={translate(fieldLabelKey('documents', 'signedOn'))}
            value={signedOn}
            onChange={setSignedOn}
            testId="document-signed-on"
            sx={{ flex: '0 1 170px', minWidth: 160 }}
          />
        ) : null}
        <TextField
          select
          size="small"
          label={translate(fieldLabelKey('documents', 'documentRelatedTo'))}
          value={relatedTo}
          onChange={(event) => setRelatedTo(event.target.value)}
          sx={{ flex: '0 1 180px', minWidth: 160 }}
        >
          {relations.map((value) => (
            <MenuItem key={value} value={value}>
              {translate(enumKey('documentRelatedTo', value))}
            </MenuItem>
          ))}
        </TextField>
        <Button
          type="submit"
          variant="contained"
          disabled={!file || progress !== null}
          data-testid="document-upload"
          sx={{ flexShrink: 0, whiteSpace: 'nowrap', mt: 0.25 }}
        >
          {translate('app.customers.documents.upload')}
        </Button>
      </Box>
      {progress !== null ? (
        <LinearProgress variant="determinate" value={progress * 100} sx={{ mt: 1 }} />
      ) : null}
      {error ? (
        <Alert severity="error" sx={{ mt: 1 }} data-testid="document-error">
          {translate(error)}
        </Alert>
      ) : null}
    </Box>
  );
}

export function DocumentsTab() {
  const customer = useRecordContext<ApiRecord<'customers'>>();
  const translate = useTranslate();
  const language = useLocale();
  const notify = useNotify();
  const [remove] = useDelete();
  // Bumped when a signature request was made: the requests below are read again.
  const [requests, setRequests] = useState(0);
  const {
    data = [],
    refetch,
    isPending,
  } = useGetList<DocumentRecord>('documents', {
    filter: { customerId: customer?.id },
    pagination: { page: 1, perPage: 200 },
    sort: { field: 'createdAt', order: 'DESC' },
  });
  if (!customer) return null;
  return (
    <Box>
      <UploadForm customerId={Number(customer.id)} onDone={() => void refetch()} />
      {!isPending && data.length === 0 ? (
        <Typography color="text.secondary">{translate('app.customers.documents.empty')}</Typography>
      ) : (
        <TableContainer>
          <Table size="small" data-testid="documents-table">
            <TableHead>
              <TableRow>
                {['documentName', 'documentType', 'documentRelatedTo'].map((field) => (
                  <TableCell key={field}>{translate(fieldLabelKey('documents', field))}</TableCell>
                ))}
                {/* The size is shown for people (KB, MB), so not under "Size (bytes)". */}
                <TableCell align="right">{translate('app.customers.documents.size')}</TableCell>
                <TableCell>{translate(fieldLabelKey('documents', 'createdAt'))}</TableCell>
                <TableCell />
              </TableRow>
            </TableHead>
            <TableBody>
              {data.map((document) => (
                <TableRow key={document.id}>
                  {/* Long file names without spaces wrap anywhere rather than widen the table. */}
                  <TableCell sx={{ overflowWrap: 'anywhere', minWidth: 160 }}>
                    {document.documentName}
                    <SignedVersionNote document={document} documents={data} />
                  </TableCell>
                  <TableCell>
                    {document.documentType
                      ? translate(enumKey('documentType', document.documentType))
                      : ''}
                    {document.signedOn ? (
                      <Typography variant="body2" color="text.secondary" data-testid="signed-on">
                        {translate('app.customers.documents.signedOn', {
                          date: formatDate(document.signedOn, language),
                        })}
                      </Typography>
                    ) : null}
                  </TableCell>
                  <TableCell>
                    {document.documentRelatedTo
                      ? translate(enumKey('documentRelatedTo', document.documentRelatedTo))
                      : ''}
                  </TableCell>
                  <TableCell
                    align="right"
                    sx={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}
                    title={
                      document.sizeBytes == null
                        ? undefined
                        : translate('app.customers.documents.sizeBytes', {
                            bytes: formatNumber(document.sizeBytes),
                          })
                    }
                  >
                    {formatFileSize(document.sizeBytes)}
                  </TableCell>
                  <TableCell>{formatDateTime(document.createdAt, language)}</TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    <DocumentSignatureActions
                      document={document}
                      onChanged={() => setRequests((count) => count + 1)}
                    />
                    <DocumentDownloadButton document={document} testId="document-download" />
                    <IconButton
                      size="small"
                      aria-label={translate('ra.action.delete')}
                      onClick={() =>
                        remove(
                          'documents',
                          { id: document.id, previousData: document },
                          {
                            mutationMode: 'pessimistic',
                            onSuccess: () => void refetch(),
                            onError: () => notify('ra.notification.http_error', { type: 'error' }),
                          },
                        )
                      }
                    >
                      <DeleteIcon fontSize="small" />
                    </IconButton>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      <SignatureRequestsPanel filter={{ customerId: Number(customer.id) }} refreshKey={requests} />
    </Box>
  );
}
