/**
 * Named (prepared) statements on PostgreSQL for the few statements every request sends — the
 * session lookup above all (server/auth/sessions.ts). Kysely sends each query unnamed, so
 * PostgreSQL parses and plans it anew every time: for the session lookup (three tables, the
 * account's date range) that planning was about 0.9 ms of the database's CPU per request, more than
 * the page query of a list. A named statement is planned once per connection and then runs from
 * its cached plan (0.33 ms per round trip instead of 1.1 ms, measured on this machine).
 *
 * Only statements registered here are named: a list query's plan depends on its values (a search
 * word, a filter), which a cached generic plan would not weigh. The name is derived from the SQL
 * text, so the same text is the same statement on every connection. PGlite has no connections to
 * keep plans on and sends the statement as it is.
 */
import { createHash } from 'node:crypto';
import type { CompiledQuery } from 'kysely';
import type { PostgresPool, PostgresPoolClient } from 'kysely';

const names = new Map<string, string>();

/** Marks `compiled`'s SQL text as a statement to prepare once per connection; answers it. */
export function named<R>(compiled: CompiledQuery<R>): CompiledQuery<R> {
  if (!names.has(compiled.sql)) {
    names.set(
      compiled.sql,
      `gscrm_${createHash('sha1').update(compiled.sql).digest('hex').slice(0, 16)}`,
    );
  }
  return compiled;
}

/** The statement name of `sql`, when it was registered with `named`. */
export const statementName = (sql: string): string | undefined => names.get(sql);

type QueryArguments = Parameters<PostgresPoolClient['query']>;

/**
 * `pool` for Kysely's PostgresDialect, sending registered statements by name. Everything else
 * (unregistered text, cursors) passes through unchanged.
 */
export function withNamedStatements(pool: PostgresPool): PostgresPool {
  // One wrapper per pooled connection: Kysely keeps its own connection object per client.
  const wrappers = new WeakMap<PostgresPoolClient, PostgresPoolClient>();
  const wrap = (client: PostgresPoolClient): PostgresPoolClient => ({
    query: ((...args: QueryArguments) => {
      const [text, values] = args as unknown as [unknown, unknown[] | undefined];
      const name = typeof text === 'string' ? names.get(text) : undefined;
      if (!name) return (client.query as (...rest: unknown[]) => unknown)(...args);
      return (client.query as (config: object) => unknown)({ name, text, values });
    }) as PostgresPoolClient['query'],
    release: () => client.release(),
  });
  return {
    async connect() {
      const client = await pool.connect();
      let wrapper = wrappers.get(client);
      if (!wrapper) {
        wrapper = wrap(client);
        wrappers.set(client, wrapper);
      }
      return wrapper;
    },
    end: () => pool.end(),
  };
}
