/**
 * Record types of the screens: the types generated from the schemas (src/types/generated.ts,
 * camelCase) as the API answers them, with the id and timestamps every stored record has. Screens
 * use these instead of their own copies of a record's shape; UI-only types stay local.
 */
import type { ResourceRecords } from '../types/generated.ts';

export type ResourceName = keyof ResourceRecords;

/** A stored record of a resource: `ApiRecord<'customers'>`. */
export type ApiRecord<R extends ResourceName> = ResourceRecords[R] & {
  id: number;
  createdAt: string;
  updatedAt: string;
};
