/** Configuration from the environment, read once at start-up (README §Configuration). */
import path from 'node:path';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  /** Demo mode: seeds the demo brokerage on first start. Default: on with the embedded database. */
  demo: boolean;
  demoPassword: string;
  /** dev | staging | local | production — the coloured strip at the top of the app. */
  appEnv: string;
  webRoot: string;
}

export const DEFAULT_DEMO_PASSWORD = 'Demo-2026!';

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const databaseUrl = env.DATABASE_URL || undefined;
  const port = Number(env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT must be a port number, got ${env.PORT}`);
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR ?? 'data'),
    databaseUrl,
    demo: env.DEMO ? env.DEMO === '1' || env.DEMO === 'true' : !databaseUrl,
    demoPassword: env.DEMO_PASSWORD || DEFAULT_DEMO_PASSWORD,
    appEnv: env.APP_ENV ?? (databaseUrl ? 'production' : 'local'),
    webRoot: path.resolve(env.WEB_ROOT ?? 'dist'),
  };
}
