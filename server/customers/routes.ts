/**
 * Customer routes beyond the generic CRUD (docs/ARCHITECTURE.md §Customers):
 *
 *   GET    /api/customers/duplicates?first_name&last_name&date_of_birth&email&phone_number&organization&exclude_id
 *   POST   /api/customers/:id/merge            { duplicate_id, fill_empty? }   back office
 *   POST   /api/customers/:id/documents        multipart: file, document_name?, document_type?, document_related_to?
 *   GET    /api/documents/:id/download         the file, as an attachment
 *   POST   /api/customers/:id/avatar           multipart: file (image)
 *   GET    /api/customers/:id/avatar           the image
 *   DELETE /api/customers/:id/avatar
 *   POST   /api/household-members/:id/convert  a customer of its own from a household member
 *   POST   /api/customers/import/preview       multipart: file (CSV), options (JSON)   back office
 *   POST   /api/customers/import               same; `Accept: application/x-ndjson` streams progress
 *   GET    /api/customers/export?from&until&lead_source&delimiter   CSV, streamed
 *
 * Every route checks the customer (or document, member) like GET /api/<resource>/:id does: a
 * record the user may not see answers 404.
 */
import { PassThrough } from 'node:stream';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { enforceOwnership } from '../access/visibility.ts';
import { audit } from '../auth/audit.ts';
import type { Row } from '../db/index.ts';
import { ApiError, notFound, validationError } from '../http/errors.ts';
import { createAjvInstance, fieldErrors, inputSchema, responseSchema } from '../http/validation.ts';
import { getStorage } from '../storage/index.ts';
import { IMPORT_ROLES, MERGE_ROLES, modelOf, requireRole, requireVisible } from './access.ts';
import { type DuplicateQuery, duplicateQuerySchema, findDuplicates } from './duplicates.ts';
import { type ExportQuery, exportCustomers, exportFileName, exportQuerySchema } from './export.ts';
import {
  AVATAR_KINDS,
  AVATAR_MAX_BYTES,
  DOCUMENT_KINDS,
  DOCUMENT_MAX_BYTES,
  receiveUpload,
  sendStored,
} from './files.ts';
import { type ImportMode, prepareImport, receiveImport, writeImport } from './import.ts';
import { mergeCustomers } from './merge.ts';
import { checkCustomer, hasErrors } from './rules.ts';

const MAX_INT = 2_147_483_647;
const idParams = {
  type: 'object',
  additionalProperties: false,
  required: ['id'],
  properties: { id: { type: 'integer', minimum: 1, maximum: MAX_INT } },
};
const idOf = (request: FastifyRequest) => (request.params as { id: number }).id;

/** Fields of a household member that a customer made from it takes over. */
const MEMBER_FIELDS = [
  'first_name',
  'last_name',
  'gender',
  'marital_status',
  'partnership_date',
  'date_of_birth',
  'nationality',
  'permit_type',
] as const;
/** Fields of the household's customer that the new customer shares. */
const HOUSEHOLD_FIELDS = [
  'street',
  'address_number',
  'zip',
  'city',
  'country',
  'correspondence_languages',
] as const;

