/**
 * The HTTP floor of the API benchmark: the least a Node HTTP server must do to answer a list
 * page — Fastify (no schema, no hooks), the app's own compression plugin, a `pg.Pool` of the app's
 * size — and nothing else: `GET /floor` sends the statements the app sent for one request
 * (captured on the wire, ./capture.ts) and answers the page query's rows as JSON. No sign-in, no
 * validation, no permission, no serializer. Run by ./run.ts as its own process:
 *
 *   node --import tsx scripts/bench/floor-server.ts   (DATABASE_URL, PORT, FLOOR_STATEMENTS=<json file>)
 *
 * App ÷ floor throughput is what the app's own machinery costs against any server on this machine;
 * app ÷ raw `pg` also counts HTTP, JSON and compression, which no web server avoids.
 */
import fs from 'node:fs';
import Fastify from 'fastify';
import pg from 'pg';
import compression from '../../server/web/compression.ts';
import type { CapturedStatement } from './capture.ts';
import { statementRole } from './capture.ts';

const statements = JSON.parse(
  fs.readFileSync(process.env.FLOOR_STATEMENTS as string, 'utf8'),
) as CapturedStatement[];
const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
});
const app = Fastify({ logger: false });
await app.register(compression);
app.get('/api/health', async () => ({ status: 'ok' }));
app.get('/floor', async () => {
  let data: unknown[] = [];
  for (const statement of statements) {
    const result = await pool.query(
      statement.values ? { text: statement.text, values: statement.values } : statement.text,
    );
    if (statementRole(statement.text) === 'page') data = result.rows;
  }
  return { data, meta: { total: data.length } };
});
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
const stop = async () => {
  await app.close();
  await pool.end();
  process.exit(0);
};
process.once('SIGTERM', () => void stop());
