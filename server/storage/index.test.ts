/** Unit tests of the disk storage: nothing half-written stays behind, stale partials are swept. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DiskStorage, newKey } from './index.ts';

let root: string;
let storage: DiskStorage;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'gscrm-storage-'));
  storage = new DiskStorage(root);
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const files = () =>
  fs
    .readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)));

async function* failingAfter(chunks: number): AsyncGenerator<Buffer> {
  for (let index = 0; index < chunks; index++) yield Buffer.alloc(64 * 1024, 0x41);
  throw Object.assign(new Error('aborted'), { code: 'ECONNRESET' });
}

describe('DiskStorage.put', () => {
  it('stores the bytes under the key and keeps no partial file', async () => {
    const key = newKey('documents', 'pdf');
    await storage.put(key, Readable.from([Buffer.from('%PDF-1.4 hello')]));
    expect(files()).toEqual([key]);
    const stream = await storage.get(key);
    const chunks: Buffer[] = [];
    for await (const chunk of stream!) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('%PDF-1.4 hello');
  });

  it('rejects with the source’s error and leaves nothing when the source fails mid-way', async () => {
    const key = newKey('documents', 'pdf');
    await expect(storage.put(key, Readable.from(failingAfter(3)))).rejects.toThrow('aborted');
    expect(files()).toEqual([]);
    expect(await storage.exists(key)).toBe(false);
  });

  it('refuses keys it did not choose (no way out of the root)', async () => {
    await expect(storage.put('../escape.pdf', Readable.from([]))).rejects.toThrow(/invalid/);
    await expect(storage.get('documents/../../x.pdf')).rejects.toThrow(/invalid/);
  });
});

describe('DiskStorage.removeStalePartials', () => {
  it('removes partial files older than the given age, and only those', async () => {
    const stored = newKey('documents', 'pdf');
    await storage.put(stored, Readable.from([Buffer.from('kept')]));
    const old = path.join(root, `${newKey('documents', 'pdf')}.part`);
    const fresh = path.join(root, `${newKey('avatars', 'png')}.part`);
    fs.mkdirSync(path.dirname(fresh), { recursive: true });
    fs.writeFileSync(old, 'left by a killed process');
    fs.writeFileSync(fresh, 'being written right now');
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60_000);
    fs.utimesSync(old, twoHoursAgo, twoHoursAgo);

    expect(await storage.removeStalePartials(60 * 60_000)).toBe(1);
    expect(files().sort()).toEqual([stored, path.relative(root, fresh)].sort());
  });

  it('answers 0 when the folder does not exist yet', async () => {
    expect(await new DiskStorage(path.join(root, 'missing')).removeStalePartials()).toBe(0);
  });
});
