/** Configuration from the environment, read once at start-up (README §Configuration). */
import { isIP } from 'node:net';
import path from 'node:path';

/**
 * Which proxies' X-Forwarded-For the server believes (Fastify's `trustProxy`): nobody's (false),
 * a hop count (the last N entries were appended by our own proxies), or the proxies' addresses and
 * CIDR ranges. Never "trust everything": a client could then choose its address and escape the
 * per-address login throttle.
 */
export type TrustProxy = false | number | string[];

/** Named ranges proxy-addr knows besides addresses and CIDRs. */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function validProxyEntry(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  // A prefix length, or (IPv4) a dotted netmask such as 255.255.255.0.
  if (/^\d{1,3}$/.test(prefix)) return Number(prefix) <= (family === 4 ? 32 : 128);
  return family === 4 && isIP(prefix) === 4;
}

/**
 * `TRUST_PROXY`: empty (no proxy), a hop count (`1` = one proxy of ours in front: the client is
 * the last X-Forwarded-For entry), or comma-separated proxy addresses / CIDRs (`10.0.0.0/8,
 * 127.0.0.1`). `true` is refused on purpose (it would trust any client's header).
 */
export function parseTrustProxy(value: string | undefined): TrustProxy {
  const text = value?.trim() ?? '';
  if (text === '' || text === 'false') return false;
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (!Number.isSafeInteger(hops)) throw new Error(`TRUST_PROXY hop count too large: ${text}`);
    return hops === 0 ? false : hops;
  }
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const invalid = entries.filter((entry) => !validProxyEntry(entry));
  if (invalid.length > 0 || entries.length === 0) {
    throw new Error(
      `TRUST_PROXY must be a hop count or proxy addresses/CIDRs separated by commas (never "trust everything"); not understood: ${invalid.join(', ') || text}`,
    );
  }
  return entries;
}

/**
 * The value for Fastify's `trustProxy`. A hop count becomes a function: Fastify 5 ignores a bare
 * number on purpose (it cannot check the immediate peer), so with a hop count the operator
 * vouches that only their proxies can reach the server; prefer addresses where they are known.
 */
export function trustProxyOption(
  trust: TrustProxy,
): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust !== 'number') return trust;
  return (_address, hop) => hop < trust;
}

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
  /** Proxies whose X-Forwarded-For is believed (TRUST_PROXY). */
  trustProxy: TrustProxy;
  /** Where documents live: disk (default) or s3 (S3_* settings, server/storage/s3.ts). */
  storage: 'disk' | 's3';
  /** Run the background-job workers in this process (JOBS_WORK=0 for a web-only server). */
  jobsWork: boolean;
}

function parseStorage(value: string | undefined): 'disk' | 's3' {
  const kind = value?.trim().toLowerCase() || 'disk';
  if (kind !== 'disk' && kind !== 's3') throw new Error(`STORAGE must be disk or s3, got ${value}`);
  return kind;
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
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    storage: parseStorage(env.STORAGE),
    jobsWork: !['0', 'false'].includes(env.JOBS_WORK?.trim().toLowerCase() ?? ''),
  };
}
