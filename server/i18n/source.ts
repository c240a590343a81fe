/**
 * The release's texts: the seed source of the translation tables. They stay in the repository as
 * bundled files and are loaded into the database on start-up (./sync.ts):
 *   - the app's keys: locales/<lang>.json (nested objects, i18next syntax);
 *   - react-admin's own messages: ra-language-english, ra-language-french, locales/ra/{de,it}.ts
 *     (polyglot syntax, converted here: `%{x}` → `{{x}}`, "one |||| other" → `<key>_one`/`_other`).
 * Keys are stored flat and dotted (`ra.action.save`, `resources.users.fields.email`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import englishMessages from 'ra-language-english';
import frenchMessages from 'ra-language-french';
import germanMessages from '../../locales/ra/de.ts';
import italianMessages from '../../locales/ra/it.ts';

export const RELEASE_LANGUAGES = ['de', 'en', 'fr', 'it'] as const;
export type ReleaseLanguage = (typeof RELEASE_LANGUAGES)[number];

/** Longest text a translation may have (the API and the table refuse longer ones). */
export const MAX_TEXT_LENGTH = 2000;
/** Longest key. */
export const MAX_KEY_LENGTH = 200;
/** What a key looks like: dotted segments of letters, digits, `_`, `-`, `+`. */
export const KEY_PATTERN = /^[A-Za-z0-9_+-]+(\.[A-Za-z0-9_+-]+)*$/;

export const LOCALES_DIR = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'locales',
);

const RA_MESSAGES: Record<ReleaseLanguage, object> = {
  de: germanMessages,
  en: englishMessages,
  fr: frenchMessages,
  it: italianMessages,
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Nested messages as flat dotted keys; leaves that are not strings are refused. */
export function flattenMessages(
  value: unknown,
  prefix = '',
  out: Map<string, string> = new Map(),
): Map<string, string> {
  if (!isObject(value)) throw new Error(`${prefix || '(root)'}: expected an object of messages`);
  for (const [key, child] of Object.entries(value)) {
    const full = prefix ? `${prefix}.${key}` : key;
    if (isObject(child)) flattenMessages(child, full, out);
    else if (typeof child === 'string') out.set(full, child);
    else throw new Error(`${full}: a message must be a string, got ${JSON.stringify(child)}`);
  }
  return out;
}

/** polyglot `%{name}` → i18next `{{name}}`. */
export const polyglotToI18next = (text: string): string =>
  text.replace(/%\{([a-zA-Z0-9_-]*)\}/g, (_match, name: string) => `{{${name}}}`);

/**
 * react-admin messages (polyglot) as flat i18next messages: placeholders converted, and a plural
 * message "singular |||| plural" split into `<key>_one` and `<key>_other` (i18next's plural keys;
 * react-admin's `smart_count` is passed to i18next as `count`).
 */
export function convertPolyglotMessages(messages: object): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, text] of flattenMessages(messages)) {
    const forms = text.split(' |||| ');
    if (forms.length === 1) {
      out.set(key, polyglotToI18next(text));
    } else {
      out.set(`${key}_one`, polyglotToI18next(forms[0]));
      out.set(`${key}_other`, polyglotToI18next(forms[forms.length - 1]));
    }
  }
  return out;
}

/** The app's own keys of one language (locales/<lang>.json). */
export function appMessages(language: ReleaseLanguage, dir = LOCALES_DIR): Map<string, string> {
  const file = path.join(dir, `${language}.json`);
  return flattenMessages(JSON.parse(fs.readFileSync(file, 'utf8')) as unknown);
}

/** Every release text, by language and key (react-admin's first, the app's may override). */
export function releaseTexts(dir = LOCALES_DIR): Map<ReleaseLanguage, Map<string, string>> {
  const texts = new Map<ReleaseLanguage, Map<string, string>>();
  for (const language of RELEASE_LANGUAGES) {
    texts.set(
      language,
      new Map([...convertPolyglotMessages(RA_MESSAGES[language]), ...appMessages(language, dir)]),
    );
  }
  return texts;
}

const labelCache = new Map<ReleaseLanguage, Map<string, string>>();

/**
 * The release's text of a key in a language (German when the language is not one of the four),
 * for values a server message names by their label (a status in `statusTransition {from, to}`):
 * the key itself when it has no text.
 */
export function releaseLabel(key: string, language?: string | null): string {
  const lang = (RELEASE_LANGUAGES as readonly string[]).includes(language ?? '')
    ? (language as ReleaseLanguage)
    : 'de';
  let texts = labelCache.get(lang);
  if (!texts) {
    texts = appMessages(lang);
    labelCache.set(lang, texts);
  }
  return texts.get(key) ?? key;
}
