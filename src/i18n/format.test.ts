/** Dates and numbers as the user reads them (./format.ts). */
import { describe, expect, it } from 'vitest';
import {
  calendarLocaleOf,
  displayLocaleOf,
  formatChf,
  formatDate,
  formatDateTime,
  formatFileSize,
  formatNumber,
  isChf,
  toServerDate,
  weekStartOf,
} from './format.ts';

describe('dates', () => {
  it("display 'MMM D, YYYY' in the chosen language; French falls back to English", () => {
    expect(formatDate('2026-03-05', 'en')).toBe('Mar 5, 2026');
    expect(formatDate('2026-03-05', 'de')).toBe('März 5, 2026');
    expect(formatDate('2026-10-05', 'de')).toBe('Okt. 5, 2026');
    expect(formatDate('2026-03-05', 'it')).toBe('mar 5, 2026');
    expect(formatDate('2026-03-05', 'fr')).toBe('Mar 5, 2026');
    expect(displayLocaleOf('fr')).toBe(displayLocaleOf('en'));
  });

  it('keep a server date on its calendar day, and show timestamps in local time', () => {
    expect(formatDate('2026-01-01', 'en')).toBe('Jan 1, 2026');
    const local = new Date(2026, 11, 24, 18, 30);
    expect(formatDateTime(local.toISOString(), 'de')).toBe('Dez. 24, 2026 18:30');
  });

  it('show nothing for empty or invalid values', () => {
    for (const value of [null, undefined, '', 'not a date', '2026-13-45', 42]) {
      expect(formatDate(value, 'de')).toBe('');
    }
  });

  it("send 'YYYY-MM-DD' to the server", () => {
    expect(toServerDate('2026-03-05T10:00:00')).toBe('2026-03-05');
    expect(toServerDate(new Date(2026, 2, 5))).toBe('2026-03-05');
    expect(toServerDate('')).toBeNull();
    expect(toServerDate('soon')).toBeUndefined();
  });

  it('start calendar weeks on Monday in all four languages', () => {
    for (const language of ['de', 'en', 'fr', 'it']) {
      expect(weekStartOf(language), language).toBe(1);
      expect(calendarLocaleOf(language)).toMatch(language === 'en' ? /^en-gb$/ : /-ch$/);
    }
  });
});

describe('numbers', () => {
  it("are Swiss in every language: 1'234.5", () => {
    expect(formatNumber(1234.5)).toBe("1'234.5");
    expect(formatNumber(1234567)).toBe("1'234'567");
    expect(formatNumber(0.256)).toBe('0.26');
    expect(formatNumber(-42)).toBe('-42');
    expect(formatNumber('12.5')).toBe('12.5');
    expect(formatNumber(null)).toBe('');
    expect(formatNumber('abc')).toBe('');
  });

  it("show CHF amounts with two decimals: CHF 1'234.50", () => {
    expect(formatChf(1234.5)).toBe("CHF 1'234.50");
    expect(formatChf(0)).toBe('CHF 0.00');
    expect(formatChf(-12)).toBe('CHF -12.00');
    expect(formatChf(undefined)).toBe('');
  });

  it('recognise amounts in CHF by their schema hint', () => {
    expect(isChf({ 'x-widget': 'chf' })).toBe(true);
    expect(isChf({})).toBe(false);
  });
});

describe('file sizes', () => {
  it('read as B, KB, MB with Swiss numbers, one decimal below 10 of a unit', () => {
    expect(formatFileSize(0)).toBe('0 B');
    expect(formatFileSize(850)).toBe('850 B');
    expect(formatFileSize(1536)).toBe('1.5 KB');
    expect(formatFileSize(1024)).toBe('1 KB');
    expect(formatFileSize(12_800)).toBe('13 KB');
    expect(formatFileSize(3.4 * 1024 * 1024)).toBe('3.4 MB');
    expect(formatFileSize(1024 * 1024 - 1)).toBe('1 MB');
    expect(formatFileSize(900 * 1024 * 1024 * 1024)).toBe('900 GB');
    expect(formatFileSize(1500 * 1024 * 1024 * 1024)).toBe('1.5 TB');
    expect(formatFileSize(5000 * 1024 ** 4)).toBe("5'000 TB");
    expect(formatFileSize(null)).toBe('');
    expect(formatFileSize(-1)).toBe('');
    expect(formatFileSize('abc')).toBe('');
  });
});
