/**
 * Compression of the answers the server makes per request: JSON and other text sent whole are
 * compressed with gzip (a fast level) or brotli, as the browser accepts (negotiated by
 * @fastify/accept-negotiator; gzip preferred: for answers made per request it costs less CPU
 * than brotli for nearly the same size), with `Vary: accept-encoding`. Streamed answers are sent
 * as they are: the CSV import's NDJSON progress lines (a compressor would hold them back until its
 * buffer fills), exports and file downloads (their length and the browser's progress stay known).
 * Answers that already carry an encoding (index.html, the build's files: compressed at build time,
 * ./index.ts) are left alone too.
 *
 * Why not @fastify/compress: it compresses every answer through a stream pipeline, which cost
 * 0.6–0.8 ms of CPU per list page (9 KB of JSON) against 0.05 ms for compressing the whole
 * payload at once with node:zlib (measured with 20 concurrent clients, issue 13): at 20 clients
 * on 2 cores that was most of the app's own CPU per request.
 */
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { Negotiator } from '@fastify/accept-negotiator';
import type { FastifyInstance } from 'fastify';

/** Brotli quality for answers made per request (only for a browser that takes brotli alone). */
export const DYNAMIC_BROTLI_QUALITY = 4;
/** gzip level for answers made per request. */
export const DYNAMIC_GZIP_LEVEL = 1;
/** Answers smaller than this are not worth compressing. */
export const COMPRESS_THRESHOLD = 1024;

const COMPRESSIBLE = /^(application\/(json|javascript|xml|[\w.+-]+\+json)|text\/|image\/svg\+xml)/i;

const encodings = new Negotiator({ supportedValues: ['gzip', 'br'] });

const isStream = (payload: unknown): boolean =>
  payload instanceof Readable ||
  (typeof payload === 'object' &&
    payload !== null &&
    typeof (payload as { pipe?: unknown }).pipe === 'function') ||
  (typeof ReadableStream !== 'undefined' && payload instanceof ReadableStream);

/** Adds `accept-encoding` to a Vary header value, once. */
function varyOn(current: unknown): string {
  const values = String(current ?? '')
    .split(',')
    .map((value) => value.trim())
    .filter(Boolean);
  if (values.includes('*') || values.some((value) => value.toLowerCase() === 'accept-encoding')) {
    return values.join(', ');
  }
  return [...values, 'accept-encoding'].join(', ');
}

export default async function compression(app: FastifyInstance): Promise<void> {
  app.addHook('onSend', async (request, reply, payload) => {
    if (isStream(payload) || reply.hasHeader('content-encoding')) return payload;
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    if (!COMPRESSIBLE.test(String(reply.getHeader('content-type') ?? ''))) return payload;
    if (Buffer.byteLength(payload) < COMPRESS_THRESHOLD) return payload;
    reply.header('vary', varyOn(reply.getHeader('vary')));
    const header = request.headers['accept-encoding'];
    const encoding = header ? encodings.negotiate(String(header)) : null;
    if (!encoding) return payload;
    const body =
      encoding === 'gzip'
        ? zlib.gzipSync(payload, { level: DYNAMIC_GZIP_LEVEL })
        : zlib.brotliCompressSync(payload, {
            params: { [zlib.constants.BROTLI_PARAM_QUALITY]: DYNAMIC_BROTLI_QUALITY },
          });
    reply.header('content-encoding', encoding);
    reply.removeHeader('content-length');
    return body;
  });
}

// Hooks on the root, not encapsulated (what fastify-plugin does): they must reach every route.
Object.defineProperty(compression, Symbol.for('skip-override'), { value: true });
