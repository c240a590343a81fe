/**
 * The i18n provider fed from the localization API (./index.ts) against an in-memory client: start-up
 * loading with one retry, fallbacks de → en, never a raw key, reports of missing keys, server
 * messages, switching language and saving the choice.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { LanguageTexts, LocalizationClient } from './api.ts';
import {
  activeLocalization,
  createI18nProvider,
  humanizeKey,
  LANGUAGE_STORAGE_KEY,
  storedLanguage,
} from './index.ts';

const LANGUAGES = [
  { id: 1, abbreviation: 'de' },
  { id: 2, abbreviation: 'en' },
  { id: 3, abbreviation: 'fr' },
  { id: 4, abbreviation: 'it' },
];

const TEXTS: Record<string, Record<string, string>> = {
  de: {
    'app.login.email': 'E-Mail',
    'app.onlyGerman': 'Nur Deutsch',
    'app.dashboard.welcome': 'Willkommen, {{name}}',
    'ra.action.bulk_actions_one': '1 Element ausgewählt',
    'ra.action.bulk_actions_other': '{{smart_count}} Elemente ausgewählt',
    'ra.boolean.null': ' ',
    'app.serverErrors.required': 'Pflichtfeld',
    'app.serverErrors.maxLength': 'Höchstens {{limit}} Zeichen',
    'app.languageNames.de': 'Deutsch',
    'app.languageNames.fr': 'Français',
  },
  en: {
    'app.login.email': 'Email',
    'app.onlyEnglish': 'English only',
    'app.dashboard.welcome': 'Welcome, {{name}}',
    'app.serverErrors.required': 'Required',
    'app.serverErrors.maxLength': 'At most {{limit}} characters',
    'ra.action.bulk_actions_one': '1 item selected',
    'ra.action.bulk_actions_other': '{{smart_count}} items selected',
  },
  fr: {
    'app.login.email': 'E-mail',
    'app.dashboard.welcome': 'Bienvenue, {{name}}',
    'app.serverErrors.required': 'Champ obligatoire',
    'app.empty': '',
  },
  it: { 'app.login.email': 'E-mail (it)' },
};

/**
 * An in-memory API answering as the server does (GET texts/{language}: the language's texts and,
 * for its missing keys, de's else en's); `failures` makes the next calls of a method fail.
 */
function fakeClient(failures: { languages?: number; texts?: number } = {}) {
  const calls = { languages: 0, texts: [] as string[] };
  const reports: { translationKey: string; languageId: number }[] = [];
  const client = {
    async languages() {
      calls.languages += 1;
      if ((failures.languages ?? 0) > 0) {
        failures.languages = (failures.languages ?? 0) - 1;
        throw new Error('network down');
      }
      return LANGUAGES;
    },
    async texts(language: string): Promise<LanguageTexts> {
      calls.texts.push(language);
      if ((failures.texts ?? 0) > 0) {
        failures.texts = (failures.texts ?? 0) - 1;
        throw new Error('network down');
      }
      if (!TEXTS[language]) throw new Error(`422 unknown language ${language}`);
      const texts = Object.fromEntries(
        Object.entries(TEXTS[language]).filter(([, text]) => text !== ''),
      );
      const fallback: Record<string, string> = {};
      for (const code of ['de', 'en']) {
        if (code === language) continue;
        for (const [key, text] of Object.entries(TEXTS[code])) {
          if (text !== '' && !(key in texts) && !(key in fallback)) fallback[key] = text;
        }
      }
      return { language, texts, fallback };
    },
    async reportMissing(entries: { translationKey: string; languageId: number }[]) {
      reports.push(...entries);
    },
  } as unknown as LocalizationClient;
  return { client, calls, reports };
}

beforeEach(() => {
  const store = new Map<string, string>();
  vi.stubGlobal('localStorage', {
    getItem: (key: string) => store.get(key) ?? null,
    setItem: (key: string, value: string) => store.set(key, value),
    removeItem: (key: string) => store.delete(key),
  });
});

