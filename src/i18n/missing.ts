/**
 * Keys the app looked up and did not find in the chosen language. Each one is reported once per
 * language and page load: kept in a list the translation-keys screen shows (this browser), and sent
 * in small batches to POST /api/localizations/missing while someone is signed in (so admins see
 * what every user ran into). Reporting never fails the page.
 */
import { readStoredToken } from '../dataProvider/httpClient.ts';

export interface MissingKey {
  key: string;
  language: string;
  /** Where the text shown came from: a fallback language, a default, or the key made readable. */
  shown: 'fallback' | 'default' | 'humanized';
  at: number;
}

const MAX_KEPT = 500;
const FLUSH_DELAY_MS = 3000;
const BATCH = 50;
const SIGNED_OUT_RETRY_MS = 30_000;

type Send = (entries: { translationKey: string; languageId: number }[]) => Promise<void>;

export function createMissingKeyReporter(options: {
  send?: Send;
  languageIdOf?: (language: string) => number | undefined;
  isSignedIn?: () => boolean;
  delayMs?: number;
}) {
  const seen = new Set<string>();
  let list: MissingKey[] = [];
  let queue: { translationKey: string; languageId: number }[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const listeners = new Set<() => void>();
  const isSignedIn = options.isSignedIn ?? (() => Boolean(readStoredToken()));

  const flush = async () => {
    timer = undefined;
    if (!options.send || queue.length === 0) return;
    if (!isSignedIn()) {
      // Signed out (the login page): try again later; the reports wait for a sign-in.
      schedule(SIGNED_OUT_RETRY_MS);
      return;
    }
    const batch = queue.slice(0, BATCH);
    queue = queue.slice(BATCH);
    try {
      await options.send(batch);
    } catch {
      // A report is a courtesy; the list in this browser keeps it anyway.
    }
    if (queue.length > 0) schedule();
  };

  function schedule(delay = options.delayMs ?? FLUSH_DELAY_MS) {
    if (timer === undefined) timer = setTimeout(() => void flush(), delay);
  }

  return {
    report(key: string, language: string, shown: MissingKey['shown']): void {
      const id = `${language}:${key}`;
      if (seen.has(id)) return;
      seen.add(id);
      list = [{ key, language, shown, at: Date.now() }, ...list].slice(0, MAX_KEPT);
      for (const listener of listeners) listener();
      const languageId = options.languageIdOf?.(language);
      if (languageId !== undefined && queue.length < MAX_KEPT) {
        queue.push({ translationKey: key, languageId });
        schedule();
      }
    },
    /** The keys reported in this browser since the page loaded, newest first. */
    list: (): MissingKey[] => list,
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** A key that has a text now may be reported again. */
    forget(key: string): void {
      for (const id of [...seen]) if (id.endsWith(`:${key}`)) seen.delete(id);
      list = list.filter((entry) => entry.key !== key);
      for (const listener of listeners) listener();
    },
    flush,
  };
}

export type MissingKeyReporter = ReturnType<typeof createMissingKeyReporter>;
