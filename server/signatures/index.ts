/**
 * Documents customers sign online (issue 19; docs/ARCHITECTURE.md "Signatures").
 *
 * Staff, for a document they may see:
 *   POST /api/documents/{id}/signature-requests {signer_name, signer_email?, language?, days?}
 *        → 201 {data, token, url, mailed}: the link, answered only here, and mailed to the signer
 *   POST /api/signature-requests/{id}/revoke   → {data}; 409 when it is no longer open
 *   (list and read: the generic routes of `signature-requests`)
 * Only a broker mandate, advice protocol or application that is a PDF pdf-lib can open, at most
 * SIGNATURE_MAX_BYTES (default 10 MB), can be sent (422 naming `document`). A new request for a
 * document revokes its open one: one valid link per document.
 *
 * The signer, without an account, with the link's token (header `x-signature-token`):
 *   GET  /api/public/signatures/{id}            what the page shows (document name, signer, expiry)
 *   GET  /api/public/signatures/{id}/document   the PDF to read
 *   POST /api/public/signatures/{id}/sign       {name, place, signature: {width, height, strokes}, consent}
 * A token that is not this request's (guessed, of another request) answers 404
 * `signatureLinkInvalid`; this request's token once signed, revoked or expired answers 410 with
 * its own message — and nothing of the document. The link is bound to the SHA-256 of the file it was
 * made for: a file that changed since answers 410 `signatureDocumentChanged`.
 *
 * Signing, in one transaction with the request locked (a second click or a second tab finds it
 * signed): the stamped PDF (./stamp.ts) is stored as a new document beside the original
 * (`original_document_id`, signed today); the request records who, when, from which address and
 * browser, and the hashes; a signed advice protocol clears its contract's protocolMissing, a signed
 * broker mandate sets its contract's brokerMandate (and the contract's commissions follow); the
 * sender and the customer's consultant are notified. The audit log has every write with the
 * signer's address and browser (actor `signature:{id}`).
 */
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import {
  type DrawnSignature,
  inkLength,
  LINK_DAYS,
  MIN_INK,
  SIGNABLE_TYPES,
} from '../../src/schema/signatures.ts';
import { swissToday } from '../../src/schema/swiss-time.ts';
import { publicUrl } from '../account/tokens.ts';
import { auditContextOf, systemContext, writeTransaction } from '../audit/context.ts';
import { hashToken } from '../auth/sessions.ts';
import { recordAnswer, requireVisible } from '../customers/access.ts';
import { declareCustomerRows } from '../customers/personal-data.ts';
import type { DB } from '../db/index.ts';
import { type ResourceRow, resourceDb } from '../db/resource.ts';
import { ApiError, type ErrorIssue, issue, validationError } from '../http/errors.ts';
import { idParams, type IdParams } from '../http/params.ts';
import { sendMail } from '../mail/mailer.ts';
import { renderMail } from '../mail/templates.ts';
import { longDate } from '../pdf/text.ts';
import { getStorage, newKey } from '../storage/index.ts';
import { personName, recordSigning, sha256 } from './record.ts';
import { readablePdf, stampSignature } from './stamp.ts';

export const RESOURCE = 'signature-requests';
export const TOKEN_HEADER = 'x-signature-token';
const LANGUAGES = ['de', 'en', 'fr', 'it'] as const;
const MB = 1024 * 1024;
/** The size limit of a document to sign, read from the environment when it is checked. */
export const signatureMaxBytes = (): number => Number(process.env.SIGNATURE_MAX_BYTES ?? 10 * MB);
/** How often open requests past their expiry are marked expired (the answers say so at once). */
const EXPIRE_CRON = '17 * * * *';

/** The limit as the refusal says it: in MB (0.3 MB, 10 MB). */
const human = (bytes: number) => `${Math.round((bytes / MB) * 10) / 10} MB`;

const tags = ['signatures'];

declare module '../jobs/queue.ts' {
  interface JobPayloads {
    /** Mark open signature requests past their expiry expired. */
    'signatures.expire': Record<string, never>;
  }
}

