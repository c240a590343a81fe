/**
 * The documents tab: upload a file to the customer (name, type, what it relates to; progress while
 * it uploads), list the customer's documents, download (as an attachment, with the user's token)
 * and delete them. The server checks the type by content and the size.
 */
import DeleteIcon from '@mui/icons-material/Delete';
import DownloadIcon from '@mui/icons-material/Download';
import UploadIcon from '@mui/icons-material/Upload';
import {
  Alert,
  Box,
  Button,
  IconButton,
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
import { useRef, useState } from 'react';
import {
  useDelete,
  useGetList,
  useLocale,
  useNotify,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { formatDateTime } from '../../i18n/format.ts';
import type { ApiRecord } from '../../resources/records.ts';
import { enumKey, fieldLabelKey } from '../../schema/labels.ts';
import { api, messageOf } from '../../dataProvider/apiClient.ts';
import { documentModel } from './model.ts';

type DocumentRecord = ApiRecord<'documents'>;

const size = (bytes: number | null | undefined) =>
  !bytes
    ? ''
    : bytes >= 1024 * 1024
      ? `${(bytes / 1024 / 1024).toFixed(1)} MB`
      : `${Math.ceil(bytes / 1024)} KB`;

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
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

  const submit = async () => {
    if (!file) return;
    const form = new FormData();
    if (name.trim()) form.append('document_name', name.trim());
    form.append('document_type', type);
    form.append('document_related_to', relatedTo);
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
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} alignItems={{ md: 'center' }}>
        <Button variant="outlined" component="label" startIcon={<UploadIcon />}>
          {file ? file.name : translate('app.customers.documents.choose')}
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
        />
        <TextField
          select
          size="small"
          label={translate(fieldLabelKey('documents', 'documentType'))}
          value={type}
          onChange={(event) => setType(event.target.value)}
          sx={{ minWidth: 180 }}
        >
          {types.map((value) => (
            <MenuItem key={value} value={value}>
              {translate(enumKey('documentType', value))}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          size="small"
          label={translate(fieldLabelKey('documents', 'documentRelatedTo'))}
          value={relatedTo}
          onChange={(event) => setRelatedTo(event.target.value)}
          sx={{ minWidth: 160 }}
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
        >
          {translate('app.customers.documents.upload')}
        </Button>
      </Stack>
      {progress !== null ? (
        <LinearProgress variant="determinate" value={progress * 100} sx={{ mt: 1 }} />
      ) : null}
      {error ? (
        <Alert severity="error" sx={{ mt: 1 }} data-testid="document-error">
          {error}
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
        <Table size="small" data-testid="documents-table">
          <TableHead>
            <TableRow>
              {['documentName', 'documentType', 'documentRelatedTo', 'sizeBytes', 'createdAt'].map(
                (field) => (
                  <TableCell key={field}>{translate(fieldLabelKey('documents', field))}</TableCell>
                ),
              )}
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            {data.map((document) => (
              <TableRow key={document.id}>
                <TableCell>{document.documentName}</TableCell>
                <TableCell>
                  {document.documentType
                    ? translate(enumKey('documentType', document.documentType))
                    : ''}
                </TableCell>
                <TableCell>
                  {document.documentRelatedTo
                    ? translate(enumKey('documentRelatedTo', document.documentRelatedTo))
                    : ''}
                </TableCell>
                <TableCell>{size(document.sizeBytes)}</TableCell>
                <TableCell>{formatDateTime(document.createdAt, language)}</TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  {document.documentFile ? (
                    <IconButton
                      size="small"
                      aria-label={translate('app.customers.documents.download')}
                      data-testid="document-download"
                      onClick={() =>
                        api
                          .download(
                            `documents/${document.id}/download`,
                            document.originalName ?? document.documentName,
                          )
                          .catch((error: unknown) => notify(messageOf(error), { type: 'error' }))
                      }
                    >
                      <DownloadIcon fontSize="small" />
                    </IconButton>
                  ) : null}
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
      )}
    </Box>
  );
}
