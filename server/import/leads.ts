/**
 * What is lead-specific in the CSV import (issue 16; the machinery: ./rows.ts; docs/ARCHITECTURE.md
 * "CSV imports"). It sits beside the machinery rather than in server/leads/ (that feature's own
 * files were being written at the same time); it uses the leads' pieces and repeats none of their
 * rules' logic beyond applying src/schema/leads.ts `leadSourceVisible` to a whole file at once.
 *
 * - Columns may fill the person (isCompany, organization, firstName, lastName, customerId), the
 *   contact (email, phoneNumber, street, zip, city, language), recommendedBy, notes and assignedTo
 *   (id or e-mail); never the board's fields (status, position, call attempts, close reason): an
 *   imported lead is 'new'.
 * - Every lead needs its source: a column mapped to leadSource, or the option import_lead_source
 *   (422 naming it otherwise, ./rows.ts). The source must be one the importing user's role may see
 *   (the option: 422 before any row; a column: the row's error), and an assignee's role must see
 *   it too. A lead needs a person: a customer (an existing one the importer sees), a last name or
 *   a company name. The blacklist refuses the person by customer, e-mail or phone.
 * - Likely duplicates: an open lead (not closed) the importer sees with the same e-mail address
 *   (without regard to case) or phone number (E.164), or an earlier row of the file; skip or import
 *   anyway — leads are not merged.
 * - The write locks the New Leads column once and puts the imported leads on top of it in file
 *   order (server/leads/positions.ts), inserts them in batches, and sets off what a created lead
 *   sets off (the source's mails, the assignee's notification: server/leads/notify.ts), all in the
 *   import's transaction.
 */
import { sql } from 'kysely';
import { leadSourceVisible } from '../../src/schema/leads.ts';
import { toE164 } from '../../src/schema/phone.ts';
import { scopeExpression } from '../access/scope.ts';
import { IMPORT_ROLES, scopeFor } from '../customers/access.ts';
import { type ResourceRow, resourceDb } from '../db/resource.ts';
import { addError, type FieldErrors, issue } from '../http/errors.ts';
import { afterLeadWrite } from '../leads/notify.ts';
import { lockColumn, topPositions } from '../leads/positions.ts';
import type { ExistingMatch, FlaggedRow } from './plan.ts';
import { insertValues, jsonColumns, type ResourceImport } from './resource.ts';
import { isBlank } from '../db/values.ts';

/** The lead fields a column may fill, in the mapping's order. */
export const LEAD_IMPORT_FIELDS = [
  'isCompany',
  'organization',
  'firstName',
  'lastName',
  'customerId',
  'email',
  'phoneNumber',
  'street',
  'zip',
  'city',
  'language',
  'leadSource',
  'recommendedBy',
  'assignedTo',
  'notes',
] as const;

/** Column names of the lead fields beyond the common ones (server/import/columns.ts). */
const LEAD_ALIASES: Readonly<Record<string, string>> = {
  kundennummer: 'customerId',
  kundennr: 'customerId',
  kunde: 'customerId',
  customer: 'customerId',
  client: 'customerId',
  cliente: 'customerId',
  sprache: 'language',
  langue: 'language',
  lingua: 'language',
};

/** At most this many open leads are reported per row. */
const MATCHES_PER_ROW = 10;

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const emailKey = (value: unknown) => text(value)?.trim().toLowerCase() || undefined;
const phoneKey = (value: unknown) => {
  const phone = text(value);
  return (phone && (toE164(phone) ?? phone.trim())) || undefined;
};
type Reason = 'email' | 'phone';

/** The values of a row (or lead) the duplicates' rule compares and shows. */
const COMPARED = ['first_name', 'last_name', 'organization', 'email', 'phone_number'] as const;

