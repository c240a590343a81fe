/**
 * What is customer-specific in the CSV import (the machinery, shared with leads: server/import/;
 * docs/ARCHITECTURE.md "CSV imports"): every field a client may write can come from a column; a
 * row needs a name (first and last name, or a company's organization); rows are checked by the
 * rules of ./rules.ts and a recommending customer must exist; the person is looked up on the
 * blacklist by e-mail and phone; likely duplicates follow the create form's rule
 * (./import-duplicates.ts) and may be merged into the customer they look like. Rows are inserted
 * in batches, then the merges are written.
 */
import type { ResourceRow } from '../db/resource.ts';
import { resourceDb } from '../db/resource.ts';
import { scopeExpression } from '../access/scope.ts';
import { addError, type FieldErrors, issue } from '../http/errors.ts';
import { insertValues, jsonColumns, type ResourceImport } from '../import/resource.ts';
import { IMPORT_ROLES, scopeFor } from './access.ts';
import { flagDuplicates, writeMerges } from './import-duplicates.ts';
import { customerErrors } from './rules.ts';

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

export const customerImport: ResourceImport = {
  resource: 'customers',
  roles: IMPORT_ROLES,
  action: 'import customers',
  fields: (model) => model.fields.filter((field) => !field.readOnly),

  // A customer needs a name (./rules.ts): a person first and last name, a company its
  // organization; without a column for either, no row could be imported.
  mappingIssues: (mapped) =>
    (mapped.has('firstName') && mapped.has('lastName')) || mapped.has('organization')
      ? []
      : [issue('nameColumns')],

  async rules(rows, { app }) {
    const out: Array<FieldErrors | undefined> = rows.map(({ body, clean }) => {
      if (!clean) return undefined;
      const errors = customerErrors(body);
      return Object.keys(errors).length > 0 ? errors : undefined;
    });
    // References to existing customers, checked in one query.
    const recommended = new Set(
      rows
        .map(({ body }) => body.recommended_by_customer_id)
        .filter((id): id is number => typeof id === 'number'),
    );
    if (recommended.size === 0) return out;
    const found = await app.db
      .selectFrom('customers')
      .select('id')
      .where('id', 'in', [...recommended])
      .execute();
    const known = new Set(found.map((row) => Number(row.id)));
    rows.forEach(({ body }, index) => {
      const id = body.recommended_by_customer_id;
      if (typeof id === 'number' && !known.has(id)) {
        const errors = (out[index] ??= {});
        addError(
          errors,
          'recommended_by_customer_id',
          issue('unknownReference', { resource: 'customers', ids: id }),
        );
      }
    });
    return out;
  },

  // A new customer has no id yet: the blacklist knows it by e-mail or phone.
  person: (body) => ({ email: text(body.email), phoneNumber: text(body.phone_number) }),

  flagDuplicates: ({ app, principal }, rows, batch) =>
    flagDuplicates(app.db, rows, scopeExpression(scopeFor(app, 'customers', principal)), batch),

  merges: true,

  async write(trx, plan, { model }, batch, onProgress) {
    const json = jsonColumns(model);
    const inserts = plan.inserts;
    for (let start = 0; start < inserts.length; start += batch) {
      const rows: ResourceRow[] = inserts
        .slice(start, start + batch)
        .map(({ body }) => insertValues(body, json));
      // The rows' columns are the customer model's fields mapped from the file (run-time names).
      await resourceDb(trx).insertInto('customers').values(rows).execute();
      onProgress?.('importing', Math.min(inserts.length, start + batch), inserts.length);
    }
    const outcome = await writeMerges(trx, model, plan.merges, batch, (done) =>
      onProgress?.('merging', done, plan.merges.length),
    );
    return { imported: inserts.length, merged: outcome.merged, refused: outcome.refused };
  },
};
