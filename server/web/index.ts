/**
 * Serves the built web app (when its folder holds an index.html): files with long cache lives
 * for hashed assets, and index.html for every other path (the app routes in the browser). An
 * unknown /api path still answers the API's 404.
 */
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

export interface WebOptions {
  /** Folder of the built web app. */
  webRoot?: string;
}

export default async function web(app: FastifyInstance, options: WebOptions): Promise<void> {
  const webRoot = options.webRoot;
  if (!webRoot || !fs.existsSync(path.join(webRoot, 'index.html'))) return;
  await app.register(fastifyStatic, {
    root: webRoot,
    wildcard: false,
    index: false,
    maxAge: '1h',
  });
  const index = fs.readFileSync(path.join(webRoot, 'index.html'));
  app.get('/*', { config: { access: undefined } }, (request, reply) => {
    if (request.url.startsWith('/api/')) {
      return reply
        .status(404)
        .send({ message: `No route ${request.method} ${request.url.split('?')[0]}.` });
    }
    const file = path.join(webRoot, decodeURIComponent(request.url.split('?')[0]));
    if (file.startsWith(webRoot) && fs.existsSync(file) && fs.statSync(file).isFile()) {
      return reply.sendFile(path.relative(webRoot, file), {
        maxAge: file.includes('/assets/') ? '365d' : 0,
        immutable: file.includes('/assets/'),
      });
    }
    return reply.header('cache-control', 'no-cache').type('text/html').send(index);
  });
}
