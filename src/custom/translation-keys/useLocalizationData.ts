/**
 * Data of the translation-keys screen through the localization API (src/i18n/api.ts), cached by
 * react-query under ['localizations', …] so a save refreshes every list at once.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import {
  createLocalizationClient,
  type Language,
  type LocalizationClient,
} from '../../i18n/api.ts';
import { activeLocalization } from '../../i18n/index.ts';
import type { MissingKey } from '../../i18n/missing.ts';

const fallbackClient = createLocalizationClient();
const client = (): LocalizationClient => activeLocalization()?.client ?? fallbackClient;

export const LOCALIZATION_QUERY_KEY = 'localizations';

export interface KeyFilter {
  page: number;
  perPage: number;
  search: string;
  missing: boolean;
  /** With `missing`: only keys without a text in this language. */
  missingLanguageId?: number;
}

export function useLanguages(): Language[] {
  const loaded = activeLocalization()?.catalogue.languages;
  const query = useQuery({
    queryKey: [LOCALIZATION_QUERY_KEY, 'languages'],
    queryFn: () => client().languages(),
    enabled: !loaded,
  });
  return loaded ?? query.data ?? [];
}

export function useTranslationEntries(filter: KeyFilter) {
  return useQuery({
    queryKey: [LOCALIZATION_QUERY_KEY, 'all', filter],
    queryFn: () =>
      client().all({
        page: filter.page,
        perPage: filter.perPage,
        search: filter.search.trim() || undefined,
        missing: filter.missing || undefined,
        missingLanguageId: filter.missing ? filter.missingLanguageId : undefined,
      }),
    placeholderData: keepPreviousData,
  });
}

export function useMissingReports(page: number, perPage: number) {
  return useQuery({
    queryKey: [LOCALIZATION_QUERY_KEY, 'missing', page, perPage],
    queryFn: () => client().missingReports({ page, perPage }),
    placeholderData: keepPreviousData,
  });
}

/** Refreshes the screen's lists and the texts the app shows. */
export function useRefreshTranslations() {
  const queryClient = useQueryClient();
  return async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: [LOCALIZATION_QUERY_KEY] }),
      activeLocalization()?.reload(),
    ]);
  };
}

export function useSaveTranslation() {
  const refresh = useRefreshTranslations();
  return useMutation({
    mutationFn: (input: {
      id: number;
      translationKey: string;
      translations: { text: string; languageId: number }[];
    }) =>
      client().save(input.id, {
        translationKey: input.translationKey,
        translations: input.translations,
      }),
    onSuccess: async (entry) => {
      activeLocalization()?.reporter.forget(entry.translationKey);
      await refresh();
    },
  });
}

export function useClearMissingReports() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => client().clearMissingReports(),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: [LOCALIZATION_QUERY_KEY, 'missing'] }),
  });
}

const noKeys: MissingKey[] = [];
const noSubscription = () => () => {};

/** The keys this browser found missing since the page loaded (live). */
export function useBrowserMissingKeys(): MissingKey[] {
  const reporter = activeLocalization()?.reporter;
  return useSyncExternalStore(
    reporter ? reporter.subscribe : noSubscription,
    reporter ? reporter.list : () => noKeys,
  );
}
