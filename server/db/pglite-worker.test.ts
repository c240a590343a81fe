/**
 * PGlite in its worker thread (pglite-client.ts, pglite-worker.ts, pglite-dialect.ts): the main
 * thread stays free while a query runs, transactions hold the one connection and roll back
 * cleanly on an error, PostgreSQL's error fields and the type parsers survive the thread
 * boundary, closing ends the thread, and a worker that dies fails every request instead of
 * leaving it hanging.
 */
import { Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findImage } from './image.ts';
import {
  gatedClient,
  PgliteWorkerClient,
  type PgliteWorkerApi,
  PgliteWorkerStoppedError,
} from './pglite-client.ts';
import { PGliteDialect } from './pglite-dialect.ts';

type AnyDB = Kysely<Record<string, Record<string, unknown>>>;

/** The longest the main thread's event loop was blocked while `work` ran. */
async function longestStall(work: Promise<unknown>): Promise<number> {
  let longest = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 5);
  try {
    await work;
  } finally {
    clearInterval(timer);
  }
  return Math.max(longest, performance.now() - last);
}

describe('PGlite in a worker thread', () => {
  let client: PgliteWorkerClient;
  let db: AnyDB;

  beforeAll(async () => {
    client = await PgliteWorkerClient.open({ imageFile: findImage() });
    db = new Kysely({ dialect: new PGliteDialect(client) });
    await sql`create table things (id integer primary key, name text not null unique)`.execute(db);
  }, 120_000);
  afterAll(async () => {
    await db?.destroy();
  });

  it('keeps the main thread free while a query runs, and ping answers at once', async () => {
    // Bounds far from the query's 3 s, so a loaded machine (CI runs the browser tests beside
    // these) cannot make them fail, while a query on this thread could not pass them.
    const slow = sql`select pg_sleep(3)`.execute(db);
    let slowDone = false;
    void slow.then(() => (slowDone = true));
    const started = performance.now();
    await client.ping();
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(slowDone).toBe(false);
    const stall = await longestStall(slow);
    // In this thread the query would block the event loop for the whole 3 s.
    expect(stall).toBeLessThan(1_000);
    // Idle, the ping goes to the worker and back.
    await client.ping();
  }, 30_000);

  it('answers rows through the type parsers: dates as text, int8 and numeric as numbers', async () => {
    const { rows } = await sql<{ day: unknown; big: unknown; amount: unknown; at: unknown }>`
      select '2026-02-03'::date as day, 9007199254740::int8 as big, 12.5::numeric as amount,
             now() as at`.execute(db);
    expect(rows[0]).toMatchObject({ day: '2026-02-03', big: 9007199254740, amount: 12.5 });
    expect(rows[0].at).toBeInstanceOf(Date);
  });

  it('rolls a transaction back cleanly when one of its queries fails, keeping the error fields', async () => {
    await sql`insert into things (id, name) values (1, 'one')`.execute(db);
    const failed = db.transaction().execute(async (trx) => {
      await sql`insert into things (id, name) values (2, 'two')`.execute(trx);
      await sql`insert into things (id, name) values (3, 'one')`.execute(trx);
    });
    await expect(failed).rejects.toMatchObject({
      code: '23505',
      constraint: 'things_name_key',
      table: 'things',
    });
    const { rows } = await sql<{ id: number }>`select id from things order by id`.execute(db);
    expect(rows.map((row) => row.id)).toEqual([1]);
    // Not left inside the aborted transaction: the next one works.
    await db.transaction().execute(async (trx) => {
      await sql`insert into things (id, name) values (2, 'two')`.execute(trx);
    });
    const after = await sql<{ n: number }>`select count(*)::int as n from things`.execute(db);
    expect(after.rows[0].n).toBe(2);
  });

  it('lets no other query into a running transaction', async () => {
    const order: string[] = [];
    let inside!: () => void;
    const entered = new Promise<void>((resolve) => (inside = resolve));
    const transaction = db.transaction().execute(async (trx) => {
      await sql`insert into things (id, name) values (10, 'ten')`.execute(trx);
      inside();
      await new Promise((resolve) => setTimeout(resolve, 100));
      order.push('transaction');
      await sql`delete from things where id = 10`.execute(trx);
    });
    await entered;
    const outside = sql<{ n: number }>`select count(*)::int as n from things where id = 10`
      .execute(db)
      .then((result) => {
        order.push('outside');
        return result.rows[0].n;
      });
    await transaction;
    // The outside query waited for the commit, so it never saw row 10.
    expect(await outside).toBe(0);
    expect(order).toEqual(['transaction', 'outside']);
  });

  it('fails a request PostgreSQL refuses, alone, with its fields and the caller in the stack', async () => {
    const refused = client.query('select $1::int as a', ['not a number']);
    await expect(refused).rejects.toMatchObject({ code: '22P02' });
    await expect(refused).rejects.toThrow(/invalid input syntax/);
    expect(((await refused.catch((error: Error) => error)) as Error).stack).toContain(
      'pglite-worker.test.ts',
    );
    const { rows } = await client.query<{ a: string }>('select $1::text as a', ['still here']);
    expect(rows).toEqual([{ a: 'still here' }]);
  });

  it('sends parameters and reads answers as node-postgres does on PostgreSQL (./pglite-wire.ts)', async () => {
    const at = new Date('2026-03-04T05:06:07.089Z');
    const { rows } = await client.query<Record<string, unknown>>(
      `select $1::timestamptz as at, $2::jsonb as doc, $3::text[] as words, $4::boolean as yes,
              $5::int as n, null::text as nothing, 'Zürich'::text as city, $6::bytea as bytes`,
      [at, JSON.stringify({ a: [1, 'b'] }), ['x', 'y z'], true, 42, Buffer.from([1, 2, 255])],
    );
    expect(rows).toEqual([
      {
        at,
        doc: { a: [1, 'b'] },
        words: ['x', 'y z'],
        yes: true,
        n: 42,
        nothing: null,
        city: 'Zürich',
        bytes: Buffer.from([1, 2, 255]),
      },
    ]);
    await client.query('create temporary table counted (n int)');
    await client.query('insert into counted select generate_series(1, 5)');
    expect((await client.query('update counted set n = n + 1 where n > 2')).affectedRows).toBe(3);
    expect((await client.query('delete from counted')).affectedRows).toBe(5);
  });

  it('runs several statements through exec and answers the last one', async () => {
    const rows = await client.exec('select 1 as a; select 2 as b');
    expect(rows).toEqual([{ b: 2 }]);
  });
});

