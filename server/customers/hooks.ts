/**
 * CRUD hooks of customers, household members and documents (registered by ./index.ts).
 * Visibility and ownership are generic (server/access/visibility.ts: customers.assignedTo is
 * `x-owner`, subBrokerId `x-sub-broker`; household members and documents follow their customer
 * through `x-owner-via`; a consultant's new customers are assigned to the consultant). These hooks
 * add the rules of ./rules.ts and the clean-up of stored files.
 */
import { type SqlBool, sql } from 'kysely';
import { OPEN_ISSUE_FILTERS } from '../../src/schema/appointments.ts';
import { afterDocumentWrite, documentContractErrors } from '../contracts/documents.ts';
import { swissToday } from '../contracts/coverage.ts';
import type { ResourceHooks, ScopeCondition } from '../crud/hooks.ts';
import { getStorage } from '../storage/index.ts';
import { checkCustomer, hasErrors, merged, personErrors } from './rules.ts';

async function removeStored(key: unknown): Promise<void> {
  if (typeof key === 'string' && key) await getStorage().remove(key);
}

/**
 * The open-issue filter (spec §4) from the customers' reminders: open-due — an open reminder due
 * today or before; open-not-due — open reminders, none due yet; closed — reminders, none open;
 * none — no reminders. Subqueries on reminders' (client_id) and (status) indexes.
 */
function openIssueCondition(value: unknown): ScopeCondition | undefined {
  // Most lists have no such filter: nothing to build (not even today's date).
  if (!(OPEN_ISSUE_FILTERS as readonly unknown[]).includes(value)) return undefined;
  const id = sql.ref('customers.id');
  const today = swissToday();
  const openDue = sql`select r.client_id from reminders r where r.status = 'open' and r.due_date <= ${today}::date and r.client_id is not null`;
  const open = sql`select r.client_id from reminders r where r.status = 'open' and r.client_id is not null`;
  const any = sql`select r.client_id from reminders r where r.client_id is not null`;
  switch (value) {
    case 'open-due':
      return () => sql<SqlBool>`${id} in (${openDue})`;
    case 'open-not-due':
      return () => sql<SqlBool>`${id} in (${open}) and ${id} not in (${openDue})`;
    case 'closed':
      return () => sql<SqlBool>`${id} in (${any}) and ${id} not in (${open})`;
    case 'none':
      return () => sql<SqlBool>`not exists (select 1 from reminders r where r.client_id = ${id})`;
    default:
      return undefined;
  }
}

export const customerHooks: ResourceHooks = {
  listParameters: {
    open_issue: {
      type: 'string',
      enum: [...OPEN_ISSUE_FILTERS],
      description:
        'From the reminders: open-due (an open reminder due today or before), open-not-due (open ones, none due), closed (reminders, none open), none (no reminders).',
    },
  },
  listConditions(query) {
    const condition = openIssueCondition(query.open_issue);
    return condition ? [condition] : [];
  },
  async validate(body, { db, existing }) {
    const errors = await checkCustomer(db, merged(existing, body));
    return hasErrors(errors) ? errors : undefined;
  },
  async afterWrite(row, { mode, existing }) {
    if (mode === 'delete') await removeStored(row.avatar);
    else if (existing?.avatar && existing.avatar !== row.avatar)
      await removeStored(existing.avatar);
  },
};

export const householdMemberHooks: ResourceHooks = {
  validate(body, { existing }) {
    const errors = personErrors(merged(existing, body));
    return hasErrors(errors) ? errors : undefined;
  },
};

/**
 * Documents: the uploader is recorded; a document on a contract must name a contract of its
 * customer, and an advice protocol added, changed or removed recomputes the contract's
 * protocolMissing (server/contracts/documents.ts).
 */
export const documentHooks: ResourceHooks = {
  async validate(body, { db, existing }) {
    const errors = await documentContractErrors(db, merged(existing, body));
    return hasErrors(errors) ? errors : undefined;
  },
  prepare(values, { mode, principal }) {
    return mode === 'create' && principal ? { ...values, uploaded_by: principal.id } : values;
  },
  async afterWrite(row, { db, mode, existing }) {
    if (mode === 'delete') {
      await afterDocumentWrite(db, undefined, row);
      await removeStored(row.document_file);
    } else await afterDocumentWrite(db, row, existing);
  },
};
