/**
 * Completeness of the translations. The release's texts are the seed of the translation tables
 * (server/i18n/source.ts): the app's keys (locales/<lang>.json) and react-admin's own
 * messages (converted to i18next syntax). Checked here:
 * - the four languages have the same keys, non-empty texts and the same placeholders;
 * - every key the schemas, the product catalogue, the menus and the source code ask for exists in
 *   each of them, react-admin's included; keys are well-formed and texts within the API's limits;
 * - German is Swiss German (no sharp s);
 * - no user-facing text is hard-coded in a component (JSX text or a label-like attribute that is
 *   not a translation key).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import ts from 'typescript';
import {
  KEY_PATTERN,
  MAX_KEY_LENGTH,
  MAX_TEXT_LENGTH,
  releaseTexts,
} from '../../server/i18n/source.ts';
import { loadResourceModels } from '../../server/schemas.ts';
import { ERROR_TEXTS, errorKey, type ErrorCode } from '../../src/schema/errors.ts';
import { schemaKeys } from '../../src/schema/labels.ts';
import { MENU_GROUPS, ROUTES } from '../../src/routes.tsx';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const LOCALES_DIR = path.join(ROOT, 'locales');
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

  it('has a title for every menu group and a name for every feature still to come', () => {
    // src/shell/Menu.tsx titles the groups of src/routes.tsx as app.menu.group.<group>.
    expect(missingIn(MENU_GROUPS.map((group) => `app.menu.group.${group}`))).toEqual([]);
    const coming = ROUTES.flatMap((entry) => (entry.coming ? [`app.coming.${entry.coming}`] : []));
    expect(missingIn([...new Set(coming)].sort())).toEqual([]);
  });
});

describe('the release texts (seed of the translation tables)', () => {
  const release = releaseTexts();
  const english = release.get('en') ?? new Map<string, string>();
  /** react-admin's placeholders a translation may use although the English text does not. */
  const EXTRA_PLACEHOLDERS: Record<string, string[]> = {
    // German keeps the noun's capital letter (locales/ra/de.ts); react-admin passes both.
    'ra.sort.sort_by': ['field'],
  };

  it('hold react-admin’s own messages in i18next syntax, for all four languages', () => {
    const raKeys = [...english.keys()].filter((key) => key.startsWith('ra.'));
    expect(raKeys.length).toBeGreaterThan(150);
    expect(english.get('ra.action.save')).toBe('Save');
    expect(english.get('ra.navigation.page_range_info')).toContain('{{offsetBegin}}');
    expect(english.has('ra.action.bulk_actions_one')).toBe(true);
    for (const language of LANGUAGES) {
      const texts = release.get(language) ?? new Map<string, string>();
      const polyglot = [...texts].filter(([, text]) => /%\{|\|\|\|\|/.test(text));
      expect(polyglot.map(([key]) => `${language}: ${key}`)).toEqual([]);
    }
  });

  it('have the same keys in every language, each with a text', () => {
    const all = new Set(
      LANGUAGES.flatMap((language) => [...(release.get(language)?.keys() ?? [])]),
    );
    const problems: string[] = [];
    for (const key of [...all].sort()) {
      for (const language of LANGUAGES) {
        const text = release.get(language)?.get(key);
        // A blank text (react-admin's ra.boolean.null is ' ') is a text; only '' is missing.
        if (text === undefined) problems.push(`${language}: ${key} missing`);
        else if (text === '') problems.push(`${language}: ${key} empty`);
      }
    }
    expect(problems).toEqual([]);
  });

  it.each(OTHERS)('%s uses only the placeholders react-admin and the app pass', (language) => {
    const wrong: string[] = [];
    for (const [key, text] of release.get(language) ?? []) {
      const allowed = [
        ...placeholders(english.get(key)),
        ...(EXTRA_PLACEHOLDERS[key] ?? []),
        // react-admin passes the count with every plural form.
        ...(/_(one|other)$/.test(key) ? ['smart_count'] : []),
      ];
      const unknown = placeholders(text).filter((name) => !allowed.includes(name));
      if (unknown.length > 0) wrong.push(`${key}: unknown {{${unknown.join('}}, {{')}}}`);
    }
    expect(wrong).toEqual([]);
  });

  it('have well-formed keys and texts within the limits of the API', () => {
    const bad: string[] = [];
    for (const [language, texts] of release) {
      for (const [key, text] of texts) {
        if (!KEY_PATTERN.test(key) || key.length > MAX_KEY_LENGTH) bad.push(`key ${key}`);
        if (text.length > MAX_TEXT_LENGTH) bad.push(`${language}: ${key} is too long`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('write Swiss German: no sharp s', () => {
    const sharp = [...(release.get('de') ?? [])].filter(([, text]) => text.includes('ß'));
    expect(sharp.map(([key, text]) => `${key}: ${text}`)).toEqual([]);
  });
});

describe('keys the code builds at run time', () => {
  it('has every error key of the API (src/schema/errors.ts) and the client’s own', () => {
    const keys = (Object.keys(ERROR_TEXTS) as ErrorCode[]).map(errorKey);
    expect(keys.length).toBeGreaterThan(100);
    expect(missingIn([...keys, 'app.errors.unreachable'])).toEqual([]);
  });

  it('has no English server sentence in the German, French and Italian error texts', () => {
    const english =
      /\b(must|is required|is not|not valid|refers to|characters|allowed|please|file is)\b/i;
    const wrong: string[] = [];
    for (const code of Object.keys(ERROR_TEXTS) as ErrorCode[]) {
      for (const language of OTHERS) {
        const text = locales[language].get(errorKey(code));
        const words = typeof text === 'string' ? text.replace(/\{\{\w+\}\}/g, '') : '';
        if (typeof text === 'string' && (english.test(words) || text === ERROR_TEXTS[code]))
          wrong.push(`${language} ${code}: ${text}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('uses in the error texts only the arguments the server sends', () => {
    const wrong: string[] = [];
    for (const [code, english] of Object.entries(ERROR_TEXTS)) {
      for (const language of LANGUAGES) {
        const text = locales[language].get(errorKey(code as ErrorCode));
        const unknown = placeholders(text).filter((name) => !placeholders(english).includes(name));
        if (unknown.length > 0) wrong.push(`${language} ${code}: {{${unknown.join('}}, {{')}}}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('has the languages’ names and the translation-keys screen’s dynamic keys', () => {
    const keys = [
      ...LANGUAGES.map((language) => `app.languageNames.${language}`),
      ...['fallback', 'default', 'humanized'].map((shown) => `app.translationKeys.shown.${shown}`),
    ];
    expect(missingIn(keys)).toEqual([]);
  });

  it('has every literal react-admin key used in src/', () => {
    const english = releaseTexts().get('en') ?? new Map<string, string>();
    const pattern = /['"](ra\.[a-z_]+\.[a-zA-Z0-9_.]+)['"]/g;
    const missing: string[] = [];
    for (const file of sourceFiles(SRC_DIR)) {
      for (const match of fs.readFileSync(file, 'utf8').matchAll(pattern)) {
        const key = match[1];
        if (key.endsWith('.')) continue;
        if (!english.has(key) && !english.has(`${key}_one`))
          missing.push(`${key} (${path.relative(ROOT, file)})`);
      }
    }
    expect(missing).toEqual([]);
  });
});

/**
 * Texts a component may show as they are: the product's name (spec: page title 'GS CRM'), the
 * start-up message shown before any translation can be loaded (src/App.tsx, in the four languages
 * at once), and sample records of the living guide (data, not interface texts).
 */
const BRAND = /GS CRM/g;
const ALLOWED_TEXTS: { text: RegExp; file?: string }[] = [
  { text: /^Der Server antwortet nicht\./, file: 'src/App.tsx' },
  { text: /^Andrea Keller$/, file: 'src/custom/AppElementsGuide.tsx' },
];
/** Attributes whose value the user reads. */
const TEXT_ATTRIBUTES = new Set([
  'label',
  'title',
  'placeholder',
  'aria-label',
  'alt',
  'helperText',
  'emptyText',
  'tooltip',
  'primaryText',
  'secondaryText',
]);
const KEY_LIKE = /^[A-Za-z0-9_+-]+(\.[A-Za-z0-9_+-]+)+$/;

/** Hard-coded user-facing texts of one .tsx file, as `<file>:<line>: <text>`. */
function hardCodedTexts(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const relative = path.relative(ROOT, file);
  const report = (node: ts.Node, value: string) => {
    const trimmed = value.replace(/\s+/g, ' ').trim();
    if (!/\p{L}/u.test(trimmed.replace(BRAND, ''))) return;
    if (
      ALLOWED_TEXTS.some(
        (allowed) => allowed.text.test(trimmed) && (!allowed.file || allowed.file === relative),
      )
    )
      return;
    const { line } = source.getLineAndCharacterOfPosition(node.getStart());
    found.push(`${relative}:${line + 1}: ${trimmed}`);
  };
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node)) report(node, node.text);
    if (ts.isJsxAttribute(node) && node.initializer) {
      const name = node.name.getText(source);
      const value = ts.isStringLiteral(node.initializer)
        ? node.initializer.text
        : ts.isJsxExpression(node.initializer) &&
            node.initializer.expression &&
            (ts.isStringLiteral(node.initializer.expression) ||
              ts.isNoSubstitutionTemplateLiteral(node.initializer.expression))
          ? node.initializer.expression.text
          : undefined;
      // react-admin fields and inputs take `title` as the record's field to show, not a text.
      const tag = node.parent.parent.tagName.getText(source);
      const isSource = name === 'title' && /(Field|Input)$/.test(tag);
      if (TEXT_ATTRIBUTES.has(name) && value !== undefined && !KEY_LIKE.test(value) && !isSource) {
        report(node, value);
      }
    }
    if (
      ts.isJsxExpression(node) &&
      node.expression &&
      ts.isStringLiteral(node.expression) &&
      (ts.isJsxElement(node.parent) || ts.isJsxFragment(node.parent))
    ) {
      report(node, node.expression.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('components', () => {
  const components = sourceFiles(SRC_DIR).filter((file) => file.endsWith('.tsx'));

  it('the check finds hard-coded texts (self-test)', () => {
    const probe = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'i18n-probe-')), 'Probe.tsx');
    fs.writeFileSync(
      probe,
      [
        'export const A = () => <p title="Kunde">Hallo {name}</p>;',
        "export const B = () => <p label=\"app.login.email\">{'Grüezi'}{translate('app.x')}</p>;",
        'export const C = () => <p>GS CRM · 42 – {value}</p>;',
        'export const D = () => <FileField source="file" title="title" aria-label="loading" />;',
      ].join('\n'),
    );
    try {
      expect(hardCodedTexts(probe).map((entry) => entry.replace(/^.*?:\d+: /, ''))).toEqual([
        'Kunde',
        'Hallo',
        'Grüezi',
        'loading',
      ]);
    } finally {
      fs.rmSync(path.dirname(probe), { recursive: true, force: true });
    }
  });

  it('show no hard-coded user-facing text (every word comes from a translation key)', () => {
    expect(components.length).toBeGreaterThan(5);
    expect(components.flatMap(hardCodedTexts)).toEqual([]);
    // Parses every component: seconds on a busy machine.
  }, 60_000);
});
