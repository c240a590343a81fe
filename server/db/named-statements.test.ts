import { CompiledQuery, type PostgresPool, type PostgresPoolClient } from 'kysely';
import { describe, expect, it } from 'vitest';
import { named, statementName, withNamedStatements } from './named-statements.ts';

function fakePool() {
  const calls: unknown[][] = [];
  const client = {
    query: (...args: unknown[]) => {
      calls.push(args);
      return Promise.resolve({ command: 'SELECT', rowCount: 0, rows: [] });
    },
    release: () => {},
  } as unknown as PostgresPoolClient;
  const pool: PostgresPool = {
    connect: () => Promise.resolve(client),
    end: () => Promise.resolve(),
  };
  return { pool, calls };
}

describe('named statements', () => {
  it('sends a registered statement by name with its values, anything else as it came', async () => {
    const { pool, calls } = fakePool();
    const wrapped = withNamedStatements(pool);
    const lookup = named(CompiledQuery.raw('select 1 where $1::int = 1', [1]));
    const client = await wrapped.connect();
    await client.query(lookup.sql, [1]);
    await client.query('select 2', []);
    const name = statementName(lookup.sql);
    expect(name).toMatch(/^gscrm_[0-9a-f]{16}$/);
    expect(calls).toEqual([[{ name, text: lookup.sql, values: [1] }], ['select 2', []]]);
    // Same text, same name (every connection prepares the same statement).
    named(CompiledQuery.raw('select 1 where $1::int = 1', [2]));
    expect(statementName(lookup.sql)).toBe(name);
    expect(statementName('select 2')).toBeUndefined();
  });

  it('keeps one client wrapper per pooled connection', async () => {
    const { pool } = fakePool();
    const wrapped = withNamedStatements(pool);
    expect(await wrapped.connect()).toBe(await wrapped.connect());
  });
});
