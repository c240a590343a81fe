/**
 * Unit tests of the web app's file serving: files of the built app, index.html for app paths,
 * the API's 404 for unknown /api paths, and nothing outside the folder or a 5xx for hostile paths
 * (a malformed escape, `..` towards a sibling folder whose name starts like the web root's).
 */
import fs from 'node:fs';
import zlib from 'node:zlib';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import compression from './compression.ts';
import web, { AREA_MODULE, chunkFiles, withModulePreloads } from './index.ts';

let parent: string;
let app: FastifyInstance;
beforeAll(async () => {
  parent = fs.mkdtempSync(path.join(os.tmpdir(), 'gscrm-webroot-'));
  const root = path.join(parent, 'dist');
  fs.mkdirSync(path.join(root, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>app</title>');
  fs.writeFileSync(path.join(root, 'assets', 'app-1234.js'), 'console.log("app");');
  // What the build writes beside a text asset (vite.config.ts): its brotli and gzip forms.
  const big = `console.log(${JSON.stringify('x'.repeat(4000))});`;
  fs.writeFileSync(path.join(root, 'assets', 'big-abcd.js'), big);
  fs.writeFileSync(path.join(root, 'assets', 'big-abcd.js.br'), zlib.brotliCompressSync(big));
  fs.writeFileSync(path.join(root, 'assets', 'big-abcd.js.gz'), zlib.gzipSync(big));
  fs.writeFileSync(path.join(root, 'robots.txt'), 'User-agent: *');
  // A sibling whose name starts with the web root's: must stay out of reach.
  fs.mkdirSync(path.join(parent, 'dist-private'));
  fs.writeFileSync(path.join(parent, 'dist-private', 'secret.txt'), 'SECRET');
  app = Fastify();
  await app.register(compression);
  await app.register(web, { webRoot: root });
  // An API answer (JSON, compressed per request) and a streamed one (left as it is).
  app.get('/api/big', { config: { access: 'public' } }, async () => ({
    data: Array.from({ length: 200 }, (_, id) => ({ id, name: `Customer ${id}` })),
  }));
  app.get('/api/small', { config: { access: 'public' } }, async () => ({ data: [] }));
  app.get('/api/stream', { config: { access: 'public' } }, (_request, reply) => {
    const out = new PassThrough();
    reply.header('content-type', 'application/x-ndjson; charset=utf-8');
    out.write(`${JSON.stringify({ type: 'progress', text: 'y'.repeat(2000) })}\n`);
    out.end();
    return reply.send(out);
  });
});
afterAll(async () => {
  await app?.close();
  fs.rmSync(parent, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = {}) =>
  app.inject({ method: 'GET', url, headers });

describe('the web app', () => {
  it('serves its files, with long cache lives for hashed assets', async () => {
    const asset = await get('/assets/app-1234.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toContain('console.log');
    expect(asset.headers['cache-control']).toContain('immutable');
  });

  it('answers index.html for the app’s paths, not cached', async () => {
    const page = await get('/admin/customers/12?tab=documents');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<title>app</title>');
    expect(page.headers['cache-control']).toBe('no-cache');
  });

  it('answers 404 for a missing asset (a chunk of an earlier build), not the page', async () => {
    const answer = await get('/assets/app-0000.js');
    expect(answer.statusCode).toBe(404);
    expect(answer.body).not.toContain('<title>app</title>');
  });

  it('answers the API’s 404 for an unknown /api path', async () => {
    const answer = await get('/api/nothing-here');
    expect(answer.statusCode).toBe(404);
    expect(answer.json()).toEqual({
      message: 'No route GET /api/nothing-here.',
      key: 'app.errors.noRoute',
      args: { method: 'GET', path: '/api/nothing-here' },
    });
  });

  it('never answers a file outside its folder, nor a 5xx, for hostile paths', async () => {
    for (const url of [
      '/%E0%A4%A',
      '/assets/%ZZ.js',
      '/..%2fdist-private/secret.txt',
      '/%2e%2e/dist-private/secret.txt',
      '/assets/..%2f..%2fdist-private%2fsecret.txt',
      '/a%00b',
    ]) {
      const answer = await get(url);
      expect(answer.statusCode, url).toBeLessThan(500);
      expect(answer.body, url).not.toContain('SECRET');
    }
  });

  it('sends the precompressed form the browser accepts, varying on accept-encoding', async () => {
    const br = await get('/assets/big-abcd.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('accept-encoding');
    expect(br.headers['content-type']).toContain('javascript');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toContain('console.log("xxxx');
    expect(br.rawPayload.length).toBeLessThan(200);

    const gzip = await get('/assets/big-abcd.js', { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toContain('console.log("xxxx');

    const plain = await get('/assets/big-abcd.js', { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toContain('accept-encoding');
    expect(plain.body.length).toBeGreaterThan(4000);
  });

  it('revalidates index.html by its ETag: 304 when unchanged', async () => {
    const first = await get('/login', { 'accept-encoding': 'br' });
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('no-cache');
    expect(first.headers['content-encoding']).toBe('br');
    expect(first.headers.vary).toContain('accept-encoding');
    expect(zlib.brotliDecompressSync(first.rawPayload).toString()).toContain('<title>app</title>');
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[\w-]+"$/);

    const again = await get('/admin/customers', { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);
    const changed = await get('/admin/customers', { 'if-none-match': '"another"' });
    expect(changed.statusCode).toBe(200);
    expect(changed.body).toContain('<title>app</title>');
  });

  it('answers 304 for an unchanged asset', async () => {
    const first = await get('/assets/app-1234.js');
    const again = await get('/assets/app-1234.js', { 'if-none-match': String(first.headers.etag) });
    expect(again.statusCode).toBe(304);
  });

  it('gives other files a short cache life', async () => {
    const robots = await get('/robots.txt');
    expect(robots.statusCode).toBe(200);
    expect(robots.headers['cache-control']).toBe('public, max-age=600');
  });

  it('compresses JSON answers, and leaves streams (NDJSON progress) alone', async () => {
    // gzip preferred for answers made per request (cheaper); brotli for a browser taking only it.
    const json = await get('/api/big', { 'accept-encoding': 'br, gzip' });
    expect(json.headers['content-encoding']).toBe('gzip');
    expect(json.headers.vary).toContain('accept-encoding');
    expect(JSON.parse(zlib.gunzipSync(json.rawPayload).toString()).data).toHaveLength(200);
    const br = await get('/api/big', { 'accept-encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(JSON.parse(zlib.brotliDecompressSync(br.rawPayload).toString()).data).toHaveLength(200);
    const small = await get('/api/small', { 'accept-encoding': 'gzip' });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toEqual({ data: [] });
    const plain = await get('/api/big');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.json().data).toHaveLength(200);

    const stream = await get('/api/stream', { 'accept-encoding': 'br, gzip' });
    expect(stream.headers['content-encoding']).toBeUndefined();
    expect(stream.body).toContain('"type":"progress"');
  });
});

describe("the areas' module preloads", () => {
  const manifest = {
    'index.html': { file: 'assets/index-1.js', imports: ['_shared-2.js'] },
    '_shared-2.js': { file: 'assets/shared-2.js' },
    '_area-dep-3.js': { file: 'assets/area-dep-3.js', imports: ['_shared-2.js'] },
    'src/shell/AreaApp.tsx': { file: 'assets/AreaApp-4.js', imports: ['_area-dep-3.js'] },
  };

  it('lists the area chunk and what it imports, dependencies first, each once', () => {
    expect(chunkFiles(manifest, AREA_MODULE)).toEqual([
      'assets/shared-2.js',
      'assets/area-dep-3.js',
      'assets/AreaApp-4.js',
    ]);
    expect(chunkFiles(manifest, 'missing')).toEqual([]);
  });

  it('adds a link for each file the page does not load yet, before </head>', () => {
    const html =
      '<html><head><link rel="modulepreload" crossorigin href="/assets/shared-2.js"></head></html>';
    const out = withModulePreloads(html, chunkFiles(manifest, AREA_MODULE));
    expect(out.match(/modulepreload/g)).toHaveLength(3);
    expect(out.indexOf('/assets/area-dep-3.js')).toBeLessThan(out.indexOf('/assets/AreaApp-4.js'));
    expect(out.indexOf('/assets/AreaApp-4.js')).toBeLessThan(out.indexOf('</head>'));
    expect(withModulePreloads(html, [])).toBe(html);
  });

  it('sends them on the areas’ paths only', async () => {
    const root = path.join(parent, 'with-manifest');
    fs.mkdirSync(path.join(root, '.vite'), { recursive: true });
    fs.writeFileSync(path.join(root, 'index.html'), '<html><head><title>app</title></head></html>');
    fs.writeFileSync(path.join(root, '.vite', 'manifest.json'), JSON.stringify(manifest));
    const site = Fastify();
    await site.register(web, { webRoot: root });
    try {
      for (const url of ['/admin/customers', '/consultant', '/admin']) {
        const answer = await site.inject({ method: 'GET', url });
        expect(answer.body, url).toContain('href="/assets/AreaApp-4.js"');
      }
      for (const url of ['/login', '/', '/administration']) {
        const answer = await site.inject({ method: 'GET', url });
        expect(answer.body, url).not.toContain('modulepreload');
      }
    } finally {
      await site.close();
    }
  });
});
