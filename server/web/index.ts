/**
 * Serves the built web app (when its folder holds an index.html): files with long cache lives
 * for hashed assets, and index.html for every other path (the app routes in the browser). An
 * unknown /api path still answers the API's 404, and a path that cannot name a file (not
 * decodable, a NUL) the API's 400 shape instead of a crash.
 */
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../http/errors.ts';

export interface WebOptions {
  /** Folder of the built web app. */
  webRoot?: string;
}

/** The decoded path of a request URL, or an ApiError (400) for one that names no file. */
function decodedPath(url: string): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(url.split('?')[0]);
  } catch {
    throw new ApiError(400, 'The address is not valid (it cannot be decoded).');
  }
  // A NUL would make the file system calls throw.
  if (decoded.includes('\u0000')) throw new ApiError(400, 'The address is not valid.');
  return decoded;
}

export default async function web(app: FastifyInstance, options: WebOptions): Promise<void> {
  const webRoot = options.webRoot;
  if (!webRoot || !fs.existsSync(path.join(webRoot, 'index.html'))) return;
  const root = path.resolve(webRoot);
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    index: false,
    maxAge: '1h',
  });
  const index = fs.readFileSync(path.join(root, 'index.html'));
  app.get('/*', { config: { access: undefined } }, (request, reply) => {
    if (request.url.startsWith('/api/')) {
      return reply
        .status(404)
        .send({ message: `No route ${request.method} ${request.url.split('?')[0]}.` });
    }
    const file = path.join(root, decodedPath(request.url));
    // Inside the folder itself (not a sibling whose name starts the same: `dist-old/`).
    const inside = file.startsWith(root + path.sep);
    if (inside && fs.existsSync(file) && fs.statSync(file).isFile()) {
      return reply.sendFile(path.relative(root, file), {
        maxAge: file.includes('/assets/') ? '365d' : 0,
        immutable: file.includes('/assets/'),
      });
    }
    return reply.header('cache-control', 'no-cache').type('text/html').send(index);
  });
}
