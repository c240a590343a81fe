/**
 * The payout screens' pure pieces (issue 17): the records as the API hands them over, what may be
 * done with a payout in each status (new → approved → paid; only a new one is deleted), the
 * default filter (spec §4: status 'new'), months ('YYYY-MM') and how they read, centimes as CHF,
 * a ledger line's explanation as texts, and the paths of the files. No React, so unit tests run
 * them directly.
 */
import dayjs from 'dayjs';
import { displayLocaleOf, formatNumber } from '../../i18n/format.ts';
import { representRecord } from '../../resources/labels.ts';
import type { ApiRecord } from '../../resources/records.ts';
import { getModel } from '../../resources/registry.ts';

export type Payout = ApiRecord<'payouts'>;
export type CommissionLine = ApiRecord<'commission-lines'>;
export type PayoutStatus = NonNullable<Payout['status']>;

export const PAYOUT_STATUSES: readonly PayoutStatus[] = ['new', 'approved', 'paid'];

/** The list's filter when it opens (spec §4 default status filter, §9 page 1). */
export const DEFAULT_FILTER = { status: 'new' } as const;

/** What may be done with a payout (besides its statement, always there). */
export type PayoutAction = 'approve' | 'pay' | 'delete';

export function actionsOf(status: PayoutStatus | null | undefined): PayoutAction[] {
  if (status === 'new' || !status) return ['approve', 'delete'];
  if (status === 'approved') return ['pay'];
  return [];
}

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

export const isMonth = (value: unknown): value is string =>
  typeof value === 'string' && MONTH.test(value);

/** The month before the one of a Swiss day ('2026-11-28' → '2026-10'): what is paid out next. */
export function previousMonth(today: string): string {
  const year = Number(today.slice(0, 4));
  const month = Number(today.slice(5, 7));
  return month === 1 ? `${year - 1}-12` : `${year}-${String(month - 1).padStart(2, '0')}`;
}

/**
 * A month as people read it, in the language of the app's dates ('November 2026', 'November
 * 2026' in French too: dates display in English there, spec §1); '' when not a month.
 */
export function formatPeriod(period: unknown, language: string): string {
  if (!isMonth(period)) return '';
  return dayjs(`${period}-01`).locale(displayLocaleOf(language)).format('MMMM YYYY');
}

/** Centimes (the API's money) as CHF. */
export const chfOf = (centimes: number | null | undefined): number | null =>
  typeof centimes === 'number' ? centimes / 100 : null;

/** Figures of an explanation shown with two decimals (CHF amounts); the others as they are. */
const MONEY_PARAMS = new Set(['amount', 'basis', 'premium', 'result', 'cap']);

/** One step's figures, written as the user reads numbers (Swiss: 1'234.50). */
export function explainParams(params: Record<string, unknown> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(params ?? {})) {
    out[name] =
      typeof value === 'number'
        ? formatNumber(value, MONEY_PARAMS.has(name) ? { decimals: 2 } : undefined)
        : String(value ?? '');
  }
  return out;
}

type ExplainStep = { key: string; params?: Record<string, unknown> };

/** A line's explanation as texts, one per step (each key translated with its figures). */
export function explainTexts(
  explain: readonly ExplainStep[] | null | undefined,
  translate: (key: string, options?: Record<string, unknown>) => string,
): string[] {
  return (explain ?? []).map((step) =>
    translate(step.key, { _: step.key, ...explainParams(step.params) }),
  );
}

/** GET path of a payout's statement (PDF) in a language (the one the user reads the app in). */
export const statementPath = (id: number | string, language: string) =>
  `payouts/${id}/statement.pdf?${new URLSearchParams({ language }).toString()}`;

/** GET path of a month's payouts as a file for the accounting, headers in a language. */
export const exportPath = (period: string, format: 'csv' | 'xlsx', language: string) =>
  `payouts/export?${new URLSearchParams({ period, format, language }).toString()}`;

/** The name a downloaded file gets when the server names none. */
export const statementFileName = (payout: Pick<Payout, 'id' | 'period'>) =>
  `payout-${payout.period}-${payout.id}.pdf`;
export const exportFileName = (period: string, format: 'csv' | 'xlsx') =>
  `payouts-${period}.${format}`;

/** A user's name as the app writes it everywhere (the users' representation). */
export const userName = (user: Record<string, unknown> | undefined): string =>
  representRecord(getModel('users'), user);
