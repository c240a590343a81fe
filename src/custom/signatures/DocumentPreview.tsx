/**
 * A PDF document shown in a dialog (staff): the file read with the user's token and drawn by
 * ../../components/PdfView.tsx — a signed version is looked at here, signature page included.
 */
import CloseIcon from '@mui/icons-material/Close';
import { Alert, Dialog, DialogContent, DialogTitle, IconButton } from '@mui/material';
import { useEffect, useState } from 'react';
import { useTranslate } from 'react-admin';
import { PdfView } from '../../components/PdfView.tsx';
import { DocumentDownloadButton } from '../../components/DocumentDownloadButton.tsx';
import { api, messageOf } from '../../dataProvider/apiClient.ts';
import type { ApiRecord } from '../../resources/records.ts';

export function DocumentPreview({
  document,
  onClose,
}: {
  document: Pick<ApiRecord<'documents'>, 'id' | 'documentFile' | 'originalName' | 'documentName'>;
  onClose: () => void;
}) {
  const translate = useTranslate();
  const [loaded, setLoaded] = useState<{ bytes?: ArrayBuffer; error?: string } | null>(null);
  useEffect(() => {
    let live = true;
    api
      .blob(`documents/${document.id}/download`)
      .then((file) => file.blob.arrayBuffer())
      .then(
        (bytes) => live && setLoaded({ bytes }),
        (caught: unknown) => live && setLoaded({ error: messageOf(caught) }),
      );
    return () => {
      live = false;
    };
  }, [document.id]);
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" scroll="paper">
      <DialogTitle sx={{ display: 'flex', alignItems: 'center', gap: 1, pr: 1 }}>
        <span style={{ flex: 1, overflowWrap: 'anywhere' }}>{document.documentName}</span>
        <DocumentDownloadButton document={document} />
        <IconButton aria-label={translate('ra.action.close')} onClick={onClose}>
          <CloseIcon />
        </IconButton>
      </DialogTitle>
      <DialogContent dividers sx={{ bgcolor: 'grey.100' }} data-testid="document-preview">
        {loaded?.error ? (
          <Alert severity="error">{translate(loaded.error, { _: loaded.error })}</Alert>
        ) : (
          <PdfView data={loaded?.bytes ?? null} label={document.documentName} />
        )}
      </DialogContent>
    </Dialog>
  );
}
