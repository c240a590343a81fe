/**
 * Dates and numbers as the user reads them (spec §1, §9):
 * - dates display 'MMM D, YYYY' (with time: 'MMM D, YYYY HH:mm') in the chosen language, through
 *   dayjs locales; French falls back to English for date formatting, as the spec says;
 * - the server's dates are 'YYYY-MM-DD', its timestamps ISO 8601;
 * - calendars (date pickers) exist for de, en, fr and it, weeks starting on Monday in all four
 *   (Swiss locales de-ch, fr-ch, it-ch, and en-gb for English);
 * - numbers and CHF amounts in the Swiss style in every language: 1'234.50, CHF 1'234.50.
 * Typing a date uses the Swiss 'DD.MM.YYYY' (with time 'DD.MM.YYYY HH:mm').
 */
import dayjs, { type Dayjs } from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat.js';
import 'dayjs/locale/de-ch.js';
import 'dayjs/locale/en-gb.js';
import 'dayjs/locale/fr-ch.js';
import 'dayjs/locale/it-ch.js';

dayjs.extend(customParseFormat);

export const SERVER_DATE_FORMAT = 'YYYY-MM-DD';
export const DISPLAY_DATE_FORMAT = 'MMM D, YYYY';
export const DISPLAY_DATE_TIME_FORMAT = 'MMM D, YYYY HH:mm';
export const INPUT_DATE_FORMAT = 'DD.MM.YYYY';
export const INPUT_DATE_TIME_FORMAT = 'DD.MM.YYYY HH:mm';

/** dayjs locale of the calendars (pickers): weeks start on Monday in each. */
const CALENDAR_LOCALES: Record<string, string> = {
  de: 'de-ch',
  en: 'en-gb',
  fr: 'fr-ch',
  it: 'it-ch',
};

export const calendarLocaleOf = (language: string): string =>
  CALENDAR_LOCALES[language] ?? CALENDAR_LOCALES.de;

/** dayjs locale of displayed dates: French falls back to English (spec §1). */
export const displayLocaleOf = (language: string): string =>
  language === 'fr' ? CALENDAR_LOCALES.en : calendarLocaleOf(language);

/** A value from the server (or an input) as a dayjs date; undefined when empty or not a date. */
export function toDayjs(value: unknown): Dayjs | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  if (dayjs.isDayjs(value)) return value.isValid() ? value : undefined;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : dayjs(value);
  if (typeof value !== 'string') return undefined;
  // A plain date stays that calendar day in every time zone.
  const parsed = /^\d{4}-\d{2}-\d{2}$/.test(value)
    ? dayjs(value, SERVER_DATE_FORMAT, true)
    : dayjs(value);
  return parsed.isValid() ? parsed : undefined;
}

/** 'MMM D, YYYY' in the language ('Mar 5, 2026', 'März 5, 2026'); '' when empty or invalid. */
export function formatDate(value: unknown, language: string): string {
  const date = toDayjs(value);
  return date ? date.locale(displayLocaleOf(language)).format(DISPLAY_DATE_FORMAT) : '';
}

/** 'MMM D, YYYY HH:mm' in the language, local time; '' when empty or invalid. */
export function formatDateTime(value: unknown, language: string): string {
  const date = toDayjs(value);
  return date ? date.locale(displayLocaleOf(language)).format(DISPLAY_DATE_TIME_FORMAT) : '';
}

/** The server's form of a date: 'YYYY-MM-DD' (null when empty, undefined when invalid). */
export function toServerDate(value: unknown): string | null | undefined {
  if (value === null || value === undefined || value === '') return null;
  const date = toDayjs(value);
  return date ? date.format(SERVER_DATE_FORMAT) : undefined;
}

/** The first day of the week in a language's calendar (1 = Monday). */
export const weekStartOf = (language: string): number =>
  (dayjs.Ls[calendarLocaleOf(language)] as { weekStart?: number } | undefined)?.weekStart ?? 0;

const SWISS = 'de-CH';

/** Intl writes the Swiss thousands separator as ’ (U+2019); we write the plain apostrophe. */
const apostrophe = (text: string) => text.replace(/[\u2019\u02BC]/g, "'");

/**
 * A number in the Swiss style for every language: 1'234.5, 0.25. `decimals` fixes the digits after
 * the point; otherwise up to 2 are shown. '' when empty or not a number.
 */
export function formatNumber(value: unknown, options: { decimals?: number } = {}): string {
  if (value === null || value === undefined || value === '') return '';
  const number = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(number)) return '';
  const format = new Intl.NumberFormat(SWISS, {
    minimumFractionDigits: options.decimals ?? 0,
    maximumFractionDigits: options.decimals ?? 2,
  });
  return apostrophe(format.format(number));
}

const FILE_SIZE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

/**
 * A file size as people read it: '850 B', '1.5 KB', '12 KB', '3.4 MB' (units of 1024, Swiss
 * numbers; one decimal below 10 of a unit, none above). '' when empty or not a size.
 */
export function formatFileSize(bytes: unknown): string {
  if (bytes === null || bytes === undefined || bytes === '') return '';
  const number = typeof bytes === 'number' ? bytes : Number(bytes);
  if (!Number.isFinite(number) || number < 0) return '';
  let unit = 0;
  let scaled = number;
  while (scaled >= 1024 && unit < FILE_SIZE_UNITS.length - 1) {
    scaled /= 1024;
    unit += 1;
  }
  // 1023.96 KB rounds to 1024: show it as 1 MB instead.
  let rounded =
    unit === 0 ? scaled : Math.round(scaled * (scaled < 10 ? 10 : 1)) / (scaled < 10 ? 10 : 1);
  if (rounded >= 1024 && unit < FILE_SIZE_UNITS.length - 1) {
    rounded = 1;
    unit += 1;
  }
  return `${formatNumber(rounded)} ${FILE_SIZE_UNITS[unit]}`;
}

/** An amount in Swiss francs: 'CHF 1'234.50' ('CHF -12.00'); '' when empty or not a number. */
export function formatChf(value: unknown): string {
  const text = formatNumber(value, { decimals: 2 });
  return text === '' ? '' : `CHF ${text}`;
}

/**
 * An amount in Swiss francs: a number property with `"x-widget": "chf"` (e.g. chfPerStar, premiums);
 * shown as 'CHF 1'234.50'.
 */
export const isChf = (schema: { 'x-widget'?: unknown }): boolean => schema['x-widget'] === 'chf';