describe('start-up', () => {
  it('loads the language list and only the chosen language (its fallback texts come with it)', async () => {
    const { client, calls } = fakeClient();
    const provider = await createI18nProvider('fr', { client });
    expect(provider.getLocale()).toBe('fr');
    expect(calls.languages).toBe(1);
    expect(calls.texts).toEqual(['fr']);
    expect(provider.translate('app.login.email')).toBe('E-mail');
    expect(provider.translate('app.onlyGerman')).toBe('Nur Deutsch');
    expect(provider.getLocales?.().map((locale) => locale.locale)).toEqual([
      'de',
      'en',
      'fr',
      'it',
    ]);
  });

  it('retries the language list once, and fails when the second attempt fails too', async () => {
    const once = fakeClient({ languages: 1 });
    const provider = await createI18nProvider('de', { client: once.client });
    expect(once.calls.languages).toBe(2);
    expect(provider.translate('app.login.email')).toBe('E-Mail');

    const twice = fakeClient({ languages: 2 });
    await expect(createI18nProvider('de', { client: twice.client })).rejects.toThrow(
      'network down',
    );
    expect(twice.calls.languages).toBe(2);
  });

  it('retries the texts once, and fails when the second attempt fails too', async () => {
    const { client, calls } = fakeClient({ texts: 1 });
    const provider = await createI18nProvider('de', { client });
    expect(provider.translate('app.onlyGerman')).toBe('Nur Deutsch');
    expect(calls.texts).toEqual(['de', 'de']);

    const twice = fakeClient({ texts: 2 });
    await expect(createI18nProvider('de', { client: twice.client })).rejects.toThrow(
      'network down',
    );
  });

  it('starts in the local choice, else the signed-in user’s preference, else de', async () => {
    expect(storedLanguage()).toBe('de');
    localStorage.setItem('user', JSON.stringify({ id: 1, language: 'it' }));
    expect(storedLanguage()).toBe('it');
    localStorage.setItem(LANGUAGE_STORAGE_KEY, 'fr');
    expect(storedLanguage()).toBe('fr');
    localStorage.setItem(LANGUAGE_STORAGE_KEY, 'xx');
    expect(storedLanguage()).toBe('it');
  });

  it('starts in de when the stored or asked language is unknown', async () => {
    const { client, calls } = fakeClient();
    const provider = await createI18nProvider('xx', { client });
    expect(provider.getLocale()).toBe('de');
    expect(calls.texts).toEqual(['de']);
    expect(provider.translate('app.login.email')).toBe('E-Mail');
  });
});

