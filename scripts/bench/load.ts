/**
 * Load on the app and on the database: autocannon with N keep-alive connections for a case, a
 * health probe beside a running case, and the raw-`pg` baseline (N clients sending the captured
 * statements in a loop). Latencies are every response's (autocannon's `response` event; its own
 * histogram has no p95), req/s = completed responses / duration; errors and non-2xx answers are
 * counted, never dropped.
 */
import autocannon from 'autocannon';
import pg from 'pg';
import type { CapturedStatement } from './capture.ts';

export interface Latencies {
  samples: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export function latencies(values: number[]): Latencies {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) =>
    sorted.length ? sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] : NaN;
  return {
    samples: sorted.length,
    p50: at(50),
    p95: at(95),
    p99: at(99),
    max: sorted.at(-1) ?? NaN,
  };
}

export interface LoadResult extends Latencies {
  durationS: number;
  reqPerSec: number;
  /** Answers other than 2xx, by status. */
  statuses: Record<string, number>;
  non2xx: number;
  /** Requests sent (answered or not). */
  sent: number;
  /** Connection errors and timeouts (autocannon's counts). */
  errors: number;
  timeouts: number;
}

/**
 * `connections` clients send GET `url` for `duration` seconds — or, with `amount`, until that many
 * requests were answered, so that no request still in the server at the end is left out (with a
 * duration, autocannon drops those: on a slow case that would hide the slowest answers).
 */
export function hammer(
  url: string,
  options: {
    connections: number;
    duration: number;
    amount?: number;
    headers?: Record<string, string>;
  },
): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const times: number[] = [];
    const statuses: Record<string, number> = {};
    let non2xx = 0;
    const started = performance.now();
    const instance = autocannon(
      {
        url,
        connections: options.connections,
        ...(options.amount ? { amount: options.amount } : { duration: options.duration }),
        headers: options.headers,
        timeout: 60,
      },
      (error, result) => {
        if (error) return reject(error);
        // Wall time: autocannon's own duration is whole seconds.
        const durationS = (performance.now() - started) / 1000 || result.duration;
        resolve({
          ...latencies(times),
          durationS,
          reqPerSec: times.length / durationS,
          statuses,
          non2xx,
          sent: result.requests.sent ?? times.length + non2xx,
          errors: result.errors,
          timeouts: result.timeouts,
        });
      },
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300) times.push(responseTime);
      else {
        non2xx++;
        statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
      }
    });
  });
}

export interface ProbeResult extends Latencies {
  failures: number;
}

/**
 * One client asks `url` every `pauseMs` (one request at a time) from `startMs` until `stopMs` after
 * it was called — the health check of a monitor while the app is under load.
 */
export async function probe(
  url: string,
  options: { startMs: number; stopMs: number; pauseMs: number },
): Promise<ProbeResult> {
  const began = performance.now();
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  await sleep(options.startMs);
  const times: number[] = [];
  let failures = 0;
  while (performance.now() - began < options.stopMs) {
    const started = performance.now();
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(30_000) });
      await response.arrayBuffer();
      if (response.status === 200) times.push(performance.now() - started);
      else failures++;
    } catch {
      failures++;
    }
    await sleep(options.pauseMs);
  }
  return { ...latencies(times), failures };
}

export interface RawResult extends Latencies {
  durationS: number;
  reqPerSec: number;
  errors: number;
  /** CPU of the database's backends per request (ms), when `options.cpu` measures it. */
  dbCpuMsPerRequest?: number;
}

/**
 * `clients` connections each send `statements` one after another (one "request"), over and over
 * for `duration` seconds; requests started before the end are waited for and counted.
 */
export async function rawLoad(
  connectionString: string,
  statements: CapturedStatement[],
  options: { clients: number; duration: number; cpu?: () => number },
): Promise<RawResult> {
  const clients = await Promise.all(
    Array.from({ length: options.clients }, async () => {
      const client = new pg.Client({ connectionString });
      await client.connect();
      return client;
    }),
  );
  const run = async (client: pg.Client) => {
    for (const statement of statements)
      await client.query(
        statement.values ? { text: statement.text, values: statement.values } : statement.text,
      );
  };
  try {
    // Warm-up: each connection plans and runs the statements once.
    await Promise.all(clients.map(run));
    const times: number[] = [];
    let errors = 0;
    const cpuBefore = options.cpu?.();
    const started = performance.now();
    const deadline = started + options.duration * 1000;
    await Promise.all(
      clients.map(async (client) => {
        while (performance.now() < deadline) {
          const begin = performance.now();
          try {
            await run(client);
            times.push(performance.now() - begin);
          } catch {
            errors++;
          }
        }
      }),
    );
    const durationS = (performance.now() - started) / 1000;
    const cpu = cpuBefore === undefined ? undefined : options.cpu!() - cpuBefore;
    return {
      ...latencies(times),
      durationS,
      reqPerSec: times.length / durationS,
      errors,
      dbCpuMsPerRequest: cpu === undefined ? undefined : cpu / Math.max(1, times.length),
    };
  } finally {
    await Promise.all(clients.map((client) => client.end()));
  }
}
