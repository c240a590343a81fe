/**
 * A PDF shown in the page (pdf.js, loaded only where a PDF is shown): every page drawn on a canvas
 * as wide as the column (sharp on high-density screens), one below the other — the same on a
 * phone, where browsers show no PDFs inline, as on a desktop. Scripts in the PDF never run
 * (`isEvalSupported: false`; pdf.js runs no PDF JavaScript in this mode anyway). The pages are
 * drawn again when the column's width changes noticeably (a phone turned).
 */
import { Alert, Box, CircularProgress, Paper, Typography } from '@mui/material';
import { useEffect, useRef, useState } from 'react';
import { useTranslate } from 'react-admin';

type PdfJs = typeof import('pdfjs-dist');
let pdfjs: Promise<PdfJs> | undefined;

/** pdf.js and its worker, once. */
function loadPdfJs(): Promise<PdfJs> {
  pdfjs ??= Promise.all([
    import('pdfjs-dist'),
    import('pdfjs-dist/build/pdf.worker.min.mjs?url'),
  ]).then(([library, worker]) => {
    library.GlobalWorkerOptions.workerSrc = worker.default;
    return library;
  });
  return pdfjs;
}

interface Drawn {
  data: ArrayBuffer;
  /** Object URLs of the pages' images, in order; none when the file could not be drawn. */
  pages: string[];
  failed: boolean;
}

export function PdfView({
  data,
  testId = 'pdf-view',
  label,
}: {
  /** The file's bytes (copied: pdf.js hands its buffer to the worker); null while they load. */
  data: ArrayBuffer | null;
  testId?: string;
  /** What the pages show, for screen readers. */
  label?: string;
}) {
  const translate = useTranslate();
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const [drawn, setDrawn] = useState<Drawn | null>(null);

  // The column's width, followed when it changes by more than a tenth.
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const measure = () =>
      setWidth((current) => {
        const next = Math.floor(element.clientWidth);
        return Math.abs(next - current) > current / 10 ? next : current;
      });
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    if (width <= 0 || !data) return;
    let live = true;
    let destroy: (() => void) | undefined;
    const urls: string[] = [];
    (async () => {
      const library = await loadPdfJs();
      const task = library.getDocument({
        data: new Uint8Array(data.slice(0)),
        isEvalSupported: false,
      });
      destroy = () => void task.destroy();
      const document = await task.promise;
      const density = Math.min(window.devicePixelRatio || 1, 2);
      for (let number = 1; number <= document.numPages && live; number += 1) {
        const page = await document.getPage(number);
        const natural = page.getViewport({ scale: 1 });
        const viewport = page.getViewport({ scale: (width / natural.width) * density });
        const canvas = window.document.createElement('canvas');
        canvas.width = Math.floor(viewport.width);
        canvas.height = Math.floor(viewport.height);
        const context = canvas.getContext('2d');
        if (!context) throw new Error('no canvas');
        await page.render({ canvasContext: context, viewport }).promise;
        const image = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve));
        if (!image) throw new Error('no image');
        urls.push(URL.createObjectURL(image));
      }
      if (live) setDrawn({ data, pages: [...urls], failed: false });
    })().catch(() => {
      if (live) setDrawn({ data, pages: [], failed: true });
    });
    return () => {
      live = false;
      destroy?.();
      // The images stay shown until the next drawing replaces them.
      setTimeout(() => urls.forEach((url) => URL.revokeObjectURL(url)), 60_000);
    };
  }, [data, width]);

  // While another width is drawn, the last drawing of the same file stays.
  const shown = drawn && drawn.data === data ? drawn : null;
  return (
    <Box ref={box} data-testid={testId} aria-label={label} role="document">
      {shown?.failed ? (
        <Alert severity="warning">{translate('app.signatures.documentFailed')}</Alert>
      ) : !shown ? (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, p: 3 }}>
          <CircularProgress size={24} />
          <Typography color="text.secondary">
            {translate('app.signatures.loadingDocument')}
          </Typography>
        </Box>
      ) : (
        shown.pages.map((url, index) => {
          const pageLabel = translate('app.signatures.pageOf', {
            page: index + 1,
            pages: shown.pages.length,
          });
          return (
            <Box key={url} sx={{ mb: 2 }}>
              <Paper variant="outlined" sx={{ overflow: 'hidden', lineHeight: 0 }}>
                <Box
                  component="img"
                  src={url}
                  alt={pageLabel}
                  data-testid="pdf-page"
                  sx={{ width: '100%', height: 'auto', display: 'block' }}
                />
              </Paper>
              <Typography
                variant="caption"
                color="text.secondary"
                sx={{ display: 'block', textAlign: 'center', mt: 0.5 }}
              >
                {pageLabel}
              </Typography>
            </Box>
          );
        })
      )}
    </Box>
  );
}
