/**
 * Translation keys of everything a schema names (the convention of docs/ARCHITECTURE.md §i18n):
 *   resources.<resource>.name        (plural forms: name_one / name_other)
 *   resources.<resource>.fields.<field>[.<child>]   (an object field's own label: <field>._label)
 *   enums.<enum>.<value>             (x-enum, default "<resource>.<field>")
 *   <x-translate>.<value>            (values that are keys themselves, e.g. products.<key>)
 */

import { activeLanguage, activeTranslate } from '../i18n/active.ts';
import type { FieldModel, JsonSchema, ResourceModel } from '../schema/model.ts';

export const fieldLabelKey = (resource: string, path: string): string =>
  `resources.${resource}.fields.${path}`;
export const objectLabelKey = (resource: string, path: string): string =>
  `${fieldLabelKey(resource, path)}._label`;
export const enumKey = (enumName: string, value: unknown): string =>
  `enums.${enumName}.${String(value)}`;

/** Choices of an enum for react-admin (names are translation keys; react-admin translates them). */
export function enumChoices(schema: JsonSchema, enumName: string): { id: string; name: string }[] {
  return ((schema.enum ?? []) as string[])
    .filter((value) => value !== null)
    .map((value) => ({ id: value, name: enumKey(enumName, value) }));
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The text that stands for a record: its name in the user's language, a translated key, or a field. */
export function representRecord(
  model: ResourceModel,
  record: Record<string, unknown> | undefined,
): string {
  if (!record) return '';
  const { localizedName, recordRepresentation } = model.resource;
  if (localizedName) {
    const language = capitalize(activeLanguage());
    const value =
      record[`${localizedName}${language}`] ||
      record[`${localizedName}De`] ||
      record[`${localizedName}En`];
    return String(value ?? `#${record.id}`);
  }
  for (const template of model.resource.representation ?? []) {
    const names = [...template.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
    if (names.every((name) => String(record[name] ?? '').trim() !== ''))
      return template.replace(/\{(\w+)\}/g, (_match, name: string) => String(record[name]));
  }
  if (recordRepresentation) {
    const field = model.fields.find((candidate) => candidate.name === recordRepresentation);
    const value = record[recordRepresentation];
    const prefix = field?.schema['x-translate'];
    return prefix
      ? activeTranslate(`${prefix}.${String(value)}`)
      : String(value ?? `#${record.id}`);
  }
  return `#${record.id}`;
}

/** Every translation key a resource's schema uses (for the completeness checks). */
export function schemaKeys(model: ResourceModel): string[] {
  const keys = [`resources.${model.name}.name_one`, `resources.${model.name}.name_other`];
  const walk = (path: string, schema: JsonSchema, field?: FieldModel) => {
    if (schema.type === 'object' && schema.properties) {
      keys.push(objectLabelKey(model.name, path));
      for (const [child, childSchema] of Object.entries(schema.properties))
        walk(`${path}.${child}`, childSchema);
    } else {
      keys.push(fieldLabelKey(model.name, path));
    }
    const enumSchema = schema.type === 'array' ? schema.items : schema;
    if (enumSchema?.enum) {
      const name = enumSchema['x-enum'] ?? field?.enumName ?? `${model.name}.${path}`;
      for (const value of enumSchema.enum) keys.push(enumKey(name, value));
    }
  };
  for (const field of model.fields) walk(field.name, field.schema, field);
  return [...new Set(keys)];
}
