/**
 * The signed version of a PDF (pdf-lib; issue 19): the original pages unchanged but for a grey line
 * at each page's foot ("signed electronically by … on … — see page n"), then one page more with
 * the signature as drawn (vector strokes, scaled into its box), the name, place and date the
 * signer confirmed, and the audit of the signing (request, time in UTC, address, browser and the
 * SHA-256 of the document signed). Texts in the request's language (app.signatures.pdf.*); dates
 * as the app shows them (French in the English format, spec §1).
 *
 * `readablePdf` is the check made when a request is created: the file must be a PDF pdf-lib can
 * open and write again (not encrypted, not damaged).
 */
import { LineCapStyle, PDFDocument, type PDFFont, rgb, StandardFonts } from 'pdf-lib';
import { type DrawnSignature } from '../../src/schema/signatures.ts';
import { releaseLabel } from '../i18n/source.ts';
import { longDate, wrap, writable } from '../pdf/text.ts';

export interface SignedFacts {
  language: string;
  documentName: string;
  requestId: number;
  name: string;
  place: string;
  /** The Swiss day of the signing, YYYY-MM-DD. */
  day: string;
  signedAt: Date;
  ip: string | null;
  userAgent: string | null;
  /** SHA-256 (hex) of the original. */
  documentHash: string;
  signature: DrawnSignature;
}

/** Whether pdf-lib can open the file and write it again (not encrypted, not damaged). */
export async function readablePdf(bytes: Uint8Array): Promise<boolean> {
  try {
    const document = await PDFDocument.load(bytes, { updateMetadata: false });
    return document.getPageCount() > 0;
  } catch {
    return false;
  }
}

const A4 = { width: 595.28, height: 841.89 };
const MARGIN = 56;
const GREY = rgb(0.4, 0.4, 0.4);
const INK = rgb(0.05, 0.15, 0.45);

/** The signed PDF's bytes. */
export async function stampSignature(
  original: Uint8Array,
  facts: SignedFacts,
): Promise<Uint8Array> {
  const document = await PDFDocument.load(original, { updateMetadata: false });
  const regular = await document.embedFont(StandardFonts.Helvetica);
  const bold = await document.embedFont(StandardFonts.HelveticaBold);
  const t = (key: string, values: Record<string, string | number> = {}) =>
    Object.entries(values).reduce(
      (text, [name, value]) => text.replaceAll(`{{${name}}}`, String(value)),
      releaseLabel(`app.signatures.pdf.${key}`, facts.language),
    );
  const day = longDate(facts.day, facts.language);
  const pages = document.getPages();
  const signaturePage = pages.length + 1;

  // The foot of every original page.
  const foot = t('footer', { name: facts.name, date: day, page: signaturePage });
  for (const page of pages) {
    const { width } = page.getSize();
    const line = writable(regular, foot);
    const size = 7;
    const lines = wrap(regular, line, width - 40, size).slice(0, 2);
    lines.forEach((text, index) =>
      page.drawText(text, {
        x: 20,
        y: 14 + (lines.length - 1 - index) * 9,
        size,
        font: regular,
        color: GREY,
      }),
    );
  }

  const page = document.addPage([A4.width, A4.height]);
  const right = A4.width - MARGIN;
  let y = A4.height - MARGIN;
  const text = (value: string, font: PDFFont, size: number, color = rgb(0, 0, 0), gap = 4) => {
    for (const line of wrap(font, writable(font, value), right - MARGIN, size)) {
      y -= size;
      page.drawText(line, { x: MARGIN, y, size, font, color });
      y -= gap;
    }
  };
  text(t('title'), bold, 18, rgb(0, 0, 0), 10);
  text(t('intro', { document: facts.documentName }), regular, 11, rgb(0, 0, 0), 14);

  // The signature in its box, aspect kept, on a line.
  const box = { x: MARGIN, width: 300, height: 120 };
  y -= box.height + 8;
  const boxY = y;
  const { width, height, strokes } = facts.signature;
  const scale = Math.min(box.width / width, box.height / height);
  const offsetX = box.x + (box.width - width * scale) / 2;
  // The pad's foot on the line: the ink sits above it as it did on the pad.
  const top = boxY + height * scale;
  for (const stroke of strokes) {
    if (stroke.length < 2) continue;
    if (stroke.length === 2) {
      page.drawCircle({
        x: offsetX + stroke[0] * scale,
        y: top - stroke[1] * scale,
        size: 1.2,
        color: INK,
      });
      continue;
    }
    let path = `M ${(stroke[0] * scale).toFixed(2)} ${(stroke[1] * scale).toFixed(2)}`;
    for (let i = 2; i + 1 < stroke.length; i += 2)
      path += ` L ${(stroke[i] * scale).toFixed(2)} ${(stroke[i + 1] * scale).toFixed(2)}`;
    page.drawSvgPath(path, {
      x: offsetX,
      y: top,
      borderColor: INK,
      borderWidth: 1.6,
      borderLineCap: LineCapStyle.Round,
    });
  }
  page.drawLine({
    start: { x: box.x, y: boxY - 2 },
    end: { x: box.x + box.width, y: boxY - 2 },
    thickness: 0.8,
    color: GREY,
  });
  y = boxY - 6;
  text(facts.name, bold, 12, rgb(0, 0, 0), 4);
  text(t('placeDate', { place: facts.place, date: day }), regular, 11, rgb(0, 0, 0), 24);

  // The audit of the signing.
  text(t('audit'), bold, 10, GREY, 6);
  const rows: [string, string][] = [
    [t('request'), `#${facts.requestId}`],
    [t('signedAt'), `${facts.signedAt.toISOString().replace('T', ' ').slice(0, 19)} UTC`],
    [t('ip'), facts.ip ?? '—'],
    [t('browser'), facts.userAgent ?? '—'],
    [t('hash'), facts.documentHash],
  ];
  for (const [label, value] of rows) text(`${label}: ${value}`, regular, 8.5, GREY, 3);
  y -= 6;
  text(t('notice'), regular, 8, GREY, 2);

  document.setModificationDate(facts.signedAt);
  document.setProducer('GS CRM (pdf-lib)');
  return document.save();
}
