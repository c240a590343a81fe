/**
 * Receiving and sending files (documents, avatars, feedback images) safely:
 * - uploads are multipart (`@fastify/multipart`), one part named `file`, at most `maxBytes`
 *   (413 beyond, nothing kept); a client that leaves (400), stalls or trickles (408, see
 *   `watchUpload`) leaves nothing either, and never ends the process;
 * - the type comes from the content (`file-type` reads the first bytes), never from the name or
 *   the browser's header; only listed types pass (415), and a name whose extension claims another
 *   type is refused too (a PNG called `invoice.pdf`);
 * - the stored name is chosen by the server (server/storage `newKey`);
 * - downloads carry `Content-Disposition: attachment` with the original name encoded (RFC 6266),
 *   `X-Content-Type-Options: nosniff` and no caching.
 */
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type FileTypeResult, fileTypeFromBuffer } from 'file-type';
import { ApiError, type ErrorCode, type ErrorIssue, issue } from '../http/errors.ts';
import { getStorage, newKey } from '../storage/index.ts';

export interface FileKind {
  mime: string;
  /** File name extensions that may carry this type (the first is used for stored names). */
  extensions: string[];
}

/** Documents: PDF, images, and office files, keyed by file-type's `ext`. */
export const DOCUMENT_KINDS: Record<string, FileKind> = {
  pdf: { mime: 'application/pdf', extensions: ['pdf'] },
  jpg: { mime: 'image/jpeg', extensions: ['jpg', 'jpeg'] },
  png: { mime: 'image/png', extensions: ['png'] },
  gif: { mime: 'image/gif', extensions: ['gif'] },
  webp: { mime: 'image/webp', extensions: ['webp'] },
  heic: { mime: 'image/heic', extensions: ['heic', 'heif'] },
  tif: { mime: 'image/tiff', extensions: ['tif', 'tiff'] },
  docx: {
    mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    extensions: ['docx'],
  },
  xlsx: {
    mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    extensions: ['xlsx'],
  },
  pptx: {
    mime: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    extensions: ['pptx'],
  },
  odt: { mime: 'application/vnd.oasis.opendocument.text', extensions: ['odt'] },
  ods: { mime: 'application/vnd.oasis.opendocument.spreadsheet', extensions: ['ods'] },
};

/** Avatars: web images only. */
export const AVATAR_KINDS: Record<string, FileKind> = {
  jpg: DOCUMENT_KINDS.jpg,
  png: DOCUMENT_KINDS.png,
  gif: DOCUMENT_KINDS.gif,
  webp: DOCUMENT_KINDS.webp,
};

/** A feedback's image (issue 15): a phone's photo — JPEG, PNG, WebP, or HEIC (an iPhone's). */
export const FEEDBACK_IMAGE_KINDS: Record<string, FileKind> = {
  jpg: DOCUMENT_KINDS.jpg,
  png: DOCUMENT_KINDS.png,
  webp: DOCUMENT_KINDS.webp,
  heic: DOCUMENT_KINDS.heic,
};

const MB = 1024 * 1024;
/** The size limits, read from the environment where they are used (not when the module loads). */
export const documentMaxBytes = (): number => Number(process.env.DOCUMENT_MAX_BYTES ?? 20 * MB);
export const avatarMaxBytes = (): number => Number(process.env.AVATAR_MAX_BYTES ?? 5 * MB);
/** A photo of a signed form may be as large as a scanned document: the documents' limit. */
export const feedbackImageMaxBytes = (): number =>
  Number(process.env.FEEDBACK_IMAGE_MAX_BYTES ?? documentMaxBytes());

export interface StoredFile {
  key: string;
  mime: string;
  size: number;
  /** The name as uploaded, without any path (shown and offered on download, never a path). */
  originalName: string;
}

export interface Upload {
  file?: StoredFile;
  /** The text parts of the form. */
  fields: Record<string, string>;
}

/** A refused file: the message names the field `file` too, so a form shows it there. */
const fileError = (status: number, message: ErrorIssue | ErrorCode) => {
  const found = typeof message === 'string' ? issue(message) : message;
  return new ApiError(status, found, { file: [found] });
};

/** The last path segment of an uploaded name, without control characters, at most 255 chars. */
export function cleanFileName(name: string | undefined): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex -- control characters are what this removes
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return [...clean].slice(-255).join('');
}

const extensionOf = (name: string): string | undefined => {
  const match = /\.([A-Za-z0-9]{1,8})$/.exec(name);
  return match ? match[1].toLowerCase() : undefined;
};

function human(bytes: number): string {
  return bytes >= MB ? `${Math.round((bytes / MB) * 10) / 10} MB` : `${Math.ceil(bytes / 1024)} KB`;
}

/**
 * Reads a multipart request: text fields, and at most one file (part `file`) streamed into the
 * storage under `folder`. Throws 413/415/422 (naming `file`), 408 for a stalled client and 400 for
 * one that left, and leaves nothing stored then. Every stream is consumed through `pipeline` or
 * an awaited iterator, so a failure anywhere (a dropped connection, a full disk) rejects here
 * instead of surfacing as an unhandled 'error' event that would end the process.
 */
