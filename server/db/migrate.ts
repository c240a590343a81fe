/**
 * Applies the numbered SQL files in server/migrations in order, each in its own transaction,
 * and records them in schema_migrations. Files are written by hand or by `npm run gen:migration`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from './index.ts';

export const MIGRATIONS_DIR = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  'migrations',
);

export interface MigrationFile {
  version: string;
  name: string;
  sql: string;
}

export function readMigrations(dir = MIGRATIONS_DIR): MigrationFile[] {
  return fs
    .readdirSync(dir)
    .filter((file) => /^\d{4}_[a-z0-9_]+\.sql$/.test(file))
    .sort()
    .map((file) => ({
      version: file.slice(0, 4),
      name: file.slice(5, -4),
      sql: fs.readFileSync(path.join(dir, file), 'utf8'),
    }));
}

/** Answers the versions it applied. */
export async function migrate(database: Database, dir = MIGRATIONS_DIR): Promise<string[]> {
  const migrations = readMigrations(dir);
  return database.exclusive(async (exec) => {
    await exec(`create table if not exists schema_migrations (
      version text primary key,
      name text not null,
      applied_at timestamptz not null default now()
    )`);
    const rows = await exec('select version from schema_migrations');
    const applied = new Set(rows.map((row) => String(row.version)));
    const done: string[] = [];
    for (const migration of migrations) {
      if (applied.has(migration.version)) continue;
      const quotedName = migration.name.replace(/'/g, "''");
      try {
        await exec(
          `begin;\n${migration.sql}\n;insert into schema_migrations (version, name) values ('${migration.version}', '${quotedName}');\ncommit;`,
        );
      } catch (error) {
        await exec('rollback').catch(() => {});
        throw new Error(
          `Migration ${migration.version}_${migration.name} failed: ${(error as Error).message}`,
        );
      }
      done.push(migration.version);
    }
    return done;
  });
}
