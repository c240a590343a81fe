/**
 * Record types of the screens: the types generated from the schemas (src/types/generated.ts,
 * camelCase) as the API answers them — every field present, null where it has no value — with the
 * id and timestamps every stored record has. Screens use these instead of their own copies of a
 * record's shape; UI-only types stay local.
 */
import type { ResourceRecords } from '../types/generated.ts';

export type ResourceName = keyof ResourceRecords;

/** An optional schema property arrives as `null` when empty, never missing. */
type Answered<T> = {
  [K in keyof T]-?: undefined extends T[K] ? Exclude<T[K], undefined> | null : T[K];
};

/** A stored record of a resource as the API answers it: `ApiRecord<'customers'>`. */
export type ApiRecord<R extends ResourceName> = Omit<
  Answered<ResourceRecords[R]>,
  'id' | 'createdAt' | 'updatedAt'
> & {
  id: number;
  createdAt: string;
  updatedAt: string;
};
