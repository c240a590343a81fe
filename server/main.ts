/**
 * Starts GS CRM: opens the database, migrates, seeds the demo on first start, serves.
 *
 * On PGlite (the default) the start runs on both cores at once: the first thing this module does
 * is start PGlite in its worker thread (./db/pglite-open.ts imports nothing but Node's modules and
 * the worker's client); while the worker opens the database, this thread loads the rest of the
 * server and builds the app on a gated view of the database (every request of the app waits until
 * the database is open and migrated). The server listens, and `GET /api/health` answers 200, only
 * when the app is ready and the translations and the demo are in the database, as before.
 */

import v8 from 'node:v8';
import { readConfig } from './config.ts';
import { gatedClient } from './db/pglite-client.ts';
import { type StartedPglite, startPglite } from './db/pglite-open.ts';

import type { FastifyInstance } from 'fastify';
import type { Database, PgliteDatabase } from './db/index.ts';

const T0 = performance.now();
/** With GSCRM_START_TRACE=1, the start's steps with their time on stderr (npm run bench:start). */
const mark = (step: string) => {
  if (process.env.GSCRM_START_TRACE)
    console.error(`[start] ${(performance.now() - T0).toFixed(0)} ms ${step}`);
};

/** The rest of the server, loaded while the database opens. */
async function loadServer() {
  const [app, db, migrate, image, demo, identity, sync, schemas, storage] = await Promise.all([
    import('./app.ts'),
    import('./db/index.ts'),
    import('./db/migrate.ts'),
    import('./db/image.ts'),
    import('./demo/index.ts'),
    import('./demo/identity.ts'),
    import('./i18n/sync.ts'),
    import('./schemas.ts'),
    import('./storage/index.ts'),
  ]);
  return { app, db, migrate, image, demo, identity, sync, schemas, storage };
}
type Server = Awaited<ReturnType<typeof loadServer>>;
type Models = ReturnType<Server['schemas']['loadResourceModels']>;
type Config = ReturnType<typeof readConfig>;

function fail(error: unknown): never {
  console.error(`GS CRM cannot start: ${(error as Error).message}`);
  process.exit(1);
}

/** A promise with its resolve function outside. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

/**
 * V8 optimises a WASM function once it has run a while (its "tiering budget"); while PostgreSQL
 * starts, that is hundreds of functions compiled on the other threads, ~0.5 s of CPU that the
 * start's two threads want. Ten times the default budget leaves that to the functions that keep
 * running (queries); measured on a list query, the same speed after a few hundred runs.
 * Process-wide, so set before the PGlite worker compiles its module.
 */
const WASM_TIERING_BUDGET = 18_000_000;

async function main(): Promise<void> {
  const started = Date.now();
  v8.setFlagsFromString(`--wasm-tiering-budget=${WASM_TIERING_BUDGET}`);
  const config = readConfig();
  // PGlite first: the worker opens the database on the other core while the rest loads. Its
  // thread is started before anything else is loaded (the loading would delay the lock's turn).
  const starting = deferred();
  const pglite = config.databaseUrl
    ? undefined
    : startPglite(config.dataDir, { starting: starting.resolve });
  // Awaited below; until then a failure must not count as unhandled.
  pglite?.catch(() => {});
  if (pglite) await Promise.race([starting.promise, pglite.catch(() => {})]);
  const loading = loadServer();
  loading.catch(() => {});
  mark('started');
  const server = await loading;
  mark('loaded');
  const { openPostgres, pgliteDatabase } = server.db;
  const models = server.schemas.loadResourceModels();
  const { DiskStorage, getStorage, setStorage, storageFromEnv } = server.storage;
  setStorage(await storageFromEnv());
  // Uploads cut short by a killed process (no code runs on kill -9) leave partial files behind.
  const storage = getStorage();
  if (storage instanceof DiskStorage) {
    const swept = await storage.removeStalePartials();
    if (swept > 0)
      console.log(`Removed ${swept} partial upload file(s) of an interrupted process.`);
  }

  let database: Database;
  let app: FastifyInstance;
  let seeded: boolean;
  if (pglite) {
    // The app is built at once on a view of the database that lets its requests through only
    // once the database is open and migrated (`gate`); meanwhile PGlite opens in its thread.
    const gate = deferred();
    const appDatabase = pgliteDatabase({
      client: gatedClient(
        pglite.then((opened) => opened.client),
        gate.promise,
      ),
      // The real database is closed by `database` below, the lock freed there.
      unlock: async () => {},
    });
    const building = build(server, appDatabase, models, config).then(async (built) => {
      await built.ready();
      mark('app ready');
      return built;
    });
    building.catch(() => {});
    let opened: StartedPglite;
    try {
      opened = await pglite;
    } catch (error) {
      fail(error);
    }
    mark('database open');
    const real = { ...pgliteDatabase(opened), origin: opened.origin };
    database = real;
    await prepareBeforeApp(server, real, models);
    mark('migrated');
    gate.resolve();
    // The translations and the demo go through the app's view (one connection queue with the
    // app's own requests, so no transaction of one ever holds a statement of the other).
    if (real.origin !== 'initdb') await syncTexts(server, appDatabase, models);
    seeded = config.demo ? await seed(server, appDatabase, config.demoPassword) : false;
    mark('seeded');
    app = await building;
  } else {
    try {
      database = await openPostgres(config.databaseUrl as string);
    } catch (error) {
      fail(error);
    }
    await prepareBeforeApp(server, database, models);
    await syncTexts(server, database, models);
    seeded = config.demo ? await seed(server, database, config.demoPassword) : false;
    app = await build(server, database, models, config);
  }

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    console.log(`${signal}: closing GS CRM…`);
    await app.close(); // stops the job workers after their running jobs (server/jobs/)
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  mark('listening');
  const url = `http://localhost:${config.port}`;
  console.log(
    `GS CRM is running on ${url} (${database.engine}, ${config.databaseUrl ? 'DATABASE_URL' : config.dataDir}) — ready in ${Date.now() - started} ms.`,
  );
  console.log(`API docs: ${url}/api/docs`);
  if (config.demo) {
    const { DEMO_USERS } = server.demo;
    const { DEMO_EXTERNAL_USER } = server.identity;
    console.log(seeded ? 'Demo data loaded.' : 'Demo data already present.');
    console.log(
      `Demo logins (password ${process.env.DEMO_PASSWORD ? 'from DEMO_PASSWORD' : `"${config.demoPassword}"`}):`,
    );
    for (const user of DEMO_USERS) console.log(`  ${user.role.padEnd(22)} ${user.email}`);
    console.log(`  ${'external (sub-broker)'.padEnd(22)} ${DEMO_EXTERNAL_USER.email}`);
  }
}

