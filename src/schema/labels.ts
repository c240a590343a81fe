/**
 * Translation keys of everything a schema names (the convention of docs/ARCHITECTURE.md §i18n):
 *   resources.<resource>.name        (plural forms: name_one / name_other)
 *   resources.<resource>.fields.<field>[.<child>]   (an object field's own label: <field>._label)
 *   enums.<enum>.<value>             (x-enum, default "<resource>.<field>"; a space in the value is
 *                                     an underscore in the key: `enums.leadStatus.not_reached`)
 *   <x-translate>.<value>            (values that are keys themselves, e.g. products.<key>)
 */

import type { FieldModel, JsonSchema, ResourceModel } from './model.ts';

export const fieldLabelKey = (resource: string, path: string): string =>
  `resources.${resource}.fields.${path}`;
export const objectLabelKey = (resource: string, path: string): string =>
  `${fieldLabelKey(resource, path)}._label`;
export const enumKey = (enumName: string, value: unknown): string =>
  `enums.${enumName}.${String(value).replaceAll(' ', '_')}`;

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
