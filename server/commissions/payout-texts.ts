/**
 * Texts of the payout files (the statement PDF, the month's export) in one language: labels from
 * the release's texts (locales/<lang>.json: app.payouts.*, the enums), the ledger's explain steps
 * translated with their figures, and amounts, months and days written the Swiss way — numbers
 * 1'234.50 in every language (as the web app writes them, src/i18n/format.ts), months and days in
 * the language.
 */
import { SWISS_TIME_ZONE } from '../../src/schema/swiss-time.ts';
import type { Language } from '../customers/labels.ts';
import { releaseLabel } from '../i18n/source.ts';
import { swissNumber } from '../pdf/text.ts';

/** One step of a line's explanation: a translation key and its figures (amounts in CHF). */
export interface ExplainStep {
  key: string;
  params?: Record<string, unknown>;
}

/** The release's text of a key in the language (the key itself when it has none). */
export const label = (key: string, language: Language): string => releaseLabel(key, language);

/** Intl writes the Swiss thousands separator as ’ (U+2019); the app writes the plain apostrophe. */
/** Centimes as CHF: 'CHF 1'234.50'. */
export const chf = (centimes: number): string => `CHF ${swissNumber(centimes / 100, 2)}`;

/** A month 'YYYY-MM' in the language: 'November 2026', 'novembre 2026'. */
export function monthName(period: string, language: Language): string {
  const [year, month] = period.split('-').map(Number);
  const date = new Date(Date.UTC(year ?? 1970, (month ?? 1) - 1, 15));
  return new Intl.DateTimeFormat(`${language}-CH`, {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(date);
}

/** A moment's Swiss day in the language: '5. Feb. 2026', '5 févr. 2026'. */
export function dayName(value: Date | string | null | undefined, language: Language): string {
  if (value === null || value === undefined) return '';
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat(`${language}-CH`, {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: SWISS_TIME_ZONE,
  }).format(date);
}

/** Figures that are amounts of money in an explain step: always with two decimals. */
const MONEY_PARAMS = new Set(['amount', 'basis', 'premium', 'result', 'cap', 'rate']);

function paramText(name: string, value: unknown): string {
  if (typeof value === 'number') return swissNumber(value, MONEY_PARAMS.has(name) ? 2 : undefined);
  return value === null || value === undefined ? '' : String(value);
}

/** One explain step as text: its key's text with its figures filled in. */
export function explainStepText(step: ExplainStep, language: Language): string {
  const text = label(step.key, language);
  const params = step.params ?? {};
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => paramText(name, params[name]));
}

/** A line's explanation, one text per step (the stored JSON as the engine wrote it). */
export function explainTexts(explain: unknown, language: Language): string[] {
  const steps = typeof explain === 'string' ? (JSON.parse(explain) as unknown) : explain;
  if (!Array.isArray(steps)) return [];
  return steps
    .filter(
      (step): step is ExplainStep =>
        typeof step === 'object' && step !== null && typeof step.key === 'string',
    )
    .map((step) => explainStepText(step, language));
}

/** A person's name: 'First Last'. */
export const personName = (user: { first_name: string; last_name: string } | undefined) =>
  user ? `${user.first_name} ${user.last_name}`.trim() : '';
