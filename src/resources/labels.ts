/**
 * Labels in the browser: enum choices for react-admin and the text that stands for a record in the
 * user's language. The keys themselves are isomorphic (src/schema/labels.ts).
 */
import { activeLanguage, activeTranslate } from '../i18n/active.ts';
import type { JsonSchema, ResourceModel } from '../schema/model.ts';
import { enumKey } from '../schema/labels.ts';

/** A choice of a picker: its value and the text shown for it. */
export interface Choice {
  id: string;
  name: string;
}

/** Choices of an enum for react-admin (names are translation keys; react-admin translates them). */
export function enumChoices(schema: JsonSchema, enumName: string): Choice[] {
  return ((schema.enum ?? []) as string[])
    .filter((value) => value !== null)
    .map((value) => ({ id: value, name: enumKey(enumName, value) }));
}

/**
 * From this many options on, a picker is an autocomplete (type-ahead) rather than a plain select:
 * a longer menu is scrolled through rather than read.
 */
export const LONG_LIST = 15;

/**
 * Sorts by a text as readers of the language expect (Intl.Collator): umlauts and accents beside
 * their base letter ("Österreich" after "Ostafrika", not after "Zypern"), case second, digits by
 * value ("Säule 3a" before "Säule 10"). A new array; the order of equal texts is kept.
 */
export function sortByLabel<T>(items: readonly T[], labelOf: (item: T) => string, locale: string) {
  const collator = new Intl.Collator(locale, { numeric: true });
  return items
    .map((item) => ({ item, label: labelOf(item) }))
    .sort((a, b) => collator.compare(a.label, b.label))
    .map(({ item }) => item);
}

/** An enum's choices with their names in the user's language, sorted by them. */
export function sortedEnumChoices(
  schema: JsonSchema,
  enumName: string,
  translate: (key: string) => string,
  locale: string,
): Choice[] {
  const translated = enumChoices(schema, enumName).map((choice) => ({
    id: choice.id,
    name: translate(choice.name),
  }));
  return sortByLabel(translated, (choice) => choice.name, locale);
}

/** A text folded for type-ahead: no accents, no case, ß as ss ("Müller" → "muller"). */
export const foldText = (text: string): string =>
  text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/ß/g, 'ss');

/** Type-ahead: does the option's text contain what was typed, accents and case aside? */
export const matchesTyped = (typed: string, label: string): boolean =>
  foldText(label).includes(foldText(typed.trim()));

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
