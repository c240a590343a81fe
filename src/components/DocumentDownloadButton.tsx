/**
 * Downloads a document's file (GET /api/documents/{id}/download) under its original name; shown
 * only when the record has a file (a record without one is a paper original). Used by the
 * customer's documents tab and a contract's documents.
 */
import DownloadIcon from '@mui/icons-material/Download';
import { IconButton } from '@mui/material';
import { useNotify, useTranslate } from 'react-admin';
import { api, messageOf } from '../dataProvider/apiClient.ts';
import type { ApiRecord } from '../resources/records.ts';

export function DocumentDownloadButton({
  document,
  testId,
}: {
  document: Pick<ApiRecord<'documents'>, 'id' | 'documentFile' | 'originalName' | 'documentName'>;
  testId?: string;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  if (!document.documentFile) return null;
  return (
    <IconButton
      size="small"
      aria-label={translate('app.customers.documents.download')}
      data-testid={testId}
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
  );
}
