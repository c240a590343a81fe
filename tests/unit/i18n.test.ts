/**
 * Completeness of the app's translations (src/i18n/locales/<lang>.json): the four languages have
 * the same keys and placeholders, and every key the schemas, the product catalogue and the source
 * code ask for exists in each of them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadResourceModels } from '../../server/schemas.ts';
import { schemaKeys } from '../../src/resources/labels.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const LOCALES_DIR = path.join(ROOT, 'src', 'i18n', 'locales');
const SRC_DIR = path.join(ROOT, 'src');
const CATALOGUE_SQL = path.join(ROOT, 'server', 'migrations', '0003_product_catalogue.sql');

const LANGUAGES = ['de', 'en', 'fr', 'it'] as const;
type Language = (typeof LANGUAGES)[number];
const OTHERS = LANGUAGES.filter((language) => language !== 'en');

type Flat = Map<string, unknown>;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Nested messages as dotted keys (`app.login.email`); leaves kept as they are (for checks). */
function flatten(value: unknown, prefix = '', out: Flat = new Map()): Flat {
  if (isObject(value)) {
    for (const [key, child] of Object.entries(value)) {
      flatten(child, prefix ? `${prefix}.${key}` : key, out);
    }
  } else {
    out.set(prefix, value);
  }
  return out;
}

const locales = Object.fromEntries(
  LANGUAGES.map((language) => {
    const file = path.join(LOCALES_DIR, `${language}.json`);
    return [language, flatten(JSON.parse(fs.readFileSync(file, 'utf8')) as unknown)];
  }),
) as Record<Language, Flat>;

const placeholders = (text: unknown): string[] =>
  typeof text === 'string'
    ? [...new Set([...text.matchAll(/\{\{\s*([^{}]+?)\s*\}\}/g)].map((match) => match[1]))].sort()
    : [];

/** Keys missing in some language, as `<lang>: <key> [(where)]`; empty when all are there. */
function missingIn(keys: Iterable<string>, where?: (key: string) => string): string[] {
  const missing: string[] = [];
  for (const key of keys) {
    for (const language of LANGUAGES) {
      if (locales[language].has(key)) continue;
      missing.push(`${language}: ${key}${where ? ` (${where(key)})` : ''}`);
    }
  }
  return missing;
}

function sourceFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== '__tests__' && entry.name !== 'node_modules') {
        files.push(...sourceFiles(full));
      }
    } else if (/\.tsx?$/.test(entry.name) && !/\.(test|spec)\.tsx?$/.test(entry.name)) {
      files.push(full);
    }
  }
  return files.sort();
}

/** Literal `'app.…'` / `"app.…"` keys in the web app's source (template literals excluded). */
function sourceKeys(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const pattern = /'(app\.[a-zA-Z0-9_.]+)'|"(app\.[a-zA-Z0-9_.]+)"/g;
  for (const file of sourceFiles(SRC_DIR)) {
    const text = fs.readFileSync(file, 'utf8');
    for (const match of text.matchAll(pattern)) {
      const key = match[1] ?? match[2];
      if (key.endsWith('.')) continue; // a prefix, not a key
      found.set(key, [...(found.get(key) ?? []), path.relative(ROOT, file)]);
    }
  }
  return found;
}

/** Product keys of the catalogue: the `(id, 'key', 'group', sort_order)` tuples. */
function catalogueKeys(): string[] {
  const sql = fs.readFileSync(CATALOGUE_SQL, 'utf8');
  const tuple = /\(\s*\d+\s*,\s*'([a-z0-9_]+)'\s*,\s*'[a-z0-9_]+'\s*,\s*\d+\s*\)/g;
  return [...new Set([...sql.matchAll(tuple)].map((match) => match[1]))];
}

describe('locale files', () => {
  it('have exactly the same keys in every language', () => {
    const all = new Set(LANGUAGES.flatMap((language) => [...locales[language].keys()]));
    expect(all.size).toBeGreaterThan(0);
    expect(missingIn([...all].sort())).toEqual([]);
  });

  it.each(LANGUAGES)('%s has a non-empty text for every key, none equal to its key', (language) => {
    const bad: string[] = [];
    for (const [key, value] of locales[language]) {
      if (typeof value !== 'string') bad.push(`${key}: not a string (${JSON.stringify(value)})`);
      else if (value.trim() === '') bad.push(`${key}: empty`);
      else if (value.trim() === key) bad.push(`${key}: the key itself`);
    }
    expect(bad).toEqual([]);
  });

  it.each(OTHERS)('%s keeps the placeholders of the English texts', (language) => {
    const wrong: string[] = [];
    for (const [key, english] of locales.en) {
      const expected = placeholders(english);
      const actual = placeholders(locales[language].get(key));
      const lost = expected.filter((name) => !actual.includes(name));
      const unknown = actual.filter((name) => !expected.includes(name));
      if (lost.length > 0) wrong.push(`${key}: missing {{${lost.join('}}, {{')}}}`);
      if (unknown.length > 0) wrong.push(`${key}: unknown {{${unknown.join('}}, {{')}}}`);
    }
    expect(wrong).toEqual([]);
  });
});

describe('keys the app needs', () => {
  const models = loadResourceModels();

  it('has every key the schemas use', () => {
    expect(models.length).toBeGreaterThan(0);
    const keys = new Set(models.flatMap((model) => schemaKeys(model)));
    expect(missingIn([...keys].sort())).toEqual([]);
  });

  it('has a name for every product of the catalogue', () => {
    const keys = catalogueKeys();
    expect(keys.length).toBeGreaterThan(0);
    expect(missingIn(keys.map((key) => `products.${key}`))).toEqual([]);
  });

  it('has every literal app.* key used in src/', () => {
    const keys = sourceKeys();
    expect(keys.size).toBeGreaterThan(0);
    const missing = missingIn([...keys.keys()].sort(), (key) => (keys.get(key) ?? []).join(', '));
    expect(missing).toEqual([]);
  });

  it('has a title for every menu group (app.menu.<x-resource.menu>)', () => {
    // src/layout/Layout.tsx puts a resource without x-resource.menu into 'main'.
    const groups = new Set(models.map((model) => model.resource.menu ?? 'main'));
    expect(missingIn([...groups].sort().map((group) => `app.menu.${group}`))).toEqual([]);
  });
});
