/**
 * The active translator, for the few places react-admin asks for a plain function rather than a
 * component (a resource's record representation, an option text), and for the auth provider,
 * which applies the signed-in user's language before any screen of the app renders.
 */
import type { I18nProvider } from 'react-admin';

let active: I18nProvider | undefined;

export const setActiveI18n = (provider: I18nProvider): void => {
  active = provider;
};

export const activeTranslate = (key: string, options?: Record<string, unknown>): string =>
  active ? active.translate(key, options) : key;

export const activeLanguage = (): string => active?.getLocale() ?? 'de';

/**
 * Switches the app to a signed-in user's own language and resolves once its texts are loaded, so
 * the area's first render (menu, app bar, page) is already in that language. The choice came from
 * the user's preferences, so it is not saved back. An unknown language or a failed load leaves the
 * current one (the user can still switch).
 */
export async function applyUserLanguage(language: string | null | undefined): Promise<void> {
  if (!active || !language || active.getLocale() === language) return;
  try {
    await active.changeLocale(language, { save: false });
  } catch {
    // The app stays in its current language.
  }
}
