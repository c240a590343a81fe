/**
 * Unit tests of the web app's file serving: files of the built app, index.html for app paths,
 * the API's 404 for unknown /api paths, and nothing outside the folder or a 5xx for hostile paths
 * (a malformed escape, `..` towards a sibling folder whose name starts like the web root's).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import web from './index.ts';

let parent: string;
let app: FastifyInstance;
beforeAll(async () => {
  parent = fs.mkdtempSync(path.join(os.tmpdir(), 'gscrm-webroot-'));
  const root = path.join(parent, 'dist');
  fs.mkdirSync(path.join(root, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>app</title>');
  fs.writeFileSync(path.join(root, 'assets', 'app-1234.js'), 'console.log("app");');
  // A sibling whose name starts with the web root's: must stay out of reach.
  fs.mkdirSync(path.join(parent, 'dist-private'));
  fs.writeFileSync(path.join(parent, 'dist-private', 'secret.txt'), 'SECRET');
  app = Fastify();
  await app.register(web, { webRoot: root });
});
afterAll(async () => {
  await app?.close();
  fs.rmSync(parent, { recursive: true, force: true });
});

const get = (url: string) => app.inject({ method: 'GET', url });

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
});
