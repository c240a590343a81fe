/**
 * For component tests: an i18n provider that answers the given texts (their `{{name}}`
 * placeholders filled in) and every other key as itself, and decodes react-admin's keyed messages
 * (a server error's key with its arguments) as the app's provider does (./index.ts).
 */
import type { I18nProvider } from 'react-admin';
import { decodeKeyed } from '../schema/errors.ts';

export function textsProvider(texts: Record<string, string>, locale = 'en'): I18nProvider {
  return {
    translate: (key: string, options: Record<string, unknown> = {}) => {
      const keyed = decodeKeyed(key);
      const message = keyed?.message ?? key;
      const args: Record<string, unknown> = { ...options, ...keyed?.args };
      const text = texts[message] ?? message;
      return text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(args[name] ?? ''));
    },
    changeLocale: async () => {},
    getLocale: () => locale,
  };
}
