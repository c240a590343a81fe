/**
 * CRUD hooks of reminders (issue 15; registered by ./index.ts). Visibility is generic: `userId` is
 * `x-owner` and `clientId` `x-owner-via`, so a consultant sees the reminders set for them and
 * those of their own customers, creates reminders only for themselves (the owner is forced) and
 * only on customers they see (422 "unknown customers" otherwise). These hooks add:
 * - validate: the status moves along REMINDER_TRANSITIONS (422 `statusTransition {from,to}`, the
 *   statuses' labels in the writer's language, on
 *   `status`); reopening (resolved | cancelled → open) is for the one who set it — for a reminder
 *   the system set (no assigner), its user — or the back office (admin-area roles), else 422
 *   `reopenByAssigner` on `status`; a status is never empty; a contract named beside a customer is
 *   one of that customer's (`notOfCustomer` on `contract_id`);
 * - prepare: on create the assigner is the signed-in user (read-only on the wire), the user
 *   defaults to the writer, the day set to today (Swiss) and the customer to the contract's;
 *   resolvedAt is set when the reminder is resolved or cancelled and cleared when reopened;
 *   notifiedAt is cleared when the due date or time changes, so it notifies again when due.
 */
import type { ResourceHooks, WriteContext } from '../crud/hooks.ts';
import { swissToday } from '../contracts/coverage.ts';
import type { ResourceRow } from '../db/resource.ts';
import { merged } from '../customers/rules.ts';
import { releaseLabel } from '../i18n/source.ts';
import { addError, type FieldErrors, issue } from '../http/errors.ts';
import { visibilityModeOf } from '../access/visibility.ts';
import { canMoveReminder } from '../../src/schema/appointments.ts';
import { idOf } from '../db/values.ts';

const CLOSED = new Set(['resolved', 'cancelled']);

/** Whether the principal may reopen this (stored) reminder. */
function mayReopen(existing: ResourceRow, context: WriteContext): boolean {
  const { principal } = context;
  if (!principal) return false;
  if (visibilityModeOf(principal) === 'all') return true;
  const assigner = idOf(existing.assigner_id);
  return assigner === null ? idOf(existing.user_id) === principal.id : assigner === principal.id;
}

async function reminderErrors(
  body: ResourceRow,
  context: WriteContext,
): Promise<FieldErrors | undefined> {
  const { db, existing, mode } = context;
  const errors: FieldErrors = {};
  if ('status' in body && body.status === null) addError(errors, 'status', issue('required'));
  else if (mode === 'update' && existing && typeof body.status === 'string') {
    const from = String(existing.status ?? 'open');
    const to = body.status;
    if (!canMoveReminder(from, to))
      addError(
        errors,
        'status',
        issue('statusTransition', {
          from: releaseLabel(`enums.reminderStatus.${from}`, context.principal?.language),
          to: releaseLabel(`enums.reminderStatus.${to}`, context.principal?.language),
        }),
      );
    else if (from !== to && to === 'open' && !mayReopen(existing, context))
      addError(errors, 'status', issue('reopenByAssigner'));
  }
  const record = merged(existing, body);
  const contractId = idOf(record.contract_id);
  const clientId = idOf(record.client_id);
  const contractChanged =
    !existing || idOf(existing.contract_id) !== contractId || idOf(existing.client_id) !== clientId;
  if (contractId !== null && clientId !== null && contractChanged) {
    const contract = await db
      .selectFrom('contracts')
      .select('customer_id')
      .where('id', '=', contractId)
      .executeTakeFirst();
    // An unknown contract is the reference check's to answer.
    if (contract && Number(contract.customer_id) !== clientId)
      addError(errors, 'contract_id', issue('notOfCustomer'));
  }
  return Object.keys(errors).length > 0 ? errors : undefined;
}

async function prepareReminder(values: ResourceRow, context: WriteContext): Promise<ResourceRow> {
  const { db, existing, mode, principal } = context;
  const out: ResourceRow = { ...values };
  if (mode === 'create') {
    if (principal) {
      out.assigner_id = principal.id;
      if (out.user_id === undefined || out.user_id === null) out.user_id = principal.id;
    }
    if (out.date === undefined || out.date === null) out.date = swissToday();
    const contractId = idOf(out.contract_id);
    if (contractId !== null && (out.client_id === undefined || out.client_id === null)) {
      const contract = await db
        .selectFrom('contracts')
        .select('customer_id')
        .where('id', '=', contractId)
        .executeTakeFirst();
      if (contract) out.client_id = contract.customer_id;
    }
    if (typeof out.status === 'string' && CLOSED.has(out.status)) out.resolved_at = new Date();
    return out;
  }
  const before = existing ?? {};
  if (typeof out.status === 'string' && out.status !== before.status) {
    out.resolved_at = CLOSED.has(out.status) ? new Date() : null;
  }
  const changed = (column: string) =>
    column in out && String(out[column] ?? '') !== String(before[column] ?? '');
  if (before.notified_at && (changed('due_date') || changed('time'))) out.notified_at = null;
  return out;
}

export const reminderHooks: ResourceHooks = {
  validate: reminderErrors,
  prepare: prepareReminder,
};
