/**
 * A customer's files: documents and the picture.
 *   POST   /api/customers/:id/documents   multipart: file, document_name?, document_type?, document_related_to?,
 *                                          contract_id? (a contract of the customer: issue 14), signed_on? (the signing day)
 *   GET    /api/documents/:id/download    the file, as an attachment
 *   POST   /api/customers/:id/avatar      multipart: file (image)
 *   GET    /api/customers/:id/avatar      the image
 *   DELETE /api/customers/:id/avatar
 * The type is read from the content (./files.ts); a record the user may not see answers 404.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Insertable, sql } from 'kysely';
import type { DocumentsTable } from '../../src/types/database.ts';
import type { ResourceRow } from '../db/resource.ts';
import { afterDocumentWrite, documentContractErrors } from '../contracts/documents.ts';
import { ApiError, assertNoErrors, issue, notFound, validationError } from '../http/errors.ts';
import { type IdParams, idParams } from '../http/params.ts';
import { createAjvInstance, fieldErrors, inputSchema } from '../http/validation.ts';
import { getStorage } from '../storage/index.ts';
import { modelOf, recordAnswer, requireVisible, visibleRow } from './access.ts';
import {
  AVATAR_KINDS,
  avatarMaxBytes,
  DOCUMENT_KINDS,
  documentMaxBytes,
  receiveUpload,
  sendStored,
} from './files.ts';
import { writeTransaction } from '../audit/context.ts';

export async function documentRoutes(app: FastifyInstance): Promise<void> {
  const validateDocument = createAjvInstance.compile(inputSchema(modelOf(app, 'documents').schema));

  /** Sets the customer's picture (a stored key, or none) and removes the file it replaces. */
  const replaceAvatar = async (
    request: FastifyRequest,
    customer: ResourceRow,
    key: string | null,
  ) => {
    const row = await writeTransaction(app.db, request, (trx) =>
      trx
        .updateTable('customers')
        .set({ avatar: key, updated_at: sql`now()` })
        .where('id', '=', Number(customer.id))
        .returningAll()
        .executeTakeFirstOrThrow(),
    );
    if (customer.avatar) await getStorage().remove(String(customer.avatar));
    return { data: row };
  };

  app.post<{ Params: IdParams }>(
    '/api/customers/:id/documents',
    {
      config: { access: 'authenticated', external: true },
      schema: {
        tags: ['documents'],
        summary: `Upload a document of the customer (multipart: file, document_name, document_type, document_related_to, contract_id, signed_on). At most ${documentMaxBytes() / 1024 / 1024} MB; PDF, images and office files, checked by content.`,
        params: idParams,
        response: { 201: recordAnswer(app, 'documents') },
      },
    },
    async (request, reply) => {
      const customer = await requireVisible(app, request, 'customers', request.params.id);
      const upload = await receiveUpload(request, {
        folder: 'documents',
        kinds: DOCUMENT_KINDS,
        maxBytes: documentMaxBytes(),
      });
      const file = upload.file;
      try {
        if (!file) throw validationError({ file: [issue('required')] });
        const fields = upload.fields;
        const body: Insertable<DocumentsTable> = {
          customer_id: Number(customer.id),
          document_name:
            fields.document_name?.trim() || file.originalName.replace(/\.[^.]+$/, '') || 'Dokument',
        };
        if (fields.document_type) body.document_type = fields.document_type;
        if (fields.document_related_to) body.document_related_to = fields.document_related_to;
        // The signing day (a date; the schema refuses other text): an advice protocol counts
        // for its contract only when signed.
        if (fields.signed_on?.trim()) body.signed_on = fields.signed_on.trim();
        if (fields.contract_id !== undefined && fields.contract_id.trim() !== '') {
          // A part's value is text: whole decimal digits, else the schema's own refusal.
          const text = fields.contract_id.trim();
          if (!/^[1-9][0-9]{0,9}$/.test(text))
            throw validationError({ contract_id: [issue('integerText')] });
          body.contract_id = Number(text);
        }
        if (!validateDocument(body))
          throw validationError(fieldErrors(validateDocument.errors ?? []));
        const row = await writeTransaction(app.db, request, async (trx) => {
          if (body.contract_id !== undefined && body.contract_id !== null) {
            // The contract: one the user sees (404 as an unknown id), of this customer.
            const contract = await visibleRow(app, request, 'contracts', body.contract_id, trx);
            if (!contract)
              throw validationError({
                contract_id: [
                  issue('unknownReference', {
                    resource: 'contracts',
                    ids: String(body.contract_id),
                  }),
                ],
              });
          }
          assertNoErrors(await documentContractErrors(trx, body));
          const inserted = await trx
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
          await afterDocumentWrite(trx, inserted);
          return inserted;
        });
        return reply.status(201).send({ data: row });
      } catch (error) {
        if (file) await getStorage().remove(file.key);
        throw error;
      }
    },
  );

  app.get<{ Params: IdParams }>(
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
      const document = await requireVisible(app, request, 'documents', request.params.id);
      if (!document.document_file) throw new ApiError(404, 'noDocumentFile');
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

  app.post<{ Params: IdParams }>(
    '/api/customers/:id/avatar',
    {
      config: { access: 'authenticated', external: true },
      schema: {
        tags: ['customers'],
        summary: `Set the customer's picture (multipart: file; JPEG, PNG, GIF or WebP, at most ${avatarMaxBytes() / 1024 / 1024} MB).`,
        params: idParams,
        response: { 200: recordAnswer(app, 'customers') },
      },
    },
    async (request) => {
      const customer = await requireVisible(app, request, 'customers', request.params.id);
      const upload = await receiveUpload(request, {
        folder: 'avatars',
        kinds: AVATAR_KINDS,
        maxBytes: avatarMaxBytes(),
      });
      if (!upload.file) throw validationError({ file: [issue('required')] });
      return replaceAvatar(request, customer, upload.file.key);
    },
  );

  app.get<{ Params: IdParams }>(
    '/api/customers/:id/avatar',
    {
      config: { access: 'authenticated', external: true },
      schema: { tags: ['customers'], summary: "The customer's picture.", params: idParams },
    },
    async (request, reply) => {
      const customer = await requireVisible(app, request, 'customers', request.params.id);
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

  app.delete<{ Params: IdParams }>(
    '/api/customers/:id/avatar',
    {
      config: { access: 'authenticated', external: true },
      schema: {
        tags: ['customers'],
        summary: "Remove the customer's picture.",
        params: idParams,
        response: { 200: recordAnswer(app, 'customers') },
      },
    },
    async (request) => {
      const customer = await requireVisible(app, request, 'customers', request.params.id);
      return replaceAvatar(request, customer, null);
    },
  );
}
