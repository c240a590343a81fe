/**
 * The localization API (spec §7 "Translation service"; server/i18n/routes.ts) and the start-up
 * sync of the release's texts (server/i18n/sync.ts), on both engines.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncTranslations } from '../../server/i18n/sync.ts';
import { releaseTexts } from '../../server/i18n/source.ts';
import { loadResourceModels } from '../../server/schemas.ts';
import { ADMIN, CONSULTANT, createTestApp, type TestApp } from './harness.ts';

const BACKOFFICE = 'backoffice@demo.gscrm.ch';
const DE = 1;
const EN = 2;
const FR = 3;
const IT = 4;
const RELEASE = releaseTexts();

interface Meta {
  current_page: number;
  per_page: number;
  total: number;
  last_page: number;
}
interface LanguageText {
  language_id: number;
  text: string;
  release_text: string | null;
  edited_at: string | null;
  edited_by: number | null;
}
interface Entry {
  id: number;
  translation_key: string;
  translations: LanguageText[];
}
interface Translation {
  id: number;
  translation_key_id: number;
  translation_key: string;
  language_id: number;
  text: string;
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await syncTranslations(t.database.db, { models: loadResourceModels() });
});
afterAll(async () => {
  await t?.close();
});

const get = (url: string, as?: string) => t.request({ method: 'GET', url, as });
/** PUT as the admin, or as another user; `null`: without a token. */
const put = (id: number, payload: unknown, as: string | null = ADMIN) =>
  t.request({
    method: 'PUT',
    url: `/api/localizations/translations/${id}`,
    payload: payload as Record<string, unknown>,
    as: as ?? undefined,
  });

function json<T>(response: LightMyRequestResponse, status = 200): T {
  expect(response.statusCode, response.body).toBe(status);
  return (status === 204 ? undefined : response.json()) as T;
}

function expectFieldError(response: LightMyRequestResponse, field: string, status = 422): void {
  expect(response.statusCode, response.body).toBe(status);
  const body = response.json() as { message: string; errors: Record<string, string[]> };
  expect(Object.keys(body.errors ?? {})).toContain(field);
  expect(body.errors[field].length).toBeGreaterThan(0);
}

/** The key with its four texts, as /all answers it (searching its exact name). */
async function entryOf(key: string): Promise<Entry> {
  const body = json<{ data: Entry[] }>(
    await get(`/api/localizations/translations/all?search=${encodeURIComponent(key)}`, ADMIN),
  );
  const entry = body.data.find((candidate) => candidate.translation_key === key);
  if (!entry) throw new Error(`${key} not found`);
  return entry;
}

const textIn = (entry: Entry, languageId: number) =>
  entry.translations.find((translation) => translation.language_id === languageId)?.text;

async function translationsOf(languageId: number, search: string): Promise<Translation[]> {
  const body = json<{ data: Translation[] }>(
    await get(
      `/api/localizations/translations?language_id=${languageId}&per_page=2000&search=${encodeURIComponent(search)}`,
    ),
  );
  return body.data;
}

describe('GET /api/localizations/languages', () => {
  it('answers de, en, fr and it with their ids, without a token', async () => {
    const body = json<{ data: { id: number; abbreviation: string }[] }>(
      await get('/api/localizations/languages'),
    );
    expect(body.data).toEqual([
      { id: DE, abbreviation: 'de' },
      { id: EN, abbreviation: 'en' },
      { id: FR, abbreviation: 'fr' },
      { id: IT, abbreviation: 'it' },
    ]);
  });
});

