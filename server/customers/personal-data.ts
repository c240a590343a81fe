/**
 * Personal-data requests (Swiss nFADP, issue 11) for one person: a customer or a household member.
 *   GET  /api/customers/:id/personal-data          everything stored about the customer, one zip:
 *   GET  /api/household-members/:id/personal-data  personal-data.json (records, documents list,
 *                                                  history), documents/<id>-<name> (the files)
 *                                                  and the features' files (a feedback's image)
 *   POST /api/customers/:id/erase                  erase on request: removed, or kept and
 *   POST /api/household-members/:id/erase          pseudonymised where the law requires keeping
 * Admins only (403 otherwise); a person the admin may not see answers 404.
 *
 * Notifications and mails about the customer (their `customer_id`, set by the feature that
 * notifies) are in the export, and erasure deletes them: their texts name the customer.
 *
 * Erasure is one transaction: documents and household members deleted, what later features must
 * keep (commissions accounting, contracts within their retention) pseudonymised by their own
 * declared hooks, the customer deleted (or pseudonymised when something kept still points to it),
 * the person's values in the history replaced by "[erased]" (who changed what and when stays),
 * and the erasure recorded. Files leave storage only after the commit, so a failure anywhere
 * leaves everything as it was.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type Transaction } from 'kysely';
import { ZipFile } from 'yazl';
import { auditContextOf, writeTransaction } from '../audit/context.ts';
import { allowAuditMaintenance } from '../audit/retention.ts';
import { audit } from '../auth/audit.ts';
import type { DB, Tables } from '../db/index.ts';
import { type ResourceRow, resourceDb } from '../db/resource.ts';
import { ApiError } from '../http/errors.ts';
import { SEARCH_DOCUMENT_COLUMN } from '../db/search-sql.ts';
import { type IdParams, idParams } from '../http/params.ts';
import { getStorage } from '../storage/index.ts';
import { requireVisible } from './access.ts';

export type PersonKind = 'customers' | 'household-members';

/** The person a request is about. */
export interface PersonalDataSubject {
  resource: PersonKind;
  id: number;
}

/**
 * What a feature stores about a person, declared by the feature (contracts, commissions …):
 * `collect` adds its records to the export and `files` its stored files (put in the zip under
 * their `name`); `retain` runs inside the erasure transaction and pseudonymises (never deletes)
 * the rows the law requires to keep, answering how many it kept — while any are kept the customer
 * row stays too, pseudonymised, so their references hold — and the storage keys of the files of
 * the rows it deleted (`files`), which leave the storage after the commit like the documents.
 */
export interface PersonalDataHook {
  name: string;
  collect?(db: DB, subject: PersonalDataSubject): Promise<Record<string, unknown[]>>;
  files?(db: DB, subject: PersonalDataSubject): Promise<PersonalDataFile[]>;
  retain?(
    trx: Transaction<Tables>,
    subject: PersonalDataSubject,
    pseudonym: string,
  ): Promise<{ table: string; kept: number; files?: string[] }[]>;
}

/** A stored file of a feature's record: its storage key and its path in the export's zip. */
export interface PersonalDataFile {
  key: string;
  name: string;
}

const hooks: PersonalDataHook[] = [];

/** Declares a feature's personal data; answers the function that withdraws it (tests). */
export function declarePersonalData(hook: PersonalDataHook): () => void {
  hooks.push(hook);
  return () => {
    const index = hooks.indexOf(hook);
    if (index >= 0) hooks.splice(index, 1);
  };
}

/**
 * The personal data of a table whose rows belong to one customer (`column`) and are working
 * material the brokerage need not keep (reminders, offers, car comparisons, global checks): the
 * export carries them under `name`; erasing the customer deletes them (`beforeDelete` first
 * clears what points at them). Declared once per process however often a feature registers
 * (several apps in one test).
 */
