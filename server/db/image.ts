/**
 * The prepared database image: a new PGlite database costs 5–7 s of initdb, so a fresh database
 * is instead loaded from a tar of one made earlier (PGlite's `dumpDataDir` / `loadDataDir`) with
 * every migration applied and the release's texts synced. Images live in `.cache/pglite-image/`
 * (git-ignored; PGLITE_IMAGE_DIR elsewhere), named by a hash of what decides their content: the
 * PGlite version, its extensions and every migration file. A database loaded from one is then
 * migrated and synced as usual, so an image only ever saves time; without a matching image a
 * start runs initdb as before and writes the image for the next one. `npm run prepare-db`
 * (scripts/prepare-db.ts) makes it ahead of time.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MIGRATIONS_DIR, readMigrations } from './migrate.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Bumped when what goes into an image changes beyond the migrations (e.g. the text sync). */
const IMAGE_FORMAT = 1;
/** The extensions the worker loads (./pglite-worker.ts). */
const EXTENSIONS = ['pg_trgm'];

export function imageDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(env.PGLITE_IMAGE_DIR || path.join(ROOT, '.cache', 'pglite-image'));
}

function pgliteVersion(): string {
  // The package exports no ./package.json: walk up from its entry point.
  let dir = path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
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
  hash.update(JSON.stringify({ format: IMAGE_FORMAT, pglite: pgliteVersion(), EXTENSIONS }));
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
