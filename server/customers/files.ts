/**
 * Receiving and sending files (documents, avatars) safely:
 * - uploads are multipart (`@fastify/multipart`), one part named `file`, at most `maxBytes`
 *   (413 beyond, nothing kept);
 * - the type comes from the content (`file-type` reads the first bytes), never from the name or
 *   the browser's header; only listed types pass (415), and a name whose extension claims another
 *   type is refused too (a PNG called `invoice.pdf`);
 * - the stored name is chosen by the server (server/storage `newKey`);
 * - downloads carry `Content-Disposition: attachment` with the original name encoded (RFC 6266),
 *   `X-Content-Type-Options: nosniff` and no caching.
 */
import { Readable, Transform } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type FileTypeResult, fileTypeFromBuffer } from 'file-type';
import { ApiError } from '../http/errors.ts';
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

const MB = 1024 * 1024;
export const DOCUMENT_MAX_BYTES = Number(process.env.DOCUMENT_MAX_BYTES ?? 20 * MB);
export const AVATAR_MAX_BYTES = Number(process.env.AVATAR_MAX_BYTES ?? 5 * MB);

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

const fileError = (status: number, message: string) =>
  new ApiError(status, message, { file: [message] });

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
 * storage under `folder`. Throws 413/415/422 (naming `file`) and leaves nothing stored then.
 */
export async function receiveUpload(
  request: FastifyRequest,
  options: { folder: string; kinds: Record<string, FileKind>; maxBytes: number },
): Promise<Upload> {
  if (!request.isMultipart()) {
    throw new ApiError(415, 'Send the file as multipart/form-data (a part named "file").', {
      file: ['is required'],
    });
  }
  const storage = getStorage();
  const fields: Record<string, string> = {};
  let file: StoredFile | undefined;
  try {
    const parts = request.parts({
      limits: { fileSize: options.maxBytes, files: 1, fields: 20, fieldSize: 10_000, parts: 25 },
    });
    for await (const part of parts) {
      if (part.type !== 'file') {
        fields[part.fieldname] = String(part.value ?? '');
        continue;
      }
      if (part.fieldname !== 'file') {
        part.file.resume();
        throw fileError(422, `Unexpected file part "${part.fieldname}"; name the part "file".`);
      }
      const originalName = cleanFileName(part.filename);
      const { type: detected, stream: typed } = await detectType(part.file as unknown as Readable);
      const kind = detected ? options.kinds[detected.ext] : undefined;
      if (!detected || !kind) {
        let size = 0;
        for await (const chunk of typed) size += (chunk as Buffer).length;
        if (size === 0) throw fileError(422, 'The file is empty.');
        if (part.file.truncated) throw tooLarge(options.maxBytes);
        const allowed = [...new Set(Object.values(options.kinds).map((k) => k.extensions[0]))];
        throw fileError(
          415,
          `This type of file is not accepted${detected ? ` (${detected.ext})` : ''}. Allowed: ${allowed.join(', ')}.`,
        );
      }
      const claimed = extensionOf(originalName);
      if (claimed && !kind.extensions.includes(claimed)) {
        typed.resume();
        throw fileError(
          415,
          `The file's content is ${detected.ext.toUpperCase()}, but its name ends in .${claimed}.`,
        );
      }
      let size = 0;
      const counter = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          size += chunk.length;
          callback(null, chunk);
        },
      });
      const key = newKey(options.folder, kind.extensions[0]);
      await storage.put(key, typed.pipe(counter));
      file = {
        key,
        mime: kind.mime,
        size,
        originalName: originalName || `file.${kind.extensions[0]}`,
      };
      if (part.file.truncated) throw tooLarge(options.maxBytes);
    }
  } catch (error) {
    if (file) await storage.remove(file.key);
    const code = (error as { code?: string }).code;
    if (code === 'FST_FILES_LIMIT') throw fileError(422, 'Send one file at a time.');
    if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT')
      throw new ApiError(413, 'The form has too many parts.');
    throw error;
  }
  return { file, fields };
}

/** Bytes read before deciding the type (office files need the first zip entries). */
const SAMPLE_BYTES = 64 * 1024;

/** The type of a stream's content (from its first bytes) and the whole stream, unchanged. */
export async function detectType(
  input: Readable,
): Promise<{ type: FileTypeResult | undefined; stream: Readable }> {
  const iterator = input[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const head: Buffer[] = [];
  let length = 0;
  let finished = false;
  while (length < SAMPLE_BYTES) {
    const next = await iterator.next();
    if (next.done) {
      finished = true;
      break;
    }
    head.push(next.value);
    length += next.value.length;
  }
  const sample = Buffer.concat(head);
  const type = sample.length > 0 ? await fileTypeFromBuffer(sample) : undefined;
  async function* all(): AsyncGenerator<Buffer> {
    if (sample.length > 0) yield sample;
    while (!finished) {
      const next = await iterator.next();
      if (next.done) return;
      yield next.value;
    }
  }
  return { type, stream: Readable.from(all(), { objectMode: false }) };
}

const tooLarge = (maxBytes: number) =>
  fileError(413, `The file is too large: at most ${human(maxBytes)} are accepted.`);

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
  if (!stream) throw new ApiError(404, 'The stored file is missing.');
  reply
    .header('content-type', file.mime)
    .header('content-disposition', contentDisposition(file.name, disposition))
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, no-store');
  if (file.size) reply.header('content-length', String(file.size));
  return reply.send(stream);
}
