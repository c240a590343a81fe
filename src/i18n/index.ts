/**
 * i18next behind react-admin (ra-i18n-i18next), fed from the localization API (spec §7): every text
 * the user reads — ours and react-admin's own — is a translation key in the database.
 *
 * Start-up (src/App.tsx shows its spinner until this resolves): the language list and the chosen
 * language's texts are loaded side by side, each retried once on failure — one answer per language
 * (GET /api/localizations/texts/{language}) that also carries, for the keys the language lacks, the
 * fallback's text (de, then en), so no other language is fetched before the first paint. The
 * browser keeps that answer and revalidates it by its ETag (304 while no text changed; an admin's
 * edit changes it). Default language de; the choice is kept in
 * localStorage ('language') and, for a signed-in user, saved in their preferences
 * (PUT /api/account/settings). Switching language loads that language once and re-renders in
 * place (react-admin re-keys its tree), no reload.
 *
 * A key missing in the chosen language shows the de text, else the en text, else react-admin's
 * default (`_`), else the key made readable ("resources.users.fields.firstName" → "First name") —
 * never the raw key — and is reported (./missing.ts). The server's errors arrive as keys with
 * arguments in react-admin's text form (src/schema/errors.ts `encodeKeyed`). Keys are flat and dotted (i18next keySeparator off).
 */
import { formatNumber } from './format.ts';
import { createInstance, type i18n as I18next, type Resource } from 'i18next';
import { getI18nProvider } from 'ra-i18n-i18next';
import type { I18nProvider } from 'react-admin';
import { api } from '../dataProvider/apiClient.ts';
import { readStoredToken } from '../dataProvider/httpClient.ts';
import {
  createLocalizationClient,
  type Language as ApiLanguage,
  type LanguageTexts,
  type LocalizationClient,
  retryOnce,
} from './api.ts';
import { createMissingKeyReporter, type MissingKeyReporter } from './missing.ts';
import { decodeKeyed } from '../schema/errors.ts';

