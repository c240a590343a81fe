/**
 * Text for pdf-lib's standard fonts (payout statements, offers). The standard Helvetica fonts
 * write Windows-1252 only: other characters (a customer named in Cyrillic) are written without
 * their accents where that helps (ł → l) and else as '?'; `wrap` breaks text into lines that fit;
 * `swissNumber` writes a number the Swiss way; `longDate` a day in words.
 */
import type { PDFFont } from 'pdf-lib';

/** Characters without a decomposition whose plain form reads well enough. */
const STROKED: Record<string, string> = {
  Ł: 'L',
  ł: 'l',
  Đ: 'D',
  đ: 'd',
  Ħ: 'H',
  ħ: 'h',
  ı: 'i',
  '\u2212': '-', // the minus sign of the explain texts
};

/** Text the font can write: accents dropped where that helps, anything else '?'. */
export function writable(font: PDFFont, text: string): string {
  const known = new Set(font.getCharacterSet());
  let out = '';
  // An amount stays on one line with its currency (a no-break space, which the font has).
  const kept = text.replace(/[\u2007\u202F\u2009]/g, ' ').replace(/CHF (?=[-−\d])/g, 'CHF\u00A0');
  for (const char of kept) {
    const code = char.codePointAt(0) ?? 0;
    if (known.has(code) || char === '\n') {
      out += char;
      continue;
    }
    const base = (STROKED[char] ?? char).normalize('NFD').replace(/[\u0300-\u036f]/g, '');
    out += [...base].every((part) => known.has(part.codePointAt(0) ?? 0)) && base ? base : '?';
  }
  return out;
}

/** The text broken into lines that fit the width (a word longer than a line is cut). */
export function wrap(font: PDFFont, text: string, width: number, size: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(/[ \t]+/).filter(Boolean)) {
      const candidate = line ? `${line} ${word}` : word;
      if (font.widthOfTextAtSize(candidate, size) <= width) {
        line = candidate;
        continue;
      }
      if (line) lines.push(line);
      line = '';
      let rest = word;
      while (font.widthOfTextAtSize(rest, size) > width) {
        let cut = rest.length - 1;
        while (cut > 1 && font.widthOfTextAtSize(rest.slice(0, cut), size) > width) cut -= 1;
        lines.push(rest.slice(0, cut));
        rest = rest.slice(cut);
      }
      line = rest;
    }
    lines.push(line);
  }
  return lines;
}

const apostrophe = (text: string) => text.replace(/[\u2019\u02BC]/g, "'");

/** A number the Swiss way: 1'234.5; `decimals` fixes the digits after the point. */
export function swissNumber(value: number, decimals?: number): string {
  const format = new Intl.NumberFormat('de-CH', {
    minimumFractionDigits: decimals ?? 0,
    maximumFractionDigits: decimals ?? 2,
  });
  return apostrophe(format.format(value));
}

/**
 * A day (YYYY-MM-DD, or a date) in the language's long form: "28. November 2026",
 * "28 novembre 2026"; French in the English form, as the app shows dates (spec §1).
 */
export function longDate(value: unknown, language: string): string {
  const text =
    value instanceof Date
      ? value.toISOString().slice(0, 10)
      : typeof value === 'string'
        ? value
        : '';
  if (!/^\d{4}-\d{2}-\d{2}/.test(text)) return '';
  const locale = { de: 'de-CH', it: 'it-CH', en: 'en-GB', fr: 'en-GB' }[language] ?? 'de-CH';
  return new Intl.DateTimeFormat(locale, {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${text.slice(0, 10)}T12:00:00Z`));
}