export function declareCustomerRows(options: {
  name: string;
  table: 'reminders' | 'offers' | 'car_comparison_drafts' | 'global_checks' | 'signature_requests';
  column: 'client_id' | 'customer_id';
  beforeDelete?: (trx: Transaction<Tables>, customerId: number) => Promise<void>;
}): PersonalDataHook {
  const existing = hooks.find((hook) => hook.name === options.name);
  if (existing) return existing;
  const hook: PersonalDataHook = {
    name: options.name,
    async collect(db: DB, subject: PersonalDataSubject): Promise<Record<string, unknown[]>> {
      if (subject.resource !== 'customers') return {};
      const rows = await resourceDb(db)
        .selectFrom(options.table)
        .selectAll()
        .where(options.column, '=', subject.id)
        .orderBy('id')
        .execute();
      return {
        [options.name]: rows.map(({ [SEARCH_DOCUMENT_COLUMN]: _derived, ...row }) => row),
      };
    },
    async retain(trx: Transaction<Tables>, subject: PersonalDataSubject) {
      if (subject.resource !== 'customers') return [];
      await options.beforeDelete?.(trx, subject.id);
      await sql`delete from ${sql.table(options.table)} where ${sql.ref(options.column)} = ${subject.id}`.execute(
        trx,
      );
      return [{ table: options.table, kept: 0 }];
    },
  };
  declarePersonalData(hook);
  return hook;
}

const TABLE: Record<PersonKind, 'customers' | 'household_members'> = {
  customers: 'customers',
  'household-members': 'household_members',
};

/** Only admins answer personal-data requests. */
function requireAdmin(request: FastifyRequest): void {
  const principal = request.principal;
  if (!principal || principal.subBrokerId || principal.role !== 'ADMIN') {
    throw new ApiError(403, 'adminPersonalData');
  }
}

/** Audit rows about the subject: its own and, for a customer, its documents' and members'. */
function historyWhere(subject: PersonalDataSubject, memberIds: number[]) {
  const table = TABLE[subject.resource];
  const id = String(subject.id);
  return sql<boolean>`(resource = ${table} and record_id = ${id})
    or (parent_resource = ${table} and parent_id = ${id})
    or (resource = 'household_members' and record_id = any(${memberIds.map(String)}::text[]))`;
}

interface Gathered {
  person: ResourceRow;
  members: ResourceRow[];
  documents: ResourceRow[];
  /** Staff's notifications and the mails about the customer. */
  notifications: Record<string, unknown>[];
  mails: Record<string, unknown>[];
}

/** A link's secret (a signing link's `token=`): a mail's text is exported, its secret never. */
const SECRET_IN_LINK = /([?&]token=)[^&\s]+/g;

async function gather(db: DB, subject: PersonalDataSubject, person: ResourceRow) {
  const gathered: Gathered = { person, members: [], documents: [], notifications: [], mails: [] };
  if (subject.resource === 'customers') {
    gathered.notifications = await db
      .selectFrom('notifications')
      .selectAll()
      .where('customer_id', '=', subject.id)
      .orderBy('id')
      .execute();
    gathered.mails = (
      await db
        .selectFrom('outbox')
        .selectAll()
        .where('customer_id', '=', subject.id)
        .orderBy('id')
        .execute()
    ).map((mail) => ({ ...mail, body: mail.body?.replace(SECRET_IN_LINK, '$1[secret]') ?? null }));
    gathered.members = await resourceDb(db)
      .selectFrom('household_members')
      .selectAll()
      .where('customer_id', '=', subject.id)
      .orderBy('id')
      .execute();
    gathered.documents = await resourceDb(db)
      .selectFrom('documents')
      .selectAll()
      .where('customer_id', '=', subject.id)
      .orderBy('id')
      .execute();
  }
  return gathered;
}

/** A row without what the database derives from its fields (the search document). */
function withoutDerived(row: ResourceRow): ResourceRow {
  const { [SEARCH_DOCUMENT_COLUMN]: _derived, ...stored } = row;
  return stored;
}

/** A file name safe in a zip on every system. */
const safeName = (name: string) => name.replace(/[^\p{L}\p{N}._ -]+/gu, '_').slice(0, 120);

