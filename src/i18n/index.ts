/**
 * i18next behind react-admin (ra-i18n-i18next). Default language de, the choice stored locally.
 * Each language is one bundle: react-admin's own messages plus the app's keys, loaded on demand;
 * the app shows a spinner until the selected language is loaded (src/App.tsx).
 */
import { type BackendModule, createInstance, type Resource } from 'i18next';
import { convertRaTranslationsToI18next, getI18nProvider } from 'ra-i18n-i18next';
import type { I18nProvider } from 'react-admin';

export const LANGUAGES = ['de', 'en', 'fr', 'it'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'de';
export const LANGUAGE_STORAGE_KEY = 'language';

export const AVAILABLE_LOCALES = [
  { locale: 'de', name: 'Deutsch' },
  { locale: 'en', name: 'English' },
  { locale: 'fr', name: 'Français' },
  { locale: 'it', name: 'Italiano' },
];

type Messages = Record<string, unknown>;

const loaders: Record<Language, () => Promise<[Messages, Messages]>> = {
  de: () =>
    Promise.all([import('./ra/de.ts'), import('./locales/de.json')]).then(([ra, app]) => [
      ra.default,
      app.default,
    ]),
  en: () =>
    Promise.all([import('ra-language-english'), import('./locales/en.json')]).then(([ra, app]) => [
      ra.default,
      app.default,
    ]),
  fr: () =>
    Promise.all([import('ra-language-french'), import('./locales/fr.json')]).then(([ra, app]) => [
      ra.default,
      app.default,
    ]),
  it: () =>
    Promise.all([import('./ra/it.ts'), import('./locales/it.json')]).then(([ra, app]) => [
      ra.default,
      app.default,
    ]),
};

export const isLanguage = (value: unknown): value is Language =>
  LANGUAGES.includes(value as Language);

export function storedLanguage(): Language {
  const stored =
    typeof localStorage === 'undefined' ? null : localStorage.getItem(LANGUAGE_STORAGE_KEY);
  return isLanguage(stored) ? stored : DEFAULT_LANGUAGE;
}

/** Bundles of one language: react-admin's messages (polyglot syntax converted) and ours. */
export async function loadMessages(language: Language): Promise<Messages> {
  const [ra, app] = await loaders[language]();
  return { ...(convertRaTranslationsToI18next(ra) as Messages), ...app };
}

const backend: BackendModule = {
  type: 'backend',
  init() {},
  read(language, _namespace, callback) {
    if (!isLanguage(language)) return callback(null, {});
    loadMessages(language).then(
      (messages) => callback(null, messages as Resource),
      (error: Error) => callback(error, null),
    );
  },
};

export async function createI18nProvider(
  language: Language = storedLanguage(),
): Promise<I18nProvider> {
  const instance = createInstance().use(backend);
  const provider = await getI18nProvider(
    instance,
    {
      lng: language,
      fallbackLng: ['de', 'en'],
      supportedLngs: [...LANGUAGES],
      load: 'languageOnly',
      nsSeparator: false,
      interpolation: { escapeValue: false },
      returnNull: false,
    },
    AVAILABLE_LOCALES,
  );
  const changeLocale = provider.changeLocale;
  return {
    ...provider,
    changeLocale: async (locale: string) => {
      await changeLocale(locale);
      if (isLanguage(locale)) {
        localStorage.setItem(LANGUAGE_STORAGE_KEY, locale);
        document.documentElement.lang = locale;
      }
    },
  };
}
