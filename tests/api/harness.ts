/**
 * Test harness for the API: a fresh database per test file — PGlite in memory, or a new
 * PostgreSQL database created on TEST_DATABASE_URL's server and dropped afterwards — migrated,
 * with the demo data, and the app driven through `app.inject()` (no network).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { afterAll, inject } from 'vitest';
import { seedDemo } from '../../server/demo/index.ts';
import { buildApp } from '../../server/app.ts';
import type { LoginThrottle } from '../../server/auth/index.ts';
import type { SessionPolicy } from '../../server/auth/sessions.ts';
import type { ComparisonConfig } from '../../server/comparison/adapter.ts';
import { type Database, openPglite, openPostgres } from '../../server/db/index.ts';
import { migrate } from '../../server/db/migrate.ts';
import { loadResourceModels } from '../../server/schemas.ts';
import { DiskStorage, getStorage, setStorage } from '../../server/storage/index.ts';
import { swissToday } from '../../src/schema/swiss-time.ts';

export const DEMO_PASSWORD = 'Test-Passw0rd!';
export const ENGINE = (process.env.TEST_ENGINE ?? 'pglite') as 'pglite' | 'postgres';
export const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** The migrated, seeded database the API projects' global setup made (./seeded-setup.ts). */
export interface SeededDatabase {
  engine: 'pglite' | 'postgres';
  /** The Swiss day and the moment it was seeded on. */
  day: string;
  madeAt: number;
  /** PGlite: its image (a tar). */
  image?: string;
  /** PostgreSQL: the template database's name. */
  template?: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    seededDatabase: SeededDatabase;
  }
}

/**
 * How long a test file may copy the seeded database instead of seeding its own. The demo is
 * written relative to its moment (an appointment of today is past or still to come, with or
 * without feedback): a copy older than this, or of another day, would show another demo than a
 * fresh seed, so the file then seeds its own.
 */
const SEEDED_MAX_AGE_MS = 20 * 60_000;

/** The seeded database to copy, when there is one of this engine still fresh enough. */
function seededDatabase(): SeededDatabase | undefined {
  let seeded: SeededDatabase | undefined;
  try {
    seeded = inject('seededDatabase');
  } catch {
    return undefined; // not in a vitest API project (scripts/fuzz.ts)
  }
  const now = Date.now();
  if (!seeded || seeded.engine !== ENGINE) return undefined;
  if (seeded.day !== swissToday(now) || now - seeded.madeAt > SEEDED_MAX_AGE_MS) return undefined;
  return seeded;
}

export interface AppVariantOptions {
  sessionPolicy?: SessionPolicy;
  throttle?: LoginThrottle;
  /** The car-comparison service (server/comparison/adapter.ts), e.g. a stand-in's address. */
  comparison?: Partial<ComparisonConfig>;
}

/** An app and the helpers to talk to it. */
export interface TestClient {
  app: FastifyInstance;
  /** Signs in a demo user (by email) and answers its bearer token. */
  login(email: string, password?: string): Promise<string>;
  /** `app.inject` with the token of `as` (an email) when given. */
  request(options: InjectOptions & { as?: string }): Promise<LightMyRequestResponse>;
}

export interface TestApp extends TestClient {
  database: Database;
  /**
   * Another app on the same database with other options (session policy, throttle): no new
   * database, so it is cheap. Closed by `close()`.
   */
  variant(options: AppVariantOptions): Promise<TestClient>;
  close(): Promise<void>;
}

function clientOf(app: FastifyInstance): TestClient {
  const tokens = new Map<string, string>();
  const login = async (email: string, password = DEMO_PASSWORD) => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password },
    });
    if (response.statusCode !== 200)
      throw new Error(`login ${email} failed: ${response.statusCode} ${response.body}`);
    return (response.json() as { token: string }).token;
  };
  return {
    app,
    login,
    async request({ as, ...injectOptions }) {
      const headers = { ...(injectOptions.headers ?? {}) };
      if (as) {
        if (!tokens.has(as)) tokens.set(as, await login(as));
        headers.authorization = `Bearer ${tokens.get(as)}`;
      }
      return app.inject({ ...injectOptions, headers });
    },
  };
}

/** A new database on TEST_DATABASE_URL's server (a copy of `template` when given), to drop after. */
export async function createPostgresDatabase(
  template?: string,
): Promise<{ name: string; url: string; drop: () => Promise<void> }> {
  const name = `gscrm_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  try {
    await admin.connect();
  } catch (error) {
    throw new Error(
      `PostgreSQL API tests need a server at ${ADMIN_URL} (set TEST_DATABASE_URL): ${(error as Error).message}`,
    );
  }
  await admin.query(`create database ${name}${template ? ` template ${template}` : ''}`);
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: ADMIN_URL });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

/** The current migrations and the demo (without its commissions), signed in with DEMO_PASSWORD. */
export async function migrateAndSeed(database: Database): Promise<void> {
  await migrate(database);
  await seedDemo(database.db, { password: DEMO_PASSWORD, commissions: false });
}

export async function createTestApp(
  options: {
    sessionPolicy?: SessionPolicy;
    throttle?: LoginThrottle;
    seed?: boolean;
    /** PGlite from the prepared image (default; texts already synced) or a new database. */
    image?: boolean;
  } = {},
): Promise<TestApp> {
  let database: Database;
  let drop = async () => {};
  // A copy of the run's seeded database when the file wants the demo on the current migrations.
  const seeded = options.seed !== false && options.image !== false ? seededDatabase() : undefined;
  if (ENGINE === 'postgres') {
    const created = await createPostgresDatabase(seeded?.template);
    database = await openPostgres(created.url);
    drop = created.drop;
  } else {
    // From the prepared image when there is one (npm ci makes it): no initdb per test file.
    database = await openPglite(undefined, { image: seeded?.image ?? options.image ?? true });
  }
  const models = loadResourceModels();
  let app: FastifyInstance;
  try {
    if (options.seed !== false && !seeded) await migrateAndSeed(database);
    else await migrate(database);
    app = await buildApp({
      database,
      models,
      sessionPolicy: options.sessionPolicy,
      throttle: options.throttle,
    });
  } catch (error) {
    await database.close().catch(() => {});
    await drop().catch(() => {});
    throw error;
  }
  const variants: FastifyInstance[] = [];
  return {
    ...clientOf(app),
    database,
    async variant(variantOptions) {
      const variantApp = await buildApp({ database, models, ...variantOptions });
      variants.push(variantApp);
      return clientOf(variantApp);
    },
    async close() {
      for (const variantApp of variants) await variantApp.close();
      await app.close();
      await database.close();
      await drop();
    },
  };
}

export const ADMIN = 'admin@demo.gscrm.ch';
export const CONSULTANT = 'consultant@demo.gscrm.ch';

/**
 * The files this test file stores go to a folder of its own (answered), removed after the file's
 * tests; the storage in use before is put back (test files share the server's modules).
 */
export function temporaryStorage(name: string): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), `gscrm-${name}-`));
  const before = getStorage();
  setStorage(new DiskStorage(folder));
  afterAll(() => {
    setStorage(before);
    fs.rmSync(folder, { recursive: true, force: true });
  });
  return folder;
}
