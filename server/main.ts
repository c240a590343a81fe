/** Starts GS CRM: opens the database, migrates, seeds the demo on first start, serves. */

import { readConfig } from './config.ts';
import { findImage, installJobSchema, writeImage } from './db/image.ts';
import { openDatabase, type PgliteDatabase } from './db/index.ts';
import { migrate } from './db/migrate.ts';

/**
 * The rest of the server, loaded while the database opens: PGlite starts in its own thread
 * (server/db/pglite-worker.ts), so its start and these imports use both cores.
 */
const loadServer = () =>
  Promise.all([
    import('./app.ts'),
    import('./demo/index.ts'),
    import('./demo/identity.ts'),
    import('./i18n/sync.ts'),
    import('./schemas.ts'),
    import('./storage/index.ts'),
  ]);

async function main(): Promise<void> {
  const started = Date.now();
  const config = readConfig();
  const opening = openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const loading = loadServer();
  // Awaited below; until then a failure must not count as unhandled.
  loading.catch(() => {});
  let database: Awaited<ReturnType<typeof openDatabase>>;
  try {
    database = await opening;
  } catch (error) {
    console.error(`GS CRM cannot start: ${(error as Error).message}`);
    process.exit(1);
  }
  const [
    { buildApp },
    { DEMO_USERS, seedDemo },
    { DEMO_EXTERNAL_USER },
    { syncTranslations },
    { loadResourceModels },
    { DiskStorage, getStorage, setStorage, storageFromEnv },
  ] = await loading;
  const models = loadResourceModels();
  setStorage(await storageFromEnv());
  // Uploads cut short by a killed process (no code runs on kill -9) leave partial files behind.
  const storage = getStorage();
  if (storage instanceof DiskStorage) {
    const swept = await storage.removeStalePartials();
    if (swept > 0)
      console.log(`Removed ${swept} partial upload file(s) of an interrupted process.`);
  }
  const applied = await migrate(database);
  if (applied.length > 0) console.log(`Applied migrations ${applied.join(', ')}.`);
  const texts = await syncTranslations(database.db, { models });
  if (texts.keysAdded + texts.textsAdded + texts.textsUpdated > 0)
    console.log(
      `Translations: ${texts.keysAdded} keys and ${texts.textsAdded} texts added, ${texts.textsUpdated} texts updated.`,
    );
  // A database made by initdb (no prepared image of this release yet): keep it as the image, before
  // anything of the demo or of users is in it, so the next new data folder starts in a second.
  if (isPglite(database) && database.origin === 'initdb' && !findImage()) {
    try {
      await installJobSchema(database);
      console.log(
        `Database image written for the next new data folder: ${writeImage(await database.snapshot())}`,
      );
    } catch (error) {
      console.warn(`No database image written: ${(error as Error).message}`);
    }
  }
  const seeded = config.demo
    ? await seedDemo(database.db, { password: config.demoPassword })
    : false;

  const app = await buildApp({
    database,
    models,
    webRoot: config.webRoot,
    appEnv: config.appEnv,
    logger: process.env.LOG_REQUESTS === '1',
    // This process works on the jobs; with PostgreSQL every app server does, each job once.
    jobs: { work: config.jobsWork },
    // Request schemas compiled at first use and right after listening (0.6 s less to start).
    lazyValidators: true,
  });
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
  const url = `http://localhost:${config.port}`;
  console.log(
    `GS CRM is running on ${url} (${database.engine}, ${config.databaseUrl ? 'DATABASE_URL' : config.dataDir}) — ready in ${Date.now() - started} ms.`,
  );
  console.log(`API docs: ${url}/api/docs`);
  if (config.demo) {
    console.log(seeded ? 'Demo data loaded.' : 'Demo data already present.');
    console.log(
      `Demo logins (password ${process.env.DEMO_PASSWORD ? 'from DEMO_PASSWORD' : `"${config.demoPassword}"`}):`,
    );
    for (const user of DEMO_USERS) console.log(`  ${user.role.padEnd(22)} ${user.email}`);
    console.log(`  ${'external (sub-broker)'.padEnd(22)} ${DEMO_EXTERNAL_USER.email}`);
  }
}

function isPglite(database: { engine: string }): database is PgliteDatabase {
  return database.engine === 'pglite' && 'snapshot' in database;
}

main().catch((error: unknown) => {
  console.error(`GS CRM stopped: ${(error as Error).stack ?? error}`);
  process.exit(1);
});
