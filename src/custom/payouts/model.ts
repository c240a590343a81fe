/**
 * The payout screens' pure pieces (issue 17): the records as the API hands them over, what may be
 * done with a payout in each status (new → approved → paid; only a new one is deleted), the
 * default filter (spec §4: status 'new'), the month paid out next, a user's name and the paths of
 * the files. Months, money and explanations are the commission screens' (../commissions/model.ts).
 * No React, so unit tests run them directly.
 */
import { representRecord } from '../../resources/labels.ts';
import type { ApiRecord } from '../../resources/records.ts';
import { getModel } from '../../resources/registry.ts';

export type Payout = ApiRecord<'payouts'>;
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

/** The month before the one of a Swiss day ('2026-11-28' → '2026-10'): what is paid out next. */
export function previousMonth(today: string): string {
  const year = Number(today.slice(0, 4));
  const month = Number(today.slice(5, 7));
  return month === 1 ? `${year - 1}-12` : `${year}-${String(month - 1).padStart(2, '0')}`;
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
