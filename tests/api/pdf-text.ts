/** Reading back the PDFs the API answers (payout statements, offers). */
import { inflateSync } from 'node:zlib';

/**
 * The texts a PDF writes (pdf-lib's Helvetica: hex strings in deflated content streams).
 * A stream ends at "\nendstream" alone: a deflated stream's last byte may be a carriage return,
 * and zlib ignores a byte too many but not one too few.
 */
export function pdfText(bytes: Buffer): string {
  const raw = bytes.toString('latin1');
  const texts: string[] = [];
  for (const match of raw.matchAll(/stream\r?\n([\s\S]*?)\nendstream/g)) {
    let content: string;
    try {
      content = inflateSync(Buffer.from(match[1] ?? '', 'latin1')).toString('latin1');
    } catch {
      content = match[1] ?? '';
    }
    for (const hex of content.matchAll(/<([0-9A-Fa-f]*)>\s*Tj/g))
      texts.push(Buffer.from(hex[1] ?? '', 'hex').toString('latin1'));
  }
  return texts.join(' ').replace(/\u00A0/g, ' ');
}
