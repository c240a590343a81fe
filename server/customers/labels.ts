/**
 * The app's own translations (locales/<lang>.json) on the server: labels of customer
 * fields and enum values, for the export's headers and values and for recognising the columns and
 * values of an imported file in any of the four languages.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const LANGUAGES = ['de', 'fr', 'it', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];

const LOCALES_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'locales');

type Messages = Record<string, unknown>;
const cache = new Map<Language, Messages>();

function messages(language: Language): Messages {
  let loaded = cache.get(language);
  if (!loaded) {
    loaded = JSON.parse(fs.readFileSync(path.join(LOCALES_DIR, `${language}.json`), 'utf8'));
    cache.set(language, loaded as Messages);
  }
  return loaded as Messages;
}

/** The text of a dotted key, or undefined. */
export function lookup(language: Language, key: string): string | undefined {
  let node: unknown = messages(language);
  for (const part of key.split('.')) {
    if (!node || typeof node !== 'object') return undefined;
    node = (node as Messages)[part];
  }
  return typeof node === 'string' ? node : undefined;
}

export const languageOf = (value: string | null | undefined): Language =>
  (LANGUAGES as readonly string[]).includes(value ?? '') ? (value as Language) : 'de';

/** Label of a field of a resource in a language (the field name when there is none). */
export const fieldLabel = (language: Language, resource: string, field: string): string =>
  lookup(language, `resources.${resource}.fields.${field}`) ?? field;

/** Label of an enum value (the value itself when there is none). */
export const enumLabel = (language: Language, enumName: string, value: string): string =>
  lookup(language, `enums.${enumName}.${value}`) ?? value;

/** Lower case, accents and everything but letters and digits removed: "E-Mail" → "email". */
export const normalizeLabel = (text: string): string =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ß/g, 'ss')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '');
