/**
 * Compression of the server's answers (@fastify/compress): JSON and other text answers sent whole
 * are compressed with brotli (a fast level: they are made per request) or gzip, as the browser
 * accepts, with `Vary: accept-encoding`. Streamed answers are sent as they are: the CSV import's
 * NDJSON progress lines (a compressor would hold them back until its buffer fills), exports and
 * file downloads (their length and the browser's progress stay known). The web app's files are
 * compressed at build time (vite.config.ts) and sent as they are stored (./index.ts).
 */
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/** Brotli quality for answers made per request: close to gzip's speed, smaller output. */
export const DYNAMIC_BROTLI_QUALITY = 4;
/** Answers smaller than this are not worth compressing. */
export const COMPRESS_THRESHOLD = 1024;

const isStream = (payload: unknown): boolean =>
  payload instanceof Readable ||
  (typeof payload === 'object' &&
    payload !== null &&
    typeof (payload as { pipe?: unknown }).pipe === 'function') ||
  (typeof ReadableStream !== 'undefined' && payload instanceof ReadableStream);

export default async function compression(app: FastifyInstance): Promise<void> {
  // Runs before the compressor's own onSend (route-level hooks follow the app's): a stream is
  // marked so the compressor leaves it alone (its documented opt-out is this request header).
  app.addHook('onSend', async (request, _reply, payload) => {
    if (isStream(payload)) request.headers['x-no-compression'] = 'stream';
    return payload;
  });
  await app.register(fastifyCompress, {
    global: true,
    encodings: ['br', 'gzip'],
    threshold: COMPRESS_THRESHOLD,
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: DYNAMIC_BROTLI_QUALITY } },
    zlibOptions: { level: 6 },
  });
}

// Hooks on the root, not encapsulated (what fastify-plugin does): they must reach every route.
Object.defineProperty(compression, Symbol.for('skip-override'), { value: true });