export async function receiveUpload(
  request: FastifyRequest,
  options: { folder: string; kinds: Record<string, FileKind>; maxBytes: number },
): Promise<Upload> {
  if (!request.isMultipart()) {
    throw new ApiError(415, 'multipartFile', {
      file: [issue('required')],
    });
  }
  const storage = getStorage();
  const fields: Record<string, string> = {};
  let file: StoredFile | undefined;
  const parts = request.parts({
    limits: { fileSize: options.maxBytes, files: 1, fields: 20, fieldSize: 10_000, parts: 25 },
  });
  const watchdog = watchUpload(request.raw);
  try {
    for await (const part of parts) {
      if (part.type !== 'file') {
        fields[part.fieldname] = String(part.value ?? '');
        continue;
      }
      const reader = part.file[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
      if (part.fieldname !== 'file') {
        await discard(reader);
        throw fileError(422, issue('filePart', { part: part.fieldname }));
      }
      file = await storePart(part.file, reader, cleanFileName(part.filename), options);
    }
  } catch (error) {
    if (file) await storage.remove(file.key);
    throw uploadError(error, request.raw, watchdog.expired());
  } finally {
    watchdog.stopWhenDone();
  }
  return { file, fields };
}

/** Checks the type of one file part and streams it into the storage; nothing is kept on failure. */
async function storePart(
  source: Readable & { truncated: boolean },
  reader: AsyncIterator<Buffer>,
  originalName: string,
  options: { folder: string; kinds: Record<string, FileKind>; maxBytes: number },
): Promise<StoredFile> {
  const { type: detected, sample, done } = await detectType(reader);
  const kind = detected ? options.kinds[detected.ext] : undefined;
  if (!detected || !kind) {
    const size = sample.length + (done ? 0 : await discard(reader));
    if (size === 0) throw fileError(422, 'fileEmpty');
    if (source.truncated) throw tooLarge(options.maxBytes);
    const allowed = [...new Set(Object.values(options.kinds).map((k) => k.extensions[0]))];
    throw fileError(
      415,
      detected
        ? issue('fileType', { type: detected.ext, allowed: allowed.join(', ') })
        : issue('fileTypeUnknown', { allowed: allowed.join(', ') }),
    );
  }
  const claimed = extensionOf(originalName);
  if (claimed && !kind.extensions.includes(claimed)) {
    if (!done) await discard(reader);
    throw fileError(
      415,
      issue('fileContent', { type: detected.ext.toUpperCase(), extension: claimed }),
    );
  }
  let size = 0;
  /** The sample, then the rest; fails at once when the part passes the size limit. */
  async function* content(): AsyncGenerator<Buffer> {
    let finished = done;
    try {
      for (let chunk: Buffer | undefined = sample; chunk;) {
        size += chunk.length;
        if (source.truncated || size > options.maxBytes) throw tooLarge(options.maxBytes);
        yield chunk;
        if (finished) break;
        const next = await reader.next();
        finished = next.done === true;
        chunk = next.done ? undefined : next.value;
      }
      // Cut exactly at a chunk's end, the last chunk already passed: the flag alone tells.
      if (source.truncated) throw tooLarge(options.maxBytes);
    } finally {
      // Stopped early (too large, the storage failed): the client's form still goes on, and
      // the parser must see its end, so the rest is read and thrown away.
      if (!finished) void discard(reader);
    }
  }
  const key = newKey(options.folder, kind.extensions[0]);
  await getStorage().put(key, Readable.from(content(), { objectMode: false }));
  return {
    key,
    mime: kind.mime,
    size,
    originalName: originalName || `file.${kind.extensions[0]}`,
  };
}

/** Reads what is left of a part and throws it away; answers the bytes read. */
async function discard(reader: AsyncIterator<Buffer>): Promise<number> {
  let size = 0;
  try {
    for (let next = await reader.next(); !next.done; next = await reader.next())
      size += next.value.length;
  } catch {
    // The client left: there is nothing more to read, and the caller reports why.
  }
  return size;
}

/** Bytes read before deciding the type (office files need the first zip entries). */
const SAMPLE_BYTES = 64 * 1024;

/** The type of a stream's content from its first bytes; the caller goes on with `reader`. */
export async function detectType(
  reader: AsyncIterator<Buffer>,
): Promise<{ type: FileTypeResult | undefined; sample: Buffer; done: boolean }> {
  const head: Buffer[] = [];
  let length = 0;
  let done = false;
  while (length < SAMPLE_BYTES) {
    const next = await reader.next();
    if (next.done) {
      done = true;
      break;
    }
    head.push(next.value);
    length += next.value.length;
  }
  const sample = Buffer.concat(head);
  const type = sample.length > 0 ? await sniffFileType(sample) : undefined;
  return { type, sample, done };
}

/**
 * The type of a file from its first bytes (file-type), or undefined when unknown. A file cut short
 * (a PNG of its signature alone) makes file-type run out of bytes (EndOfStreamError): that too is
 * a type we do not know, refused as such (415 naming the file), not a server error.
 */
export async function sniffFileType(bytes: Uint8Array): Promise<FileTypeResult | undefined> {
  try {
    return await fileTypeFromBuffer(bytes);
  } catch (error) {
    // strtok3's EndOfStreamError (not a dependency of ours to import): known by its class name.
    if (error instanceof Error && error.constructor.name === 'EndOfStreamError') return undefined;
    throw error;
  }
}

const tooLarge = (maxBytes: number) =>
  fileError(413, issue('fileTooLarge', { limit: human(maxBytes) }));

/** A client that sends nothing for this long is cut off (UPLOAD_IDLE_TIMEOUT_MS, default 30 s). */
export const UPLOAD_IDLE_MS = Number(process.env.UPLOAD_IDLE_TIMEOUT_MS ?? 30_000);
/** No upload may take longer (UPLOAD_TIMEOUT_MS, default 15 min: 20 MB at 25 KB/s). */
export const UPLOAD_TOTAL_MS = Number(process.env.UPLOAD_TIMEOUT_MS ?? 15 * 60_000);

/**
 * Guards one upload against slow clients: Fastify sets no request timeout by default, so a client
 * that trickles or stalls would hold the connection (and a half-written file) for ever. When the
 * socket receives nothing for UPLOAD_IDLE_MS, or the body is unfinished after UPLOAD_TOTAL_MS, the
 * connection is dropped; the upload then fails as for a client that left, and its file is removed.
 * Progress is read from the socket's byte count (a 'data' listener would start the body flowing
 * before the multipart parser is attached). The watch ends when the body has been read to its
 * end, also after an early answer (413) while the rest is being discarded.
 */
function watchUpload(raw: IncomingMessage): {
  expired(): ErrorIssue | undefined;
  stopWhenDone(): void;
} {
  let reason: ErrorIssue | undefined;
  if (raw.readableEnded || raw.destroyed) return { expired: () => undefined, stopWhenDone() {} };
  const started = Date.now();
  let lastBytes = raw.socket?.bytesRead ?? 0;
  let lastProgress = started;
  const timer = setInterval(
    () => {
      const now = Date.now();
      const bytes = raw.socket?.bytesRead ?? lastBytes;
      if (bytes !== lastBytes) {
        lastBytes = bytes;
        lastProgress = now;
      }
      if (now - lastProgress >= UPLOAD_IDLE_MS)
        reason = issue('uploadIdle', { seconds: Math.round((now - lastProgress) / 1000) });
      else if (now - started >= UPLOAD_TOTAL_MS)
        reason = issue('uploadTooSlow', { seconds: Math.round(UPLOAD_TOTAL_MS / 1000) });
      if (reason) {
        stop();
        raw.destroy();
      }
    },
    Math.max(100, Math.min(UPLOAD_IDLE_MS / 4, 5_000)),
  );
  timer.unref();
  const stop = () => clearInterval(timer);
  raw.once('end', stop);
  raw.once('close', stop);
  return {
    expired: () => reason,
    stopWhenDone() {
      if (raw.readableEnded || raw.destroyed) stop();
    },
  };
}

/** What an upload failure means for the client: our own errors as they are, the rest mapped. */
function uploadError(
  error: unknown,
  raw: IncomingMessage,
  expired: ErrorIssue | undefined,
): unknown {
  if (expired) return new ApiError(408, expired);
  if (error instanceof ApiError) return error;
  const code = (error as { code?: string }).code;
  if (code === 'FST_FILES_LIMIT') return fileError(422, 'oneFile');
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT')
    return new ApiError(413, 'tooManyParts');
  // The client left (or the body broke off): a client error, not a failure of the server.
  if (
    !raw.complete &&
    (raw.destroyed || code === 'FST_MP_PREMATURE_CLOSE' || code === 'ECONNRESET')
  )
    return new ApiError(400, 'uploadInterrupted');
  return error;
}

/** `attachment; filename="…"; filename*=UTF-8''…` (RFC 6266 / 5987) for any name. */
export function contentDisposition(name: string, disposition = 'attachment'): string {
  const fallback = name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${disposition}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/** Streams a stored file; 404 when the storage no longer has it. */
export async function sendStored(
  reply: FastifyReply,
  file: { key: string; mime: string; size?: number | null; name: string },
  disposition: 'attachment' | 'inline' = 'attachment',
): Promise<FastifyReply> {
  const stream = await getStorage().get(file.key);
  if (!stream) throw new ApiError(404, 'storedFileMissing');
  reply
    .header('content-type', file.mime)
    .header('content-disposition', contentDisposition(file.name, disposition))
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, no-store');
  if (file.size) reply.header('content-length', String(file.size));
  return reply.send(stream);
}
