/**
 * What the benchmark scripts share: their options, a temporary PostgreSQL database, signing in
 * through the API, and timing GET requests (warm-up runs dropped, p50/p95 reported).
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';

export function benchOptions() {
  const { values } = parseArgs({
    options: {
      rows: { type: 'string', default: '100000' },
      runs: { type: 'string', default: '40' },
      postgres: { type: 'string' },
    },
  });
  return { rows: Number(values.rows), runs: Number(values.runs), postgres: values.postgres };
}

export const BENCH_PASSWORD = 'Bench-Passw0rd!';

const WARM_UP = 3;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

export async function signIn(app: FastifyInstance, email: string): Promise<Record<string, string>> {
  const login = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password: BENCH_PASSWORD },
  });
  return { authorization: `Bearer ${(login.json() as { token: string }).token}` };
}

/** Times each [label, url, headers] `runs` times and prints p50/p95. */
export async function timeQueries(
  app: FastifyInstance,
  queries: Array<[string, string, Record<string, string>]>,
  runs: number,
): Promise<void> {
  for (const [name, url, headers] of queries) {
    const times: number[] = [];
    for (let run = 0; run < runs + WARM_UP; run++) {
      const started = performance.now();
      const response = await app.inject({ url, headers });
      if (response.statusCode !== 200) {
        throw new Error(`${url}: ${response.statusCode} ${response.body}`);
      }
      if (run >= WARM_UP) times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    const p50 = percentile(times, 50).toFixed(1).padStart(7);
    const p95 = percentile(times, 95).toFixed(1).padStart(7);
    console.log(`  ${name.padEnd(46)} p50 ${p50} ms   p95 ${p95} ms`);
  }
}

/** Runs `fn` with the URL of a new database on the server of `serverUrl`, dropped afterwards. */
export async function withTemporaryDatabase(
  serverUrl: string,
  fn: (url: string) => Promise<void>,
): Promise<void> {
  const name = `gscrm_bench_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  try {
    await fn(url.toString());
  } finally {
    // Let the pool's connections finish closing before the database goes away.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}
