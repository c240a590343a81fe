/**
 * Makes the prepared PGlite database image (server/db/image.ts) of this release, unless it exists:
 * a fresh in-memory PGlite, every migration applied, the release's texts synced, the job queue's
 * schema installed, then dumped to `.cache/pglite-image/<hash>.tar`. A new data folder is then
 * created from it in about a second instead of 5–7 s of initdb. Run once after installing (`npm ci` runs it as the root package's
 * `postinstall`); the server also writes the image itself on the first start that has none.
 *
 *   tsx scripts/prepare-db.ts [--force]
 *
 * A failure is reported but does not fail the install: the server then simply runs initdb.
 */
import { findImage, imageKey, installJobSchema, writeImage } from '../server/db/image.ts';

const started = performance.now();
const key = imageKey();
const existing = findImage(key);
if (existing && !process.argv.includes('--force')) {
  console.log(`Database image up to date: ${existing}`);
} else {
  try {
    // Loaded only when needed: checking an image that exists stays quick.
    const { openPglite } = await import('../server/db/index.ts');
    const { migrate } = await import('../server/db/migrate.ts');
    const { syncTranslations } = await import('../server/i18n/sync.ts');
    const { loadResourceModels } = await import('../server/schemas.ts');
    const database = await openPglite(undefined, { image: false });
    try {
      await migrate(database);
      await syncTranslations(database.db, { models: loadResourceModels() });
      await installJobSchema(database);
      const file = writeImage(await database.snapshot(), key);
      console.log(
        `Database image written: ${file} (${Math.round(performance.now() - started)} ms).`,
      );
    } finally {
      await database.close();
    }
  } catch (error) {
    console.warn(
      `No database image made (${(error as Error).message}); new data folders run initdb instead.`,
    );
  }
}
