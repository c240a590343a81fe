/**
 * The active translator, for the few places react-admin asks for a plain function rather than a
 * component (a resource's record representation, an option text).
 */
import type { I18nProvider } from 'react-admin';

let active: I18nProvider | undefined;

export const setActiveI18n = (provider: I18nProvider): void => {
  active = provider;
};

export const activeTranslate = (key: string, options?: Record<string, unknown>): string =>
  active ? active.translate(key, options) : key;

export const activeLanguage = (): string => active?.getLocale() ?? 'de';
