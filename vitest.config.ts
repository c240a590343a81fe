import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

/**
 * Projects: `unit` (front end and pure modules; jsdom where a file asks for it) and the API tests,
 * once on PGlite and once on PostgreSQL (TEST_DATABASE_URL, default the local server).
 * Every API file gets a copy of one seeded database made per run (tests/api/seeded-setup.ts).
 * Playwright specs (tests/e2e) are not vitest's.
 */
/** The API tests on one engine. */
const apiProject = (name: string, engine: 'pglite' | 'postgres') => ({
  extends: true as const,
  test: {
    name,
    include: ['tests/api/**/*.test.ts'],
    environment: 'node' as const,
    env: { TEST_ENGINE: engine },
    globalSetup: ['./tests/api/seeded-setup.ts'],
    // The files share the server's modules (loaded once, not once per file: about 1.5 s each);
    // a file that changes shared state (storage, environment) puts it back.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

export default defineConfig({
  plugins: [react()],
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: [
            'src/**/*.test.{ts,tsx}',
            'tests/unit/**/*.test.{ts,tsx}',
            'scripts/**/*.test.ts',
            'server/**/*.test.ts',
          ],
          environment: 'node',
          setupFiles: ['./vitest.unit-setup.ts'],
        },
      },
      apiProject('api', 'pglite'),
      apiProject('api-postgres', 'postgres'),
    ],
  },
});
