/**
 * The one typed escape hatch from the generated database types: a view of the database in which a
 * table is chosen at run time (a resource model's `table`) and a row is any set of columns.
 *
 * The generic machinery (CRUD routes, record scopes, visibility, merges across resources) works on
 * whatever tables the schemas declare, so it cannot name a table or a column statically. It goes
 * through `resourceDb(db)` instead of `Kysely<any>` or casts at each call: the same connection (or
 * transaction), the same SQL, only the compile-time view differs. Code that names its tables uses
 * the typed `DB` (server/db/index.ts) and never this.
 */
import type { ExpressionBuilder, Kysely } from 'kysely';
import type { DB } from './index.ts';

/** A resource record as the generic code sees it: column name → value (snake_case, as stored). */
export type ResourceRow = Record<string, unknown>;

/** Every table as a resource table: any name, any columns. */
export type ResourceTables = Record<string, ResourceRow>;

/** The database (or a transaction) seen through resource tables. */
export type ResourceDB = Kysely<ResourceTables>;

/** The expression builder of a query on a resource table (where-conditions such as scopes). */
export type ResourceExpressionBuilder = ExpressionBuilder<ResourceTables, string>;

/** The same database or transaction, seen through resource tables chosen at run time. */
export function resourceDb(db: DB): ResourceDB {
  return db as unknown as ResourceDB;
}