/** The bytes of a stored file, or undefined when the storage no longer has it. */
async function storedBytes(key: string): Promise<Buffer | undefined> {
  const stream = await getStorage().get(key);
  if (!stream) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/** A refusal of the document: the message names the document (the dialog shows it as it is). */
const documentError = (found: ErrorIssue) => new ApiError(422, found, { document: [found] });

const tokenHeaders = {
  type: 'object',
  properties: {
    [TOKEN_HEADER]: {
      type: 'string',
      maxLength: 200,
      description: "The link's secret token (the `token` of the link's address).",
    },
  },
} as const;

/** A stored request's status as it stands now: an open one past its expiry is expired. */
export function currentStatus(row: ResourceRow, now = Date.now()): string {
  const expires = row.expires_at ? new Date(String(row.expires_at)).getTime() : Infinity;
  return row.status === 'open' && expires <= now ? 'expired' : String(row.status);
}

interface SignBody {
  name: string;
  place: string;
  consent: boolean;
  signature: DrawnSignature;
}

export default async function signatures(app: FastifyInstance): Promise<void> {
  declareCustomerRows({ name: RESOURCE, table: 'signature_requests', column: 'customer_id' });
  app.resourceHooks.add(RESOURCE, {
    // `?status=`: as the answers say it (an open request past its expiry is expired).
    listParameters: { status: { type: 'string', enum: ['open', 'signed', 'revoked', 'expired'] } },
    listConditions(query) {
      const status = query.status;
      if (status === 'open')
        return [
          (eb) => eb.and([eb('status', '=', 'open'), eb('expires_at', '>', sql<Date>`now()`)]),
        ];
      if (status === 'expired')
        return [
          (eb) =>
            eb.or([
              eb('status', '=', 'expired'),
              eb.and([eb('status', '=', 'open'), eb('expires_at', '<=', sql<Date>`now()`)]),
            ]),
        ];
      if (typeof status === 'string') return [(eb) => eb('status', '=', status)];
      return [];
    },
    // What the answers say is the status as it stands (the hourly pass also stores it).
    present: (rows) =>
      rows.map((row) =>
        row.status === 'open' && currentStatus(row) === 'expired'
          ? { ...row, status: 'expired' }
          : row,
      ),
  });
  app.jobs.define(
    'signatures.expire',
    { retryLimit: 2, retryDelay: 30, expireInSeconds: 10 * 60 },
    async () => {
      await expireRequests(app.db);
    },
  );
  app.jobs.schedule('signatures.expire', EXPIRE_CRON, {});

  app.post<{
    Params: IdParams;
    Body: { signer_name: string; signer_email?: string; language?: string; days?: number };
  }>(
    '/api/documents/:id/signature-requests',
    {
      config: { access: 'authenticated' },
      schema: {
        tags,
        summary:
          'Ask a person to sign a document (a PDF broker mandate, advice protocol or application) online: the link (random, expiring, single-use) is answered once and mailed when signer_email is given. Revokes the open request of the same document.',
        params: idParams,
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['signer_name'],
          properties: {
            signer_name: { type: 'string', minLength: 1, maxLength: 200 },
            signer_email: { type: 'string', format: 'email', maxLength: 254 },
            language: { type: 'string', enum: [...LANGUAGES] },
            days: {
              type: 'integer',
              minimum: 1,
              maximum: LINK_DAYS.max,
              default: LINK_DAYS.default,
            },
          },
        },
      },
    },
    async (request, reply) => {
      const document = await requireVisible(app, request, 'documents', request.params.id);
      if (!request.body.signer_name.trim())
        throw validationError({ signer_name: [issue('required')] });
      const type = String(document.document_type ?? '');
      if (!(SIGNABLE_TYPES as readonly string[]).includes(type))
        throw documentError(issue('signatureDocumentType', { type }));
      if (!document.document_file || document.mime_type !== 'application/pdf')
        throw documentError(issue('signatureNotPdf'));
      const maxBytes = signatureMaxBytes();
      if (Number(document.size_bytes ?? 0) > maxBytes)
        throw documentError(issue('signatureTooLarge', { limit: human(maxBytes) }));
      const bytes = await storedBytes(String(document.document_file));
      if (!bytes) throw new ApiError(404, 'storedFileMissing');
      if (bytes.length > maxBytes)
        throw documentError(issue('signatureTooLarge', { limit: human(maxBytes) }));
      if (!(await readablePdf(bytes))) throw documentError(issue('signaturePdfUnreadable'));

      const customer = await resourceDb(app.db)
        .selectFrom('customers')
        .selectAll()
        .where('id', '=', Number(document.customer_id))
        .executeTakeFirstOrThrow();
      const correspondence = (customer.correspondence_languages as string[] | null) ?? [];
      const language =
        request.body.language ??
        (LANGUAGES as readonly string[]).find((code) => code === correspondence[0]) ??
        'de';
      const days = request.body.days ?? LINK_DAYS.default;
      const token = randomBytes(32).toString('base64url');
      const signerName = request.body.signer_name.trim();
      const email = request.body.signer_email?.trim() || null;
      const sender = request.principal!;

      const created = await writeTransaction(app.db, request, async (trx) => {
        await trx
          .updateTable('signature_requests')
          .set({ status: 'revoked', revoked_at: sql`now()`, updated_at: sql`now()` })
          .where('document_id', '=', Number(document.id))
          .where('status', '=', 'open')
          .execute();
        const row = await resourceDb(trx)
          .insertInto('signature_requests')
          .values({
            customer_id: Number(document.customer_id),
            document_id: Number(document.id),
            contract_id: document.contract_id ?? null,
            document_name: String(document.document_name).slice(0, 200),
            document_type: type,
            signer_name: signerName,
            signer_email: email,
            language,
            status: 'open',
            expires_at: new Date(Date.now() + days * 86_400_000),
            document_hash: sha256(bytes),
            created_by: sender.id,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        await trx
          .insertInto('signature_tokens')
          .values({ request_id: Number(row.id), token_hash: hashToken(token) })
          .execute();
        const url = `/attach-signatures/${String(row.id)}?${new URLSearchParams({ lang: language, token }).toString()}`;
        if (email) {
          const user = await trx
            .selectFrom('users')
            .select(['first_name', 'last_name'])
            .where('id', '=', sender.id)
            .executeTakeFirst();
          const { subject, body } = renderMail('signature-request', language, {
            name: signerName,
            document: String(row.document_name),
            link: publicUrl(url),
            date: longDate(swissToday(new Date(String(row.expires_at))), language),
            sender: (user && personName(user)) || 'GS CRM',
          });
          await sendMail(trx, {
            kind: 'signature-request',
            to: email,
            subject,
            body,
            customerId: Number(row.customer_id),
          });
        }
        return { row, url };
      });
      return reply.status(201).send({
        data: created.row,
        token,
        url: created.url,
        mailed: Boolean(email),
      });
    },
  );

  app.post<{ Params: IdParams }>(
    '/api/signature-requests/:id/revoke',
    {
      config: { access: 'authenticated' },
      schema: {
        tags,
        summary: 'Revoke an open signature request: its link opens nothing from now on.',
        params: idParams,
        response: { 200: recordAnswer(app, RESOURCE) },
      },
    },
    async (request) => {
      await requireVisible(app, request, RESOURCE, request.params.id);
      const row = await writeTransaction(app.db, request, async (trx) => {
        const current = await resourceDb(trx)
          .selectFrom('signature_requests')
          .selectAll()
          .where('id', '=', request.params.id)
          .forUpdate()
          .executeTakeFirstOrThrow();
        const status = currentStatus(current);
        if (status !== 'open')
          throw new ApiError(409, issue('signatureNotOpen', { status }), {
            status: [issue('signatureNotOpen', { status })],
          });
        return resourceDb(trx)
          .updateTable('signature_requests')
          .set({ status: 'revoked', revoked_at: sql`now()`, updated_at: sql`now()` })
          .where('id', '=', request.params.id)
          .returningAll()
          .executeTakeFirstOrThrow();
      });
      return { data: row };
    },
  );

  /**
   * The request a link opens: its token must be this request's (else 404, nothing said), the
   * request open, unexpired, its document still there (else 410 saying which).
   */
  const openRequest = async (
    request: FastifyRequest,
    id: number,
    db: DB = app.db,
    lock = false,
  ) => {
    const token = request.headers[TOKEN_HEADER];
    if (typeof token !== 'string' || token.length < 20)
      throw new ApiError(404, 'signatureLinkInvalid');
    const query = resourceDb(db)
      .selectFrom('signature_requests')
      .selectAll()
      .where('id', '=', id)
      .where(
        'id',
        'in',
        db
          .selectFrom('signature_tokens')
          .select('request_id')
          .where('token_hash', '=', hashToken(token)),
      );
    const row = await (lock ? query.forUpdate() : query).executeTakeFirst();
    if (!row) throw new ApiError(404, 'signatureLinkInvalid');
    const status = currentStatus(row);
    if (status === 'signed') throw new ApiError(410, 'signatureLinkUsed');
    if (status === 'revoked') throw new ApiError(410, 'signatureLinkRevoked');
    if (status === 'expired') throw new ApiError(410, 'signatureLinkExpired');
    if (row.document_id === null) throw new ApiError(410, 'signatureDocumentGone');
    return row;
  };

  /** The document of an open request, its file as bound (410 when it changed or went). */
  const boundFile = async (row: ResourceRow, db: DB = app.db) => {
    const document = await resourceDb(db)
      .selectFrom('documents')
      .selectAll()
      .where('id', '=', Number(row.document_id))
      .executeTakeFirst();
    const bytes = document?.document_file
      ? await storedBytes(String(document.document_file))
      : undefined;
    if (!document || !bytes) throw new ApiError(410, 'signatureDocumentGone');
    if (sha256(bytes) !== row.document_hash) throw new ApiError(410, 'signatureDocumentChanged');
    return { document, bytes };
  };

  const publicParams = idParams;

  app.get<{ Params: IdParams }>(
    '/api/public/signatures/:id',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary:
          "What the signing page shows: the document's name and type, the signer, the language and the expiry. 404 for a token not of this request; 410 once signed, revoked or expired.",
        params: publicParams,
        headers: tokenHeaders,
      },
    },
    async (request) => {
      const row = await openRequest(request, request.params.id);
      const customer = await app.db
        .selectFrom('customers')
        .select(['first_name', 'last_name', 'organization'])
        .where('id', '=', Number(row.customer_id))
        .executeTakeFirst();
      const sender = row.created_by
        ? await app.db
            .selectFrom('users')
            .select(['first_name', 'last_name', 'email'])
            .where('id', '=', Number(row.created_by))
            .executeTakeFirst()
        : undefined;
      return {
        data: {
          id: Number(row.id),
          document_name: row.document_name,
          document_type: row.document_type,
          signer_name: row.signer_name,
          language: row.language,
          expires_at: row.expires_at,
          customer_name: customer ? personName(customer) : null,
          sender_name: sender ? personName(sender) : null,
          sender_email: sender?.email ?? null,
        },
      };
    },
  );

  app.get<{ Params: IdParams }>(
    '/api/public/signatures/:id/document',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary:
          'The PDF to sign (inline), while the link is open and the file is the one it was made for.',
        params: publicParams,
        headers: tokenHeaders,
      },
    },
    async (request, reply) => {
      const row = await openRequest(request, request.params.id);
      const { bytes } = await boundFile(row);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', 'inline')
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store')
        .send(bytes);
    },
  );

  app.post<{ Params: IdParams; Body: SignBody }>(
    '/api/public/signatures/:id/sign',
    {
      config: { access: 'public' },
      bodyLimit: 2 * MB,
      schema: {
        tags,
        summary:
          'Sign: the drawn signature (strokes in pad pixels), the name and place are stamped into the PDF, stored as a new document beside the original; the request closes and the consultant is notified.',
        params: publicParams,
        headers: tokenHeaders,
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['name', 'place', 'signature', 'consent'],
          properties: {
            name: { type: 'string', minLength: 1, maxLength: 200 },
            place: { type: 'string', minLength: 1, maxLength: 100 },
            consent: {
              type: 'boolean',
              description:
                'The signer confirmed reading the document and signing it electronically.',
            },
            signature: {
              type: 'object',
              additionalProperties: false,
              required: ['width', 'height', 'strokes'],
              properties: {
                width: { type: 'number', minimum: 20, maximum: 5000 },
                height: { type: 'number', minimum: 20, maximum: 5000 },
                strokes: {
                  type: 'array',
                  maxItems: 300,
                  items: {
                    type: 'array',
                    minItems: 2,
                    maxItems: 6000,
                    items: { type: 'number', minimum: -100, maximum: 5100 },
                  },
                },
              },
            },
          },
        },
      },
    },
    async (request) => {
      const body = request.body;
      const blank: Record<string, ErrorIssue[]> = {};
      if (!body.name.trim()) blank.name = [issue('required')];
      if (!body.place.trim()) blank.place = [issue('required')];
      if (body.consent !== true) blank.consent = [issue('signatureConsent')];
      if (Object.keys(blank).length > 0) throw validationError(blank);
      const points = body.signature.strokes.reduce((sum, stroke) => sum + stroke.length / 2, 0);
      if (points > 30_000)
        throw validationError({ signature: [issue('maxItems', { limit: 30_000 })] });
      if (inkLength(body.signature) < MIN_INK)
        throw validationError({ signature: [issue('signatureEmpty')] }, issue('signatureEmpty'));
      const row = await openRequest(request, request.params.id);
      const { document, bytes } = await boundFile(row);
      const signedAt = new Date();
      const day = swissToday(signedAt);
      const context = auditContextOf(request, { actor: `signature:${String(row.id)}` });
      const facts = {
        name: body.name.trim(),
        place: body.place.trim(),
        ip: context.ip,
        userAgent: context.userAgent,
      };
      const signed = await stampSignature(bytes, {
        language: String(row.language),
        documentName: String(row.document_name),
        requestId: Number(row.id),
        name: facts.name,
        place: facts.place,
        day,
        signedAt,
        ip: facts.ip,
        userAgent: facts.userAgent,
        documentHash: String(row.document_hash),
        signature: body.signature,
      });
      const key = newKey('documents', 'pdf');
      await getStorage().put(key, Readable.from([Buffer.from(signed)]));
      try {
        const done = await writeTransaction(app.db, context, async (trx) => {
          // Locked: a second click, tab or device waits here and then finds it signed.
          const current = await openRequest(request, Number(row.id), trx, true);
          if (current.document_id !== row.document_id)
            throw new ApiError(410, 'signatureDocumentGone');
          return recordSigning(trx, {
            request: current,
            document,
            signed,
            key,
            name: facts.name,
            place: facts.place,
            day,
            signedAt,
            ip: facts.ip,
            userAgent: facts.userAgent,
          });
        });
        return {
          data: {
            id: Number(done.id),
            status: 'signed',
            signed_at: done.signed_at,
            document_name: done.document_name,
          },
        };
      } catch (error) {
        await getStorage().remove(key);
        throw error;
      }
    },
  );
}
Object.defineProperty(signatures, Symbol.for('skip-override'), { value: true });

/** Open requests past their expiry become expired (the hourly job). Answers how many. */
export async function expireRequests(db: DB): Promise<number> {
  const rows = await writeTransaction(db, systemContext('signatures.expire'), (trx) =>
    trx
      .updateTable('signature_requests')
      .set({ status: 'expired', updated_at: sql`now()` })
      .where('status', '=', 'open')
      .where('expires_at', '<=', sql<Date>`now()`)
      .returning('id')
      .execute(),
  );
  return rows.length;
}