export async function personalDataRoutes(app: FastifyInstance): Promise<void> {
  for (const resource of ['customers', 'household-members'] as const) {
    app.get<{ Params: IdParams }>(
      `/api/${resource}/:id/personal-data`,
      {
        config: { access: 'authenticated' },
        schema: {
          tags: [resource],
          summary:
            'Everything stored about the person (nFADP access request), as a zip: personal-data.json (records, documents, history) and the document files. Admins only.',
          params: idParams,
        },
      },
      async (request, reply) => {
        requireAdmin(request);
        const person = await requireVisible(app, request, resource, request.params.id);
        const subject: PersonalDataSubject = { resource, id: request.params.id };
        const gathered = await gather(app.db, subject, person);
        const history = await app.db
          .selectFrom('audit_log')
          .selectAll()
          .where(
            historyWhere(
              subject,
              gathered.members.map((member) => Number(member.id)),
            ),
          )
          .orderBy('id')
          .execute();
        const features: Record<string, Record<string, unknown[]>> = {};
        for (const hook of hooks) {
          if (hook.collect) features[hook.name] = await hook.collect(app.db, subject);
        }
        const zip = new ZipFile();
        const files: string[] = [];
        for (const document of gathered.documents) {
          const key = document.document_file;
          if (typeof key !== 'string') continue;
          const stream = await getStorage().get(key);
          if (!stream) continue;
          const name = `documents/${String(document.id)}-${safeName(String(document.original_name ?? document.document_name ?? 'file'))}`;
          zip.addReadStream(stream, name);
          files.push(name);
        }
        for (const hook of hooks) {
          for (const file of (await hook.files?.(app.db, subject)) ?? []) {
            const stream = await getStorage().get(file.key);
            if (!stream) continue;
            zip.addReadStream(stream, file.name);
            files.push(file.name);
          }
        }
        const manifest = {
          exported_at: new Date().toISOString(),
          subject,
          records: {
            [TABLE[resource]]: [withoutDerived(person)],
            ...(resource === 'customers'
              ? {
                  household_members: gathered.members.map(withoutDerived),
                  documents: gathered.documents.map(withoutDerived),
                  notifications: gathered.notifications,
                  mails: gathered.mails,
                }
              : {}),
          },
          files,
          features,
          history,
        };
        zip.addBuffer(Buffer.from(JSON.stringify(manifest, null, 2)), 'personal-data.json');
        zip.end();
        await writeTransaction(app.db, request, (trx) =>
          audit(trx, 'personal-data.exported', {
            userId: request.principal?.id,
            ip: request.ip,
            resource: TABLE[resource],
            recordId: subject.id,
            details: { files: files.length, history: history.length },
          }),
        );
        return reply
          .type('application/zip')
          .header(
            'content-disposition',
            `attachment; filename="personal-data-${resource}-${subject.id}.zip"`,
          )
          .send(zip.outputStream);
      },
    );

    app.post<{ Params: IdParams }>(
      `/api/${resource}/:id/erase`,
      {
        config: { access: 'authenticated' },
        schema: {
          tags: [resource],
          summary:
            "Erase the person on request (nFADP): removed, or pseudonymised where a feature must keep records; the history keeps who and when, not the person's values; files deleted after the commit. Admins only.",
          params: idParams,
        },
      },
      async (request) => {
        requireAdmin(request);
        return erasePerson(app, request, { resource, id: request.params.id });
      },
    );
  }
}

