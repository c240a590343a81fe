/**
 * A feedback's image (SPEC §3 Feedback `image`: a photo of a signed form, a whiteboard, taken with
 * a phone), beside the feedback call — which stays one JSON transaction; the dialog sends the
 * photo right after it, the appointment's page replaces or removes it:
 *   POST   /api/feedbacks/:id/image   multipart: file (JPEG, PNG, WebP or HEIC) — sets or replaces it
 *   GET    /api/feedbacks/:id/image   the image, inline, its type from the content it was stored with
 *   DELETE /api/feedbacks/:id/image
 * The same machinery as the customers' pictures (server/customers/files.ts): the type read from
 * the content (415 naming `file`), `FEEDBACK_IMAGE_MAX_BYTES` (413), the upload time limits, a
 * server-chosen key (`feedback-images/<uuid>.<ext>`) in the storage (disk or S3), nosniff and
 * no-store on the way out. Visible exactly as the feedback is, i.e. as its appointment (404
 * otherwise); whoever may see it may change it, as its texts (`update: authenticated`). The
 * feedback row is locked and changed in an audited transaction (history: `feedbacks update` with
 * the image's old and new key); the file it replaces leaves the storage after the commit, a new
 * file whose write fails is removed.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import type { SessionUser } from '../auth/sessions.ts';
import { writeTransaction } from '../audit/context.ts';
import { modelOf, recordAnswer, requireVisible, scopeFor } from '../customers/access.ts';
import {
  FEEDBACK_IMAGE_KINDS,
  feedbackImageMaxBytes,
  receiveUpload,
  sendStored,
} from '../customers/files.ts';
import { type ResourceRow, resourceDb } from '../db/resource.ts';
import { ApiError, issue, notFound, validationError } from '../http/errors.ts';
import { type IdParams, idParams } from '../http/params.ts';
import { getStorage } from '../storage/index.ts';

/** The storage folder of feedback images. */
export const FEEDBACK_IMAGE_FOLDER = 'feedback-images';

/** The content type of a stored image, from the extension its key was given by its content. */
export function feedbackImageType(key: string): { extension: string; mime: string } {
  const extension = key.split('.').pop()?.toLowerCase() ?? '';
  const kind = Object.values(FEEDBACK_IMAGE_KINDS).find((candidate) =>
    candidate.extensions.includes(extension),
  );
  return { extension, mime: kind?.mime ?? 'application/octet-stream' };
}

const megabytes = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

export async function feedbackImageRoutes(app: FastifyInstance): Promise<void> {
  // Multipart for these routes only (as the customers' feature does for its own).
  await app.register(multipart, {
    limits: { fileSize: feedbackImageMaxBytes(), files: 1 },
    throwFileSizeLimit: false,
  });
  const title = modelOf(app, 'feedbacks').title;
  const answer = recordAnswer(app, 'feedbacks');

  /**
   * Sets the feedback's image (a stored key, or none) on the locked row, in the caller's scope;
   * answers the record. The file it replaces is removed once the change is committed.
   */
  const setImage = async (
    request: FastifyRequest,
    id: number,
    key: string | null,
  ): Promise<ResourceRow> => {
    const principal = request.principal as SessionUser;
    const { row, previous } = await writeTransaction(app.db, request, async (trx) => {
      const current = await resourceDb(trx)
        .selectFrom('feedbacks')
        .selectAll()
        .where('id', '=', id)
        .where(scopeFor(app, 'feedbacks', principal, trx))
        .forNoKeyUpdate()
        .executeTakeFirst();
      if (!current) throw notFound(title);
      const before = typeof current.image === 'string' && current.image ? current.image : null;
      // Removing what is not there changes nothing (and writes no history).
      if (before === null && key === null) return { row: current, previous: null };
      const updated = await resourceDb(trx)
        .updateTable('feedbacks')
        .set({ image: key, updated_at: new Date() })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return { row: updated, previous: before };
    });
    if (previous && previous !== key) {
      await getStorage()
        .remove(previous)
        .catch((error: unknown) =>
          request.log.error({ err: error, key: previous }, 'replaced feedback image not removed'),
        );
    }
    return row;
  };

  app.post<{ Params: IdParams }>(
    '/api/feedbacks/:id/image',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['feedbacks'],
        summary: `Set or replace the feedback's image (multipart: file; JPEG, PNG, WebP or HEIC, checked by content; at most ${megabytes(feedbackImageMaxBytes())} MB). Visible as the feedback's appointment (404 otherwise).`,
        params: idParams,
        response: { 200: answer },
      },
    },
    async (request) => {
      // Before reading the body: nothing is stored for a feedback the caller may not see.
      await requireVisible(app, request, 'feedbacks', request.params.id);
      const upload = await receiveUpload(request, {
        folder: FEEDBACK_IMAGE_FOLDER,
        kinds: FEEDBACK_IMAGE_KINDS,
        maxBytes: feedbackImageMaxBytes(),
      });
      const file = upload.file;
      if (!file) throw validationError({ file: [issue('required')] });
      try {
        return { data: await setImage(request, request.params.id, file.key) };
      } catch (error) {
        await getStorage().remove(file.key);
        throw error;
      }
    },
  );

  app.get<{ Params: IdParams }>(
    '/api/feedbacks/:id/image',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['feedbacks'],
        summary: "The feedback's image, inline (404 when it has none).",
        params: idParams,
      },
    },
    async (request, reply) => {
      const feedback = await requireVisible(app, request, 'feedbacks', request.params.id);
      if (typeof feedback.image !== 'string' || !feedback.image)
        throw new ApiError(404, 'noFeedbackImage');
      const { extension, mime } = feedbackImageType(feedback.image);
      return sendStored(
        reply,
        { key: feedback.image, mime, name: `feedback-${String(feedback.id)}.${extension}` },
        'inline',
      );
    },
  );

  app.delete<{ Params: IdParams }>(
    '/api/feedbacks/:id/image',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['feedbacks'],
        summary: "Remove the feedback's image.",
        params: idParams,
        response: { 200: answer },
      },
    },
    async (request) => ({ data: await setImage(request, request.params.id, null) }),
  );
}
