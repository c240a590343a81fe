/**
 * The signed PDF (./stamp.ts): one page more, the original pages kept with their foot line, the
 * signer's name, place and the date in the request's language (French in the English form), the
 * audit (address, browser, the original's hash); what counts as ink; which files can be signed.
 */
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { pdfText } from '../../tests/api/pdf-text.ts';
import { inkLength, MIN_INK } from '../../src/schema/signatures.ts';
import { readablePdf, stampSignature } from './stamp.ts';

async function original(pages = 2): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  for (let i = 0; i < pages; i += 1)
    document.addPage([595, 842]).drawText(`Seite ${i + 1}`, { x: 50, y: 780, size: 12, font });
  return document.save();
}

const facts = {
  documentName: 'Maklermandat',
  requestId: 7,
  name: 'Łucja Brändli',
  place: 'Genève',
  day: '2026-11-28',
  signedAt: new Date('2026-11-28T17:05:09Z'),
  ip: '203.0.113.9',
  userAgent: 'Mozilla/5.0 (iPhone)',
  documentHash: 'ab'.repeat(32),
  signature: { width: 400, height: 150, strokes: [[10, 100, 80, 40, 160, 110, 240, 50]] },
};

describe('stampSignature', () => {
  it('adds the signature page and keeps the pages before', async () => {
    const signed = await stampSignature(await original(2), { ...facts, language: 'fr' });
    const document = await PDFDocument.load(signed);
    expect(document.getPageCount()).toBe(3);
    const text = pdfText(Buffer.from(signed));
    expect(text).toContain('Seite 1');
    expect(text).toContain('Seite 2');
    expect(text).toContain('Signature électronique');
    // A name beyond the standard font's characters is written as near as it can be.
    expect(text).toContain('Lucja Brändli');
    // French dates in the English form (spec §1).
    expect(text).toContain('Genève, le 28 November 2026');
    expect(text).toContain('(voir page 3)');
    expect(text).toContain('203.0.113.9');
    expect(text).toContain('Mozilla/5.0 (iPhone)');
    expect(text).toContain('ab'.repeat(32));
    expect(text).toContain('2026-11-28 17:05:09 UTC');
  });

  it('writes the date in German for a German request', async () => {
    const text = pdfText(
      Buffer.from(await stampSignature(await original(1), { ...facts, language: 'de' })),
    );
    expect(text).toContain('Elektronische Unterschrift');
    expect(text).toContain('Genève, 28. November 2026');
  });
});

describe('what can be signed and what counts as a signature', () => {
  it('reads a PDF, refuses garbage', async () => {
    expect(await readablePdf(await original(1))).toBe(true);
    expect(await readablePdf(Buffer.from('%PDF-1.4\nnot really a pdf'))).toBe(false);
  });

  it('measures the ink of the strokes', () => {
    expect(inkLength({ width: 100, height: 50, strokes: [[0, 0, 30, 40]] })).toBe(50);
    expect(
      inkLength({
        width: 100,
        height: 50,
        strokes: [
          [5, 5],
          [6, 6],
        ],
      }),
    ).toBe(0);
    expect(MIN_INK).toBeGreaterThan(0);
  });
});