/**
 * What must be in the database before the app touches it: the migrations and, on a database
 * made by initdb (no prepared image of this release yet), the image for the next new data folder,
 * taken before anything of the app, the demo or users is in it.
 */
async function prepareBeforeApp(server: Server, database: Database, models: Models) {
  const { migrate } = server.migrate;
  const { findImage, installJobSchema, writeImage } = server.image;
  const applied = await migrate(database);
  if (applied.length > 0) console.log(`Applied migrations ${applied.join(', ')}.`);
  if (!isPglite(database) || database.origin !== 'initdb') return;
  await syncTexts(server, database, models);
  if (findImage()) return;
  try {
    await installJobSchema(database);
    console.log(
      `Database image written for the next new data folder: ${writeImage(await database.snapshot())}`,
    );
  } catch (error) {
    console.warn(`No database image written: ${(error as Error).message}`);
  }
}

async function syncTexts(server: Server, database: Database, models: Models) {
  const texts = await server.sync.syncTranslations(database.db, { models });
  if (texts.keysAdded + texts.textsAdded + texts.textsUpdated > 0)
    console.log(
      `Translations: ${texts.keysAdded} keys and ${texts.textsAdded} texts added, ${texts.textsUpdated} texts updated.`,
    );
}

async function seed(server: Server, database: Database, password: string): Promise<boolean> {
  return server.demo.seedDemo(database.db, { password });
}

/**
 * The car comparison's service: FS24_URL when set; in demo mode without it, the local stand-in
 * with its labelled sample tariffs (server/comparison/stand-in.ts), on a free port of 127.0.0.1.
 */
async function comparisonService(config: Config): Promise<{ url?: string }> {
  if (process.env.FS24_URL || !config.demo) return {};
  const { startStandIn } = await import('./comparison/stand-in.ts');
  const standIn = await startStandIn();
  console.log(`Car comparison: the demo's stand-in service (sample tariffs) at ${standIn.url}`);
  return { url: standIn.url };
}

async function build(server: Server, database: Database, models: Models, config: Config) {
  const comparison = await comparisonService(config);
  return server.app.buildApp({
    comparison,
    database,
    models,
    webRoot: config.webRoot,
    appEnv: config.appEnv,
    logger: process.env.LOG_REQUESTS === '1',
    // This process works on the jobs; with PostgreSQL every app server does, each job once.
    jobs: { work: config.jobsWork },
    // Request schemas and response serializers compiled at first use and right after listening.
    lazyValidators: true,
    // Built while the database opens: a feature that asks it while registering waits for that.
    pluginTimeout: 600_000,
  });
}

function isPglite(database: Database): database is PgliteDatabase {
  return database.engine === 'pglite' && 'origin' in database;
}

main().catch((error: unknown) => {
  console.error(`GS CRM stopped: ${(error as Error).stack ?? error}`);
  process.exit(1);
});