/** The erasure; answers what was removed and kept. Exported for tests (injected failures). */
export async function erasePerson(
  app: FastifyInstance,
  request: FastifyRequest,
  subject: PersonalDataSubject,
) {
  const pseudonym = `erased-${subject.resource}-${subject.id}`;
  const table = TABLE[subject.resource];
  const { files, summary } = await writeTransaction(
    app.db,
    auditContextOf(request),
    async (trx) => {
      // Locked first, so no other write changes the person while it is erased.
      await trx.selectFrom(table).select('id').where('id', '=', subject.id).forUpdate().execute();
      const person = await requireVisible(app, request, subject.resource, subject.id, trx);
      const gathered = await gather(trx, subject, person);
      const memberIds = gathered.members.map((member) => Number(member.id));
      const notificationIds = gathered.notifications.map((notice) => String(notice.id));
      const files = [
        ...gathered.documents.map((document) => document.document_file),
        person.avatar,
      ].filter((key): key is string => typeof key === 'string' && key !== '');

      if (subject.resource === 'customers') {
        await trx.deleteFrom('documents').where('customer_id', '=', subject.id).execute();
        // Before the customer row goes (their reference would only be cleared).
        await trx.deleteFrom('notifications').where('customer_id', '=', subject.id).execute();
        await trx.deleteFrom('outbox').where('customer_id', '=', subject.id).execute();
        // Someone this customer recommended keeps the customer, not the link.
        await trx
          .updateTable('customers')
          .set({ recommended_by_customer_id: null })
          .where('recommended_by_customer_id', '=', subject.id)
          .execute();
      }
      // Before the members go: what a feature keeps may point to them (a contract insuring one).
      const kept: { hook: string; table: string; kept: number }[] = [];
      for (const hook of hooks) {
        const results = (await hook.retain?.(trx, subject, pseudonym)) ?? [];
        for (const { files: deleted, ...result } of results) {
          if (result.kept > 0) kept.push({ hook: hook.name, ...result });
          files.push(...(deleted ?? []));
        }
      }
      if (subject.resource === 'customers') {
        await trx.deleteFrom('household_members').where('customer_id', '=', subject.id).execute();
      }
      let pseudonymised = false;
      if (kept.length > 0) {
        // Records that must stay still point here: keep the row, without the person in it.
        await pseudonymiseRow(trx, table, subject.id, pseudonym);
        pseudonymised = true;
      } else {
        await trx.deleteFrom(table).where('id', '=', subject.id).execute();
      }
      // The history keeps who changed which field when; the person's values go.
      await allowAuditMaintenance(trx);
      await sql`update audit_log set
        changes = coalesce((
          select jsonb_object_agg(key, jsonb_build_object(
            'old', case when value -> 'old' is null or value -> 'old' = 'null'::jsonb then value -> 'old' else '"[erased]"'::jsonb end,
            'new', case when value -> 'new' is null or value -> 'new' = 'null'::jsonb then value -> 'new' else '"[erased]"'::jsonb end))
          from jsonb_each(changes)), changes),
        details = case when details is null then null else '{"erased": true}'::jsonb end
      where ${historyWhere(subject, memberIds)}
        or (resource = 'notifications' and record_id = any(${notificationIds}::text[]))`.execute(
        trx,
      );
      const summary = {
        subject,
        documents: gathered.documents.length,
        household_members: gathered.members.length,
        notifications: gathered.notifications.length,
        mails: gathered.mails.length,
        files: files.length,
        pseudonymised,
        kept,
      };
      // Recorded after the scrub, so this entry (no personal values) stays as written.
      await audit(trx, 'personal-data.erased', {
        userId: request.principal?.id,
        ip: request.ip,
        resource: table,
        recordId: subject.id,
        details: summary,
      });
      return { files, summary };
    },
  );
  // Committed: now the files. A file that cannot be removed is logged, the erasure stands.
  for (const key of files) {
    await getStorage()
      .remove(key)
      .catch((error: unknown) => request.log.error({ err: error, key }, 'erased file not removed'));
  }
  return { data: summary };
}

/** Blanks every column of the row that may be empty; names become the pseudonym. */
async function pseudonymiseRow(
  trx: Transaction<Tables>,
  table: 'customers' | 'household_members',
  id: number,
  pseudonym: string,
) {
  const columns = await sql<{ column_name: string; is_nullable: string }>`
    select column_name, is_nullable from information_schema.columns
    where table_schema = current_schema() and table_name = ${table}
      and is_generated = 'NEVER'`.execute(trx);
  const keep = new Set(['id', 'created_at', 'updated_at', 'version', 'customer_id', 'assigned_to']);
  const values: Record<string, unknown> = {};
  for (const { column_name: column, is_nullable: nullable } of columns.rows) {
    if (keep.has(column)) continue;
    if (column === 'first_name' || column === 'last_name') values[column] = pseudonym;
    else if (nullable === 'YES') values[column] = null;
  }
  await resourceDb(trx).updateTable(table).set(values).where('id', '=', id).execute();
}
