/**
 * A multipart/form-data body for `app.inject` (uploads, imports): text fields and files, in the
 * order given (as a browser's FormData sends them).
 */
import { randomBytes } from 'node:crypto';

export interface FilePart {
  name: string;
  filename: string;
  content: Buffer | string;
  contentType?: string;
}

export function multipart(parts: Array<[string, string] | FilePart>): {
  payload: Buffer;
  headers: Record<string, string>;
} {
  const boundary = `----gscrm${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n`));
    if (Array.isArray(part)) {
      chunks.push(Buffer.from(`Content-Disposition: form-data; name="${part[0]}"\r\n\r\n`));
      chunks.push(Buffer.from(part[1]));
    } else {
      chunks.push(
        Buffer.from(
          `Content-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\n` +
            `Content-Type: ${part.contentType ?? 'application/octet-stream'}\r\n\r\n`,
        ),
      );
      chunks.push(typeof part.content === 'string' ? Buffer.from(part.content) : part.content);
    }
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** A small but real PDF (file-type recognises it by its %PDF- header). */
export const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
);

/** A 1×1 PNG. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** The start of a Windows executable. */
export const EXE = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200, 0x90)]);
