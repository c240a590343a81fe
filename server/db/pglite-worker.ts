/**
 * PGlite in a worker thread (started by ./pglite-client.ts): PostgreSQL's WASM build runs each
 * query synchronously, so in the main thread it would stall HTTP, auth and JSON work for as long
 * as a query runs. Here it stalls only this thread. Requests (./pglite-protocol.ts) are handled
 * one at a time, in the order they arrive; the main thread's Kysely driver hands out the single
 * connection, so a transaction's statements are never interleaved with others.
 */
import fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, types } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import {
  serializeError,
  type WorkerAnswers,
  type WorkerInit,
  type WorkerMessage,
  type WorkerRequest,
} from './pglite-protocol.ts';
import { DATE_OID, INT8_OID, NUMERIC_OID, TYPE_PARSERS } from './type-parsers.ts';

const port = parentPort;
if (!port) throw new Error('pglite-worker.ts runs as a worker thread (see pglite-client.ts)');
const init = workerData as WorkerInit;
const send = (message: WorkerMessage, transfer: ArrayBuffer[] = []) =>
  port.postMessage(message, transfer);

async function open(): Promise<PGlite> {
  // One options object: `new PGlite(undefined, options)` (in memory) would ignore the options.
  const pg = new PGlite({
    dataDir: init.dataDir,
    loadDataDir: init.imageFile ? new Blob([fs.readFileSync(init.imageFile)]) : undefined,
    parsers: {
      [types.DATE]: TYPE_PARSERS[DATE_OID],
      [types.NUMERIC]: TYPE_PARSERS[NUMERIC_OID],
      [types.INT8]: TYPE_PARSERS[INT8_OID],
    },
    // Trigram indexes for substring search (customers); PostgreSQL ships it as contrib.
    extensions: { pg_trgm },
  });
  await pg.waitReady;
  return pg;
}

async function answer(
  pg: PGlite,
  request: WorkerRequest,
): Promise<WorkerAnswers[typeof request.op]> {
  switch (request.op) {
    case 'query': {
      const result = await pg.query(request.sql, request.params);
      return { rows: result.rows, affectedRows: result.affectedRows };
    }
    case 'wire': {
      // Run as it is and read in the main thread (./pglite-wire.ts), not here: the stream form,
      // since execProtocolRaw still parses every message in this thread (for its listeners).
      const chunks: Uint8Array[] = [];
      let length = 0;
      await pg.execProtocolRawStream(request.message, {
        onRawData: (chunk) => {
          // A view of PostgreSQL's memory, reused for the next chunk: copied.
          chunks.push(chunk.slice());
          length += chunk.length;
        },
      });
      if (chunks.length === 1) return chunks[0];
      const answer = new Uint8Array(length);
      let offset = 0;
      for (const chunk of chunks) {
        answer.set(chunk, offset);
        offset += chunk.length;
      }
      return answer;
    }
    case 'exec': {
      const results = await pg.exec(request.sql);
      return (results.at(-1)?.rows ?? []) as Record<string, unknown>[];
    }
    case 'ping':
      if (!pg.ready || pg.closed) throw new Error('PGlite is not open');
      return null;
    case 'dump': {
      // Everything in the files, nothing left to replay from the WAL.
      await pg.exec('checkpoint');
      const tar = await pg.dumpDataDir('none');
      return new Uint8Array(await tar.arrayBuffer());
    }
    case 'close':
      if (!pg.closed) await pg.close();
      return null;
    case 'listen': {
      // PGlite calls back in a microtask queued while it reads the committing statement's
      // output, so the notification is posted before that statement's answer.
      const channel = request.channel;
      await pg.listen(channel, (payload) => send({ kind: 'notification', channel, payload }));
      return null;
    }
  }
}

try {
  const pg = await open();
  // Strictly one request after the other, whatever PGlite's own queueing does.
  let queue: Promise<void> = Promise.resolve();
  port.on('message', (request: WorkerRequest) => {
    queue = queue.then(async () => {
      try {
        const value = await answer(pg, request);
        const transfer = value instanceof Uint8Array ? [value.buffer as ArrayBuffer] : [];
        send({ kind: 'answer', id: request.id, ok: true, value }, transfer);
      } catch (error) {
        send({ kind: 'answer', id: request.id, ok: false, error: serializeError(error) });
      }
      // After closing, nothing keeps this thread: it ends and the main thread sees it exit.
      if (request.op === 'close') port.close();
    });
  });
  send({ kind: 'ready' });
} catch (error) {
  send({ kind: 'failed', error: serializeError(error) });
  port.close();
}