export async function customerRoutes(app: FastifyInstance): Promise<void> {
  // Multipart for the routes of this module only.
  // Oversized files are detected per route (`truncated`), answered 413 and nothing kept.
  await app.register(multipart, {
    limits: { fileSize: DOCUMENT_MAX_BYTES, files: 1 },
    throwFileSizeLimit: false,
  });
  const documents = modelOf(app, 'documents');
  const validateDocument = createAjvInstance.compile(inputSchema(documents.schema));
  // Answers carry records through the same response schemas as the generic routes (dates as
  // YYYY-MM-DD whatever the engine returns).
  const one = (resource: string) => ({
    type: 'object',
    properties: { data: responseSchema(modelOf(app, resource).schema) },
  });

  app.get(
    '/api/customers/duplicates',
    {
      config: { access: 'authenticated', external: true },
      schema: {
        tags: ['customers'],
        summary:
          'Possible duplicates of a customer being entered (same name and birth date, email, phone or organization); matches the user may not see are only counted (hidden).',
        querystring: duplicateQuerySchema,
      },
    },
    async (request) => findDuplicates(app, request, request.query as DuplicateQuery),
  );

  app.post(
    '/api/customers/:id/merge',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['customers'],
        summary:
          'Merge the duplicate into this customer: everything hanging off the duplicate moves, empty fields are filled, the duplicate is deleted, an audit record is kept (ADMIN, BACKOFFICE).',
        params: idParams,
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['duplicate_id'],
          properties: {
            duplicate_id: { type: 'integer', minimum: 1, maximum: MAX_INT },
            fill_empty: { type: 'boolean' },
          },
        },
        response: {
          200: {
            type: 'object',
            properties: {
              data: responseSchema(modelOf(app, 'customers').schema),
              moved: { type: 'object', additionalProperties: { type: 'integer' } },
              filled: { type: 'array', items: { type: 'string' } },
            },
          },
        },
      },
    },
    async (request) => {
      requireRole(request, MERGE_ROLES, 'merge customers');
      const body = request.body as { duplicate_id: number; fill_empty?: boolean };
      return mergeCustomers(
        app,
        request,
        idOf(request),
        body.duplicate_id,
        body.fill_empty ?? true,
      );
    },
  );

  app.post(
    '/api/customers/:id/documents',
    {
      config: { access: 'authenticated', external: true },
      schema: {
        tags: ['documents'],
        summary: `Upload a document of the customer (multipart: file, document_name, document_type, document_related_to). At most ${DOCUMENT_MAX_BYTES / 1024 / 1024} MB; PDF, images and office files, checked by content.`,
        params: idParams,
        response: { 201: one('documents') },
      },
    },
    async (request, reply) => {
      const customer = await requireVisible(app, request, 'customers', idOf(request));
      const upload = await receiveUpload(request, {
        folder: 'documents',
        kinds: DOCUMENT_KINDS,
        maxBytes: DOCUMENT_MAX_BYTES,
      });
      const file = upload.file;
      try {
        if (!file) throw validationError({ file: ['is required'] });
        const fields = upload.fields;
        const body: Row = {
          customer_id: Number(customer.id),
          document_name:
            fields.document_name?.trim() || file.originalName.replace(/\.[^.]+$/, '') || 'Dokument',
        };
        if (fields.document_type) body.document_type = fields.document_type;
        if (fields.document_related_to) body.document_related_to = fields.document_related_to;
        if (!validateDocument(body))
          throw validationError(fieldErrors(validateDocument.errors ?? []));
        const row = await app.db
          .insertInto('documents')
          .values({
            ...body,
            document_file: file.key,
            original_name: file.originalName,
            mime_type: file.mime,
            size_bytes: file.size,
            uploaded_by: request.principal?.id ?? null,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        return reply.status(201).send({ data: row });
      } catch (error) {
        if (file) await getStorage().remove(file.key);
        throw error;
      }
    },
  );

  app.get(
    '/api/documents/:id/download',
    {
      config: { access: 'authenticated', external: true },
      schema: {
        tags: ['documents'],
        summary: 'The file of a document, as an attachment.',
        params: idParams,
      },
    },
    async (request, reply) => {
      const document = await requireVisible(app, request, 'documents', idOf(request));
      if (!document.document_file) throw new ApiError(404, 'This document has no file.');
      const original = String(document.original_name ?? '');
      const extension = /\.[A-Za-z0-9]{1,8}$/.exec(original)?.[0] ?? '';
      const name = `${String(document.document_name)}${
        String(document.document_name).toLowerCase().endsWith(extension.toLowerCase())
          ? ''
          : extension
      }`;
      return sendStored(reply, {
        key: String(document.document_file),
        mime: String(document.mime_type ?? 'application/octet-stream'),
        size: Number(document.size_bytes) || undefined,
        name,
      });
    },
  );

  app.post(
    '/api/customers/:id/avatar',
    {
      config: { access: 'authenticated', external: true },
      schema: {
        tags: ['customers'],
        summary: `Set the customer's picture (multipart: file; JPEG, PNG, GIF or WebP, at most ${AVATAR_MAX_BYTES / 1024 / 1024} MB).`,
        params: idParams,
        response: { 200: one('customers') },
      },
    },
    async (request) => {
      const customer = await requireVisible(app, request, 'customers', idOf(request));
      const upload = await receiveUpload(request, {
        folder: 'avatars',
        kinds: AVATAR_KINDS,
        maxBytes: AVATAR_MAX_BYTES,
      });
      if (!upload.file) throw validationError({ file: ['is required'] });
      const row = await app.db
        .updateTable('customers')
        .set({ avatar: upload.file.key, updated_at: sql`now()` })
        .where('id', '=', Number(customer.id))
        .returningAll()
        .executeTakeFirstOrThrow();
      if (customer.avatar) await getStorage().remove(String(customer.avatar));
      return { data: row };
    },
  );

  app.get(
    '/api/customers/:id/avatar',
    {
      config: { access: 'authenticated', external: true },
      schema: { tags: ['customers'], summary: "The customer's picture.", params: idParams },
    },
    async (request, reply) => {
      const customer = await requireVisible(app, request, 'customers', idOf(request));
      if (!customer.avatar) throw notFound('Picture');
      const key = String(customer.avatar);
      const extension = key.split('.').pop() ?? 'jpg';
      const kind = Object.values(AVATAR_KINDS).find((candidate) =>
        candidate.extensions.includes(extension),
      );
      return sendStored(
        reply,
        { key, mime: kind?.mime ?? 'application/octet-stream', name: `avatar.${extension}` },
        'inline',
      );
    },
  );

  app.delete(
    '/api/customers/:id/avatar',
    {
      config: { access: 'authenticated', external: true },
      schema: {
        tags: ['customers'],
        summary: "Remove the customer's picture.",
        params: idParams,
        response: { 200: one('customers') },
      },
    },
    async (request) => {
      const customer = await requireVisible(app, request, 'customers', idOf(request));
      const row = await app.db
        .updateTable('customers')
        .set({ avatar: null, updated_at: sql`now()` })
        .where('id', '=', Number(customer.id))
        .returningAll()
        .executeTakeFirstOrThrow();
      if (customer.avatar) await getStorage().remove(String(customer.avatar));
      return { data: row };
    },
  );

  app.post(
    '/api/household-members/:id/convert',
    {
      config: { access: 'authenticated', external: true },
      schema: {
        tags: ['household-members'],
        summary:
          "Make a household member a customer of its own: names, birth and civil data from the member, address (same household) and languages from the household's customer, who is noted as recommender; the member is linked to the new customer.",
        params: idParams,
        response: { 201: one('customers') },
      },
    },
    async (request, reply) => {
      const customers = modelOf(app, 'customers');
      const created = await app.db.transaction().execute(async (trx) => {
        const member = await requireVisible(app, request, 'household-members', idOf(request), trx);
        if (member.linked_customer_id) {
          throw new ApiError(
            409,
            `This household member is already customer #${member.linked_customer_id}.`,
          );
        }
        const household = await trx
          .selectFrom('customers')
          .selectAll()
          .where('id', '=', Number(member.customer_id))
          .executeTakeFirstOrThrow();
        const values: Row = {
          is_company: false,
          lead_source: household.lead_source,
          recommended_by_customer_id: household.id,
          assigned_to: household.assigned_to,
          sub_broker_id: household.sub_broker_id,
        };
        for (const field of MEMBER_FIELDS) values[field] = member[field] ?? null;
        if (member.same_household !== false) {
          for (const field of HOUSEHOLD_FIELDS) values[field] = household[field] ?? null;
        }
        const errors = await checkCustomer(trx, values);
        if (hasErrors(errors)) {
          throw new ApiError(
            422,
            'The household member cannot become a customer as it is; correct it first.',
            errors,
          );
        }
        if (Array.isArray(values.correspondence_languages))
          values.correspondence_languages = JSON.stringify(values.correspondence_languages);
        const owned = await enforceOwnership(values, {
          db: trx,
          model: customers,
          models: app.models,
          principal: request.principal,
          mode: 'create',
        });
        const customer = await trx
          .insertInto('customers')
          .values(owned)
          .returningAll()
          .executeTakeFirstOrThrow();
        await trx
          .updateTable('household_members')
          .set({ linked_customer_id: customer.id, updated_at: sql`now()` })
          .where('id', '=', Number(member.id))
          .execute();
        return customer;
      });
      return reply.status(201).send({ data: created });
    },
  );

  const importSchema = (summary: string) => ({
    tags: ['customers'],
    summary,
    description:
      'Multipart: `file` (CSV: UTF-8 or Windows-1252, `,` `;` or tab, a header line) and `options` (JSON: mapping {column: field|null}, mode all_or_nothing|skip_invalid, encoding, delimiter, import_lead_source, import_recommended_by, assigned_to). Rows are checked like creates; row_errors name row, line, column and field.',
  });

  app.post(
    '/api/customers/import/preview',
    {
      config: { access: 'authenticated' },
      schema: importSchema(
        'Check a CSV of customers and show what would be imported; writes nothing.',
      ),
    },
    async (request) => {
      requireRole(request, IMPORT_ROLES, 'import customers');
      const { buffer, options } = await receiveImport(request);
      const prepared = await prepareImport(app, buffer, options);
      return {
        columns: prepared.parsed.headers,
        delimiter: prepared.parsed.delimiter,
        encoding: prepared.parsed.encoding,
        mapping: prepared.mapping,
        suggested_mapping: prepared.suggested,
        total_rows: prepared.parsed.rows.length,
        valid_rows: prepared.valid.length,
        invalid_rows: prepared.invalidRows,
        row_errors: prepared.errors,
        preview: prepared.preview,
      };
    },
  );

  app.post(
    '/api/customers/import',
    {
      config: { access: 'authenticated' },
      schema: importSchema(
        'Import a CSV of customers: all_or_nothing (default) writes nothing when a row is invalid (422); skip_invalid writes the valid rows. With Accept: application/x-ndjson the answer streams progress lines, then the summary.',
      ),
    },
    async (request, reply) => {
      const principal = requireRole(request, IMPORT_ROLES, 'import customers');
      const { buffer, fileName, options } = await receiveImport(request);
      const mode: ImportMode = options.mode ?? 'all_or_nothing';
      const streaming = String(request.headers.accept ?? '').includes('application/x-ndjson');

      const run = async (progress: (line: Row) => void) => {
        const prepared = await prepareImport(app, buffer, options);
        const total = prepared.parsed.rows.length;
        progress({ type: 'progress', phase: 'checked', done: total, total });
        if (mode === 'all_or_nothing' && prepared.invalidRows > 0) {
          throw Object.assign(
            new ApiError(
              422,
              `${prepared.invalidRows} of ${total} rows have errors; nothing was imported. Correct them or choose to skip invalid rows.`,
              { file: [`${prepared.invalidRows} rows have errors`] },
            ),
            { rowErrors: prepared.errors },
          );
        }
        const imported = await writeImport(app.db, prepared.valid, (done) =>
          progress({ type: 'progress', phase: 'importing', done, total: prepared.valid.length }),
        );
        const summary = {
          total_rows: total,
          imported,
          skipped: prepared.invalidRows,
          mode,
          row_errors: prepared.errors,
        };
        await audit(app.db, 'customers.imported', {
          userId: principal.id,
          ip: request.ip,
          resource: 'customers',
          details: {
            file: fileName,
            total_rows: total,
            imported,
            skipped: prepared.invalidRows,
            mode,
          },
        });
        return summary;
      };

      if (!streaming) {
        try {
          return await run(() => {});
        } catch (error) {
          const rowErrors = (error as { rowErrors?: unknown }).rowErrors;
          if (error instanceof ApiError && rowErrors) {
            return reply
              .status(error.statusCode)
              .send({ message: error.message, errors: error.errors, row_errors: rowErrors });
          }
          throw error;
        }
      }
      // Streaming: one JSON object per line; the last one is the summary or the error.
      const out = new PassThrough();
      reply
        .header('content-type', 'application/x-ndjson; charset=utf-8')
        .header('cache-control', 'no-store');
      const write = (line: Row) => out.write(`${JSON.stringify(line)}\n`);
      run(write)
        .then((summary) => write({ type: 'summary', ...summary }))
        .catch((error: unknown) => {
          const apiError = error instanceof ApiError ? error : undefined;
          if (!apiError) request.log.error({ err: error }, 'import failed');
          write({
            type: 'error',
            status: apiError?.statusCode ?? 500,
            message: apiError?.message ?? 'Internal server error.',
            errors: apiError?.errors,
            row_errors: (error as { rowErrors?: unknown }).rowErrors,
          });
        })
        .finally(() => out.end());
      return reply.send(out);
    },
  );

  app.get(
    '/api/customers/export',
    {
      config: { access: 'authenticated', external: true },
      schema: {
        tags: ['customers'],
        summary:
          'Client report: the customers the user sees, created from..until (dates, Swiss time), of the given lead sources, as CSV (UTF-8 with BOM, `;`), streamed.',
        querystring: exportQuerySchema,
      },
    },
    async (request, reply) => {
      const query = request.query as ExportQuery;
      if (query.from && query.until && query.from > query.until) {
        throw new ApiError(400, 'Invalid query parameter: until.', {
          until: ['must not be before from'],
        });
      }
      reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${exportFileName()}"`)
        .header('cache-control', 'private, no-store');
      return reply.send(exportCustomers(app, request, query));
    },
  );
}
