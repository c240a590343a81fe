/**
 * Serves the built web app (when its folder holds an index.html): hashed assets (`/assets/`) with
 * a one-year immutable cache life, other files for an hour, and index.html (never cached) for
 * every other path, as the app routes in the browser. An unknown /api path still answers the
 * API's 404; a path that cannot name a file (not decodable, a NUL) answers the API's 400 shape
 * instead of a crash. The security headers and the CSP come from server/http/security.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { ApiError, errorBody, issue } from '../http/errors.ts';

export interface WebOptions {
  /** Folder of the built web app. */
  webRoot?: string;
}

const IMMUTABLE = 'public, max-age=31536000, immutable';

/** The decoded path of a request URL, or an ApiError (400) for one that names no file. */
function decodedPath(pathname: string): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    throw new ApiError(400, 'badAddress');
  }
  // A NUL would make the file system calls throw.
  if (decoded.includes('\u0000')) throw new ApiError(400, 'badAddress');
  return decoded;
}

export default async function web(app: FastifyInstance, options: WebOptions): Promise<void> {
  const webRoot = options.webRoot && path.resolve(options.webRoot);
  if (!webRoot || !fs.existsSync(path.join(webRoot, 'index.html'))) return;
  const assets = `${path.join(webRoot, 'assets')}${path.sep}`;
  await app.register(fastifyStatic, {
    root: webRoot,
    wildcard: false,
    index: false,
    maxAge: '1h',
    // Asset names carry a hash of their content: a new build has new names.
    setHeaders: (reply, file) => {
      if (file.startsWith(assets)) reply.header('cache-control', IMMUTABLE);
    },
  });
  const index = fs.readFileSync(path.join(webRoot, 'index.html'));
  app.get('/*', { config: { access: undefined } }, (request, reply) => {
    const pathname = request.url.split('?')[0];
    if (pathname.startsWith('/api/')) {
      return reply
        .status(404)
        .send(errorBody(issue('noRoute', { method: request.method, path: pathname })));
    }
    // A file written after start-up (the routes above are made at start-up); a path leading out
    // of the folder is just an app path.
    const file = path.join(webRoot, decodedPath(pathname));
    if (file.startsWith(`${webRoot}${path.sep}`) && fs.existsSync(file)) {
      if (fs.statSync(file).isFile()) {
        const asset = file.startsWith(assets);
        return reply.sendFile(path.relative(webRoot, file), {
          maxAge: asset ? '365d' : 0,
          immutable: asset,
        });
      }
    }
    // A chunk of an earlier build: a 404 the app can handle, not the page as a script.
    if (pathname.startsWith('/assets/')) return reply.callNotFound();
    return reply.header('cache-control', 'no-cache').type('text/html').send(index);
  });
}
