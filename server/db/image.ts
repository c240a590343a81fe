/**
 * The prepared database image: a new PGlite database costs 5–7 s of initdb, so a fresh database
 * is instead loaded from a tar of one made earlier (PGlite's `dumpDataDir` / `loadDataDir`) with
 * every migration applied, the release's texts synced and the job queue's `pgboss` schema
 * installed (1–1.5 s on a new database). Images live in `.cache/pglite-image/` (git-ignored;
 * PGLITE_IMAGE_DIR elsewhere), named by a hash of what decides their content: the PGlite and
 * pg-boss versions, PGlite's extensions and every migration file. A database loaded from one is
 * then migrated, synced and its queue started as usual, so an image only ever saves time; without
 * a matching image a start runs initdb as before and writes the image for the next one.
 * `tsx scripts/prepare-db.ts` (the `postinstall`) makes it ahead of time.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from './index.ts';
import { MIGRATIONS_DIR, readMigrations } from './migrate.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Bumped when what goes into an image changes beyond the migrations (e.g. the text sync). */
const IMAGE_FORMAT = 2;
/** The extensions the worker loads (./pglite-worker.ts). */
const EXTENSIONS = ['pg_trgm'];

export function imageDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(env.PGLITE_IMAGE_DIR || path.join(ROOT, '.cache', 'pglite-image'));
}

/** The version of an installed package (found from its entry point: not every one exports ./package.json). */
function packageVersion(name: string): string {
  let dir = path.dirname(createRequire(import.meta.url).resolve(name));
  while (!fs.existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir)
    dir = path.dirname(dir);
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
    version: string;
  };
  return manifest.version;
}

/** The name an image of the current release has. */
export function imageKey(migrationsDir = MIGRATIONS_DIR): string {
  const hash = createHash('sha256');
  hash.update(
    JSON.stringify({
      format: IMAGE_FORMAT,
      pglite: packageVersion('@electric-sql/pglite'),
      pgBoss: packageVersion('pg-boss'),
      EXTENSIONS,
    }),
  );
  for (const migration of readMigrations(migrationsDir)) {
    hash.update(`\0${migration.version}\0${migration.name}\0${migration.sql}`);
  }
  return hash.digest('hex').slice(0, 24);
}

export function imagePath(key = imageKey(), dir = imageDir()): string {
  return path.join(dir, `${key}.tar`);
}

/** The image of the current release, if one was made. */
export function findImage(key = imageKey(), dir = imageDir()): string | undefined {
  const file = imagePath(key, dir);
  return fs.existsSync(file) ? file : undefined;
}

/**
 * Installs the job queue's `pgboss` schema (what the app's first start would do, server/jobs), so
 * an image carries it. Call after migrating, before taking the image.
 */
export async function installJobSchema(database: Database): Promise<void> {
  // Loaded only here: checking whether an image exists stays quick.
  const { JobQueue } = await import('../jobs/queue.ts');
  const queue = new JobQueue(database, { work: false });
  await queue.start();
  await queue.stop();
}

/** A NUL-terminated text field of a tar header. */
function field(header: Buffer, start: number, length: number): string {
  const bytes = header.subarray(start, start + length);
  const end = bytes.indexOf(0);
  return bytes.subarray(0, end === -1 ? length : end).toString('utf8');
}

/**
 * Unpacks an image into an empty folder, natively (about ten times cheaper than PGlite's own
 * `loadDataDir`, which goes through its WASM file system, and nothing of it stays in memory).
 * Images are ustar archives of folders and regular files, as `dumpDataDir` writes them; anything
 * else, or a name leaving the folder, is refused.
 */
export function extractImage(file: string, target: string): void {
  const tar = fs.readFileSync(file);
  const root = path.resolve(target);
  fs.mkdirSync(root, { recursive: true, mode: 0o700 });
  let offset = 0;
  while (offset + 512 <= tar.length) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((byte) => byte === 0)) return;
    const ustar = field(header, 257, 6) === 'ustar';
    const name = path.posix.join(ustar ? field(header, 345, 155) : '', field(header, 0, 100));
    const size = Number.parseInt(field(header, 124, 12).trim() || '0', 8);
    const type = String.fromCharCode(header[156]);
    const destination = path.resolve(root, `.${path.posix.sep}${name}`);
    if (
      !Number.isFinite(size) ||
      (destination !== root && !destination.startsWith(root + path.sep))
    )
      throw new Error(`unreadable image entry at byte ${offset}`);
    const body = offset + 512;
    if (type === '5') fs.mkdirSync(destination, { recursive: true, mode: 0o700 });
    else if (type === '0' || type === '\0') {
      if (body + size > tar.length) throw new Error(`image cut short in ${name}`);
      fs.mkdirSync(path.dirname(destination), { recursive: true, mode: 0o700 });
      fs.writeFileSync(destination, tar.subarray(body, body + size), { mode: 0o600 });
    } else throw new Error(`unexpected entry type ${JSON.stringify(type)} in the image (${name})`);
    offset = body + Math.ceil(size / 512) * 512;
  }
  throw new Error('image cut short (no end marker)');
}

/**
 * Writes an image (atomically: a reader sees the whole file or none) and removes the images of
 * older releases. Answers its path.
 */
export function writeImage(tar: Uint8Array, key = imageKey(), dir = imageDir()): string {
  fs.mkdirSync(dir, { recursive: true });
  const file = imagePath(key, dir);
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, tar);
  fs.renameSync(temporary, file);
  for (const entry of fs.readdirSync(dir)) {
    const other = path.join(dir, entry);
    const stale = entry.endsWith('.tar') && entry !== path.basename(file);
    // Another process may be writing its own right now; one left by a crash is old.
    const leftover = entry.endsWith('.tmp') && Date.now() - fs.statSync(other).mtimeMs > 600_000;
    if (stale || leftover) fs.rmSync(other, { force: true });
  }
  return file;
}
