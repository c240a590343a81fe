/**
 * Serves the built web app (when its folder holds an index.html):
 * - hashed assets (`/assets/`) with a one-year immutable cache life (a new build has new names);
 * - other files of the folder for ten minutes;
 * - index.html for every other path, as the app routes in the browser: `no-cache` with an ETag, so
 *   the browser revalidates it (304) and picks up a new build at once.
 * Files are sent precompressed: the build writes `.br` and `.gz` beside each text file
 * (vite.config.ts) and the answer is the one the browser accepts (`Content-Encoding`, `Vary:
 * accept-encoding`); index.html is compressed once at start-up. API answers are compressed per
 * request (./compression.ts). An unknown /api path still answers the API's 404; a path that cannot
 * name a file (not decodable, a NUL) answers the API's 400 shape instead of a crash. The security
 * headers and the CSP come from server/http/security.ts.
 *
 * The areas' paths (/admin/…, /consultant/…) get index.html with `<link rel="modulepreload">` for
 * the area's code (src/shell/AreaApp.tsx and the chunks it imports, from Vite's manifest,
 * `build.manifest`): the browser fetches it beside the entry script instead of after the entry has
 * run and asked for it. The public pages (sign-in first) do not download it.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, errorBody, issue } from '../http/errors.ts';

export interface WebOptions {
  /** Folder of the built web app. */
  webRoot?: string;
}

export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Files of the folder that are not hashed (icons, robots.txt): a short life. */
export const SHORT_MAX_AGE_SECONDS = 600;

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

/** The encodings a request accepts (no q-value parsing beyond `q=0` refusals). */
export function acceptedEncodings(header: string | string[] | undefined): Set<string> {
  const accepted = new Set<string>();
  for (const part of String(header ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    if (params.some((param) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(param))) continue;
    accepted.add(name.trim());
  }
  return accepted;
}

/** index.html, its ETag and its compressed forms, made once. */
interface Page {
  body: Buffer;
  br: Buffer;
  gzip: Buffer;
  etag: string;
}

function pageOf(body: Buffer): Page {
  return {
    body,
    br: zlib.brotliCompressSync(body),
    gzip: zlib.gzipSync(body, { level: 9 }),
    etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
  };
}

/** The module Vite's manifest names the area's code by, and the paths that get it preloaded. */
export const AREA_MODULE = 'src/shell/AreaApp.tsx';
const AREA_PATH = /^\/(admin|consultant)(\/|$)/;

interface ManifestChunk {
  file: string;
  imports?: string[];
}

/**
 * The files of a manifest entry and of the chunks it imports (statically, transitively), in
 * dependency order (what is imported first); none when the manifest does not have it.
 */
export function chunkFiles(manifest: Record<string, ManifestChunk>, key: string): string[] {
  const files: string[] = [];
  const seen = new Set<string>();
  const visit = (name: string) => {
    const chunk = manifest[name];
    if (!chunk || seen.has(name)) return;
    seen.add(name);
    for (const imported of chunk.imports ?? []) visit(imported);
    files.push(chunk.file);
  };
  visit(key);
  return files;
}

/**
 * index.html with a module preload for each of the files it does not already load, before
 * `</head>` (the page as it is when there are none).
 */
export function withModulePreloads(html: string, files: string[]): string {
  const links = files
    .map((file) => `/${file}`)
    .filter((url) => !html.includes(`"${url}"`))
    // Low priority: after the entry's own files, which the first paint needs.
    .map((url) => `<link rel="modulepreload" crossorigin fetchpriority="low" href="${url}">`);
  if (links.length === 0 || !html.includes('</head>')) return html;
  return html.replace(/( *)<\/head>/, (_match, indent: string) =>
    [...links.map((link) => `${indent}  ${link}`), `${indent}</head>`].join('\n'),
  );
}

/** The area's files from the build's manifest (none without one: an older build, the tests). */
function areaFiles(webRoot: string): string[] {
  const file = path.join(webRoot, '.vite', 'manifest.json');
  if (!fs.existsSync(file)) return [];
  try {
    return chunkFiles(JSON.parse(fs.readFileSync(file, 'utf8')), AREA_MODULE);
  } catch {
    return [];
  }
}

/** `If-None-Match` names this ETag (weak or strong, or `*`). */
export function matchesEtag(header: string | string[] | undefined, etag: string): boolean {
  if (header === undefined) return false;
  return String(header)
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === etag);
}

function sendPage(page: Page, request: FastifyRequest, reply: FastifyReply) {
  reply
    .header('cache-control', 'no-cache')
    .header('etag', page.etag)
    .header('vary', 'accept-encoding')
    .type('text/html; charset=utf-8');
  if (matchesEtag(request.headers['if-none-match'], page.etag)) return reply.status(304).send();
  const accepted = acceptedEncodings(request.headers['accept-encoding']);
  if (accepted.has('br')) return reply.header('content-encoding', 'br').send(page.br);
  if (accepted.has('gzip')) return reply.header('content-encoding', 'gzip').send(page.gzip);
  return reply.send(page.body);
}

export default async function web(app: FastifyInstance, options: WebOptions): Promise<void> {
  const webRoot = options.webRoot && path.resolve(options.webRoot);
  if (!webRoot || !fs.existsSync(path.join(webRoot, 'index.html'))) return;
  const assets = `${path.join(webRoot, 'assets')}${path.sep}`;
  await app.register(fastifyStatic, {
    root: webRoot,
    wildcard: false,
    index: false,
    preCompressed: true,
    maxAge: SHORT_MAX_AGE_SECONDS * 1000,
    // Asset names carry a hash of their content: a new build has new names. (`file` is the file
    // sent, `.br`/`.gz` included.)
    setHeaders: (reply, file) => {
      if (file.startsWith(assets)) reply.header('cache-control', IMMUTABLE);
      // The page under its own name (the app never asks for it so): revalidated too.
      else if (path.basename(file).startsWith('index.html'))
        reply.header('cache-control', 'no-cache');
    },
  });
  const html = fs.readFileSync(path.join(webRoot, 'index.html'));
  const page = pageOf(html);
  const withArea = withModulePreloads(html.toString('utf8'), areaFiles(webRoot));
  const areaPage = withArea === html.toString('utf8') ? page : pageOf(Buffer.from(withArea));
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
          maxAge: asset ? '365d' : SHORT_MAX_AGE_SECONDS * 1000,
          immutable: asset,
        });
      }
    }
    // A chunk of an earlier build: a 404 the app can handle, not the page as a script.
    if (pathname.startsWith('/assets/')) return reply.callNotFound();
    return sendPage(AREA_PATH.test(pathname) ? areaPage : page, request, reply);
  });
}