export const leadImport: ResourceImport = {
  resource: 'leads',
  // The office that works leads (the admin area's back office and call centre); consultants work
  // the leads assigned to them and import none.
  roles: IMPORT_ROLES,
  action: 'import leads',
  fields: (model) =>
    LEAD_IMPORT_FIELDS.flatMap((name) => model.fields.filter((field) => field.name === name)),
  aliases: LEAD_ALIASES,
  fixed: { status: 'new' },

  mappingIssues: (mapped) =>
    mapped.has('lastName') || mapped.has('organization') || mapped.has('customerId')
      ? []
      : [issue('leadNoPerson')],

  optionErrors({ options, principal, lookups }) {
    const errors: FieldErrors = {};
    const source = options.import_lead_source;
    if (!source) return errors;
    const roles = lookups.sourceRoles.get(source);
    if (!leadSourceVisible(principal, roles))
      addError(errors, 'import_lead_source', issue('leadSourceHidden'));
    const assignee = options.assigned_to ? lookups.users.get(String(options.assigned_to)) : null;
    if (assignee && !leadSourceVisible(assignee, roles))
      addError(errors, 'assigned_to', issue('assigneeCannotSeeSource', { role: assignee.role }));
    return errors;
  },

  async rules(rows, { app, principal, lookups }) {
    const out: Array<FieldErrors | undefined> = rows.map(({ body }) => {
      const errors: FieldErrors = {};
      if (isBlank(body.customer_id) && isBlank(body.last_name) && isBlank(body.organization))
        addError(errors, 'last_name', issue('leadNoPerson'));
      const source = typeof body.lead_source === 'number' ? body.lead_source : null;
      const roles = source === null ? undefined : lookups.sourceRoles.get(source);
      if (roles !== undefined) {
        if (!leadSourceVisible(principal, roles))
          addError(errors, 'lead_source', issue('leadSourceHidden'));
        const assignee =
          typeof body.assigned_to === 'number'
            ? lookups.users.get(String(body.assigned_to))
            : undefined;
        if (assignee && !leadSourceVisible(assignee, roles))
          addError(
            errors,
            'assigned_to',
            issue('assigneeCannotSeeSource', { role: assignee.role }),
          );
      }
      return Object.keys(errors).length > 0 ? errors : undefined;
    });
    // Customers the leads are about: existing ones the importer sees, in one query.
    const customers = new Set(
      rows.map(({ body }) => body.customer_id).filter((id): id is number => typeof id === 'number'),
    );
    if (customers.size === 0) return out;
    const found = await resourceDb(app.db)
      .selectFrom('customers')
      .select('id')
      .where('id', 'in', [...customers])
      .where(scopeFor(app, 'customers', principal))
      .execute();
    const known = new Set(found.map((row) => Number(row.id)));
    rows.forEach(({ body }, index) => {
      const id = body.customer_id;
      if (typeof id === 'number' && !known.has(id))
        addError(
          (out[index] ??= {}),
          'customer_id',
          issue('unknownReference', { resource: 'customers', ids: id }),
        );
    });
    return out;
  },

  person: (body) => ({
    customerId: typeof body.customer_id === 'number' ? body.customer_id : null,
    email: text(body.email),
    phoneNumber: text(body.phone_number),
  }),

  async flagDuplicates({ app, principal }, rows, batch) {
    const scope = scopeExpression(scopeFor(app, 'leads', principal));
    const keys = rows.map(({ body }) => ({
      email: emailKey(body.email),
      phone: phoneKey(body.phone_number),
    }));
    const valuesOf = (row: ResourceRow) =>
      Object.fromEntries(
        COMPARED.filter((column) => !isBlank(row[column])).map((column) => [column, row[column]]),
      );
    // Earlier rows of the file: the first row with each e-mail and each phone.
    const firstWith = new Map<string, number>();
    const flagged = new Map<number, FlaggedRow>();
    const flag = (index: number): FlaggedRow => {
      const { row, line, body } = rows[index];
      let entry = flagged.get(row);
      if (!entry) {
        entry = { row, line, values: valuesOf(body), matches: [], file_rows: [] };
        flagged.set(row, entry);
      }
      return entry;
    };
    keys.forEach((key, index) => {
      const earlier = new Map<number, Reason[]>();
      for (const [reason, value] of [
        ['email', key.email],
        ['phone', key.phone],
      ] as const) {
        if (!value) continue;
        const first = firstWith.get(`${reason}:${value}`);
        if (first === undefined) firstWith.set(`${reason}:${value}`, index);
        else earlier.set(first, [...(earlier.get(first) ?? []), reason]);
      }
      if (earlier.size > 0)
        flag(index).file_rows = [...earlier].map(([first, reasons]) => ({
          row: rows[first].row,
          reasons,
        }));
    });
    // Open leads the importer sees: one query per batch of rows.
    for (let start = 0; start < rows.length; start += batch) {
      const slice = keys.slice(start, start + batch);
      const emails = [...new Set(slice.map((key) => key.email).filter((e) => e !== undefined))];
      const phones = [...new Set(slice.map((key) => key.phone).filter((p) => p !== undefined))];
      if (emails.length + phones.length === 0) continue;
      const open = await app.db
        .selectFrom('leads')
        .select([
          'id',
          'is_company',
          'organization',
          'first_name',
          'last_name',
          'email',
          'phone_number',
          'zip',
          'city',
          'status',
          'lead_source',
        ])
        .where('status', '<>', 'closed')
        .where((eb) =>
          eb.or([
            ...(emails.length > 0 ? [eb(sql`lower(email)`, 'in', emails)] : []),
            ...(phones.length > 0 ? [eb('phone_number', 'in', phones)] : []),
          ]),
        )
        .where(scope)
        .orderBy('id')
        .execute();
      slice.forEach((key, offset) => {
        const matches: ExistingMatch[] = [];
        for (const lead of open) {
          const reasons: Reason[] = [];
          if (key.email && emailKey(lead.email) === key.email) reasons.push('email');
          if (key.phone && lead.phone_number === key.phone) reasons.push('phone');
          if (reasons.length > 0) matches.push({ ...lead, id: Number(lead.id), reasons });
          if (matches.length >= MATCHES_PER_ROW) break;
        }
        if (matches.length > 0) flag(start + offset).matches = matches;
      });
    }
    // In file order, as the answer lists them.
    return new Map([...flagged].sort(([a], [b]) => a - b));
  },

  merges: false,

  async write(trx, plan, { model, principal }, batch, onProgress) {
    const inserts = plan.inserts;
    if (inserts.length === 0) return { imported: 0, merged: [], refused: [] };
    // On top of New Leads, in file order: the column locked once for the whole file.
    await lockColumn(trx, 'new');
    const positions = await topPositions(trx, 'new', inserts.length);
    const json = jsonColumns(model);
    for (let start = 0; start < inserts.length; start += batch) {
      const rows = inserts.slice(start, start + batch).map(({ body }, offset) => ({
        ...insertValues(body, json),
        status: 'new',
        position: positions[start + offset],
      }));
      // The rows' columns are the lead model's fields mapped from the file (run-time names).
      const stored = await resourceDb(trx)
        .insertInto('leads')
        .values(rows)
        .returningAll()
        .execute();
      // What a created lead sets off (a no-op when its source asks for nothing).
      for (const row of stored) await afterLeadWrite(trx, row, undefined, principal.language);
      onProgress?.('importing', Math.min(inserts.length, start + batch), inserts.length);
    }
    return { imported: inserts.length, merged: [], refused: [] };
  },
};
