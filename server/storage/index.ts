/**
 * File storage behind one small interface, so documents and avatars never depend on where bytes
 * live. The default keeps files on disk under the data folder (`DOCUMENTS_DIR`, default
 * `<DATA_DIR>/documents`); several app servers then need that folder on a shared volume. For scale,
 * an S3-compatible object store (./s3.ts, STORAGE=s3) implements the same four methods (put with
 * the key as object name, get as a stream, remove, exists) — see docs/ARCHITECTURE.md §Documents.
 *
 * Keys are chosen by the server (`newKey`): a folder, a random name and an extension derived from
 * the detected content type. A key never contains user input, so it cannot escape the root.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface Storage {
  /** Writes the stream under `key`; on failure nothing is left behind. */
  put(key: string, data: Readable): Promise<void>;
  /** The stored bytes, or undefined when there is no such key. */
  get(key: string): Promise<Readable | undefined>;
  remove(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
}

/** Suffix of a file being written; renamed to its key once complete. */
const PARTIAL = '.part';

const KEY = /^[a-z0-9-]+(?:\/[a-z0-9-]+)*\/[0-9a-f-]{36}\.[a-z0-9]{1,8}$/;

/** A fresh server-chosen key: `<folder>/<uuid>.<extension>`. */
export function newKey(folder: string, extension: string): string {
  const key = `${folder}/${randomUUID()}.${extension.toLowerCase()}`;
  if (!KEY.test(key)) throw new Error(`invalid storage key ${key}`);
  return key;
}

export class DiskStorage implements Storage {
  readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  private pathOf(key: string): string {
    if (!KEY.test(key)) throw new Error(`invalid storage key ${key}`);
    const full = path.resolve(this.root, key);
    if (!full.startsWith(`${this.root}${path.sep}`)) throw new Error(`invalid storage key ${key}`);
    return full;
  }

  async put(key: string, data: Readable): Promise<void> {
    const target = this.pathOf(key);
    await fs.promises.mkdir(path.dirname(target), { recursive: true });
    const partial = `${target}${PARTIAL}`;
    // Opened before the copy starts, so the file exists (and is removed below) whatever step
    // fails; `pipeline` forwards an error of either side and destroys both.
    const handle = await fs.promises.open(partial, 'wx');
    try {
      await pipeline(data, handle.createWriteStream());
      await fs.promises.rename(partial, target);
    } catch (error) {
      data.destroy();
      await fs.promises.rm(partial, { force: true });
      throw error;
    } finally {
      await handle.close().catch(() => {});
    }
  }

  /**
   * Removes partial files older than `olderThanMs`: what a process killed in the middle of an
   * upload left (no code runs on `kill -9`). Only old ones, as other app servers sharing the
   * folder may be writing theirs. Answers the number removed.
   */
  async removeStalePartials(olderThanMs = 60 * 60_000): Promise<number> {
    let entries: fs.Dirent[];
    try {
      entries = await fs.promises.readdir(this.root, { recursive: true, withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
      throw error;
    }
    const before = Date.now() - olderThanMs;
    let removed = 0;
    for (const entry of entries) {
      if (!entry.isFile() || !entry.name.endsWith(PARTIAL)) continue;
      const file = path.join(entry.parentPath, entry.name);
      const stat = await fs.promises.stat(file).catch(() => undefined);
      if (stat && stat.mtimeMs < before) {
        await fs.promises.rm(file, { force: true });
        removed++;
      }
    }
    return removed;
  }

  async get(key: string): Promise<Readable | undefined> {
    const target = this.pathOf(key);
    try {
      const handle = await fs.promises.open(target, 'r');
      return handle.createReadStream();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async remove(key: string): Promise<void> {
    await fs.promises.rm(this.pathOf(key), { force: true });
  }

  async exists(key: string): Promise<boolean> {
    try {
      await fs.promises.access(this.pathOf(key));
      return true;
    } catch {
      return false;
    }
  }
}

/** The folder of the default disk storage: DOCUMENTS_DIR, else `<DATA_DIR or ./data>/documents`. */
export function documentsDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(env.DOCUMENTS_DIR ?? path.join(env.DATA_DIR ?? 'data', 'documents'));
}

/** The storage the configuration asks for: STORAGE=disk (default) or STORAGE=s3 (S3_*). */
export async function storageFromEnv(env: NodeJS.ProcessEnv = process.env): Promise<Storage> {
  const kind = env.STORAGE?.trim().toLowerCase() || 'disk';
  if (kind === 'disk') return new DiskStorage(documentsDir(env));
  if (kind === 's3') {
    // Loaded only when asked for: the AWS SDK is large.
    const { S3Storage, s3SettingsFromEnv } = await import('./s3.ts');
    return new S3Storage(s3SettingsFromEnv(env));
  }
  throw new Error(`STORAGE must be disk or s3, got ${env.STORAGE}`);
}

let current: Storage | undefined;

/** The storage in use (the disk storage of `documentsDir()` unless another was set). */
export function getStorage(): Storage {
  current ??= new DiskStorage(documentsDir());
  return current;
}

/** Replaces the storage (an S3 adapter at start-up, a temporary folder in tests). */
export function setStorage(storage: Storage): void {
  current = storage;
}
