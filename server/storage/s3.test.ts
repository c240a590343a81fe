/**
 * The S3 storage (./s3.ts) against a local S3-compatible server (s3rver, in this process): the
 * same contract as the disk storage — bytes back as written, unknown keys answer undefined/false,
 * a failed upload leaves no object, and the settings come from STORAGE/S3_* variables.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newKey, storageFromEnv } from './index.ts';
import { S3Storage, s3SettingsFromEnv } from './s3.ts';

let server: S3rver;
let folder: string;
let storage: S3Storage;

const text = async (stream: Readable) => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
};

beforeAll(async () => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'gscrm-s3-unit-'));
  server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: folder,
    configureBuckets: [{ name: 'unit', configs: [] }],
  });
  const { port } = await server.run();
  storage = new S3Storage(
    s3SettingsFromEnv({
      S3_BUCKET: 'unit',
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    }),
  );
});
afterAll(async () => {
  storage?.client.destroy();
  await server?.close();
  fs.rmSync(folder, { recursive: true, force: true });
});

describe('S3 storage', () => {
  it('stores a stream of unknown length and gives the bytes back; removes it', async () => {
    const key = newKey('documents', 'pdf');
    const bytes = Buffer.alloc(6 * 1024 * 1024 + 123, 7); // more than one 5 MB part
    await storage.put(key, Readable.from([bytes.subarray(0, 1000), bytes.subarray(1000)]));
    expect(await storage.exists(key)).toBe(true);
    expect((await text((await storage.get(key))!)).equals(bytes)).toBe(true);
    await storage.remove(key);
    expect(await storage.exists(key)).toBe(false);
    expect(await storage.get(key)).toBeUndefined();
  });

  it('leaves nothing behind when the stream fails, and refuses keys it did not make', async () => {
    const key = newKey('documents', 'png');
    const failing = new Readable({
      read() {
        this.destroy(new Error('client went away'));
      },
    });
    await expect(storage.put(key, failing)).rejects.toThrow();
    expect(await storage.exists(key)).toBe(false);
    await expect(storage.get('../other-bucket/x')).rejects.toThrow('invalid storage key');
  });

  it('is chosen by STORAGE=s3, needs a bucket, and refuses an unknown storage', async () => {
    expect(() => s3SettingsFromEnv({})).toThrow('S3_BUCKET');
    expect(await storageFromEnv({ STORAGE: 's3', S3_BUCKET: 'b' })).toBeInstanceOf(S3Storage);
    await expect(storageFromEnv({ STORAGE: 'ftp' })).rejects.toThrow('disk or s3');
    expect(s3SettingsFromEnv({ S3_BUCKET: 'b' })).toMatchObject({
      region: 'us-east-1',
      forcePathStyle: false,
    });
  });
});