describe('GET /api/localizations/texts/{language}', () => {
  interface Texts {
    language: string;
    texts: Record<string, string>;
    fallback: Record<string, string>;
  }
  const textsOf = (language: string, headers: Record<string, string> = {}) =>
    t.request({ method: 'GET', url: `/api/localizations/texts/${language}`, headers });

  it('answers one language as a map with the fallback texts of its missing keys, without a token', async () => {
    // A key with a German text only, and one with an English text only.
    for (const [key, texts] of [
      ['app.test.bundleGerman', { [DE]: 'Nur Deutsch', [EN]: '', [FR]: '', [IT]: '' }],
      ['app.test.bundleEnglish', { [DE]: '', [EN]: 'English only', [FR]: '', [IT]: '' }],
    ] as const) {
      const { id } = await t.database.db
        .insertInto('translation_keys')
        .values({ key })
        .returning('id')
        .executeTakeFirstOrThrow();
      await t.database.db
        .insertInto('translations')
        .values(
          Object.entries(texts).map(([language, text]) => ({
            translation_key_id: id,
            language_id: Number(language),
            text,
          })),
        )
        .execute();
    }
    const french = json<Texts>(await textsOf('fr'));
    expect(french.language).toBe('fr');
    const listed = await translationsOf(FR, 'app.login.email');
    expect(french.texts['app.login.email']).toBe(
      listed.find((row) => row.translation_key === 'app.login.email')?.text,
    );
    expect(french.texts['app.test.bundleGerman']).toBeUndefined();
    expect(french.fallback['app.test.bundleGerman']).toBe('Nur Deutsch');
    expect(french.fallback['app.test.bundleEnglish']).toBe('English only');
    // Only keys the language lacks are in the fallback; no empty text anywhere.
    for (const key of Object.keys(french.fallback)) expect(french.texts[key]).toBeUndefined();
    expect(Object.values(french.texts)).not.toContain('');
    // react-admin's messages are there too, and the whole release of the language.
    expect(Object.keys(french.texts).length).toBeGreaterThanOrEqual(RELEASE.get('fr')?.size ?? 1);

    const german = json<Texts>(await textsOf('de'));
    expect(german.texts['app.test.bundleGerman']).toBe('Nur Deutsch');
    expect(german.fallback['app.test.bundleEnglish']).toBe('English only');
    expect(german.fallback['app.test.bundleGerman']).toBeUndefined();
    // Other tests count the keys without a text.
    await t.database.db
      .deleteFrom('translation_keys')
      .where('key', 'in', ['app.test.bundleGerman', 'app.test.bundleEnglish'])
      .execute();
  });

  it('is kept between requests, and follows a change another server wrote to the database', async () => {
    const before = json<Texts>(await textsOf('en'));
    const key = 'app.login.email';
    const row = await t.database.db
      .selectFrom('translations as t')
      .innerJoin('translation_keys as k', 'k.id', 't.translation_key_id')
      .select(['t.id', 't.text'])
      .where('k.key', '=', key)
      .where('t.language_id', '=', EN)
      .executeTakeFirstOrThrow();
    expect(before.texts[key]).toBe(row.text);
    // Written straight to the database, as another app server would.
    await t.database.db
      .updateTable('translations')
      .set({ text: 'E-mail (changed elsewhere)' })
      .where('id', '=', row.id)
      .execute();
    try {
      expect(json<Texts>(await textsOf('en')).texts[key]).toBe('E-mail (changed elsewhere)');
    } finally {
      await t.database.db
        .updateTable('translations')
        .set({ text: row.text })
        .where('id', '=', row.id)
        .execute();
    }
    expect(json<Texts>(await textsOf('en')).texts[key]).toBe(row.text);
  });

  it('is versioned by its ETag: 304 while unchanged, a new version once an admin edits a text', async () => {
    const first = await textsOf('it', { 'accept-encoding': 'br, gzip' });
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('no-cache');
    // Made per request: gzip when the browser takes it (server/web/compression.ts).
    expect(first.headers['content-encoding']).toBe('gzip');
    expect(first.headers.vary).toContain('accept-encoding');
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[\w-]+"$/);

    const again = await textsOf('it', { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');

    const entry = await entryOf('app.login.email');
    const before = textIn(entry, IT);
    json(
      await put(entry.id, {
        translation_key: 'app.login.email',
        translations: [{ language_id: IT, text: 'Indirizzo e-mail (modificato)' }],
      }),
    );
    try {
      const edited = await textsOf('it', { 'if-none-match': etag });
      expect(edited.statusCode).toBe(200);
      expect(edited.headers.etag).not.toBe(etag);
      expect((edited.json() as Texts).texts['app.login.email']).toBe(
        'Indirizzo e-mail (modificato)',
      );
    } finally {
      json(
        await put(entry.id, {
          translation_key: 'app.login.email',
          translations: [{ language_id: IT, text: before ?? '' }],
        }),
      );
    }
    const back = await textsOf('it', { 'if-none-match': etag });
    expect(back.statusCode).toBe(304);
  });

  it('refuses an unknown language (422 naming language) and a malformed one (400)', async () => {
    expectFieldError(await textsOf('xx'), 'language');
    expect((await textsOf('D%C3%A9')).statusCode).toBe(400);
  });
});

describe('GET /api/localizations/translations', () => {
  it('answers the texts of the requested language only (public: the login page needs them)', async () => {
    const german = await translationsOf(DE, 'app.login.email');
    const french = await translationsOf(FR, 'app.login.email');
    expect(german.find((row) => row.translation_key === 'app.login.email')?.text).toBe(
      RELEASE.get('de')?.get('app.login.email'),
    );
    expect(french.find((row) => row.translation_key === 'app.login.email')?.text).toBe(
      RELEASE.get('fr')?.get('app.login.email'),
    );
    expect(RELEASE.get('de')?.get('app.login.email')).not.toBe(
      RELEASE.get('fr')?.get('app.login.email'),
    );
    expect(german.every((row) => row.language_id === DE)).toBe(true);
    expect(french.every((row) => row.language_id === FR)).toBe(true);
  });

  it("holds react-admin's own messages in i18next syntax, in all four languages", async () => {
    for (const [languageId, expected] of [
      [DE, 'Speichern'],
      [EN, 'Save'],
      [FR, 'Enregistrer'],
      [IT, 'Salva'],
    ] as const) {
      const rows = await translationsOf(languageId, 'ra.action.save');
      expect(rows.find((row) => row.translation_key === 'ra.action.save')?.text).toBe(expected);
    }
    const plural = await translationsOf(EN, 'ra.action.bulk_actions');
    const other = plural.find((row) => row.translation_key === 'ra.action.bulk_actions_other');
    expect(other?.text).toContain('{{smart_count}}');
    expect(other?.text).not.toContain('%{');
    expect(plural.some((row) => row.translation_key === 'ra.action.bulk_actions_one')).toBe(true);
  });

  it('pages in key order without overlaps and counts the total', async () => {
    const first = json<{ data: Translation[]; meta: Meta }>(
      await get('/api/localizations/translations?language_id=2&page=1&per_page=10'),
    );
    const second = json<{ data: Translation[]; meta: Meta }>(
      await get('/api/localizations/translations?language_id=2&page=2&per_page=10'),
    );
    expect(first.data).toHaveLength(10);
    expect(second.data).toHaveLength(10);
    expect(first.meta).toMatchObject({ current_page: 1, per_page: 10 });
    expect(first.meta.total).toBeGreaterThan(300);
    expect(first.meta.last_page).toBe(Math.ceil(first.meta.total / 10));
    const keys = [...first.data, ...second.data].map((row) => row.translation_key);
    expect(new Set(keys).size).toBe(20);
    expect([...keys].sort()).toEqual(keys);
    // The default page size is 100.
    const defaults = json<{ data: Translation[]; meta: Meta }>(
      await get('/api/localizations/translations?language_id=2'),
    );
    expect(defaults.meta.per_page).toBe(100);
    expect(defaults.data).toHaveLength(100);
  });

  it('searches keys and texts, case-insensitively', async () => {
    const byText = await translationsOf(DE, 'PASSWORT');
    expect(byText.length).toBeGreaterThan(0);
    expect(
      byText.every(
        (row) =>
          row.text.toLowerCase().includes('passwort') ||
          row.translation_key.toLowerCase().includes('passwort'),
      ),
    ).toBe(true);
    const byKey = await translationsOf(EN, 'app.login.');
    expect(byKey.map((row) => row.translation_key)).toContain('app.login.submit');
    expect(await translationsOf(EN, 'no such text anywhere 4711')).toEqual([]);
    // LIKE wildcards are taken literally.
    expect(await translationsOf(EN, '%%%')).toEqual([]);
  });

  it('refuses an unknown language (422 naming language_id) and a missing or malformed one (400)', async () => {
    expectFieldError(await get('/api/localizations/translations?language_id=99'), 'language_id');
    expectFieldError(await get('/api/localizations/translations'), 'language_id', 400);
    expectFieldError(
      await get('/api/localizations/translations?language_id=de'),
      'language_id',
      400,
    );
    expectFieldError(
      await get('/api/localizations/translations?language_id=1&per_page=5000'),
      'per_page',
      400,
    );
  });
});

describe('GET /api/localizations/translations/all', () => {
  it('needs manage-translation-keys', async () => {
    expect((await get('/api/localizations/translations/all')).statusCode).toBe(401);
    expect((await get('/api/localizations/translations/all', CONSULTANT)).statusCode).toBe(403);
    expect((await get('/api/localizations/translations/all', BACKOFFICE)).statusCode).toBe(403);
    expect((await get('/api/localizations/translations/all', ADMIN)).statusCode).toBe(200);
  });

  it('answers each key with the texts of all four languages', async () => {
    const entry = await entryOf('app.login.submit');
    expect(entry.translations.map((translation) => translation.language_id)).toEqual([
      DE,
      EN,
      FR,
      IT,
    ]);
    const release = ['de', 'en', 'fr', 'it'].map((language) =>
      RELEASE.get(language as 'de')?.get('app.login.submit'),
    );
    expect(entry.translations.map((translation) => translation.text)).toEqual(release);
    expect(new Set(release).size).toBe(4);
    expect(entry.translations[0]).toMatchObject({ release_text: release[0], edited_at: null });
  });

  it('pages and searches', async () => {
    const first = json<{ data: Entry[]; meta: Meta }>(
      await get('/api/localizations/translations/all?per_page=5', ADMIN),
    );
    const second = json<{ data: Entry[]; meta: Meta }>(
      await get('/api/localizations/translations/all?per_page=5&page=2', ADMIN),
    );
    expect(first.meta).toMatchObject({ current_page: 1, per_page: 5 });
    expect(first.data).toHaveLength(5);
    expect(second.data).toHaveLength(5);
    expect(first.data[4].translation_key < second.data[0].translation_key).toBe(true);
    // The default page size is 25.
    const defaults = json<{ meta: Meta }>(await get('/api/localizations/translations/all', ADMIN));
    expect(defaults.meta.per_page).toBe(25);
    // A text in any language finds its key.
    const found = json<{ data: Entry[] }>(
      await get(
        `/api/localizations/translations/all?search=${encodeURIComponent(RELEASE.get('fr')?.get('app.login.submit') ?? '')}`,
        ADMIN,
      ),
    );
    expect(found.data.map((entry) => entry.translation_key)).toContain('app.login.submit');
  });

  it('filters keys that lack a text (in one language or any)', async () => {
    // A key of the release without any text stands for a schema label nobody translated yet.
    await t.database.db
      .insertInto('translation_keys')
      .values({ key: 'app.test.untranslated' })
      .execute();
    const entry = await entryOf('app.test.untranslated');
    expect(entry.translations.every((translation) => translation.text === '')).toBe(true);

    const missing = json<{ data: Entry[]; meta: Meta }>(
      await get('/api/localizations/translations/all?missing=true&per_page=200', ADMIN),
    );
    expect(missing.data.map((row) => row.translation_key)).toContain('app.test.untranslated');
    expect(missing.data.map((row) => row.translation_key)).not.toContain('app.login.submit');
    for (const row of missing.data) {
      expect(row.translations.some((translation) => translation.text === '')).toBe(true);
    }
    const missingInFrench = json<{ data: Entry[] }>(
      await get('/api/localizations/translations/all?missing_language_id=3&search=app.test', ADMIN),
    );
    expect(missingInFrench.data.map((row) => row.translation_key)).toEqual([
      'app.test.untranslated',
    ]);
    expectFieldError(
      await get('/api/localizations/translations/all?missing_language_id=42', ADMIN),
      'missing_language_id',
    );
  });
});

describe('PUT /api/localizations/translations/{id}', () => {
  it('saves the texts and answers them; both lists read them back', async () => {
    const entry = await entryOf('app.login.subtitle');
    const answer = json<{ data: Entry }>(
      await put(entry.id, {
        translation_key: 'app.login.subtitle',
        translations: [
          { language_id: DE, text: 'Bitte melden Sie sich beim GS CRM an' },
          { language_id: FR, text: 'Veuillez vous connecter au GS CRM' },
        ],
      }),
    );
    expect(textIn(answer.data, DE)).toBe('Bitte melden Sie sich beim GS CRM an');
    const admin = json<{ data: { id: number } }>(
      await t.request({ method: 'GET', url: '/api/auth/me', as: ADMIN }),
    );
    const german = answer.data.translations.find((translation) => translation.language_id === DE);
    expect(german?.edited_at).toBeTruthy();
    expect(german?.edited_by).toBe(admin.data.id);

    const readBack = await entryOf('app.login.subtitle');
    expect(textIn(readBack, DE)).toBe('Bitte melden Sie sich beim GS CRM an');
    expect(textIn(readBack, FR)).toBe('Veuillez vous connecter au GS CRM');
    // Languages left out keep their text, unmarked.
    expect(textIn(readBack, EN)).toBe(textIn(entry, EN));
    expect(readBack.translations.find((row) => row.language_id === EN)?.edited_at).toBeNull();

    const oneLanguage = await translationsOf(FR, 'app.login.subtitle');
    expect(oneLanguage.find((row) => row.translation_key === 'app.login.subtitle')?.text).toBe(
      'Veuillez vous connecter au GS CRM',
    );
  });

  it('adds a text for a language the key had none in, and a text back at the release follows the release again', async () => {
    await t.database.db.insertInto('translation_keys').values({ key: 'app.test.added' }).execute();
    const added = await entryOf('app.test.added');
    const saved = json<{ data: Entry }>(
      await put(added.id, {
        translation_key: 'app.test.added',
        translations: [{ language_id: IT, text: 'Aggiunto' }],
      }),
    );
    expect(textIn(saved.data, IT)).toBe('Aggiunto');
    expect(textIn(saved.data, DE)).toBe('');

    const entry = await entryOf('app.login.subtitle');
    const release = entry.translations.find((row) => row.language_id === DE)?.release_text;
    expect(release).toBe(RELEASE.get('de')?.get('app.login.subtitle'));
    const reset = json<{ data: Entry }>(
      await put(entry.id, {
        translation_key: 'app.login.subtitle',
        translations: [{ language_id: DE, text: release }],
      }),
    );
    expect(reset.data.translations.find((row) => row.language_id === DE)).toMatchObject({
      text: release,
      edited_at: null,
    });
  });

  it('needs manage-translation-keys', async () => {
    const entry = await entryOf('app.login.submit');
    const body = { translation_key: 'app.login.submit', translations: [] };
    expect((await put(entry.id, body, null)).statusCode).toBe(401);
    expect((await put(entry.id, body, CONSULTANT)).statusCode).toBe(403);
    expect((await put(entry.id, body, BACKOFFICE)).statusCode).toBe(403);
    expect((await put(entry.id, body, ADMIN)).statusCode).toBe(200);
  });

  it('refuses bad input with 422 naming the field, and writes nothing', async () => {
    const entry = await entryOf('app.login.password');
    const valid = { language_id: EN, text: 'Changed password label' };
    // An empty key.
    expectFieldError(
      await put(entry.id, { translation_key: '', translations: [valid] }),
      'translation_key',
    );
    // Another key than the one of the id.
    expectFieldError(
      await put(entry.id, { translation_key: 'app.login.email', translations: [valid] }),
      'translation_key',
    );
    // A text over the limit (2000 characters).
    expectFieldError(
      await put(entry.id, {
        translation_key: 'app.login.password',
        translations: [valid, { language_id: DE, text: 'x'.repeat(2001) }],
      }),
      'translations.1.text',
    );
    // A language that does not exist.
    expectFieldError(
      await put(entry.id, {
        translation_key: 'app.login.password',
        translations: [valid, { language_id: 99, text: 'Passwort' }],
      }),
      'translations.1.language_id',
    );
    // The same language twice.
    expectFieldError(
      await put(entry.id, {
        translation_key: 'app.login.password',
        translations: [valid, { language_id: EN, text: 'Password' }],
      }),
      'translations.1.language_id',
    );
    // A placeholder the key does not know.
    expectFieldError(
      await put(entry.id, {
        translation_key: 'app.login.password',
        translations: [{ language_id: DE, text: 'Passwort für {{name}}' }],
      }),
      'translations.0.text',
    );
    // Missing fields and unknown fields.
    expectFieldError(await put(entry.id, { translations: [valid] }), 'translation_key');
    expectFieldError(
      await put(entry.id, {
        translation_key: 'app.login.password',
        translations: [{ language_id: EN }],
      }),
      'translations.0.text',
    );
    expectFieldError(
      await put(entry.id, { translation_key: 'app.login.password', translations: [], extra: 1 }),
      'extra',
    );
    // Nothing of the valid part was written.
    expect(textIn(await entryOf('app.login.password'), EN)).toBe(textIn(entry, EN));
    // An unknown id.
    const missing = await put(999_999, { translation_key: 'app.login.password', translations: [] });
    expect(missing.statusCode).toBe(404);
  });

  it('keeps the placeholders the key knows', async () => {
    const entry = await entryOf('app.dashboard.welcome');
    const saved = json<{ data: Entry }>(
      await put(entry.id, {
        translation_key: 'app.dashboard.welcome',
        translations: [{ language_id: EN, text: 'Hello {{name}}!' }],
      }),
    );
    expect(textIn(saved.data, EN)).toBe('Hello {{name}}!');
  });
});

describe('the start-up sync', () => {
  it('adds new keys and texts, follows the release where nobody edited, and keeps admin edits', async () => {
    const db = t.database.db;
    const edited = await entryOf('app.login.failed');
    json(
      await put(edited.id, {
        translation_key: 'app.login.failed',
        translations: [{ language_id: DE, text: 'Anmeldung fehlgeschlagen (eigener Text)' }],
      }),
    );

    // The next release: changed texts for both keys, and a new key.
    const texts = releaseTexts();
    texts.get('de')?.set('app.login.failed', 'Neuer Text der Version');
    texts.get('de')?.set('app.login.throttled', 'Zu viele Versuche (neue Version)');
    texts.get('de')?.set('app.release.newKey', 'Neu in dieser Version');
    texts.get('en')?.set('app.release.newKey', 'New in this release');
    const result = await syncTranslations(db, { texts });
    expect(result).toEqual({ keysAdded: 1, textsAdded: 2, textsUpdated: 1 });

    const failed = await entryOf('app.login.failed');
    expect(failed.translations.find((row) => row.language_id === DE)).toMatchObject({
      text: 'Anmeldung fehlgeschlagen (eigener Text)',
      release_text: 'Neuer Text der Version',
    });
    expect(textIn(await entryOf('app.login.throttled'), DE)).toBe(
      'Zu viele Versuche (neue Version)',
    );
    const added = await entryOf('app.release.newKey');
    expect(textIn(added, DE)).toBe('Neu in dieser Version');
    expect(textIn(added, EN)).toBe('New in this release');
    expect(textIn(added, FR)).toBe('');

    // Running it again changes nothing.
    expect(await syncTranslations(db, { texts })).toEqual({
      keysAdded: 0,
      textsAdded: 0,
      textsUpdated: 0,
    });

    // Back to this release's texts: the unedited text follows, the edited one stays.
    await syncTranslations(db);
    expect(textIn(await entryOf('app.login.throttled'), DE)).toBe(
      RELEASE.get('de')?.get('app.login.throttled'),
    );
    expect(textIn(await entryOf('app.login.failed'), DE)).toBe(
      'Anmeldung fehlgeschlagen (eigener Text)',
    );
  });

  it('adds every key a schema uses, even without text (it shows as missing)', async () => {
    const models = loadResourceModels();
    await syncTranslations(t.database.db, { texts: new Map(), models });
    const entry = await entryOf('resources.users.fields.firstName');
    expect(textIn(entry, DE)).toBe(RELEASE.get('de')?.get('resources.users.fields.firstName'));
    // A schema key the release has no text for exists, without text.
    const schemaModels = loadResourceModels();
    const probe = {
      ...schemaModels[0],
      name: 'probe-things',
      fields: schemaModels[0].fields.slice(0, 1),
    };
    await syncTranslations(t.database.db, { texts: new Map(), models: [probe] });
    const probeKey = `resources.probe-things.fields.${probe.fields[0].name}`;
    const probeEntry = await entryOf(probeKey);
    expect(probeEntry.translations.map((row) => row.text)).toEqual(['', '', '', '']);
  });
});

describe('reports of missing keys', () => {
  const report = (entries: unknown, as?: string) =>
    t.request({ method: 'POST', url: '/api/localizations/missing', payload: { entries }, as });

  it('any signed-in user reports; admins list the open ones; a saved text resolves them', async () => {
    expect((await report([{ translation_key: 'app.nowhere', language_id: FR }])).statusCode).toBe(
      401,
    );
    expect(
      (
        await report(
          [
            { translation_key: 'app.test.reported', language_id: FR },
            { translation_key: 'app.test.reported', language_id: FR },
            { translation_key: 'app.login.submit', language_id: FR },
          ],
          CONSULTANT,
        )
      ).statusCode,
    ).toBe(204);
    expect(
      (await report([{ translation_key: 'app.test.reported', language_id: FR }], CONSULTANT))
        .statusCode,
    ).toBe(204);

    expect((await get('/api/localizations/missing', CONSULTANT)).statusCode).toBe(403);
    const list = json<{
      data: { translation_key: string; language_id: number; count: number }[];
      meta: Meta;
    }>(await get('/api/localizations/missing', ADMIN));
    const reported = list.data.find((row) => row.translation_key === 'app.test.reported');
    expect(reported).toMatchObject({ language_id: FR, count: 2 });
    // app.login.submit has a French text: not open.
    expect(list.data.map((row) => row.translation_key)).not.toContain('app.login.submit');

    // Once the key exists with a French text, the report is resolved.
    await t.database.db
      .insertInto('translation_keys')
      .values({ key: 'app.test.reported' })
      .execute();
    const entry = await entryOf('app.test.reported');
    json(
      await put(entry.id, {
        translation_key: 'app.test.reported',
        translations: [{ language_id: FR, text: 'Signalé' }],
      }),
    );
    const after = json<{ data: { translation_key: string }[] }>(
      await get('/api/localizations/missing', ADMIN),
    );
    expect(after.data.map((row) => row.translation_key)).not.toContain('app.test.reported');
  });

  it('refuses bad reports naming the field; admins clear the list', async () => {
    expectFieldError(
      await report([{ translation_key: 'app.x', language_id: 77 }], CONSULTANT),
      'entries.0.language_id',
    );
    expectFieldError(
      await report([{ translation_key: 'not a key', language_id: DE }], CONSULTANT),
      'entries.0.translation_key',
    );
    expectFieldError(
      await report(
        Array.from({ length: 51 }, () => ({ translation_key: 'app.x', language_id: DE })),
        CONSULTANT,
      ),
      'entries',
    );
    json(await report([{ translation_key: 'app.test.toClear', language_id: IT }], CONSULTANT), 204);
    expect(
      (await t.request({ method: 'DELETE', url: '/api/localizations/missing', as: CONSULTANT }))
        .statusCode,
    ).toBe(403);
    const cleared = json<{ deleted: number }>(
      await t.request({ method: 'DELETE', url: '/api/localizations/missing', as: ADMIN }),
    );
    expect(cleared.deleted).toBeGreaterThan(0);
    const list = json<{ meta: Meta }>(await get('/api/localizations/missing', ADMIN));
    expect(list.meta.total).toBe(0);
  });
});