export const LANGUAGES = ['de', 'en', 'fr', 'it'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'de';
/** Where a missing key is looked up next, in this order (the issue: de, then en). */
export const FALLBACK_LANGUAGES: Language[] = ['de', 'en'];
export const LANGUAGE_STORAGE_KEY = 'language';

/** Key namespaces always recognised as keys (others are learnt from the loaded texts). */
const BASE_NAMESPACES = ['app', 'ra', 'resources', 'enums', 'products'];
const KEY_SHAPE = /^[A-Za-z0-9_+-]+(\.[A-Za-z0-9_+-]+)+$/;
/** Keys react-admin probes with a default of its own; their absence is normal, not reported. */
const OPTIONAL_KEYS =
  /^resources\.[^.]+\.(forcedCaseName|page|action|notifications|empty|invite|message)(\.|$)/;

export const isLanguage = (value: unknown): value is Language =>
  LANGUAGES.includes(value as Language);

/**
 * The language to start in: the choice kept in this browser, else the signed-in user's preference
 * (kept with the session's user at login), else de.
 */
export function storedLanguage(): Language {
  try {
    const stored = globalThis.localStorage?.getItem(LANGUAGE_STORAGE_KEY);
    if (isLanguage(stored)) return stored;
    const user = JSON.parse(globalThis.localStorage?.getItem('user') ?? 'null') as {
      language?: unknown;
    } | null;
    return isLanguage(user?.language) ? user.language : DEFAULT_LANGUAGE;
  } catch {
    return DEFAULT_LANGUAGE;
  }
}

/** "resources.users.fields.firstName" → "First name"; "resources.lead-sources.name_other" → "Lead sources". */
export function humanizeKey(key: string): string {
  const segments = key.split('.').filter(Boolean);
  let index = segments.length - 1;
  while (
    index > 0 &&
    /^(_label|name|name_(one|other|many|zero|two|few)|_one|_other)$/.test(segments[index])
  )
    index -= 1;
  const words = (segments[index] ?? key)
    .replace(/_(one|other|many|zero|two|few)$/, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : key;
}

/**
 * The texts of the loaded languages: language → key → text (empty texts are left out: they are
 * missing; a blank one such as react-admin's ra.boolean.null ' ' is a text), and per language the
 * fallback texts of the keys it lacks. Shared by the provider and the translation-keys screen.
 */
export class TranslationCatalogue {
  readonly texts = new Map<string, Map<string, string>>();
  readonly fallbackTexts = new Map<string, Map<string, string>>();
  private readonly namespaces = new Set(BASE_NAMESPACES);

  constructor(
    readonly languages: ApiLanguage[],
    private readonly client: LocalizationClient,
  ) {}

  languageId(abbreviation: string): number | undefined {
    return this.languages.find((language) => language.abbreviation === abbreviation)?.id;
  }

  isLoaded(language: string): boolean {
    return this.texts.has(language);
  }

  /** Loads (or reloads) one language with its fallback texts; the request is retried once. */
  async load(language: string, answer?: Promise<LanguageTexts>): Promise<Map<string, string>> {
    if (this.languageId(language) === undefined) throw new Error(`Unknown language ${language}`);
    const loaded = await (answer ?? retryOnce(() => this.client.texts(language)));
    const texts = new Map(Object.entries(loaded.texts).filter(([, text]) => text !== ''));
    const fallback = new Map(
      Object.entries(loaded.fallback ?? {}).filter(([key, text]) => text !== '' && !texts.has(key)),
    );
    for (const key of [...texts.keys(), ...fallback.keys()])
      this.namespaces.add(key.slice(0, key.indexOf('.')));
    this.texts.set(language, texts);
    this.fallbackTexts.set(language, fallback);
    return texts;
  }

  has(language: string, key: string, plural = false): boolean {
    return hasKey(this.texts.get(language), key, plural);
  }

  /** The language lacks the key, and a fallback language has it (de, then en). */
  hasFallback(language: string, key: string, plural = false): boolean {
    return hasKey(this.fallbackTexts.get(language), key, plural);
  }

  /** What i18next holds for a language: its texts over the fallback's. */
  bundle(language: string): Record<string, string> {
    return Object.fromEntries([
      ...(this.fallbackTexts.get(language) ?? []),
      ...(this.texts.get(language) ?? []),
    ]);
  }

  /** A string that names a key (dotted, in a known namespace) rather than a text. */
  looksLikeKey(text: string): boolean {
    return KEY_SHAPE.test(text) && this.namespaces.has(text.slice(0, text.indexOf('.')));
  }

  /** i18next resources: one flat namespace per loaded language. */
  resources(): Resource {
    return Object.fromEntries(
      [...this.texts.keys()].map((language) => [language, { translation: this.bundle(language) }]),
    );
  }
}

function hasKey(texts: Map<string, string> | undefined, key: string, plural: boolean): boolean {
  if (!texts) return false;
  if (texts.has(key)) return true;
  return plural && (texts.has(`${key}_other`) || texts.has(`${key}_one`));
}

export interface Localization {
  catalogue: TranslationCatalogue;
  client: LocalizationClient;
  reporter: MissingKeyReporter;
  i18next: I18next;
  /** Reloads the loaded languages (after an admin saved texts); listeners re-render. */
  reload(): Promise<void>;
  subscribe(listener: () => void): () => void;
  version(): number;
}

let current: Localization | undefined;

/** The running localization (undefined before createI18nProvider resolved). */
export const activeLocalization = (): Localization | undefined => current;

/** Saves the choice in the signed-in user's preferences (the settings API); never fails. */
async function savePreference(language: string): Promise<void> {
  if (!readStoredToken()) return;
  try {
    await api.json('PUT', 'account/settings', { body: { language } });
  } catch {
    // The local choice stays; the preference is saved the next time.
  }
}

export interface CreateOptions {
  client?: LocalizationClient;
  /** Saving the choice in the user's preferences (default: PUT /api/account/settings). */
  savePreference?: (language: string) => Promise<void>;
  /** Delay of the missing-key reports (tests). */
  reportDelayMs?: number;
}

export async function createI18nProvider(
  language: string = storedLanguage(),
  options: CreateOptions = {},
): Promise<I18nProvider> {
  const client = options.client ?? createLocalizationClient();
  // The texts of the language we expect to start in are asked beside the language list.
  const expected = isLanguage(language) ? language : DEFAULT_LANGUAGE;
  const early = retryOnce(() => client.texts(expected));
  early.catch(() => undefined); // awaited below when it is the one; never an unhandled rejection
  const languages = await retryOnce(() => client.languages());
  if (languages.length === 0) throw new Error('The server lists no languages.');
  const catalogue = new TranslationCatalogue(languages, client);
  const known = (abbreviation: string) => catalogue.languageId(abbreviation) !== undefined;
  const initial = known(language)
    ? language
    : known(DEFAULT_LANGUAGE)
      ? DEFAULT_LANGUAGE
      : languages[0].abbreviation;
  await catalogue.load(initial, initial === expected ? early : undefined);

  const reporter = createMissingKeyReporter({
    send: (entries) => client.reportMissing(entries),
    languageIdOf: (code) => catalogue.languageId(code),
    delayMs: options.reportDelayMs,
  });
  const instance = createInstance();
  const base = await getI18nProvider(
    instance,
    {
      lng: initial,
      // Each language's bundle holds its fallback texts already (the catalogue's `bundle`).
      fallbackLng: false,
      supportedLngs: languages.map((entry) => entry.abbreviation),
      load: 'languageOnly',
      resources: catalogue.resources(),
      keySeparator: false,
      nsSeparator: false,
      returnNull: false,
      returnEmptyString: false,
      interpolation: { escapeValue: false },
    },
    [],
  );

  const listeners = new Set<() => void>();
  let version = 0;
  const install = (code: string) => {
    instance.addResourceBundle(code, 'translation', catalogue.bundle(code), false, true);
  };
  const ensureLoaded = async (code: string) => {
    if (catalogue.isLoaded(code)) return;
    await catalogue.load(code);
    install(code);
  };

  const translate = (key: string, values: Record<string, unknown> = {}): string => {
    if (typeof key !== 'string') return String(key ?? '');
    if (key === '') return '';
    const chosen = instance.language;
    const plural = values.smart_count !== undefined || values.count !== undefined;
    if (catalogue.has(chosen, key, plural)) return base.translate(key, values);
    // A message with arguments in react-admin's text form (a server error's key, see
    // src/schema/errors.ts): its key translated with its arguments.
    const keyed = decodeKeyed(key);
    if (keyed) return translate(keyed.message, { ...boundsShown(keyed.args), _: keyed.message });
    if (!catalogue.looksLikeKey(key)) {
      return values._ !== undefined ? base.translate(key, values) : key;
    }
    if (catalogue.hasFallback(chosen, key, plural)) {
      reporter.report(key, chosen, 'fallback');
      return base.translate(key, values);
    }
    // react-admin passes the key itself as the default of a label (`_: label`): not a text.
    const fallbackText = values._;
    if (
      typeof fallbackText === 'string' &&
      fallbackText !== key &&
      !catalogue.looksLikeKey(fallbackText)
    ) {
      if (!OPTIONAL_KEYS.test(key)) reporter.report(key, chosen, 'default');
      return base.translate(key, values);
    }
    reporter.report(key, chosen, 'humanized');
    return humanizeKey(key);
  };

  const localization: Localization = {
    catalogue,
    client,
    reporter,
    i18next: instance,
    async reload() {
      const loaded = [...catalogue.texts.keys()];
      await Promise.all(loaded.map((code) => catalogue.load(code)));
      for (const code of loaded) install(code);
      version += 1;
      for (const listener of listeners) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    version: () => version,
  };
  current = localization;
  if (typeof document !== 'undefined') document.documentElement.lang = initial;

  const save = options.savePreference ?? savePreference;
  return {
    translate,
    getLocale: () => instance.language,
    getLocales: () =>
      languages.map(({ abbreviation }) => ({
        locale: abbreviation,
        name: translate(`app.languageNames.${abbreviation}`),
      })),
    /** `save: false` when the language came from the user's preferences (applied at sign-in). */
    changeLocale: async (locale: string, options?: { save?: boolean }) => {
      if (!known(locale)) throw new Error(`Unknown language ${locale}`);
      await ensureLoaded(locale);
      await base.changeLocale(locale);
      try {
        localStorage.setItem(LANGUAGE_STORAGE_KEY, locale);
      } catch {
        // Storage refused: the choice lasts for this page.
      }
      if (typeof document !== 'undefined') document.documentElement.lang = locale;
      if (options?.save !== false) void save(locale);
    },
  };
}

/** The numeric bounds of a message ({{limit}}, {{min}}, {{max}}) as people read them: 1'000'000. */
const BOUNDS = ['limit', 'min', 'max'];
function boundsShown(args: Record<string, string | number> | undefined) {
  if (!args) return args;
  return Object.fromEntries(
    Object.entries(args).map(([name, value]) => [
      name,
      BOUNDS.includes(name) && typeof value === 'number' ? formatNumber(value) : value,
    ]),
  );
}
