/** Path parameters every route with a record id shares: `/:id`, a positive `integer` in bounds. */
import { ID_SCHEMA } from '../../src/schema/limits.ts';

/** Route schema of `params` for `/…/:id` (400 naming `id` for anything but an id in bounds). */
export const idParams = {
  type: 'object',
  additionalProperties: false,
  required: ['id'],
  properties: { id: ID_SCHEMA },
} as const;

/** `request.params` of a route declared with `idParams`. */
export interface IdParams {
  id: number;
}
