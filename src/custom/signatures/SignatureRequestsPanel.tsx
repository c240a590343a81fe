/**
 * The signing side of documents (staff), for a customer's documents tab and a contract's documents:
 * - `DocumentSignatureActions`: per document, "view" (a PDF, in the page) and "request signature"
 *   (a PDF broker mandate, advice protocol or application);
 * - `SignatureRequestsPanel`: the requests sent (document, signer, status, sent, valid until or
 *   signed), "withdraw link" on an open one, "view signed version" on a signed one, and the
 *   signing's record (name, place, address, browser, the hashes) in its tooltip.
 */
import DrawIcon from '@mui/icons-material/Draw';
import InfoOutlinedIcon from '@mui/icons-material/InfoOutlined';
import LinkOffIcon from '@mui/icons-material/LinkOff';
import VisibilityIcon from '@mui/icons-material/Visibility';
import {
  Box,
  Chip,
  type ChipProps,
  IconButton,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Tooltip,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { Confirm, useGetList, useGetMany, useLocale, useNotify, useTranslate } from 'react-admin';
import { api, messageOf } from '../../dataProvider/apiClient.ts';
import { formatDateTime } from '../../i18n/format.ts';
import type { ApiRecord } from '../../resources/records.ts';
import { enumKey, fieldLabelKey } from '../../schema/labels.ts';
import { DocumentPreview } from './DocumentPreview.tsx';
import { RESOURCE, SIGNABLE_TYPES } from './model.ts';
import { SignatureRequestDialog } from './SignatureRequestDialog.tsx';

type DocumentRecord = ApiRecord<'documents'>;
type RequestRecord = ApiRecord<'signature-requests'>;

const isPdf = (document: Pick<DocumentRecord, 'mimeType' | 'documentFile'>) =>
  Boolean(document.documentFile) && document.mimeType === 'application/pdf';

const STATUS_COLORS: Record<string, ChipProps['color']> = {
  open: 'info',
  signed: 'success',
  revoked: 'default',
  expired: 'warning',
};

export function DocumentSignatureActions({
  document,
  onChanged,
}: {
  document: DocumentRecord;
  onChanged: () => void;
}) {
  const translate = useTranslate();
  const [open, setOpen] = useState<'view' | 'request' | null>(null);
  if (!isPdf(document)) return null;
  const signable = (SIGNABLE_TYPES as readonly string[]).includes(String(document.documentType));
  return (
    <>
      <Tooltip title={translate('app.signatures.view')}>
        <IconButton
          size="small"
          aria-label={translate('app.signatures.view')}
          onClick={() => setOpen('view')}
          data-testid="document-view"
        >
          <VisibilityIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      {signable ? (
        <Tooltip title={translate('app.signatures.request')}>
          <IconButton
            size="small"
            aria-label={translate('app.signatures.request')}
            onClick={() => setOpen('request')}
            data-testid="document-request-signature"
          >
            <DrawIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      ) : null}
      {open === 'view' ? (
        <DocumentPreview document={document} onClose={() => setOpen(null)} />
      ) : null}
      {open === 'request' ? (
        <SignatureRequestDialog
          document={document}
          onClose={(created) => {
            setOpen(null);
            if (created) onChanged();
          }}
        />
      ) : null}
    </>
  );
}

/** "Signed version of …" under a signed version's name. */
export function SignedVersionNote({
  document,
  documents,
}: {
  document: DocumentRecord;
  documents: DocumentRecord[];
}) {
  const translate = useTranslate();
  if (!document.originalDocumentId) return null;
  const original = documents.find((candidate) => candidate.id === document.originalDocumentId);
  return (
    <Typography variant="body2" color="text.secondary" data-testid="signed-version-of">
      {translate('app.signatures.versionOf', {
        name: original?.documentName ?? `#${document.originalDocumentId}`,
      })}
    </Typography>
  );
}

export function SignatureRequestsPanel({
  filter,
  refreshKey = 0,
  onChanged,
}: {
  filter: { customerId?: number; contractId?: number };
  /** Changes when a request was made elsewhere (read again). */
  refreshKey?: number;
  onChanged?: () => void;
}) {
  const translate = useTranslate();
  const locale = useLocale();
  const notify = useNotify();
  const [revoking, setRevoking] = useState<RequestRecord | null>(null);
  const [viewing, setViewing] = useState<number | null>(null);
  const { data = [], refetch } = useGetList<RequestRecord>(RESOURCE, {
    filter,
    pagination: { page: 1, perPage: 100 },
    sort: { field: 'createdAt', order: 'DESC' },
    meta: { refreshKey },
  });
  const signedIds = data.flatMap((row) => (row.signedDocumentId ? [row.signedDocumentId] : []));
  const { data: signedDocuments = [] } = useGetMany<DocumentRecord>(
    'documents',
    { ids: signedIds },
    { enabled: signedIds.length > 0 },
  );
  if (data.length === 0) return null;
  const label = (field: string) => translate(fieldLabelKey(RESOURCE, field));
  const viewed = signedDocuments.find((document) => document.id === viewing);

  const revoke = async (row: RequestRecord) => {
    try {
      await api.json('POST', `signature-requests/${row.id}/revoke`);
      notify('app.signatures.revoked', { type: 'info' });
      void refetch();
      onChanged?.();
    } catch (caught) {
      notify(messageOf(caught), { type: 'error' });
    } finally {
      setRevoking(null);
    }
  };

  return (
    <Box sx={{ mt: 3 }} data-testid="signature-requests">
      <Typography variant="subtitle1" component="h3" sx={{ mb: 1 }}>
        {translate('app.signatures.listTitle')}
      </Typography>
      <TableContainer>
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>{label('documentName')}</TableCell>
              <TableCell>{label('signerName')}</TableCell>
              <TableCell>{label('status')}</TableCell>
              <TableCell>{label('createdAt')}</TableCell>
              <TableCell>
                {label('expiresAt')} / {label('signedAt')}
              </TableCell>
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            {data.map((row) => (
              <TableRow key={row.id} data-testid={`signature-request-${row.id}`}>
                <TableCell sx={{ overflowWrap: 'anywhere', minWidth: 160 }}>
                  {row.documentName}
                  {row.documentType ? (
                    <Typography variant="body2" color="text.secondary">
                      {translate(enumKey('documentType', row.documentType))}
                    </Typography>
                  ) : null}
                </TableCell>
                <TableCell sx={{ overflowWrap: 'anywhere' }}>
                  {row.signerName}
                  {row.signerEmail ? (
                    <Typography variant="body2" color="text.secondary">
                      {row.signerEmail}
                    </Typography>
                  ) : null}
                </TableCell>
                <TableCell>
                  <Chip
                    size="small"
                    color={STATUS_COLORS[String(row.status)] ?? 'default'}
                    label={translate(enumKey('signatureStatus', String(row.status)))}
                    data-testid="signature-status"
                    data-status={row.status}
                  />
                </TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  {formatDateTime(row.createdAt, locale)}
                </TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  {formatDateTime(row.status === 'signed' ? row.signedAt : row.expiresAt, locale)}
                </TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  {row.status === 'signed' ? (
                    <>
                      <Tooltip
                        title={
                          <Box sx={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
                            {[
                              `${label('signedName')}: ${row.signedName ?? ''}`,
                              `${label('signedPlace')}: ${row.signedPlace ?? ''}`,
                              `${label('signedIp')}: ${row.signedIp ?? ''}`,
                              `${label('signedUserAgent')}: ${row.signedUserAgent ?? ''}`,
                              `${label('documentHash')}: ${row.documentHash ?? ''}`,
                              `${label('signedHash')}: ${row.signedHash ?? ''}`,
                            ].join('\n')}
                          </Box>
                        }
                      >
                        <IconButton size="small" aria-label={translate('app.signatures.audit')}>
                          <InfoOutlinedIcon fontSize="small" />
                        </IconButton>
                      </Tooltip>
                      {row.signedDocumentId ? (
                        <Tooltip title={translate('app.signatures.viewSigned')}>
                          <IconButton
                            size="small"
                            aria-label={translate('app.signatures.viewSigned')}
                            onClick={() => setViewing(row.signedDocumentId ?? null)}
                            data-testid="signature-view-signed"
                          >
                            <VisibilityIcon fontSize="small" />
                          </IconButton>
                        </Tooltip>
                      ) : null}
                    </>
                  ) : row.status === 'open' ? (
                    <Tooltip title={translate('app.signatures.revoke')}>
                      <IconButton
                        size="small"
                        color="warning"
                        aria-label={translate('app.signatures.revoke')}
                        onClick={() => setRevoking(row)}
                        data-testid="signature-revoke"
                      >
                        <LinkOffIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  ) : null}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      <Confirm
        isOpen={revoking !== null}
        title="app.signatures.revoke"
        content="app.signatures.revokeConfirm"
        onConfirm={() => revoking && void revoke(revoking)}
        onClose={() => setRevoking(null)}
      />
      {viewed ? <DocumentPreview document={viewed} onClose={() => setViewing(null)} /> : null}
    </Box>
  );
}
