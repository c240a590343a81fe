/**
 * The prepared database image (image.ts) and how openPglite creates a new data folder from it:
 * the key follows the migrations, writing is atomic and drops older images, a folder is loaded
 * from the image (not initdb) with the job queue's schema, an unreadable image falls back to initdb, and a creation cut short
 * is started over.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractImage, findImage, imageKey, installJobSchema, writeImage } from './image.ts';
import { openPglite } from './index.ts';
import { MIGRATIONS_DIR, migrate } from './migrate.ts';

const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'gscrm-image-test-'));
afterAll(() => fs.rmSync(temp, { recursive: true, force: true }));

describe('image key and files', () => {
  it('changes with any migration file, not with anything else', () => {
    const migrations = path.join(temp, 'migrations');
    fs.cpSync(MIGRATIONS_DIR, migrations, { recursive: true });
    const key = imageKey(migrations);
    expect(imageKey(migrations)).toBe(key);
    expect(imageKey(MIGRATIONS_DIR)).toBe(key);
    fs.writeFileSync(path.join(migrations, 'notes.txt'), 'not a migration');
    expect(imageKey(migrations)).toBe(key);
    const first = fs.readdirSync(migrations).find((file) => file.endsWith('.sql'))!;
    fs.appendFileSync(path.join(migrations, first), '\n-- changed\n');
    expect(imageKey(migrations)).not.toBe(key);
  });

  it('writes an image whole and removes the images of other releases', () => {
    const dir = path.join(temp, 'images');
    writeImage(new Uint8Array([1, 2, 3]), 'old', dir);
    const file = writeImage(new Uint8Array([4, 5]), 'new', dir);
    expect(fs.readdirSync(dir)).toEqual(['new.tar']);
    expect([...fs.readFileSync(file)]).toEqual([4, 5]);
    expect(findImage('new', dir)).toBe(file);
    expect(findImage('old', dir)).toBeUndefined();
  });
});

/** A one-entry ustar archive (a file or a folder) with its end marker. */
function tarOf(name: string, body: string, type = '0'): Uint8Array {
  const header = Buffer.alloc(512);
  header.write(name, 0, 'utf8');
  header.write('0000600\0', 100);
  header.write(`${body.length.toString(8).padStart(11, '0')}\0`, 124);
  header.write(type, 156);
  header.write('ustar\0', 257);
  const content = Buffer.alloc(Math.ceil(body.length / 512) * 512);
  content.write(body);
  return Buffer.concat([header, content, Buffer.alloc(1024)]);
}

describe('unpacking an image', () => {
  it('writes its files under the folder and refuses names that leave it or other entry types', () => {
    const good = path.join(temp, 'good.tar');
    fs.writeFileSync(good, tarOf('/base/1/PG_VERSION', '17\n'));
    extractImage(good, path.join(temp, 'unpacked'));
    expect(fs.readFileSync(path.join(temp, 'unpacked', 'base', '1', 'PG_VERSION'), 'utf8')).toBe(
      '17\n',
    );
    const escaping = path.join(temp, 'escaping.tar');
    fs.writeFileSync(escaping, tarOf('../../outside', 'x'));
    expect(() => extractImage(escaping, path.join(temp, 'unpacked2'))).toThrow(/unreadable/);
    expect(fs.existsSync(path.join(temp, 'outside'))).toBe(false);
    const link = path.join(temp, 'link.tar');
    fs.writeFileSync(link, tarOf('/pg_link', '', '2'));
    expect(() => extractImage(link, path.join(temp, 'unpacked3'))).toThrow(/unexpected entry/);
    const cut = path.join(temp, 'cut.tar');
    fs.writeFileSync(cut, tarOf('/file', 'x'.repeat(600)).subarray(0, 700));
    expect(() => extractImage(cut, path.join(temp, 'unpacked4'))).toThrow(/cut short/);
  });
});

describe('a new data folder from the image', () => {
  let image: string;

  beforeAll(async () => {
    // The image of this release: from the cache when prepared, else made here (one initdb).
    const cached = findImage();
    if (cached) {
      image = cached;
      return;
    }
    const database = await openPglite(undefined);
    try {
      await migrate(database);
      await installJobSchema(database);
      image = writeImage(await database.snapshot(), imageKey(), path.join(temp, 'made'));
    } finally {
      await database.close();
    }
  }, 180_000);

  it('loads the folder from the image, migrated, and opens it again as it is', async () => {
    const dataDir = path.join(temp, 'data-image');
    const database = await openPglite(dataDir, { image });
    try {
      expect(database.origin).toBe('image');
      expect(await migrate(database)).toEqual([]);
      // The job queue's schema comes with the image (its install costs a first start 1–1.5 s).
      const { rows: queueTables } = await sql<{ n: number }>`
        select count(*)::int as n from information_schema.tables
        where table_schema = 'pgboss' and table_name = 'version'`.execute(database.db);
      expect(queueTables[0].n).toBe(1);
      await sql`insert into languages (id, abbreviation) values (9, 'rm')`.execute(database.db);
    } finally {
      await database.close();
    }
    expect(fs.existsSync(path.join(dataDir, 'pgdata.creating'))).toBe(false);
    const again = await openPglite(dataDir, { image });
    try {
      expect(again.origin).toBe('existing');
      const { rows } = await sql<{ n: number }>`
        select count(*)::int as n from languages where abbreviation = 'rm'`.execute(again.db);
      expect(rows[0].n).toBe(1);
    } finally {
      await again.close();
    }
  }, 120_000);

  it('starts a creation cut short over again, from the image', async () => {
    const dataDir = path.join(temp, 'data-interrupted');
    fs.mkdirSync(path.join(dataDir, 'pgdata'), { recursive: true });
    // What a kill during the creation leaves: some files, and the marker.
    fs.writeFileSync(path.join(dataDir, 'pgdata', 'PG_VERSION'), '17\n');
    fs.writeFileSync(path.join(dataDir, 'pgdata.creating'), '1\n');
    const database = await openPglite(dataDir, { image });
    try {
      expect(database.origin).toBe('image');
      expect(await migrate(database)).toEqual([]);
    } finally {
      await database.close();
    }
  }, 120_000);

  it('an unreadable image does not stop a start: initdb instead', async () => {
    const broken = path.join(temp, 'broken.tar');
    fs.writeFileSync(broken, fs.readFileSync(image).subarray(0, 100_000));
    const dataDir = path.join(temp, 'data-broken');
    const database = await openPglite(dataDir, { image: broken });
    try {
      expect(database.origin).toBe('initdb');
      const { rows } = await sql<{ one: number }>`select 1 as one`.execute(database.db);
      expect(rows[0].one).toBe(1);
    } finally {
      await database.close();
    }
  }, 180_000);
});
