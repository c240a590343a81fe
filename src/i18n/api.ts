/**
 * Client of the localization API (spec §7 "Translation service"; server/i18n/routes.ts), on the web
 * app's one API client: JSON, the bearer token when there is one, answers' keys converted to
 * camelCase, bodies' keys to snake_case, and no timeout. Failures are react-admin `HttpError`s (a
 * 422 carries `{ errors: { "translations.0.text": "…" } }`, camelCased paths).
 */
import { type ApiClient, api } from '../dataProvider/apiClient.ts';

export const LOCALIZATIONS_PATH = 'localizations';

export interface Language {
  id: number;
  abbreviation: string;
}

export interface Meta {
  currentPage: number;
  perPage: number;
  total: number;
  lastPage: number;
}

export interface Paged<T> {
  data: T[];
  meta: Meta;
}

/** One text of one language (GET translations). */
export interface Translation {
  id: number;
  translationKeyId: number;
  translationKey: string;
  languageId: number;
  text: string;
}

/**
 * One language as the app needs it to paint (GET texts/{language}): its texts, and for its keys
 * without one the fallback's text (de, then en). Keys are data: never camelCased.
 */
export interface LanguageTexts {
  language: string;
  texts: Record<string, string>;
  fallback: Record<string, string>;
}

/** One language's text of a key (GET translations/all, PUT). */
export interface LanguageText {
  languageId: number;
  text: string;
  releaseText: string | null;
  editedAt: string | null;
  editedBy: number | null;
}

/** A key with all its languages. */
export interface TranslationEntry {
  id: number;
  translationKey: string;
  translations: LanguageText[];
}

export interface MissingReport {
  id: number;
  translationKey: string;
  translationKeyId: number | null;
  languageId: number;
  count: number;
  firstSeenAt: string;
  lastSeenAt: string;
}

export interface LocalizationClientOptions {
  /** Default: the web app's API client. */
  api?: ApiClient;
}

function queryString(params: Record<string, unknown>): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '' || value === false) continue;
    query.set(key, String(value));
  }
  const text = query.toString();
  return text ? `?${text}` : '';
}

export function createLocalizationClient(options: LocalizationClientOptions = {}) {
  const client = options.api ?? api;
  const call = <T>(method: string, path: string, body?: unknown): Promise<T> =>
    client.json<T>(method, `${LOCALIZATIONS_PATH}${path}`, { body });

  return {
    /** GET localizations/languages */
    async languages(): Promise<Language[]> {
      return (await call<{ data: Language[] }>('GET', '/languages')).data;
    },
    /**
     * GET localizations/texts/{language}: one answer, revalidated by the browser's cache with its
     * ETag (304 while no text changed); sent without the token (public, and the same for all).
     */
    async texts(language: string): Promise<LanguageTexts> {
      return (await client.request(
        'GET',
        `${LOCALIZATIONS_PATH}/texts/${encodeURIComponent(language)}`,
        { auth: false },
      )) as LanguageTexts;
    },
    /** GET localizations/translations?page&language_id&search (&per_page, ours). */
    translations(params: {
      languageId: number;
      page?: number;
      perPage?: number;
      search?: string;
    }): Promise<Paged<Translation>> {
      return call(
        'GET',
        `/translations${queryString({
          page: params.page,
          per_page: params.perPage,
          language_id: params.languageId,
          search: params.search,
        })}`,
      );
    },
    /** GET localizations/translations/all?page&search (&per_page, missing, missing_language_id). */
    all(params: {
      page?: number;
      perPage?: number;
      search?: string;
      missing?: boolean;
      missingLanguageId?: number;
    }): Promise<Paged<TranslationEntry>> {
      return call(
        'GET',
        `/translations/all${queryString({
          page: params.page,
          per_page: params.perPage,
          search: params.search,
          missing: params.missing,
          missing_language_id: params.missingLanguageId,
        })}`,
      );
    },
    /** PUT localizations/translations/{id} */
    async save(
      id: number,
      body: { translationKey: string; translations: { text: string; languageId: number }[] },
    ): Promise<TranslationEntry> {
      return (await call<{ data: TranslationEntry }>('PUT', `/translations/${id}`, body)).data;
    },
    /** POST localizations/missing: keys the app did not find. */
    async reportMissing(entries: { translationKey: string; languageId: number }[]): Promise<void> {
      await call('POST', '/missing', { entries });
    },
    missingReports(params: { page?: number; perPage?: number }): Promise<Paged<MissingReport>> {
      return call('GET', `/missing${queryString({ page: params.page, per_page: params.perPage })}`);
    },
    async clearMissingReports(): Promise<number> {
      return (await call<{ deleted: number }>('DELETE', '/missing')).deleted;
    },
  };
}

export type LocalizationClient = ReturnType<typeof createLocalizationClient>;

/** Runs `load`, and once more when it fails (spec §7/§9: the language load is retried once). */
export async function retryOnce<T>(load: () => Promise<T>, delayMs = 300): Promise<T> {
  try {
    return await load();
  } catch {
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    return load();
  }
}
