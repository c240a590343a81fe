/** Translation keys of the check's fields and their values (the schema's labels and enums). */
import { getModel, hasModel } from '../../resources/registry.ts';
import { enumKey, fieldLabelKey } from '../../schema/labels.ts';
import { RESOURCE } from './model.ts';

/** The label key of a field: `resources.global-checks.fields.<path>` (array indexes left out). */
export const labelKey = (path: string): string =>
  fieldLabelKey(RESOURCE, path.replace(/\.\d+(?=\.|$)/g, ''));

/** The translation key of an enum value of a field (the schema's enum name when it is known). */
export function enumLabelKey(field: string, value: string): string {
  const top = field.split('.').pop() ?? field;
  const model = hasModel(RESOURCE) ? getModel(RESOURCE) : undefined;
  const enumName =
    model?.fields.find((candidate) => candidate.name === top)?.enumName ?? `${RESOURCE}.${top}`;
  return enumKey(enumName, value);
}