describe('the end of a worker', () => {
  // The prepared image (when one was made) spares each of these a 5–7 s initdb.
  const init = { imageFile: findImage() };

  it('close() ends the thread; later requests fail', async () => {
    const client = await PgliteWorkerClient.open(init);
    const exited = new Promise<number>((resolve) => client.thread.once('exit', resolve));
    await client.close();
    expect(await exited).toBe(0);
    await expect(client.query('select 1')).rejects.toBeInstanceOf(PgliteWorkerStoppedError);
    await expect(client.ping()).rejects.toBeInstanceOf(PgliteWorkerStoppedError);
  }, 120_000);

  it('a crashed worker fails the running and every later request, never hangs', async () => {
    const client = await PgliteWorkerClient.open(init);
    const db: AnyDB = new Kysely({ dialect: new PGliteDialect(client) });
    const running = sql`select pg_sleep(30)`.execute(db);
    // Let the query reach the worker, then end the thread the hard way.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const started = performance.now();
    await client.thread.terminate();
    await expect(running).rejects.toBeInstanceOf(PgliteWorkerStoppedError);
    expect(performance.now() - started).toBeLessThan(5_000);
    await expect(sql`select 1`.execute(db)).rejects.toThrow(/PGlite worker\) stopped/);
    await expect(client.ping()).rejects.toBeInstanceOf(PgliteWorkerStoppedError);
    await db.destroy();
  }, 120_000);
});

describe('a gated view of a starting client (server/main.ts builds the app on one)', () => {
  /** A stand-in for the worker's client that records the requests it got. */
  function fakeClient(got: string[]): PgliteWorkerApi {
    return {
      query: async <R>(text: string) => {
        got.push(text);
        return { rows: [] as R[] };
      },
      exec: async (text) => {
        got.push(text);
        return [];
      },
      listen: async (channel) => void got.push(`listen ${channel}`),
      dump: async () => new Uint8Array(),
      ping: async () => void got.push('ping'),
      close: async () => void got.push('close'),
      closed: false,
    };
  }

  it('lets no request through before the client is there and the gate is open, all after', async () => {
    const got: string[] = [];
    let started!: (client: PgliteWorkerApi) => void;
    let open!: () => void;
    const client = new Promise<PgliteWorkerApi>((resolve) => (started = resolve));
    const gate = new Promise<void>((resolve) => (open = resolve));
    const view = gatedClient(client, gate);
    const db: AnyDB = new Kysely({ dialect: new PGliteDialect(view) });
    const answers = Promise.all([
      sql`select 1`.execute(db),
      view.exec('select 2'),
      view.listen('changes', () => {}),
    ]);
    const tick = () => new Promise((resolve) => setTimeout(resolve, 20));
    started(fakeClient(got));
    await tick();
    expect(got).toEqual([]);
    expect(view.closed).toBe(false);
    open();
    await answers;
    expect(got.sort()).toEqual(['listen changes', 'select 1', 'select 2']);
    await view.ping();
    expect(got).toContain('ping');
  });

  it('fails every request when the start fails', async () => {
    const view = gatedClient(Promise.reject(new Error('no database')), Promise.resolve());
    await expect(view.query('select 1')).rejects.toThrow('no database');
    await expect(view.ping()).rejects.toThrow('no database');
  });
});
