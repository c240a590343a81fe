/** The provider API's list envelope, shared by the generic CRUD routes and hand-written lists. */

/** Response schema of `meta`; `extra` adds properties (e.g. the outbox's transport). */
export function listMetaSchema(extra: Record<string, unknown> = {}) {
  return {
    type: 'object',
    properties: {
      current_page: { type: 'integer' },
      per_page: { type: 'integer' },
      total: { type: 'integer' },
      last_page: { type: 'integer' },
      ...extra,
    },
  } as const;
}

export interface ListMeta {
  current_page: number;
  per_page: number;
  total: number;
  last_page: number;
}

export const listMeta = (page: number, perPage: number, total: number): ListMeta => ({
  current_page: page,
  per_page: perPage,
  total,
  last_page: Math.max(1, Math.ceil(total / perPage)),
});

/** Escapes LIKE wildcards so user text matches literally. */
export const escapeLike = (text: string): string =>
  text.replace(/[\\%_]/g, (match) => `\\${match}`);
