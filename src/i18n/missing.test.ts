/** Reports of missing keys (./missing.ts). */
import { describe, expect, it, vi } from 'vitest';
import { createMissingKeyReporter } from './missing.ts';

describe('createMissingKeyReporter', () => {
  it('keeps each key once per language, newest first, and tells its listeners', () => {
    const reporter = createMissingKeyReporter({});
    const listener = vi.fn();
    reporter.subscribe(listener);
    reporter.report('app.a', 'fr', 'fallback');
    reporter.report('app.a', 'fr', 'fallback');
    reporter.report('app.a', 'it', 'humanized');
    expect(reporter.list().map((entry) => `${entry.language}:${entry.key}`)).toEqual([
      'it:app.a',
      'fr:app.a',
    ]);
    expect(listener).toHaveBeenCalledTimes(2);
    reporter.forget('app.a');
    expect(reporter.list()).toEqual([]);
  });

  it('sends nothing while signed out and everything once signed in', async () => {
    let signedIn = false;
    const send = vi.fn(async () => {});
    const reporter = createMissingKeyReporter({
      send,
      isSignedIn: () => signedIn,
      languageIdOf: (language) => ({ de: 1, fr: 3 })[language],
      delayMs: 60_000,
    });
    reporter.report('app.a', 'fr', 'fallback');
    reporter.report('app.b', 'xx', 'fallback'); // no such language: kept locally only
    await reporter.flush();
    expect(send).not.toHaveBeenCalled();
    signedIn = true;
    await reporter.flush();
    expect(send).toHaveBeenCalledWith([{ translationKey: 'app.a', languageId: 3 }]);
    expect(reporter.list()).toHaveLength(2);
  });

  it('survives a failing report', async () => {
    const reporter = createMissingKeyReporter({
      send: async () => {
        throw new Error('offline');
      },
      isSignedIn: () => true,
      languageIdOf: () => 1,
      delayMs: 60_000,
    });
    reporter.report('app.a', 'de', 'humanized');
    await expect(reporter.flush()).resolves.toBeUndefined();
  });
});
