/**
 * Kept only for tests/unit/schemas.test.ts, which imports `listQuerySchema` from here: the generic
 * CRUD is the plugin in server/crud/ (list query in server/crud/list.ts). Remove this file once
 * that test imports server/crud/list.ts.
 */
export { listQuerySchema, MAX_PER_PAGE } from './crud/list.ts';
