/**
 * Labels in the browser: enum choices for react-admin and the text that stands for a record in the
 * user's language. The keys themselves are isomorphic (src/schema/labels.ts).
 */
import { activeLanguage, activeTranslate } from '../i18n/active.ts';
import type { JsonSchema, ResourceModel } from '../schema/model.ts';
import { enumKey } from '../schema/labels.ts';

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
