/**
 * Per-resource server rules that a schema cannot say: who sees which records (scope), rules across
 * fields or against the database (validate), values the server sets (prepare), and work after a
 * write (afterWrite, same transaction). The generic CRUD routes call them; a resource registers
 * its hooks in server/hooks/index.ts under its resource name.
 */
import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { ResourceModel } from '../src/schema/model.ts';
import type { SessionUser } from './auth/sessions.ts';
import type { DB, Row } from './db/index.ts';

export interface HookContext {
  db: DB;
  model: ResourceModel;
  models: ResourceModel[];
  principal?: SessionUser;
}

export interface WriteContext extends HookContext {
  mode: 'create' | 'update';
  /** The stored record, on update. */
  existing?: Row;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- dynamic tables are untyped in Kysely.
export type ScopeCondition = (eb: ExpressionBuilder<any, any>) => Expression<SqlBool>;

export interface ResourceHooks {
  /** Limits the records the principal may list, read, change and delete; undefined: all. */
  scope?(context: HookContext): ScopeCondition | undefined;
  /** Rules across fields or against the database: field errors (answered with 422), or none. */
  validate?(
    body: Row,
    context: WriteContext,
  ): Promise<Record<string, string[]> | undefined> | Record<string, string[]> | undefined;
  /** Column values the server sets or overrides before the write. */
  prepare?(values: Row, context: WriteContext): Promise<Row> | Row;
  /** After a successful write, in the same transaction. */
  afterWrite?(
    row: Row,
    context: HookContext & { mode: 'create' | 'update' | 'delete'; existing?: Row },
  ): Promise<void> | void;
}