describe('translate', () => {
  it('interpolates and pluralises (react-admin passes smart_count)', async () => {
    const { client } = fakeClient();
    const provider = await createI18nProvider('en', { client });
    expect(provider.translate('app.dashboard.welcome', { name: 'Andrea' })).toBe('Welcome, Andrea');
    expect(provider.translate('ra.action.bulk_actions', { smart_count: 1 })).toBe(
      '1 item selected',
    );
    expect(provider.translate('ra.action.bulk_actions', { smart_count: 3 })).toBe(
      '3 items selected',
    );
  });

  it('falls back to de, then en, then the default, then a readable key — never the raw key', async () => {
    const { client } = fakeClient();
    const provider = await createI18nProvider('fr', { client, reportDelayMs: 60_000 });
    expect(provider.translate('app.onlyGerman')).toBe('Nur Deutsch');
    expect(provider.translate('app.onlyEnglish')).toBe('English only');
    // An empty text is missing.
    expect(provider.translate('app.empty')).toBe('Empty');
    expect(provider.translate('resources.users.fields.firstName', { _: 'First name!' })).toBe(
      'First name!',
    );
    expect(provider.translate('resources.users.fields.lastName')).toBe('Last name');
    // react-admin's labels pass the key itself as their default.
    expect(
      provider.translate('resources.users.fields.lastName', {
        _: 'resources.users.fields.lastName',
      }),
    ).toBe('Last name');
    expect(provider.translate('app.menu.translationKeys')).toBe('Translation keys');
    // A blank text is a text.
    expect(provider.translate('ra.boolean.null')).toBe(' ');

    const reported = activeLocalization()?.reporter.list() ?? [];
    expect(reported.map((entry) => `${entry.language}:${entry.key}:${entry.shown}`).sort()).toEqual(
      [
        'fr:app.empty:humanized',
        'fr:app.menu.translationKeys:humanized',
        'fr:app.onlyEnglish:fallback',
        'fr:app.onlyGerman:fallback',
        'fr:ra.boolean.null:fallback',
        'fr:resources.users.fields.firstName:default',
        'fr:resources.users.fields.lastName:humanized',
      ],
    );
  });

  it('does not report the optional keys react-admin probes, nor plain texts', async () => {
    const { client } = fakeClient();
    const provider = await createI18nProvider('de', { client, reportDelayMs: 60_000 });
    expect(provider.translate('resources.users.page.list', { _: 'Liste' })).toBe('Liste');
    expect(provider.translate('Helsana')).toBe('Helsana');
    expect(provider.translate('GS CRM')).toBe('GS CRM');
    expect(activeLocalization()?.reporter.list()).toEqual([]);
  });

  it('sends the reports in a batch while someone is signed in', async () => {
    const { client, reports } = fakeClient();
    localStorage.setItem('token', 'abc');
    const provider = await createI18nProvider('fr', { client, reportDelayMs: 5 });
    provider.translate('app.onlyGerman');
    provider.translate('app.onlyGerman');
    provider.translate('app.nowhere.atAll');
    await vi.waitFor(() => expect(reports).toHaveLength(2));
    expect(reports).toEqual([
      { translationKey: 'app.onlyGerman', languageId: 3 },
      { translationKey: 'app.nowhere.atAll', languageId: 3 },
    ]);
  });

  it('translates the server’s error keys with their arguments (react-admin’s text form)', async () => {
    const { client } = fakeClient();
    const provider = await createI18nProvider('de', { client });
    const keyed = (message: string, args?: Record<string, string | number>) =>
      `@@react-admin@@${JSON.stringify({ message, args })}`;
    expect(provider.translate(keyed('app.serverErrors.required'))).toBe('Pflichtfeld');
    expect(provider.translate(keyed('app.serverErrors.maxLength', { limit: 100 }))).toBe(
      'Höchstens 100 Zeichen',
    );
    // A bound is shown as numbers are (an income's maximum), a count stays a number.
    expect(provider.translate(keyed('app.serverErrors.maxLength', { limit: 1000000 }))).toBe(
      "Höchstens 1'000'000 Zeichen",
    );
    // An English sentence is no key: shown as it is, never pattern-matched.
    expect(provider.translate('is required', { _: 'is required' })).toBe('is required');
  });
});

describe('changeLocale', () => {
  it('loads the new language once, keeps the choice locally and saves it in the preferences', async () => {
    const { client, calls } = fakeClient();
    const saved: string[] = [];
    const provider = await createI18nProvider('de', {
      client,
      savePreference: async (language) => {
        saved.push(language);
      },
    });
    expect(calls.texts).toEqual(['de']);
    await provider.changeLocale('it');
    expect(provider.getLocale()).toBe('it');
    expect(provider.translate('app.login.email')).toBe('E-mail (it)');
    expect(provider.translate('app.onlyGerman')).toBe('Nur Deutsch');
    expect(localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('it');
    expect(saved).toEqual(['it']);
    await provider.changeLocale('de');
    await provider.changeLocale('it');
    expect(calls.texts).toEqual(['de', 'it']);
    await expect(provider.changeLocale('xx')).rejects.toThrow();
  });

  it('reloads the texts after an edit', async () => {
    const { client } = fakeClient();
    const provider = await createI18nProvider('de', { client });
    const listener = vi.fn();
    activeLocalization()?.subscribe(listener);
    TEXTS.de['app.login.email'] = 'E-Mail-Adresse';
    try {
      await activeLocalization()?.reload();
      expect(provider.translate('app.login.email')).toBe('E-Mail-Adresse');
      expect(listener).toHaveBeenCalledTimes(1);
    } finally {
      TEXTS.de['app.login.email'] = 'E-Mail';
    }
  });
});

describe('humanizeKey', () => {
  it('makes the last meaningful segment readable', () => {
    expect(humanizeKey('resources.users.fields.firstName')).toBe('First name');
    expect(humanizeKey('resources.lead-sources.name_other')).toBe('Lead sources');
    expect(humanizeKey('resources.lead-sources.fields.emailTo._label')).toBe('Email to');
    expect(humanizeKey('enums.role.BACKOFFICE-CALLCENTER')).toBe('Backoffice callcenter');
    expect(humanizeKey('products.pillar_3a')).toBe('Pillar 3a');
  });
});
