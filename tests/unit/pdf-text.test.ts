import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { pdfText } from '../api/pdf-text.ts';

/** A content stream as pdf-lib writes it: "stream\n", the deflated bytes, "\nendstream". */
function pdfWith(content: string): { pdf: Buffer; lastByte: number } {
  const deflated = deflateSync(Buffer.from(content, 'latin1'));
  const pdf = Buffer.concat([
    Buffer.from('1 0 obj\n<< /Filter /FlateDecode >>\nstream\n', 'latin1'),
    deflated,
    Buffer.from('\nendstream\nendobj\n', 'latin1'),
  ]);
  return { pdf, lastByte: deflated[deflated.length - 1] ?? -1 };
}

const shown = (text: string): string =>
  `BT /F1 12 Tf <${Buffer.from(text, 'latin1').toString('hex')}> Tj ET`;

describe('pdfText (the API tests’ PDF reader)', () => {
  it('reads a stream whose deflated bytes end in a carriage return', () => {
    // Found by trying numbers: this content's deflated form ends in 0x0D (about one in 256 do).
    const { pdf, lastByte } = pdfWith(shown('Global Check 29999'));
    expect(lastByte).toBe(0x0d);
    expect(pdfText(pdf)).toBe('Global Check 29999');
  });

  it('reads the texts of every stream in order', () => {
    const first = pdfWith(shown('Lücke')).pdf;
    const second = pdfWith(`${shown("CHF\u00A06'400")} ${shown('Bedarf')}`).pdf;
    expect(pdfText(Buffer.concat([first, second]))).toBe("Lücke CHF 6'400 Bedarf");
  });
});
