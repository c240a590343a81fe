/**
 * Which fields of a version conflict differ between the values the user tried to save and the
 * record as someone else saved it, so the conflict dialog can show what Overwrite would replace.
 */
import type { FieldModel, ResourceModel } from '../../schema/model.ts';

/** A value in a form of comparison that ignores key order and the kinds of "empty". */
function canonical(value: unknown): unknown {
  if (value === undefined || value === null || value === '') return null;
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .map(([key, child]) => [key, canonical(child)] as const)
        .filter(([, child]) => child !== null)
        .sort(([a], [b]) => a.localeCompare(b)),
    );
  }
  return value;
}

/** Equal as far as the user can tell: '', null and a missing value are the same empty value. */
export function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

/**
 * The writable fields whose value in `mine` (the values sent) differs from `current` (the record
 * as it is now), in the schema's order. Fields the save did not send are left out: a save does not
 * touch them, so Overwrite keeps the other person's value there.
 */
export function differingFields(
  model: ResourceModel,
  mine: Record<string, unknown>,
  current: Record<string, unknown>,
): FieldModel[] {
  return model.fields.filter(
    (field) =>
      !field.readOnly && field.name in mine && !sameValue(mine[field.name], current[field.name]),
  );
}
